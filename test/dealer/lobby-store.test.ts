/**
 * The lobby half of the DealerStore on both backends: joins take seats in order, the last one fills the lobby
 * and opens its successor in the same transaction, a nonce is single use per player across lobbies (a seat given
 * up keeps its join spent while that join could still be replayed, no longer), and concurrent joins and leaves (two
 * store instances: two dealer processes) never overfill a lobby nor leave a filled one short.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { randomBytes32 } from '../../core/lobby.ts';
import { PostgresStore } from '../../dealer/store/postgres.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import type { DealerStore, LobbyReads, NewLobby } from '../../dealer/store/types.ts';
import { tempDir } from './fixture.ts';
import { type PgServer, postgresSkip, startPostgres } from './postgres-server.ts';

const KEY = randomBytes(32);
const addr = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;

const lobby = (o: Partial<NewLobby> = {}): NewLobby => ({
  id: randomBytes32(),
  kind: 'tiny-duel',
  ruleset: 'tiny',
  rulesetHash: `0x${'11'.repeat(32)}`,
  seats: 2,
  stake: (1n << 96n) - 1n,
  disputeDeposit: 5n,
  maxTurns: 40,
  bond: 10n ** 18n,
  openedAt: 1_700_000_000,
  ...o,
});

const joinOf = (lobbyId: string, player: string, nonce = randomBytes32()) => ({
  lobbyId,
  player,
  nonce,
  deadline: 1_700_000_600,
  signature: `0x${'ee'.repeat(65)}`,
  joinedAt: 1_700_000_001,
});

/** A `lobby_leaves` row as read behind the store's back. */
interface LeaveRow {
  lobby: string;
  player: string;
  nonce: string;
}

/**
 * The lobby contract; `open` gives a store on one fresh database, again for the same one when `same`; `leaves`
 * reads the `lobby_leaves` rows of the last database opened (what the spent nonces cost the dealer).
 */
