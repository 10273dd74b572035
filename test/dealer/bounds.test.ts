/**
 * The dealer's caches are bounded (dealer/cache-limits.ts) without weakening what they guard: a nonce is
 * refused however many other requests came after it, a session nonce is never forgotten while it can be
 * replayed (the session refuses new ones instead), an evicted session serves nothing, and an evicted map
 * or answer is rebuilt to the same bytes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Wallet } from 'ethers';
import { DEFAULT_CACHE_LIMITS } from '../../dealer/cache-limits.ts';
import { SessionTable } from '../../dealer/sessions.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import {
  ALICE,
  BOB,
  type Dealer,
  duelLeaves,
  openSession,
  postTurn,
  sessionReveal,
  signedReveal,
  startDealer,
  tempDir,
} from './fixture.ts';

/** Tiny bounds: a few requests overflow every cache. */
const TINY = { maps: 1, games: 1, openings: 1, signers: 1, sessions: 2, entries: 3 };

let d: Dealer;
/** Two dealt games, Alice's turns 1..3 posted in the first, turn 1 in the second. */
let g1: bigint;
let g2: bigint;
const leaves = duelLeaves();
const blindings = new Map<string, bigint>();

before(async () => {
  d = await startDealer({ caches: TINY });
  g1 = (await d.dealtGame()).gameId;
  g2 = (await d.dealtGame()).gameId;
  for (let turn = 1; turn <= 3; turn++) {
    blindings.set(`${g1}:${turn}`, postTurn(d.h, d.chain, g1, ALICE, turn, leaves));
  }
  blindings.set(`${g2}:1`, postTurn(d.h, d.chain, g2, ALICE, 1, leaves));
  // Past turns are answered from the turn index (the chain's view has only the latest): index them all.
  const head = await d.chain.headBlock();
  await d.store.putTurnCommits(await d.chain.turnsSubmitted(0, head), head);
  await d.syncHead();
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

/** Every cache the gauge reports is at or below its bound. */
function assertWithinBounds() {
  const sizes = d.metrics.cacheSizes();
  const bound: Record<string, number> = {
    maps: TINY.maps,
    'dealt-games': TINY.games,
    openings: TINY.openings,
    signers: TINY.signers,
    sessions: TINY.sessions,
    'burned-nonces': TINY.entries,
    'reveal-commitments': TINY.entries,
    'reveal-viewed': TINY.entries,
    'reveal-misses': TINY.entries,
    'reveal-never': TINY.entries,
    'reveal-recorded': TINY.entries,
    'reveal-receipted': TINY.entries,
    'rate-buckets': TINY.entries,
  };
  for (const [k, max] of Object.entries(bound)) {
    assert.ok(k in sizes, `the gauge reports ${k}`);
    assert.ok(sizes[k]! <= max, `${k}: ${sizes[k]} entries, bound ${max}`);
  }
}

describe('bounded caches keep their guarantees', () => {
  it('signed route: a nonce replayed after every cache was filled with other requests is still refused', async () => {
    const first = await signedReveal(ALICE, {
      gameId: g1,
      turn: 1,
      leaves,
      blinding: blindings.get(`${g1}:1`)!,
    });
    const ok = await post(`/v1/games/${g1}/reveals`, first);
    assert.equal(ok.statusCode, 200, ok.body);
    // Other nonces, turns, games and a second signer: more than every bound above (one map switch each way:
    // a map rebuild is the slow part).
    for (const [game, turn] of [
      [g1, 1],
      [g1, 2],
      [g1, 3],
      [g2, 1],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const body = await signedReveal(ALICE, {
          gameId: game,
          turn,
          leaves,
          blinding: blindings.get(`${game}:${turn}`)!,
        });
        const r = await post(`/v1/games/${game}/reveals`, body);
        assert.equal(r.statusCode, 200, r.body);
      }
    }
    for (let turn = 7; turn < 11; turn++) {
      const bob = await post(
        `/v1/games/${g2}/reveals`,
        await signedReveal(BOB, { gameId: g2, turn, leaves, blinding: 1n }),
      );
      assert.equal(bob.statusCode, 404, 'Bob has no such turn: a refusal, cached too');
    }
    assertWithinBounds();
    const replay = await post(`/v1/games/${g1}/reveals`, first);
    assert.equal(replay.statusCode, 409, replay.body);
    assert.equal(JSON.parse(replay.body).error, 'nonce-replayed');
  });

  it('the SQLite nonce memo forgets, the table does not: a replay after the memo overflowed, committed or still in the same batch, is refused', async () => {
    const tmp = tempDir();
    const store = new SqliteStore(join(tmp.dir, 'memo.sqlite'), secretBox(randomBytes(32)), { nonceMemo: 2 });
    try {
      const expiry = Math.floor(Date.now() / 1000) + 600;
      assert.equal(await store.burnNonce('0xa', 1n, expiry), true);
      for (let n = 2n; n < 12n; n++) assert.equal(await store.burnNonce('0xa', n, expiry), true);
      assert.ok(store.cacheSizes()['burned-nonces']! <= 2);
      assert.equal(await store.burnNonce('0xa', 1n, expiry), false, 'committed: found in the table');
      // All in one tick: nonce 100 leaves the memo before its batch commits; the replay joins the same batch.
      const burns = [store.burnNonce('0xa', 100n, expiry)];
      for (let n = 101n; n < 110n; n++) burns.push(store.burnNonce('0xa', n, expiry));
      burns.push(store.burnNonce('0xa', 100n, expiry));
      const outcomes = await Promise.all(burns);
      assert.equal(outcomes[0], true);
      assert.equal(outcomes.at(-1), false, 'pending: refused by the batch itself');
      assert.equal(outcomes.filter(Boolean).length, 10);
    } finally {
      await store.close();
      tmp.cleanup();
    }
  });

  it('session nonces: a full session refuses new nonces (429) rather than forget one that can still be replayed', () => {
    const clock = { now: 1000 };
    const table = new SessionTable({ maxNoncesPerSession: 3, now: () => clock.now });
    const s = table.add({ id: '0x01', gameId: 1n, player: '0xa', expiry: 5000, macKey: undefined as never });
    assert.equal(table.burn(s, 'n1', 1100), 'fresh');
    assert.equal(table.burn(s, 'n2', 1200), 'fresh');
    assert.equal(table.burn(s, 'n3', 1300), 'fresh');
    assert.equal(table.burn(s, 'n4', 1300), 'full', 'full of live nonces: refused');
    for (const n of ['n1', 'n2', 'n3']) assert.equal(table.burn(s, n, 1300), 'replayed', `${n} remembered`);
    clock.now = 1100; // n1's request expired: it can no longer be replayed (the route refuses it as expired)
    assert.equal(table.burn(s, 'n4', 1300), 'fresh', "n1's slot is free");
    assert.equal(table.burn(s, 'n2', 1300), 'replayed');
    assert.equal(table.burn(s, 'n5', 1300), 'full');
  });

  it('session route: a replay after many other requests under the session is refused; an evicted session serves nothing', async () => {
    const b1 = blindings.get(`${g1}:1`)!;
    const s1 = await openSession(d.app, ALICE, { gameId: g1 });
    assert.equal(s1.res.statusCode, 200, s1.res.body);
    const first = sessionReveal(s1, { gameId: g1, turn: 1, leaves, blinding: b1 });
    assert.equal((await post(`/v1/games/${g1}/session-reveals`, first)).statusCode, 200);
    for (let i = 0; i < 10; i++) {
      const r = await post(
        `/v1/games/${g1}/session-reveals`,
        sessionReveal(s1, { gameId: g1, turn: 1, leaves, blinding: b1 }),
      );
      assert.equal(r.statusCode, 200, r.body);
    }
    const replay = await post(`/v1/games/${g1}/session-reveals`, first);
    assert.equal(replay.statusCode, 409, replay.body);
    // Two more sessions (the bound is 2): s1, the least recently used, ends.
    const s2 = await openSession(d.app, ALICE, { gameId: g2 });
    const s3 = await openSession(d.app, BOB, { gameId: g1 });
    assert.equal(s2.res.statusCode, 200, s2.res.body);
    assert.equal(s3.res.statusCode, 200, s3.res.body);
    assertWithinBounds();
    for (const body of [first, sessionReveal(s1, { gameId: g1, turn: 1, leaves, blinding: b1 })]) {
      const r = await post(`/v1/games/${g1}/session-reveals`, body);
      assert.equal(r.statusCode, 401, r.body);
      assert.equal(JSON.parse(r.body).error, 'unknown-session');
    }
    // Nor can it be opened again: its creation nonce is burned for good.
    const again = await post(`/v1/games/${g1}/sessions`, s1.body);
    assert.equal(again.statusCode, 409, again.body);
  });

  it('an evicted map and answer are rebuilt from the store to the same bytes', async () => {
    const b = blindings.get(`${g1}:2`)!;
    const fetch = async (game: bigint, turn: number, blinding: bigint) => {
      const r = await post(
        `/v1/games/${game}/reveals`,
        await signedReveal(ALICE, { gameId: game, turn, leaves, blinding }),
      );
      assert.equal(r.statusCode, 200, r.body);
      return r.body;
    };
    const before = await fetch(g1, 2, b);
    await fetch(g2, 1, blindings.get(`${g2}:1`)!); // g1's map and answer leave (bounds of 1)
    assert.equal(d.maps.size, 1);
    assert.equal(await fetch(g1, 2, b), before);
    assertWithinBounds();
  });

  it('a fresh player per request never grows the signer cache past its bound', async () => {
    const players = Array.from({ length: 3 }, () => new Wallet(`0x${randomBytes(32).toString('hex')}`));
    for (const p of players) {
      const r = await post(
        `/v1/games/${g1}/reveals`,
        await signedReveal(p, { gameId: g1, turn: 1, leaves, blinding: 1n }),
      );
      assert.equal(r.statusCode, 403, 'not a player: refused after the signature check');
    }
    assertWithinBounds();
  });

  it('the gauge names every cache; the defaults are the documented ones', async () => {
    const text = (await d.app.inject({ url: '/metrics' })).body;
    assert.match(text, /^shroud_dealer_cache_entries\{cache="openings"\} [0-9]+$/m);
    assert.match(text, /^shroud_dealer_cache_entries\{cache="session-nonces"\} [0-9]+$/m);
    assert.deepEqual(DEFAULT_CACHE_LIMITS, {
      maps: 64,
      games: 4096,
      openings: 4096,
      signers: 256,
      sessions: 10_000,
      entries: 100_000,
    });
  });
});
