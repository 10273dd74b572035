import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dealGame } from '../../dealer/dealing.ts';
import {
  ALICE,
  BOB,
  CONTRACT,
  type Dealer,
  duelLeaves,
  postTurn,
  runCeremony,
  signedReveal,
  startDealer,
} from './fixture.ts';

let d: Dealer;
let gameId: bigint;
let bodies: string[] = [];

before(async () => {
  d = await startDealer();
  const g = await d.dealtGame();
  gameId = g.gameId;
  // A game whose sealed share does not open (copied from the first game): its error path logs as well.
  const copied = (await d.chain.seatShares(gameId))[0]!.sealed!;
  const bad = runCeremony(d.h, d.chain, d.seal.publicKey, { sealed: { 0: copied } });
  await d.store.addGame({
    gameId: bad.gameId,
    contract: CONTRACT,
    ruleset: 'duel',
    players: [ALICE.address.toLowerCase(), BOB.address.toLowerCase()],
  });
  assert.equal(await dealGame(d.dealing, bad.gameId), 'waiting');
  const leaves = duelLeaves();
  const blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves);
  const requests: { body: unknown; url?: string; raw?: string }[] = [
    { body: await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }) },
    { body: await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding: blinding + 1n }) },
    { body: await signedReveal(BOB, { gameId, turn: 1, leaves, blinding }) },
    { body: null, raw: '{"bad' },
    { body: { junk: true } },
    {
      body: await signedReveal(ALICE, { gameId: 77n, turn: 1, leaves, blinding }),
      url: '/v1/games/77/reveals',
    },
  ];
  bodies = [];
  for (const r of requests) {
    const res = await d.app.inject({
      method: 'POST',
      url: r.url ?? `/v1/games/${gameId}/reveals`,
      headers: { 'content-type': 'application/json' },
      payload: r.raw ?? JSON.stringify(r.body),
    });
    bodies.push(res.body);
  }
  for (const url of ['/health', '/metrics', '/docs/json']) bodies.push((await d.app.inject({ url })).body);
});
after(() => d.close());

describe('no secret in any log line or error body', () => {
  it('the logs are not empty (the check is real)', () => {
    assert.ok(d.logs.lines.length > 10, `${d.logs.lines.length} log lines`);
    assert.ok(d.logs.lines.some((l) => l.includes('refused')));
    assert.ok(d.logs.lines.some((l) => l.includes('does not open under this dealer seal key')));
  });

  it('master secrets, seeds, shares, the dealer key and the at-rest key never appear', async () => {
    const needles: string[] = [];
    for (const g of await d.store.listGames()) {
      const s = await d.store.getSecrets(g.gameId);
      if (!s) continue;
      for (const v of [s.masterSecret, s.seed, ...s.shares]) needles.push(v.toString(), v.toString(16));
    }
    assert.ok(needles.length >= 8, 'secrets to look for');
    const seal = d.seal.secretKey;
    needles.push(seal.toString(), seal.toString(16), Buffer.from(d.atRestKey).toString('hex'));
    needles.push(
      Buffer.from(seal.toString(16).padStart(64, '0'), 'hex').toString('base64'),
      d.atRestKey.toString('base64'),
    );
    const haystack = [...d.logs.lines, ...bodies].join('\n').toLowerCase();
    for (const n of needles)
      assert.ok(!haystack.includes(n.toLowerCase()), `secret leaked: ${n.slice(0, 6)}…`);
  });
});