function lobbyStoreContract(
  open: (same?: boolean) => Promise<DealerStore>,
  leaves: () => Promise<LeaveRow[]>,
): void {
  it('seats joins in order; the last seat fills the lobby and opens its successor in one transaction', async () => {
    const s = await open();
    const l = lobby({ seats: 3 });
    const next = lobby({ seats: 3, openedAt: 1_700_000_100 });
    await s.openLobby(l);
    assert.deepEqual(await s.joinLobby(joinOf(l.id, addr(1)), next), { ok: true, seat: 0, filled: false });
    assert.equal(await s.getLobby(next.id), null, 'no successor before the lobby fills');
    assert.deepEqual(await s.joinLobby(joinOf(l.id, addr(2)), next), { ok: true, seat: 1, filled: false });
    assert.deepEqual(await s.joinLobby(joinOf(l.id, addr(3)), next), { ok: true, seat: 2, filled: true });
    const got = await s.getLobby(l.id);
    assert.deepEqual(
      { ...got },
      {
        ...l,
        id: l.id.toLowerCase(),
        status: 'filled',
        filled: 3,
        createTx: null,
        gameId: null,
        createdBlock: null,
        fault: null,
      },
    );
    assert.equal((await s.getLobby(next.id))?.status, 'open');
    assert.deepEqual(
      (await s.lobbyJoins(l.id)).map((j) => [j.player, j.seat]),
      [
        [addr(1), 0],
        [addr(2), 1],
        [addr(3), 2],
      ],
    );
    assert.deepEqual(await s.joinLobby(joinOf(l.id, addr(4)), null), { ok: false, reason: 'not-open' });
    assert.deepEqual(
      (await s.listLobbies(['open'])).map((x) => x.id),
      [next.id],
    );
    assert.deepEqual(
      (await s.listLobbies()).map((x) => x.id),
      [l.id, next.id],
      'oldest first',
    );
  });

  it('refuses a used nonce (any lobby), a second seat, an unknown lobby; keeps the first join', async () => {
    const s = await open();
    const a = lobby();
    const b = lobby({ kind: 'other' });
    await s.openLobby(a);
    await s.openLobby(b);
    const first = joinOf(a.id, addr(1));
    assert.equal((await s.joinLobby(first, null)).ok, true);
    assert.deepEqual(await s.joinLobby(first, null), { ok: false, reason: 'nonce-replayed' });
    assert.deepEqual(await s.joinLobby({ ...first, lobbyId: b.id }, null), {
      ok: false,
      reason: 'nonce-replayed',
    });
    assert.deepEqual(await s.joinLobby(joinOf(a.id, addr(1)), null), { ok: false, reason: 'already-joined' });
    assert.deepEqual(await s.joinLobby(joinOf(randomBytes32(), addr(2)), null), {
      ok: false,
      reason: 'unknown-lobby',
    });
    assert.equal((await s.joinLobby(joinOf(b.id, addr(1)), null)).ok, true, 'a fresh nonce in another lobby');
    assert.equal((await s.getLobby(a.id))?.filled, 1);
  });

  it('admissions run one join at a time across stores: of two joins at once by one player, the second sees the first', async () => {
    const [s, t] = [await open(), await open(true)];
    const [a, b] = [lobby(), lobby({ openedAt: 1_700_000_050 })];
    await s.openLobby(a);
    await s.openLobby(b);
    // One seat per player, checked slowly: without the serialization both checks would read no seat.
    const admit = async (reads: LobbyReads) => {
      const seats = (await reads.lobbyJoins(a.id)).length + (await reads.lobbyJoins(b.id)).length;
      await new Promise((r) => setTimeout(r, 30));
      if (seats > 0) throw new Error('seat-pending');
    };
    const out = await Promise.allSettled([
      s.joinLobby(joinOf(a.id, addr(1)), null, admit),
      t.joinLobby(joinOf(b.id, addr(1)), null, admit),
    ]);
    assert.equal(out.filter((o) => o.status === 'fulfilled' && o.value.ok).length, 1, JSON.stringify(out));
    assert.equal(
      out.filter((o) => o.status === 'rejected' && /seat-pending/.test(String(o.reason))).length,
      1,
    );
    assert.equal((await s.lobbyJoins(a.id)).length + (await s.lobbyJoins(b.id)).length, 1);
  });

  it('a refused admission writes nothing: the nonce stays unused and the seat free', async () => {
    const s = await open();
    const l = lobby();
    await s.openLobby(l);
    const j = joinOf(l.id, addr(1));
    await assert.rejects(
      s.joinLobby(j, null, async () => {
        throw new Error('lobbies-busy');
      }),
      /lobbies-busy/,
    );
    assert.deepEqual(await s.lobbyJoins(l.id), []);
    assert.deepEqual(await s.joinLobby(j, null), { ok: true, seat: 0, filled: false });
  });

  it('keeps the signed createGame, the game id and the fault across a reopen', async () => {
    const s = await open();
    const l = lobby();
    await s.openLobby(l);
    const tx = { hash: `0x${'aa'.repeat(32)}`, raw: '0xf86c…', nonce: 7, fromBlock: 12 };
    await s.updateLobby(l.id, { status: 'creating', createTx: tx });
    const gameId = (1n << 250n) + 3n;
    await s.updateLobby(l.id, { status: 'created', gameId, createdBlock: 13 });
    const again = await open(true);
    const got = await again.getLobby(l.id);
    assert.deepEqual(
      [got?.status, got?.createTx, got?.gameId, got?.createdBlock],
      ['created', tx, gameId, 13],
    );
    assert.equal((await again.lobbyOfGame(gameId))?.id, l.id.toLowerCase());
    assert.equal(await again.lobbyOfGame(gameId + 1n), null);
    await again.updateLobby(l.id, { status: 'failed', fault: 'createGame reverted: UnknownRuleset' });
    assert.equal((await again.getLobby(l.id))?.fault, 'createGame reverted: UnknownRuleset');
    await assert.rejects(again.updateLobby(randomBytes32(), { status: 'closed' }), /no lobby/);
  });

  it('pendingLobbies: filled and creating ones, and created ones joined since, until their game is tracked past watching', async () => {
    const s = await open();
    const at = (t: number) => ({ joinedAt: t });
    const make = async (status: 'filled' | 'creating' | 'created' | 'failed', t: number, gameId?: bigint) => {
      const l = lobby({ openedAt: t });
      await s.openLobby(l);
      await s.joinLobby({ ...joinOf(l.id, addr(t)), ...at(t) }, null);
      await s.joinLobby({ ...joinOf(l.id, addr(t + 1)), ...at(t + 5) }, null);
      if (status !== 'filled') await s.updateLobby(l.id, { status, ...(gameId ? { gameId } : {}) });
      return l.id.toLowerCase();
    };
    const filled = await make('filled', 100);
    const creating = await make('creating', 200);
    const old = await make('created', 300, 3n);
    const fresh = await make('created', 1000, 4n);
    const dealt = await make('created', 1100, 5n);
    const watching = await make('created', 1200, 6n);
    await make('failed', 1300);
    await s.openLobby(lobby({ openedAt: 1400 }));
    await s.addGame({ gameId: 5n, contract: '0xc', ruleset: 'tiny', players: [] });
    await s.updateGame(5n, { status: 'dealt' });
    await s.addGame({ gameId: 6n, contract: '0xc', ruleset: 'tiny', players: [] });
    const got = await s.pendingLobbies(900);
    assert.deepEqual(
      got.map((p) => [p.lobby.id, p.lobby.status, p.filledAt, p.players]),
      [
        [filled, 'filled', 105, [addr(100), addr(101)]],
        [creating, 'creating', 205, [addr(200), addr(201)]],
        [fresh, 'created', 1005, [addr(1000), addr(1001)]],
        [watching, 'created', 1205, [addr(1200), addr(1201)]],
      ],
    );
    assert.ok(!got.some((p) => p.lobby.id === old || p.lobby.id === dealt));
  });

  it('concurrent joins from two dealer processes never overfill a lobby', async () => {
    const s1 = await open();
    const s2 = await open(true);
    const l = lobby({ seats: 4 });
    await s1.openLobby(l);
    const outs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? s1 : s2).joinLobby(joinOf(l.id, addr(100 + i)), null)),
    );
    assert.equal(outs.filter((o) => o.ok).length, 4);
    assert.ok(outs.every((o) => o.ok || o.reason === 'not-open'));
    assert.deepEqual(
      (await s1.lobbyJoins(l.id)).map((j) => j.seat),
      [0, 1, 2, 3],
    );
    assert.equal((await s2.getLobby(l.id))?.status, 'filled');
  });

  it('a leave frees its seat (later seats move down) and burns its join; refused for another join, no seat, a filled lobby', async () => {
    const s = await open();
    const l = lobby({ seats: 4 });
    await s.openLobby(l);
    const joins = [1, 2, 3].map((i) => joinOf(l.id, addr(i)));
    for (const j of joins) assert.equal((await s.joinLobby(j, null)).ok, true);
    const leave = (player: string, joinNonce: string, lobbyId = l.id) =>
      s.leaveLobby({ lobbyId, player, joinNonce, leftAt: 1_700_000_050 });
    assert.deepEqual(await leave(addr(1), randomBytes32()), { ok: false, reason: 'stale-leave' });
    assert.deepEqual(await leave(addr(9), randomBytes32()), { ok: false, reason: 'not-joined' });
    assert.deepEqual(await leave(addr(1), joins[0]!.nonce, randomBytes32()), {
      ok: false,
      reason: 'unknown-lobby',
    });
    assert.equal((await s.lobbyJoins(l.id)).length, 3, 'the refused leaves changed nothing');
    assert.deepEqual(await leave(addr(1), joins[0]!.nonce), { ok: true, seat: 0, retired: false });
    assert.deepEqual(
      (await s.lobbyJoins(l.id)).map((j) => [j.player, j.seat]),
      [
        [addr(2), 0],
        [addr(3), 1],
      ],
    );
    assert.equal((await s.getLobby(l.id))?.filled, 2);
    assert.deepEqual(
      await s.joinLobby(joins[0]!, null),
      { ok: false, reason: 'nonce-replayed' },
      'the join stays spent',
    );
    assert.deepEqual(
      await leave(addr(1), joins[0]!.nonce),
      { ok: false, reason: 'not-joined' },
      'a replayed leave',
    );
    const again = joinOf(l.id, addr(1));
    assert.deepEqual(await s.joinLobby(again, null), { ok: true, seat: 2, filled: false });
    assert.deepEqual(
      await leave(addr(1), joins[0]!.nonce),
      { ok: false, reason: 'stale-leave' },
      'the old leave',
    );
    assert.deepEqual(await s.joinLobby(joinOf(l.id, addr(4)), null), { ok: true, seat: 3, filled: true });
    assert.deepEqual(await leave(addr(2), joins[1]!.nonce), { ok: false, reason: 'not-open' });
    assert.deepEqual(
      (await s.lobbyJoins(l.id)).map((j) => [j.player, j.seat]),
      [
        [addr(2), 0],
        [addr(3), 1],
        [addr(1), 2],
        [addr(4), 3],
      ],
      'the game seats the players still there, in join order',
    );
  });

  it('a leave that empties a lobby kept on old terms retires it in the same transaction; one with joins left stays', async () => {
    const s = await open();
    const l = lobby({ seats: 3 });
    await s.openLobby(l);
    const [a, b] = [joinOf(l.id, addr(1)), joinOf(l.id, addr(2))];
    for (const j of [a, b]) assert.equal((await s.joinLobby(j, null)).ok, true);
    const leave = (j: typeof a) =>
      s.leaveLobby({ lobbyId: l.id, player: j.player, joinNonce: j.nonce, leftAt: 1, retireWhenEmpty: true });
    assert.deepEqual(await leave(a), { ok: true, seat: 0, retired: false });
    assert.equal((await s.getLobby(l.id))?.status, 'open');
    assert.deepEqual(await leave(b), { ok: true, seat: 0, retired: true });
    assert.equal((await s.getLobby(l.id))?.status, 'closed');
    assert.deepEqual(await s.joinLobby(joinOf(l.id, addr(3)), null), { ok: false, reason: 'not-open' });
  });

  it('a leave racing the join that would fill the lobby (two dealer processes): one of them wins, never both', async () => {
    for (let round = 0; round < 6; round++) {
      const s1 = await open(round > 0);
      const s2 = await open(true);
      const l = lobby({ seats: 2 });
      await s1.openLobby(l);
      const first = joinOf(l.id, addr(1));
      assert.equal((await s1.joinLobby(first, null)).ok, true);
      const [left, filling] = await Promise.all([
        (round % 2 ? s1 : s2).leaveLobby({
          lobbyId: l.id,
          player: addr(1),
          joinNonce: first.nonce,
          leftAt: 1,
        }),
        (round % 2 ? s2 : s1).joinLobby(joinOf(l.id, addr(2)), null),
      ]);
      assert.equal(filling.ok, true);
      const got = await s1.getLobby(l.id);
      const seated = (await s1.lobbyJoins(l.id)).map((j) => [j.player, j.seat]);
      if (left.ok) {
        assert.equal(got?.status, 'open');
        assert.deepEqual(seated, [[addr(2), 0]]);
      } else {
        assert.deepEqual(left, { ok: false, reason: 'not-open' });
        assert.equal(got?.status, 'filled');
        assert.deepEqual(seated, [
          [addr(1), 0],
          [addr(2), 1],
        ]);
      }
    }
  });

  // The attacker holds every join and leave the player ever signed (a proxy's log) and replays them.
  it('a left join stays spent while it could be replayed: in its lobby, in another, after later leaves; its row goes once its deadline is forgotten, and the join with it', async () => {
    const s = await open();
    const [a, b] = [lobby({ seats: 4 }), lobby({ seats: 4, kind: 'other' })];
    await s.openLobby(a);
    await s.openLobby(b);
    const leave = (j: ReturnType<typeof joinOf>, forgetBefore: number) =>
      s.leaveLobby({
        lobbyId: j.lobbyId,
        player: j.player,
        joinNonce: j.nonce,
        leftAt: 1_700_000_050,
        forgetBefore,
      });
    const replayed = { ok: false, reason: 'nonce-replayed' };
    const alice = joinOf(a.id, addr(1)); // deadline 1_700_000_600
    assert.equal((await s.joinLobby(alice, null)).ok, true);
    assert.equal((await leave(alice, 1_700_000_000)).ok, true);
    assert.deepEqual(await s.joinLobby(alice, null), replayed, 'replayed after leaving');
    assert.deepEqual(
      await s.joinLobby({ ...alice, lobbyId: b.id }, null),
      replayed,
      'its nonce in another lobby',
    );
    // Later leaves forget only the joins whose deadline is before their `forgetBefore`: Alice's is not.
    const bob = joinOf(a.id, addr(2));
    assert.equal((await s.joinLobby(bob, null)).ok, true);
    assert.equal((await leave(bob, alice.deadline)).ok, true);
    assert.deepEqual(await s.joinLobby(alice, null), replayed, 'replayed after a later leave pruned');
    assert.deepEqual(await s.joinLobby({ ...alice, lobbyId: b.id }, null), replayed);
    assert.deepEqual(
      (await leaves()).map((r) => r.player).sort(),
      [addr(1), addr(2)],
      'both joins could still be replayed: both kept',
    );
    // Past the deadline: the rows go, and every join that old with them (whatever its nonce, any lobby).
    const carol = { ...joinOf(a.id, addr(3)), deadline: 1_700_001_200 };
    assert.equal((await s.joinLobby(carol, null)).ok, true);
    assert.equal((await leave(carol, alice.deadline + 1)).ok, true);
    assert.deepEqual(
      (await leaves()).map((r) => [r.lobby, r.player, r.nonce]),
      [[a.id.toLowerCase(), addr(3), carol.nonce]],
      "only Carol's join, not yet past its deadline, is kept",
    );
    assert.deepEqual(await s.joinLobby(alice, null), replayed, 'replayed after its row was pruned');
    assert.deepEqual(await s.joinLobby(bob, null), replayed);
    assert.deepEqual(await s.joinLobby({ ...alice, lobbyId: b.id }, null), replayed);
    assert.deepEqual(
      await s.joinLobby({ ...joinOf(b.id, addr(1)), deadline: alice.deadline }, null),
      replayed,
      'a fresh nonce but a forgotten deadline',
    );
    assert.deepEqual(await s.joinLobby(carol, null), replayed, 'the join kept is still spent');
    // The forgetting is per database, not per store: another dealer process refuses them too.
    const other = await open(true);
    assert.deepEqual(await other.joinLobby(alice, null), replayed);
    assert.deepEqual(
      await other.leaveLobby({
        lobbyId: a.id,
        player: addr(1),
        joinNonce: alice.nonce,
        leftAt: 1,
        forgetBefore: 0,
      }),
      { ok: false, reason: 'not-joined' },
      'the leave replayed',
    );
    // A later forgetBefore never lowers the bound: an earlier one changes nothing.
    const dave = { ...joinOf(a.id, addr(4)), deadline: 1_700_001_200 };
    assert.equal((await s.joinLobby(dave, null)).ok, true);
    assert.equal((await leave(dave, 0)).ok, true);
    assert.deepEqual(await s.joinLobby(bob, null), replayed);
    assert.deepEqual(
      await s.joinLobby({ ...joinOf(a.id, addr(1)), deadline: 1_700_001_200 }, null),
      { ok: true, seat: 0, filled: false },
      'a fresh join of a player that left',
    );
  });

  it("a leave from a process whose clock runs an hour ahead cannot push the floor past the database's clock", async () => {
    // Review 37: the floor is global and only rises; one such leave (a throwaway key joins and leaves) refused every
    // honest join, in every lobby and process, until real time caught up.
    const s = await open();
    const [a, b] = [lobby({ seats: 4 }), lobby({ seats: 4, kind: 'other' })];
    await s.openLobby(a);
    await s.openLobby(b);
    const now = Math.floor(Date.now() / 1000);
    const ahead = now + 3600;
    const mallory = { ...joinOf(a.id, addr(0xbad)), deadline: ahead + 120, joinedAt: ahead };
    assert.equal((await s.joinLobby(mallory, null)).ok, true);
    const left = await s.leaveLobby({
      lobbyId: a.id,
      player: mallory.player,
      joinNonce: mallory.nonce,
      leftAt: ahead,
      forgetBefore: ahead - 300, // what dealer/lobby.ts passes from that clock
    });
    assert.equal(left.ok, true);
    // An honest join through another process with a right clock (the SDK's deadline: now + 120), another lobby.
    const other = await open(true);
    const alice = { ...joinOf(b.id, addr(1)), deadline: now + 120, joinedAt: now };
    assert.deepEqual(await other.joinLobby(alice, null), { ok: true, seat: 0, filled: false });
    // Mallory's own join is still refused (its row is kept: its deadline is not before the capped floor).
    assert.deepEqual(await other.joinLobby(mallory, null), { ok: false, reason: 'nonce-replayed' });
  });

  it('one address joining and leaving over and over: its spent joins are kept only until their deadlines pass', async () => {
    const s = await open();
    const l = lobby({ seats: 2 });
    await s.openLobby(l);
    const AHEAD = 600;
    const GRACE = 60;
    const spent: ReturnType<typeof joinOf>[] = [];
    for (let i = 0; i < 40; i++) {
      const t = 1_700_000_000 + i * 100; // a join and a leave every 100 s, each join good for 600 s
      const j = { ...joinOf(l.id, addr(1)), deadline: t + AHEAD, joinedAt: t };
      assert.deepEqual(await s.joinLobby(j, null), { ok: true, seat: 0, filled: false });
      assert.equal(
        (
          await s.leaveLobby({
            lobbyId: l.id,
            player: addr(1),
            joinNonce: j.nonce,
            leftAt: t,
            forgetBefore: t - GRACE,
          })
        ).ok,
        true,
      );
      spent.push(j);
      const rows = await leaves();
      assert.ok(rows.length <= (AHEAD + GRACE) / 100 + 1, `${rows.length} rows after ${i + 1} cycles`);
    }
    assert.equal((await leaves()).length, 7, 'the joins of the last 600 + 60 s');
    for (const j of spent)
      assert.deepEqual(await s.joinLobby(j, null), { ok: false, reason: 'nonce-replayed' });
  });

  it("a lobby that closes drops its spent joins (it refuses every join and leave); other lobbies' stay", async () => {
    const s = await open();
    const [a, b, c, d] = [
      lobby({ seats: 2 }),
      lobby({ seats: 2, kind: 'b' }),
      lobby({ seats: 3, kind: 'c' }),
      lobby({ kind: 'd' }),
    ];
    for (const l of [a, b, c, d]) await s.openLobby(l);
    const cycle = async (l: NewLobby, player: string, retireWhenEmpty = false) => {
      const j = joinOf(l.id, player);
      assert.equal((await s.joinLobby(j, null)).ok, true);
      const out = await s.leaveLobby({
        lobbyId: l.id,
        player,
        joinNonce: j.nonce,
        leftAt: 1,
        forgetBefore: 0,
        retireWhenEmpty,
      });
      assert.equal(out.ok, true);
      return j;
    };
    const spent = [
      await cycle(a, addr(1)),
      await cycle(b, addr(2)),
      await cycle(c, addr(3)),
      await cycle(d, addr(4)),
    ];
    assert.equal((await leaves()).length, 4);
    // a fills (in the join's transaction); c's last leave retires it; d is retired by the service (updateLobby).
    assert.equal((await s.joinLobby(joinOf(a.id, addr(5)), null)).ok, true);
    assert.deepEqual(await s.joinLobby(joinOf(a.id, addr(6)), null), { ok: true, seat: 1, filled: true });
    await cycle(c, addr(7), true);
    assert.equal((await s.getLobby(c.id))?.status, 'closed');
    await s.updateLobby(d.id, { status: 'closed' });
    assert.deepEqual(
      (await leaves()).map((r) => [r.lobby, r.player]),
      [[b.id.toLowerCase(), addr(2)]],
      'only the open lobby keeps its spent joins',
    );
    // Every join of them is still refused: the closed lobbies take none, the open one keeps its row.
    for (const j of spent) assert.equal((await s.joinLobby(j, null)).ok, false, j.lobbyId);
    assert.deepEqual(await s.joinLobby(spent[1]!, null), { ok: false, reason: 'nonce-replayed' });
    assert.deepEqual(await s.joinLobby(spent[0]!, null), { ok: false, reason: 'not-open' });
  });
}

