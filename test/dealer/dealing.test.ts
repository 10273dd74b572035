import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { mulPoint, pointsWithY } from '../../core/babyjub.ts';
import {
  commitMap,
  decodeDisputeAnswer,
  FIELD_MODULUS,
  generateMap,
  masterCommitment,
  seedFromShares,
  shippedRuleset,
} from '../../core/index.ts';
import { zoneLeaves, zoneRoots } from '../../core/mapproof/witness.ts';
import { addressToField, generateSealKey } from '../../core/sealed.ts';
import { FAKE_DEALER, FakeChain } from '../../dealer/chain/fake.ts';
import { dealGame } from '../../dealer/dealing.ts';
import { MapCache } from '../../dealer/maps.ts';
import {
  ALICE,
  BOB,
  CHAIN_ID,
  CONTRACT,
  type Dealer,
  duelLeaves,
  MALLORY,
  postTurn,
  runCeremony,
  signedReveal,
  startDealer,
  tempDir,
  watcherOf,
} from './fixture.ts';

let d: Dealer | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

async function track(dealer: Dealer, gameId: bigint, players = [ALICE, BOB]) {
  await dealer.store.addGame({
    gameId,
    contract: CONTRACT,
    ruleset: 'duel',
    players: players.map((p) => p.address.toLowerCase()),
  });
}

/** Parsed log lines written since `from`. */
const linesSince = (dealer: Dealer, from: number) =>
  dealer.logs.lines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown> & { level: number });

