import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  ALICE,
  BOB,
  type Dealer,
  duelLeaves,
  MALLORY,
  openSession,
  postTurn,
  sessionReveal,
  signedReveal,
  startDealer,
} from './fixture.ts';

let d: Dealer;
let gameId: bigint;
let otherGame: bigint;
const leaves = duelLeaves();
let blinding: bigint;

before(async () => {
  d = await startDealer();
  const g = await d.dealtGame();
  assert.equal(g.outcome, 'dealt');
  gameId = g.gameId;
  otherGame = (await d.dealtGame()).gameId;
  blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves);
  postTurn(d.h, d.chain, otherGame, ALICE, 1, leaves);
});
after(() => d.close());

function post(url: string, body: unknown) {
  return d.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}
const reveal = (body: unknown, g = gameId) => post(`/v1/games/${g}/session-reveals`, body);
const served = async () => (await d.metrics.revealsServed.get()).values[0]?.value ?? 0;

async function refused(
  p: Promise<{ statusCode: number; body: string }>,
  status: number,
  error: string,
  field?: string,
) {
  const before = await served();
  const res = await p;
  assert.equal(res.statusCode, status, res.body);
  const j = JSON.parse(res.body) as { error: string; field?: string; tiles?: unknown };
  assert.equal(j.error, error, res.body);
  if (field !== undefined) assert.equal(j.field, field, res.body);
  assert.equal(j.tiles, undefined);
  assert.equal(await served(), before, 'nothing served');
}

