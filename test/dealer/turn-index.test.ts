/**
 * The turn index: the watcher indexes tracked games' `TurnSubmitted` logs as it scans the chain (one scan per
 * block range for all games, cursor persisted), so the reveal service answers a past turn from the store and
 * never scans logs per request: a request for an old turn costs no chain read at all, a turn missing below a
 * later indexed one is refused for good, and a restarted dealer answers from its store without rescanning
 * from the deployment block. An upgraded dealer backfills creation blocks and the index once.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, it } from 'node:test';
import type { Wallet } from 'ethers';
import { playCommitment } from '../../core/index.ts';
import { generateSealKey } from '../../core/sealed.ts';
import { FakeChain } from '../../dealer/chain/fake.ts';
import { ChainWatcher } from '../../dealer/watcher.ts';
import {
  ALICE,
  BOB,
  CHAIN_ID,
  type Dealer,
  duelLeaves,
  openSession,
  postedRoot,
  postTurn,
  revealCommitOf,
  runCeremony,
  sessionReveal,
  signedReceipt,
  signedReveal,
  startDealer,
  tempDir,
  testStateCommit,
} from './fixture.ts';

const leaves = duelLeaves();

const open: Dealer[] = [];
const dirs: (() => void)[] = [];
afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
  for (const c of dirs.splice(0)) c();
});

async function dealer(o: Parameters<typeof startDealer>[0] = {}) {
  const d = await startDealer(o);
  open.push(d);
  return d;
}

const watcherOf = (d: Dealer, maxScanBlocks?: number) =>
  new ChainWatcher(d.dealing, {
    pollMs: 10,
    startBlock: 0,
    sealPublicKey: d.seal.publicKey,
    head: d.head,
    ...(maxScanBlocks ? { maxScanBlocks } : {}),
  });

/** `player` plays turns `turns` (one leaf each, its own blinding); returns each turn's opening. */
function playTurns(d: Dealer, gameId: bigint, player: Wallet, turns: number[]) {
  const out = new Map<number, { leaves: number[]; blinding: bigint }>();
  for (const turn of turns) {
    const ls = [leaves[turn % leaves.length]!];
    out.set(turn, { leaves: ls, blinding: postTurn(d.h, d.chain, gameId, player, turn, ls) });
  }
  return out;
}