describe('dealing', () => {
  it('posts the root of Gen(Poseidon(r_1..r_n)) salted by the stored master secret, and its commitment', async () => {
    d = await startDealer();
    const g = await d.dealtGame();
    assert.equal(g.outcome, 'dealt');
    const secrets = (await d.store.getSecrets(g.gameId))!;
    assert.deepEqual(secrets.shares, g.shares);
    assert.equal(secrets.seed, seedFromShares(d.h, g.shares));
    const r = shippedRuleset('duel');
    const expected = commitMap(d.h, r.board, generateMap(d.h, r.board, secrets.seed), secrets.masterSecret);
    assert.deepEqual(await d.chain.mapRoot(g.gameId), {
      root: expected.tree.root,
      masterCommitment: masterCommitment(d.h, secrets.masterSecret),
    });
    const rec = (await d.store.getGame(g.gameId))!;
    assert.equal(rec.status, 'dealt');
    assert.equal(rec.root, expected.tree.root);
    assert.equal((await d.metrics.gamesDealt.get()).values[0]?.value, 1);
    const sealed = await d.store.sealedShares(g.gameId);
    assert.deepEqual(
      sealed.map((s) => s.outcome),
      ['ok', 'ok'],
    );
    assert.deepEqual(
      sealed.map((s) => s.sealed),
      (await d.chain.seatShares(g.gameId)).map((s) => s.sealed),
      'the posted (E, c) kept as posted',
    );
  });

  it('waits while the ceremony is not finished', async () => {
    d = await startDealer();
    const gameId = d.chain.createGame('duel', [ALICE.address, BOB.address], d.seal.publicKey, CONTRACT);
    await track(d, gameId);
    assert.equal(await dealGame(d.dealing, gameId), 'waiting');
    assert.equal(await d.store.getSecrets(gameId), null);
  });

  it('is idempotent: dealing again changes nothing and posts nothing', async () => {
    d = await startDealer();
    const g = await d.dealtGame();
    const writes = d.chain.writes.length;
    const secrets = await d.store.getSecrets(g.gameId);
    assert.equal(await dealGame(d.dealing, g.gameId), 'dealt');
    assert.equal(d.chain.writes.length, writes);
    assert.deepEqual(await d.store.getSecrets(g.gameId), secrets);
  });

  it('a crash after storing the secrets and before posting resumes with the same master secret, posting once', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.seal.publicKey);
    await track(d, c.gameId);
    const crash = new Error('simulated crash');
    await assert.rejects(
      dealGame(
        {
          ...d.dealing,
          onStep: async (s) => {
            if (s === 'root-computed') throw crash;
          },
        },
        c.gameId,
      ),
      crash,
    );
    const stored = (await d.store.getSecrets(c.gameId))!;
    assert.equal((await d.store.getGame(c.gameId))!.status, 'root-computed');
    assert.equal(await d.chain.mapRoot(c.gameId), null);
    // A fresh map cache, as after a restart.
    const resumed = { ...d.dealing, maps: new MapCache(d.h, d.store) };
    assert.equal(await dealGame(resumed, c.gameId), 'dealt');
    assert.deepEqual(await d.store.getSecrets(c.gameId), stored);
    assert.equal(
      (await d.chain.mapRoot(c.gameId))!.masterCommitment,
      masterCommitment(d.h, stored.masterSecret),
    );
    assert.equal(d.chain.writes.filter((w) => w === 'postRoot').length, 1);
  });

  it('a post whose receipt was lost is not sent again', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.seal.publicKey);
    await track(d, c.gameId);
    // The root lands, then the dealer dies before recording it.
    await assert.rejects(
      dealGame(
        {
          ...d.dealing,
          onStep: async (s) => {
            if (s === 'root-posted') throw new Error('crash');
          },
        },
        c.gameId,
      ),
    );
    await d.store.updateGame(c.gameId, { status: 'root-computed', rootTx: null });
    assert.equal(await dealGame(d.dealing, c.gameId), 'dealt');
    assert.equal(d.chain.writes.filter((w) => w === 'postRoot').length, 1);
  });

  it('retries a failed post after re-checking the chain', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.seal.publicKey);
    await track(d, c.gameId);
    d.chain.failNext.add('postRoot');
    assert.equal(await dealGame(d.dealing, c.gameId), 'dealt');
    assert.notEqual(await d.chain.mapRoot(c.gameId), null);
  });

  it('two concurrent deals of one game agree on one master secret', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.seal.publicKey);
    await track(d, c.gameId);
    const results = await Promise.allSettled([dealGame(d.dealing, c.gameId), dealGame(d.dealing, c.gameId)]);
    assert.ok(results.some((r) => r.status === 'fulfilled' && r.value === 'dealt'));
    const s = (await d.store.getSecrets(c.gameId))!;
    assert.equal((await d.chain.mapRoot(c.gameId))!.masterCommitment, masterCommitment(d.h, s.masterSecret));
  });

  it('a game force-opened in Deal (no root by the deadline) is recorded as such and never dealt', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.seal.publicKey);
    await track(d, c.gameId);
    d.chain.forceOpen(c.gameId);
    const writes = d.chain.writes.length;
    assert.equal(await dealGame(d.dealing, c.gameId), 'forced-open');
    const rec = (await d.store.getGame(c.gameId))!;
    assert.equal(rec.status, 'forced-open');
    assert.equal(rec.fault, 'forced-open on-chain');
    assert.equal(await d.store.getSecrets(c.gameId), null);
    assert.equal(d.chain.writes.length, writes, 'nothing written');
  });

  it('P1: the dealer publishes nothing derived from its key for any sealed share, including one copied from another game', async () => {
    d = await startDealer();
    // Game A, dealt honestly: Bob's (E, c) there is public (its SealedReveal event).
    const a = await d.dealtGame();
    const copied = (await d.chain.seatShares(a.gameId))[1]!.sealed!;
    // Game B: Bob posts A's (E, c) (the real contract would refuse it: its proof is bound to A); Alice
    // posts a ciphertext of her own choosing under a valid point. Neither opens B's commitments.
    const chosen = { ephemeralY: mulPoint(d.seal.publicKey, 3n)[1], ciphertext: 12345n };
    const b = runCeremony(d.h, d.chain, d.seal.publicKey, { sealed: { 0: chosen, 1: copied } });
    const writes = d.chain.writes.length;
    const logsFrom = d.logs.lines.length;
    // The watcher's path (tracking, then dealing), twice: a retry must not change anything either.
    const w = watcherOf(d);
    await w.tick();
    await w.tick();
    assert.equal(await dealGame(d.dealing, b.gameId), 'waiting');

    assert.deepEqual(d.chain.writes.slice(writes), [], 'no write at all: no root, no evidence, no cancel');
    assert.equal(await d.chain.phase(b.gameId), 'dealing', 'not cancelled: the chain force-opens it later');
    const rec = (await d.store.getGame(b.gameId))!;
    assert.equal(rec.status, 'watching');
    assert.equal(rec.fault, 'share-not-opened:0');
    assert.equal(await d.store.getSecrets(b.gameId), null);
    assert.deepEqual(
      (await d.store.sealedShares(b.gameId)).map((s) => s.outcome),
      ['not-opened', 'not-opened'],
    );

    // Logged: one error with public facts only (game, seat, player), once across the retries.
    const lines = linesSince(d, logsFrom).filter((l) => l.gameId === b.gameId.toString());
    const loud = lines.filter((l) => l.level >= 40);
    assert.equal(loud.length, 1, JSON.stringify(lines));
    assert.equal(loud[0]!.level, 50);
    assert.equal(loud[0]!.seat, 0);
    assert.equal(loud[0]!.player, ALICE.address.toLowerCase());
    // Nothing computed from the key and those inputs appears anywhere: S = d·E, the pad, the "share".
    const needles: bigint[] = [d.seal.secretKey];
    for (const [seat, sealed] of [chosen, copied].entries()) {
      // The dealer tries both points with the posted y: neither's S, pad or "share" may leak.
      for (const E of pointsWithY(sealed.ephemeralY)) {
        const S = mulPoint(E, d.seal.secretKey);
        const player = addressToField([ALICE, BOB][seat]!.address);
        const pad = d.h.hash([S[0], S[1], b.gameId, player]);
        needles.push(S[0], S[1], pad, (sealed.ciphertext - pad + FIELD_MODULUS) % FIELD_MODULUS);
      }
    }
    const haystack = d.logs.lines.join('\n').toLowerCase();
    for (const n of needles) {
      assert.ok(!haystack.includes(n.toString()), 'a key-derived value (decimal) in the logs');
      assert.ok(!haystack.includes(n.toString(16)), 'a key-derived value (hex) in the logs');
    }
  });
});