describe('reveal sessions', () => {
  it('serves the same answer as the signed route, MACed with the SDK-side (noble) HMAC', async () => {
    const s = await openSession(d.app, ALICE, { gameId });
    assert.equal(s.res.statusCode, 200, s.res.body);
    assert.match(s.sessionId, /^0x[0-9a-f]{64}$/);
    const viaSession = await reveal(sessionReveal(s, { gameId, turn: 1, leaves, blinding }));
    assert.equal(viaSession.statusCode, 200, viaSession.body);
    const viaSig = await post(
      `/v1/games/${gameId}/reveals`,
      await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }),
    );
    assert.equal(viaSig.statusCode, 200);
    assert.equal(viaSession.body, viaSig.body);
  });

  it('refuses a replayed nonce, a tampered request, a wrong game and an unknown session', async () => {
    const s = await openSession(d.app, ALICE, { gameId });
    const body = sessionReveal(s, { gameId, turn: 1, leaves, blinding });
    assert.equal((await reveal(body)).statusCode, 200);
    await refused(reveal(body), 409, 'nonce-replayed', 'nonce');
    // Every field is under the MAC: change one, keep the MAC.
    const fresh = sessionReveal(s, { gameId, turn: 1, leaves, blinding });
    await refused(reveal({ ...fresh, leaves: leaves.slice(1) }), 401, 'bad-mac', 'mac');
    await refused(reveal({ ...fresh, turn: 2 }), 401, 'bad-mac', 'mac');
    await refused(reveal({ ...fresh, expiry: fresh.expiry + 1 }), 401, 'bad-mac', 'mac');
    await refused(reveal({ ...fresh, nonce: '7' }), 401, 'bad-mac', 'mac');
    await refused(reveal({ ...fresh, mac: `0x${'00'.repeat(32)}` }), 401, 'bad-mac', 'mac');
    // A MAC for this session on another game's URL.
    await refused(
      reveal(sessionReveal(s, { gameId: otherGame, turn: 1, leaves, blinding }), otherGame),
      401,
      'unknown-session',
      'sessionId',
    );
    await refused(
      reveal({ ...fresh, sessionId: `0x${'ab'.repeat(32)}` }),
      401,
      'unknown-session',
      'sessionId',
    );
    // Same canonical value in another spelling MACs the same: hex nonce accepted once.
    assert.equal(
      (await reveal({ ...fresh, nonce: `0x${BigInt(fresh.nonce).toString(16)}` })).statusCode,
      200,
    );
    await refused(reveal(fresh), 409, 'nonce-replayed', 'nonce');
  });

  it('a wrong opening is refused even after the right one is cached', async () => {
    const s = await openSession(d.app, ALICE, { gameId });
    assert.equal((await reveal(sessionReveal(s, { gameId, turn: 1, leaves, blinding }))).statusCode, 200);
    await refused(
      reveal(sessionReveal(s, { gameId, turn: 1, leaves, blinding: blinding + 1n })),
      403,
      'opening-mismatch',
      'leaves',
    );
    await refused(
      reveal(sessionReveal(s, { gameId, turn: 9, leaves, blinding })),
      404,
      'unknown-turn',
      'turn',
    );
  });

  it('a re-fetch of a verified opening computes no Poseidon', async () => {
    const s = await openSession(d.app, ALICE, { gameId });
    const orig = d.h.hash;
    let calls = 0;
    d.h.hash = (x) => {
      calls++;
      return orig.call(d.h, x);
    };
    try {
      const b = postTurn(d.h, d.chain, gameId, ALICE, 5, leaves);
      calls = 0;
      assert.equal(
        (await reveal(sessionReveal(s, { gameId, turn: 5, leaves, blinding: b }))).statusCode,
        200,
      );
      assert.equal(calls, 2, 'first fetch checks the opening once: R, then Poseidon(S, R, mapRoot)');
      assert.equal(
        (await reveal(sessionReveal(s, { gameId, turn: 5, leaves, blinding: b }))).statusCode,
        200,
      );
      const signed = await signedReveal(ALICE, { gameId, turn: 5, leaves, blinding: b });
      assert.equal((await post(`/v1/games/${gameId}/reveals`, signed)).statusCode, 200);
      assert.equal(calls, 2, 're-fetches hit the cache');
    } finally {
      d.h.hash = orig;
    }
  });

  it('expires: requests past the session end, and the session itself', async () => {
    const end = d.clock.now + 120;
    const s = await openSession(d.app, ALICE, { gameId, expiry: end });
    assert.equal(s.res.statusCode, 200, s.res.body);
    await refused(
      reveal(sessionReveal(s, { gameId, turn: 1, leaves, blinding, expiry: end + 10 })),
      400,
      'invalid-request',
      'expiry',
    );
    await refused(
      reveal(sessionReveal(s, { gameId, turn: 1, leaves, blinding, expiry: d.clock.now - 1 })),
      401,
      'expired',
      'expiry',
    );
    const saved = d.clock.now;
    d.clock.now = end;
    try {
      await refused(
        reveal(sessionReveal(s, { gameId, turn: 1, leaves, blinding, expiry: end + 5 })),
        401,
        'unknown-session',
        'sessionId',
      );
    } finally {
      d.clock.now = saved;
    }
  });

  it('session creation: signer, seat, expiry bound, nonce burn and schema are enforced; the key is never logged', async () => {
    const url = `/v1/games/${gameId}/sessions`;
    const ok = await openSession(d.app, ALICE, { gameId });
    assert.equal(ok.res.statusCode, 200);
    await refused(post(url, ok.body), 409, 'nonce-replayed', 'nonce');
    await refused(
      post(url, { ...ok.body, sessionKey: `0x${randomBytes(32).toString('hex')}` }),
      401,
      'bad-signature',
      'signature',
    );
    const forged = await openSession(d.app, MALLORY, { gameId, player: ALICE.address });
    assert.equal(forged.res.statusCode, 401, forged.res.body);
    const outsider = await openSession(d.app, MALLORY, { gameId });
    assert.equal(outsider.res.statusCode, 403, outsider.res.body);
    assert.equal(outsider.res.json().error, 'not-a-player');
    const tooLong = await openSession(d.app, BOB, { gameId, expiry: d.clock.now + 3601 });
    assert.equal(tooLong.res.statusCode, 400);
    assert.equal(tooLong.res.json().field, 'expiry');
    const wrongDomain = await openSession(d.app, BOB, {
      gameId,
      contract: '0x0000000000000000000000000000000000000001',
    });
    assert.equal(wrongDomain.res.statusCode, 401);
    await refused(post(url, { ...ok.body, sessionKey: '0x1234' }), 400, 'invalid-request', 'body.sessionKey');
    await refused(
      post(`/v1/games/999/sessions`, { ...ok.body, gameId: '999' }),
      404,
      'unknown-game',
      'gameId',
    );
    const key = ok.body.sessionKey.slice(2);
    assert.ok(!d.logs.lines.some((l) => l.includes(key)), 'session key never logged');
  });

  it("a session speaks only for its player: Bob's session cannot fetch Alice's turn", async () => {
    const s = await openSession(d.app, BOB, { gameId });
    await refused(
      reveal(sessionReveal(s, { gameId, turn: 1, leaves, blinding })),
      404,
      'unknown-turn',
      'turn',
    );
  });
});