function post(d: Dealer, url: string, body: unknown) {
  return d.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/** What the chain was asked for reads of play commitments and logs. */
const reads = (d: Dealer) => ({
  playCommitment: d.chain.count('playCommitment'),
  turnsSubmitted: d.chain.count('turnsSubmitted'),
  gamesCreated: d.chain.count('gamesCreated'),
});

describe('turn index', () => {
  it('one scan per block range for every tracked game; only tracked games are kept; the cursor follows the confirmed head', async () => {
    const d = await dealer();
    const w = watcherOf(d);
    const a = await d.dealtGame();
    const b = await d.dealtGame();
    // A game sealed to another dealer's key on the same contract: not tracked, its turns not kept.
    const other = runCeremony(d.h, d.chain, generateSealKey().publicKey);
    await w.tick();
    const pa = playTurns(d, a.gameId, ALICE, [0, 1]);
    playTurns(d, b.gameId, BOB, [0]);
    await d.chain.postRoot(other.gameId, { root: 1n, masterCommitment: 2n }, []);
    playTurns(d, other.gameId, ALICE, [0]);
    await w.tick();
    assert.equal(await d.store.getGame(other.gameId), null);
    const head = await d.chain.headBlock();
    assert.equal(await d.store.getTurnCursor(), head);
    const turnScans = d.chain.scans.filter((s) => s.method === 'turnsSubmitted');
    assert.equal(turnScans.length, 2, 'one scan per tick, whatever the number of games');
    assert.equal(turnScans[1]!.from, turnScans[0]!.to + 1, 'contiguous: each block scanned once');
    assert.equal(turnScans[1]!.to, head);
    const alice = ALICE.address.toLowerCase();
    assert.notEqual((await d.store.indexedTurn(a.gameId, alice, 1)).commitment, null);
    const o = pa.get(0)!;
    assert.deepEqual(await d.store.indexedTurn(a.gameId, alice, 0), {
      commitment: playCommitment(
        d.h,
        testStateCommit(a.gameId, alice, 0),
        revealCommitOf(d.h, o.leaves, o.blinding),
        postedRoot(d.chain, a.gameId),
      ),
      laterTurnIndexed: false,
    });
    assert.notEqual((await d.store.indexedTurn(b.gameId, BOB.address.toLowerCase(), 0)).commitment, null);
    assert.equal((await d.store.indexedTurn(other.gameId, alice, 0)).commitment, null);
    // An idle tick (no new block) scans nothing.
    await w.tick();
    assert.equal(d.chain.scans.filter((s) => s.method === 'turnsSubmitted').length, 2);
  });

  it('1,000 requests for various old turns (served or never played) cost no chain read at all', async () => {
    const d = await dealer();
    const w = watcherOf(d);
    const { gameId } = await d.dealtGame();
    // Alice plays every even turn up to 60 (the odd ones are Bob's in a real game).
    const played = playTurns(
      d,
      gameId,
      ALICE,
      Array.from({ length: 31 }, (_, i) => 2 * i),
    );
    await w.tick();
    const s = await openSession(d.app, ALICE, { gameId });
    assert.equal(s.res.statusCode, 200);
    const before = reads(d);
    const seen = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const turn = i % 59; // every turn below Alice's latest (60)
      const o = played.get(turn) ?? { leaves: [leaves[0]!], blinding: 5n };
      const res = await post(
        d,
        `/v1/games/${gameId}/session-reveals`,
        sessionReveal(s, { gameId, turn, leaves: o.leaves, blinding: o.blinding }),
      );
      const k = `${res.statusCode} ${res.statusCode === 200 ? 'ok' : res.json().error}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(seen), { '200 ok': 508, '404 unknown-turn': 492 });
    assert.deepEqual(reads(d), before, 'no play commitment read, no log scan');
    // The signed route shares the index; a new block changes nothing for settled turns.
    d.chain.mine();
    await w.tick();
    const afterTick = reads(d);
    const t = played.get(10)!;
    const ok = await post(
      d,
      `/v1/games/${gameId}/reveals`,
      await signedReveal(ALICE, { gameId, turn: 10, leaves: t.leaves, blinding: t.blinding }),
    );
    assert.equal(ok.statusCode, 200, ok.body);
    const never = await post(
      d,
      `/v1/games/${gameId}/reveals`,
      await signedReveal(ALICE, { gameId, turn: 11, leaves: t.leaves, blinding: t.blinding }),
    );
    assert.equal(never.statusCode, 404);
    assert.deepEqual(reads(d), afterTick);
  });

  it('a past turn the index has not reached yet: refused until it has (one view read per block), then served from the index', async () => {
    const d = await dealer();
    const w = watcherOf(d);
    const { gameId } = await d.dealtGame();
    await w.tick();
    const played = playTurns(d, gameId, ALICE, [1, 2]);
    await d.syncHead(); // a new head, but the watcher has not indexed it
    const t = played.get(1)!;
    const url = `/v1/games/${gameId}/reveals`;
    const before = d.chain.count('playCommitment');
    for (let i = 0; i < 20; i++) {
      const res = await post(d, url, await signedReveal(ALICE, { gameId, turn: 1, ...t }));
      assert.equal(res.statusCode, 404);
    }
    assert.equal(
      d.chain.count('playCommitment') - before,
      1,
      'the view once: it says the turn is in the logs',
    );
    assert.equal(d.chain.count('turnsSubmitted'), 1, 'no log scan on behalf of a request');
    await w.tick();
    const res = await post(d, url, await signedReveal(ALICE, { gameId, turn: 1, ...t }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(d.chain.count('playCommitment') - before, 1);
    // The latest turn is still read from the view, as before.
    const latest = played.get(2)!;
    const res2 = await post(d, url, await signedReveal(ALICE, { gameId, turn: 2, ...latest }));
    assert.equal(res2.statusCode, 200);
  });

  it('a restarted dealer (new process state, same DB) answers old turns from its store and scans only from its cursors', async () => {
    const tmp = tempDir();
    dirs.push(tmp.cleanup);
    const file = join(tmp.dir, 'chain.json');
    const dbPath = join(tmp.dir, 'dealer.sqlite');
    const first = await dealer({ chain: new FakeChain({ chainId: CHAIN_ID, file, create: true }), dbPath });
    const { gameId } = await first.dealtGame();
    const w1 = watcherOf(first);
    await w1.tick();
    const played = playTurns(first, gameId, ALICE, [0, 1, 2, 3, 4, 5]);
    for (let i = 0; i < 10; i++) first.chain.mine();
    await w1.tick();
    const cursor = await first.store.getTurnCursor();
    assert.equal(cursor, await first.chain.headBlock());
    await first.close();
    open.splice(open.indexOf(first), 1);

    // Restart: a new chain view, store, caches and watcher; the chain moved on meanwhile.
    const chain = new FakeChain({ chainId: CHAIN_ID, file });
    const second = await dealer({ chain, dbPath, keys: { seal: first.seal, atRestKey: first.atRestKey } });
    for (let i = 0; i < 3; i++) chain.mine();
    const w2 = watcherOf(second);
    await w2.tick();
    assert.deepEqual(chain.scans, [
      { method: 'gamesCreated', from: cursor! + 1, to: cursor! + 3 },
      { method: 'turnsSubmitted', from: cursor! + 1, to: cursor! + 3 },
    ]);
    const before = reads(second);
    for (const [turn, o] of played) {
      if (turn === 5) continue; // the latest: the view's
      const res = await post(
        second,
        `/v1/games/${gameId}/reveals`,
        await signedReveal(ALICE, { gameId, turn, leaves: o.leaves, blinding: o.blinding }),
      );
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.deepEqual(reads(second), before, 'answered from the store: no chain read');
    // Before even the first tick, a restarted dealer answers from the index already stored.
    const third = await dealer({
      chain: new FakeChain({ chainId: CHAIN_ID, file }),
      dbPath,
      keys: { seal: first.seal, atRestKey: first.atRestKey },
    });
    const o = played.get(2)!;
    const res = await post(
      third,
      `/v1/games/${gameId}/reveals`,
      await signedReveal(ALICE, { gameId, turn: 2, leaves: o.leaves, blinding: o.blinding }),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(third.chain.count('playCommitment'), 0);
    assert.equal(third.chain.count('turnsSubmitted'), 0);
  });

  it('an upgraded dealer (a DB from before the index) backfills creation blocks in one scan and the turn index once, spread over ticks', async () => {
    const tmp = tempDir();
    dirs.push(tmp.cleanup);
    const dbPath = join(tmp.dir, 'dealer.sqlite');
    const first = await dealer({ dbPath });
    const chain = first.chain;
    const w1 = watcherOf(first);
    for (let i = 0; i < 5; i++) chain.mine();
    const { gameId } = await first.dealtGame();
    await w1.tick();
    for (let i = 0; i < 20; i++) chain.mine();
    const played = playTurns(first, gameId, ALICE, [0, 1, 2, 3]);
    chain.mine();
    await w1.tick();
    const created = (await first.store.getGame(gameId))!.createdBlock!;
    assert.ok(created > 5);
    const head = await chain.headBlock();
    await first.close();
    open.splice(open.indexOf(first), 1);
    // What an older dealer left: no creation blocks, no turn index (its tables are new in the migration).
    const db = new DatabaseSync(dbPath);
    db.exec('UPDATE games SET created_block = NULL; DELETE FROM turn_commits; DELETE FROM turn_cursor;');
    db.close();

    const d = await dealer({ chain, dbPath, keys: { seal: first.seal, atRestKey: first.atRestKey } });
    const w = watcherOf(d, 8);
    chain.scans.length = 0;
    await w.tick();
    assert.equal((await d.store.getGame(gameId))?.createdBlock, created, 'backfilled from GameCreated');
    const games = chain.scans.filter((s) => s.method === 'gamesCreated');
    assert.deepEqual(
      games.at(-1),
      { method: 'gamesCreated', from: 0, to: head },
      'one scan from the start block',
    );
    // The index starts at the game's creation block, 8 blocks per tick.
    assert.deepEqual(
      chain.scans.filter((s) => s.method === 'turnsSubmitted'),
      [{ method: 'turnsSubmitted', from: created, to: created + 7 }],
    );
    // Meanwhile an old turn is refused for now (the view says "in the logs"), never scanned for.
    const url = `/v1/games/${gameId}/reveals`;
    const t0 = played.get(0)!;
    const scanned = chain.count('turnsSubmitted');
    const early = await post(d, url, await signedReveal(ALICE, { gameId, turn: 0, ...t0 }));
    assert.equal(early.statusCode, 404, early.body);
    assert.equal(chain.count('turnsSubmitted'), scanned);
    for (let i = 0; i < 10 && (await d.store.getTurnCursor()) !== head; i++) await w.tick();
    assert.equal(await d.store.getTurnCursor(), head);
    const scans = chain.scans.filter((s) => s.method === 'turnsSubmitted');
    for (let i = 1; i < scans.length; i++) assert.equal(scans[i]!.from, scans[i - 1]!.to + 1);
    assert.equal(chain.scans.filter((s) => s.method === 'gamesCreated' && s.from === 0).length, 1, 'once');
    const before = reads(d);
    for (const turn of [0, 1, 2]) {
      const o = played.get(turn)!;
      const res = await post(d, url, await signedReveal(ALICE, { gameId, turn, ...o }));
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.deepEqual(
      reads(d),
      before,
      'served from the index (the refusal of turn 0 was dropped as it grew)',
    );
    // A second restart finds every creation block stored: no backfill scan again.
    chain.scans.length = 0;
    await watcherOf(d).tick();
    assert.equal(chain.scans.filter((s) => s.from === 0).length, 0);
  });

  it('a turn missing below a later indexed one is refused for good: no chain read, even as blocks go by', async () => {
    const d = await dealer();
    const w = watcherOf(d);
    const { gameId } = await d.dealtGame();
    playTurns(d, gameId, ALICE, [2, 5]);
    await w.tick();
    const url = `/v1/games/${gameId}/reveals`;
    const before = d.chain.count('playCommitment');
    for (let round = 0; round < 3; round++) {
      for (const turn of [0, 1, 3, 4]) {
        const res = await post(d, url, await signedReveal(ALICE, { gameId, turn, leaves, blinding: 1n }));
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().error, 'unknown-turn');
      }
      d.chain.mine();
      await w.tick();
    }
    assert.equal(d.chain.count('playCommitment'), before);
  });

  it('a combat answer replaces the stored play commitment: a view answer is never served from a stale cache once the head moved, the logged one stays good', async () => {
    const d = await dealer();
    const w = watcherOf(d);
    const { gameId } = await d.dealtGame();
    await w.tick();
    const s1 = testStateCommit(gameId, ALICE.address, 1);
    const blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves, 'duel', s1);
    const R = revealCommitOf(d.h, leaves, blinding);
    await d.syncHead(); // the dealer sees the block; its index does not have the turn yet: the view answers
    const reveal = async (stateCommit: bigint) =>
      post(
        d,
        `/v1/games/${gameId}/reveals`,
        await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding, stateCommit }),
      );
    const receipt = async (stateCommit: bigint) =>
      post(
        d,
        `/v1/games/${gameId}/receipts`,
        await signedReceipt(ALICE, { gameId, turn: 1, revealCommit: R, stateCommit }),
      );
    const views = () => d.chain.count('playCommitment');
    const v0 = views();
    assert.equal((await reveal(s1)).statusCode, 200);
    assert.equal(views() - v0, 1);
    // Alice answers a combat as defender: her seat now stores Poseidon(S2, R, root), same reveal list and root,
    // no new turn.
    const root = postedRoot(d.chain, gameId);
    const s2 = 777n;
    d.chain.respondCombatFor(gameId, ALICE.address, playCommitment(d.h, s2, R, root));
    // Until the dealer has seen that block, the view answer of this block stands (one read per block)…
    const early = await reveal(s2);
    assert.equal(early.statusCode, 403, early.body);
    assert.equal(early.json().error, 'opening-mismatch');
    assert.equal(views() - v0, 1);
    // …once it has, the view is read again: the new state commitment opens the turn, the proof's no longer
    // (its TurnSubmitted log is not indexed yet, and the seat no longer stores it).
    await d.syncHead();
    const after = await reveal(s2);
    assert.equal(after.statusCode, 200, after.body);
    assert.equal(views() - v0, 2);
    // The proof's own state commitment, after the combat answer and before the log is indexed, is refused (the
    // SDK then retries with its current one, test/client/dispute-flow.test.ts).
    const r1 = await receipt(s1);
    assert.equal(r1.statusCode, 409, r1.body);
    assert.equal(r1.json().error, 'receipt-mismatch');
    assert.equal(await d.store.getReceipt(gameId, ALICE.address.toLowerCase(), 1), null, 'not stored');
    assert.equal(views() - v0, 2, 'the refusal came from the cached view answer of this block');
    // The watcher indexes the turn's log (final): the proof's state commitment opens it for good, and the
    // current one still does (the seat's stored value, read from the view once per block).
    await w.tick();
    const ok1 = await receipt(s1);
    assert.equal(ok1.statusCode, 200, ok1.body);
    assert.equal(ok1.json().stored, 'new');
    const ok2 = await receipt(s2);
    assert.equal(ok2.statusCode, 200, ok2.body);
    assert.equal(ok2.json().stored, 'already-stored');
    const bad = await receipt(5n);
    assert.equal(bad.statusCode, 409, bad.body);
    // Blocks go by: the logged value needs no chain read at all.
    d.chain.mine();
    await w.tick();
    const v1 = views();
    assert.equal((await receipt(s1)).statusCode, 200);
    assert.equal(views(), v1, 'answered from the index');
    // A second combat answer: the view follows it after the next block the dealer sees; S2 is stale then.
    d.chain.respondCombatFor(gameId, ALICE.address, playCommitment(d.h, 888n, R, root));
    await w.tick();
    assert.equal((await receipt(888n)).statusCode, 200);
    assert.equal((await receipt(s2)).statusCode, 409);
    assert.equal((await receipt(s1)).statusCode, 200, 'the logged one stays good');
  });
});