describe('chain watcher', () => {
  it('tracks games whose dealer is this tx key AND whose seal key is this dealer key only, deals them, persists the cursor, and publishes secrets at the end', async () => {
    d = await startDealer();
    const ours = runCeremony(d.h, d.chain, d.seal.publicKey, { players: [ALICE, BOB, MALLORY] });
    const otherKey = d.chain.createGame(
      'duel',
      [ALICE.address, BOB.address],
      generateSealKey().publicKey,
      CONTRACT,
    );
    const otherDealer = d.chain.createGame('duel', [ALICE.address, BOB.address], d.seal.publicKey, CONTRACT, {
      dealer: MALLORY.address,
    });
    assert.equal(d.chain.dealer, FAKE_DEALER);
    const w = watcherOf(d);
    await w.tick();
    assert.equal((await d.store.getGame(ours.gameId))?.status, 'dealt');
    assert.equal(await d.store.getGame(otherKey), null, 'another seal key');
    assert.equal(await d.store.getGame(otherDealer), null, 'another dealer');
    assert.equal(await d.store.getCursor(), (await d.chain.headBlock()) - 1); // postRoot advanced the head
    assert.equal(d.head.block, (await d.chain.headBlock()) - 1, 'the tick published the head it read');
    d.chain.endGame(ours.gameId);
    await w.tick();
    const s = (await d.store.getSecrets(ours.gameId))!;
    const map = await d.maps.get(ours.gameId);
    assert.deepEqual(d.chain.secretsFor(ours.gameId), { masterSecret: s.masterSecret, shares: ours.shares });
    assert.deepEqual(
      d.chain.zoneRootsFor(ours.gameId),
      zoneRoots(map.commitment, map.ruleset.board),
      'posted with the root',
    );
    assert.equal((await d.store.getGame(ours.gameId))?.status, 'published');
    // A crash after publishing but before recording it: the next tick does not publish again.
    await d.store.updateGame(ours.gameId, { status: 'dealt' });
    await w.tick();
    assert.equal(d.chain.writes.filter((x) => x === 'publishSecrets').length, 1);
    assert.equal((await d.store.getGame(ours.gameId))?.status, 'published');
    // P3: a seat's zone challenge is answered on the next tick with the dealt tree's leaves of that zone, once.
    const lie = zoneLeaves(map.commitment, 1);
    lie[0] = lie[0]! + 1n;
    d.chain.challengeZone(ours.gameId, 1, 1, lie);
    await w.tick();
    assert.deepEqual(d.chain.zoneAnswer(ours.gameId, 1), zoneLeaves(map.commitment, 1));
    await w.tick();
    assert.equal(d.chain.writes.filter((x) => x === 'answerZoneChallenge').length, 1);
    // Two more challenges; the first answer fails: the other is answered in the same tick, the failed one next.
    d.chain.challengeZone(ours.gameId, 0, 2, lie);
    d.chain.challengeZone(ours.gameId, 2, 3, lie);
    d.chain.failNext.add('answerZoneChallenge');
    await w.tick();
    assert.equal(d.chain.zoneAnswer(ours.gameId, 0), null, 'failed');
    assert.deepEqual(d.chain.zoneAnswer(ours.gameId, 2), zoneLeaves(map.commitment, 3));
    await w.tick();
    assert.deepEqual(d.chain.zoneAnswer(ours.gameId, 0), zoneLeaves(map.commitment, 2), 'retried');
    await w.tick();
    assert.equal(d.chain.writes.filter((x) => x === 'answerZoneChallenge').length, 3);
  });
});