describe('lobby store: SQLite', () => {
  const tmp = tempDir();
  const opened: DealerStore[] = [];
  let n = 0;
  let path = '';
  after(async () => {
    for (const s of opened) await s.close();
    tmp.cleanup();
  });
  lobbyStoreContract(
    async (same) => {
      if (!same) path = join(tmp.dir, `l${n++}.sqlite`);
      const s = new SqliteStore(path, secretBox(KEY));
      opened.push(s);
      return s;
    },
    async () => {
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        return db
          .prepare('SELECT lobby_id AS lobby, player, nonce FROM lobby_leaves ORDER BY lobby_id, player')
          .all() as unknown as LeaveRow[];
      } finally {
        db.close();
      }
    },
  );
});

describe('lobby store: Postgres', { skip: postgresSkip() }, () => {
  let server: PgServer;
  const opened: DealerStore[] = [];
  let url = '';
  before(async () => {
    server = await startPostgres();
  });
  after(async () => {
    for (const s of opened) await s.close();
    await server?.destroy();
  });
  lobbyStoreContract(
    async (same) => {
      if (!same) url = await server.createDatabase();
      const s = await PostgresStore.open(url, secretBox(KEY), { maxConnections: 4 });
      opened.push(s);
      return s;
    },
    async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const { rows } = await c.query<LeaveRow>(
          'SELECT lobby_id AS lobby, player, nonce FROM lobby_leaves ORDER BY lobby_id, player',
        );
        return rows;
      } finally {
        await c.end();
      }
    },
  );

  it('a burst of slow joins holds one pool connection at a time: other store calls still get theirs', async () => {
    // Review 33: each join took a connection and then waited on the join lock, so a burst of joins (refused ones
    // too: the admission runs under the lock) held every connection and the dealer's other calls timed out.
    const s = await PostgresStore.open(await server.createDatabase(), secretBox(KEY), {
      maxConnections: 2,
      connectTimeoutMs: 1_000,
    });
    opened.push(s);
    const l = lobby({ seats: 8 });
    await s.openLobby(l);
    const slow = async () => {
      await new Promise((r) => setTimeout(r, 200));
      throw new Error('seat-pending');
    };
    // Eight joins of 200 ms each: 1.6 s of lock, longer than the 1 s another call may wait for a connection.
    const burst = Array.from({ length: 8 }, (_, i) =>
      s.joinLobby(joinOf(l.id, addr(100 + i)), null, slow).then(
        () => 'joined',
        (e: Error) => e.message,
      ),
    );
    await new Promise((r) => setTimeout(r, 50));
    const reads: string[] = [];
    for (let i = 0; i < 4; i++) {
      reads.push(
        await s.getLobby(l.id).then(
          (x) => x?.status ?? 'none',
          (e: Error) => e.message,
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
    }
    assert.deepEqual(reads, ['open', 'open', 'open', 'open'], 'every read got a connection during the burst');
    assert.deepEqual(await Promise.all(burst), new Array(8).fill('seat-pending'));
  });

  it('a join lock held past the lock timeout (a stalled dealer process): the waiting join is refused as busy', async () => {
    const db = await server.createDatabase();
    const [a, b] = [
      await PostgresStore.open(db, secretBox(KEY), { maxConnections: 2 }),
      await PostgresStore.open(db, secretBox(KEY), { maxConnections: 2 }),
    ];
    opened.push(a, b);
    const l = lobby({ seats: 3 });
    await a.openLobby(l);
    let release = () => {};
    const stalled = a.joinLobby(joinOf(l.id, addr(1)), null, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    assert.deepEqual(await b.joinLobby(joinOf(l.id, addr(2)), null), { ok: false, reason: 'busy' });
    assert.ok(
      Date.now() - t0 < 8_000,
      `refused after the 5 s lock timeout, not later: ${Date.now() - t0} ms`,
    );
    release();
    assert.deepEqual(await stalled, { ok: true, seat: 0, filled: false });
    assert.deepEqual(await b.joinLobby(joinOf(l.id, addr(2)), null), { ok: true, seat: 1, filled: false });
  });
});