describe('reveal disputes (P7 after the root)', () => {
  const leaves = duelLeaves();
  const board = shippedRuleset('duel').board;

  /** A dealt duel whose turn 1 by Alice opens `leaves`; Alice disputes it. */
  async function disputed(dealer: Dealer) {
    const g = await dealer.dealtGame();
    const blinding = postTurn(dealer.h, dealer.chain, g.gameId, ALICE, 1, leaves);
    dealer.chain.openDispute(g.gameId, ALICE.address, 1, leaves, { deadline: 1_000_000 });
    return { ...g, blinding };
  }

  it('answers an open dispute of a dealt game on its next tick, once, with tiles that verify against the root', async () => {
    d = await startDealer();
    const g = await disputed(d);
    const w = watcherOf(d);
    await w.tick();
    const answers = d.chain.answersFor(g.gameId);
    assert.equal(answers.length, 1);
    const root = (await d.chain.mapRoot(g.gameId))!.root;
    const tiles = verifyRevealedTiles(
      d.h,
      board,
      root,
      leaves,
      decodeDisputeAnswer(answers[0]!, leaves, board),
    );
    assert.deepEqual(
      tiles.map((t) => t.leaf),
      leaves,
    );
    // The same tiles as the reveal route serves.
    const seed = seedFromShares(d.h, g.shares);
    const map = generateMap(d.h, board, seed);
    for (const t of tiles) assert.equal(t.terrain, map[t.row * board.width + t.col]!.terrain);
    assert.equal((await d.metrics.disputesAnswered.get()).values[0]?.value, 1);
    const logged = d.logs.lines.find((l) => l.includes('reveal dispute answered'));
    assert.ok(logged, 'logged');
    assert.equal(JSON.parse(logged).servedBefore, false);
    // Answered: later ticks in the challenge window send nothing more.
    await w.tick();
    await w.tick();
    assert.equal(d.chain.answersFor(g.gameId).length, 1);
    assert.equal(d.chain.writes.filter((x) => x === 'answerDispute').length, 1);
    // The dispute closes: play resumes, nothing more to do.
    d.chain.closeDispute(g.gameId);
    await w.tick();
    assert.equal((await d.store.getGame(g.gameId))?.status, 'dealt');
  });

  it('answers even a turn it served (a false dispute): the leaves are public anyway', async () => {
    d = await startDealer();
    const g = await d.dealtGame();
    const blinding = postTurn(d.h, d.chain, g.gameId, ALICE, 1, leaves);
    const res = await d.app.inject({
      method: 'POST',
      url: `/v1/games/${g.gameId}/reveals`,
      payload: await signedReveal(ALICE, { gameId: g.gameId, turn: 1, leaves, blinding }),
    });
    assert.equal(res.statusCode, 200);
    d.chain.openDispute(g.gameId, ALICE.address, 1, leaves);
    await watcherOf(d).tick();
    assert.equal(d.chain.answersFor(g.gameId).length, 1);
    const logged = d.logs.lines.find((l) => l.includes('reveal dispute answered'))!;
    assert.equal(JSON.parse(logged).servedBefore, true);
  });

  it('answers first in a tick, before dealing other games; a failed answer is retried on the next tick', async () => {
    d = await startDealer();
    const g = await disputed(d);
    const next = runCeremony(d.h, d.chain, d.seal.publicKey);
    await track(d, next.gameId);
    d.chain.failNext.add('answerDispute');
    const from = d.chain.writes.length;
    const w = watcherOf(d);
    await w.tick(); // the answer fails; the other game is still dealt
    assert.deepEqual(d.chain.writes.slice(from), ['postRoot']);
    assert.ok(d.logs.lines.some((l) => l.includes('answering a reveal dispute failed')));
    assert.equal(await d.chain.phase(g.gameId), 'dispute');
    await w.tick();
    assert.deepEqual(d.chain.writes.slice(from), ['postRoot', 'answerDispute']);
    // Both in one tick: the dispute goes first.
    const h = await disputed(d);
    const third = runCeremony(d.h, d.chain, d.seal.publicKey);
    await track(d, third.gameId);
    const before = d.chain.writes.length;
    await w.tick();
    assert.deepEqual(d.chain.writes.slice(before), ['answerDispute', 'postRoot']);
    assert.equal(d.chain.answersFor(h.gameId).length, 1);
  });

  it("answers only games this dealer deals: another dealer's game in dispute is not touched", async () => {
    const tmp = tempDir();
    try {
      const file = join(tmp.dir, 'chain.json');
      d = await startDealer({ chain: new FakeChain({ chainId: CHAIN_ID, file, create: true }) });
      // Mallory deals a game on the same contract with her own tx key (our seal key even: still not ours).
      const mallory = new FakeChain({ chainId: CHAIN_ID, file, dealer: MALLORY.address });
      const theirs = runCeremony(d.h, mallory, d.seal.publicKey);
      await mallory.postRoot(theirs.gameId, { root: 1n, masterCommitment: 2n }, []);
      postTurn(d.h, mallory, theirs.gameId, ALICE, 1, leaves);
      mallory.openDispute(theirs.gameId, ALICE.address, 1, leaves);
      const w = watcherOf(d);
      await w.tick();
      await w.tick();
      assert.equal(await d.store.getGame(theirs.gameId), null, 'not tracked');
      assert.equal(await d.chain.phase(theirs.gameId), 'dispute');
      assert.deepEqual(d.chain.answersFor(theirs.gameId), []);
      assert.equal(d.chain.count('dispute'), 0, 'its dispute is not even read');
    } finally {
      await d?.close();
      d = undefined;
      tmp.cleanup();
    }
  });

  it('a dealt game force-opened after a failed dispute is recorded as such; its reveals get a clear 409', async () => {
    d = await startDealer();
    const g = await disputed(d);
    d.chain.forceOpen(g.gameId);
    const w = watcherOf(d);
    await w.tick();
    const rec = (await d.store.getGame(g.gameId))!;
    assert.equal(rec.status, 'forced-open');
    assert.equal(rec.fault, 'forced-open on-chain');
    assert.ok(
      linesSince(d, 0).some((l) => l.level === 50 && l.msg === 'game stopped on-chain after the root'),
    );
    const res = await d.app.inject({
      method: 'POST',
      url: `/v1/games/${g.gameId}/reveals`,
      payload: await signedReveal(ALICE, { gameId: g.gameId, turn: 1, leaves, blinding: g.blinding }),
    });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error, 'forced-open');
    // No longer followed: no more chain reads for it.
    const reads = d.chain.count('phase');
    await w.tick();
    assert.equal(d.chain.count('phase'), reads);
  });
});
