/** The lobbies' tables on SQLite (dealer/store/sqlite.ts runs the migration and delegates here). */
import { resolve } from 'node:path';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import {
  LOBBY_COLUMNS as COLUMNS,
  type JoinRow,
  type LobbyRow,
  LOBBY_SELECT as SELECT,
  toJoin,
  toLobby,
} from './lobby-rows.ts';
import { SerialQueue } from './serial-queue.ts';
import type {
  JoinAdmission,
  JoinOutcome,
  LeaveOutcome,
  LobbyJoin,
  LobbyLeave,
  LobbyPatch,
  LobbyRecord,
  LobbyStatus,
  LobbyStore,
  NewLobby,
  PendingLobby,
} from './types.ts';

/** Lobbies and their joins. Amounts are decimal TEXT (uint96 does not fit an INTEGER); the signed tx is JSON. */
export const SQLITE_LOBBY_MIGRATION = `CREATE TABLE lobbies (
     lobby_id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     ruleset TEXT NOT NULL,
     ruleset_hash TEXT NOT NULL,
     seats INTEGER NOT NULL,
     stake TEXT NOT NULL,
     dispute_deposit TEXT NOT NULL,
     max_turns INTEGER NOT NULL,
     bond TEXT NOT NULL,
     status TEXT NOT NULL,
     opened_at INTEGER NOT NULL,
     create_tx TEXT,
     game_id TEXT,
     created_block INTEGER,
     fault TEXT,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX lobbies_status ON lobbies (status);
   CREATE TABLE lobby_joins (
     lobby_id TEXT NOT NULL REFERENCES lobbies (lobby_id),
     player TEXT NOT NULL,
     seat INTEGER NOT NULL,
     nonce TEXT NOT NULL,
     deadline INTEGER NOT NULL,
     signature TEXT NOT NULL,
     joined_at INTEGER NOT NULL,
     PRIMARY KEY (lobby_id, player),
     UNIQUE (lobby_id, seat),
     UNIQUE (player, nonce)
   );`;

/** When seats were taken: the lobbies whose games may still wait for their players are found by it. */
export const SQLITE_LOBBY_JOINED_AT_MIGRATION =
  'CREATE INDEX lobby_joins_joined_at ON lobby_joins (joined_at);';

/** Seats given up (`LobbyStore.leaveLobby`): their joins' nonces stay burned. */
export const SQLITE_LOBBY_LEAVES_MIGRATION = `CREATE TABLE lobby_leaves (
     lobby_id TEXT NOT NULL REFERENCES lobbies (lobby_id),
     player TEXT NOT NULL,
     nonce TEXT NOT NULL,
     left_at INTEGER NOT NULL,
     PRIMARY KEY (player, nonce)
   );`;

/**
 * Spent nonces kept only while they matter (`LobbyLeave.forgetBefore`): each left join keeps its deadline, and
 * `lobby_nonce_floor` the latest `forgetBefore`; a join with a deadline before it is refused, so the rows of the
 * joins whose deadline is before it can go. Rows from before this migration get a deadline no join of theirs
 * can have passed: their leave's time plus the longest `maxJoinAheadSeconds` the config accepts (86400). Rows of
 * lobbies no longer open go (those lobbies take no joins); from now on a lobby drops them as it closes.
 */
export const SQLITE_LOBBY_LEAVES_BOUND_MIGRATION = `ALTER TABLE lobby_leaves ADD COLUMN deadline INTEGER;
   UPDATE lobby_leaves SET deadline = left_at + 86400;
   DELETE FROM lobby_leaves WHERE lobby_id NOT IN (SELECT lobby_id FROM lobbies WHERE status = 'open');
   CREATE INDEX lobby_leaves_deadline ON lobby_leaves (deadline);
   CREATE INDEX lobby_leaves_lobby ON lobby_leaves (lobby_id);
   CREATE TABLE lobby_nonce_floor (id INTEGER PRIMARY KEY CHECK (id = 0), forgotten_before INTEGER NOT NULL);
   INSERT INTO lobby_nonce_floor (id, forgotten_before) VALUES (0, 0);`;

/**
 * The join queue of each database file in this process: a join's admission check and its write run after the one
 * before has finished (keyed by path, so two stores on one file in one process share it).
 */
const joinQueues = new Map<string, SerialQueue>();
let memoryDbs = 0;

export class SqliteLobbies implements LobbyStore {
  readonly #db: DatabaseSync;
  readonly #tx: <T>(fn: () => T) => T;
  /** The join queue of the database file (`:memory:` databases each get their own). */
  readonly #joins: SerialQueue;

  constructor(db: DatabaseSync, tx: <T>(fn: () => T) => T, path: string) {
    this.#db = db;
    this.#tx = tx;
    const key = path === ':memory:' || path === '' ? `:memory:${++memoryDbs}` : resolve(path);
    this.#joins = joinQueues.get(key) ?? new SerialQueue();
    joinQueues.set(key, this.#joins);
  }

  #insert(l: NewLobby): void {
    this.#db
      .prepare(
        `INSERT INTO lobbies (lobby_id, kind, ruleset, ruleset_hash, seats, stake, dispute_deposit, max_turns, bond,
           status, opened_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)`,
      )
      .run(
        l.id.toLowerCase(),
        l.kind,
        l.ruleset,
        l.rulesetHash.toLowerCase(),
        l.seats,
        l.stake.toString(),
        l.disputeDeposit.toString(),
        l.maxTurns,
        l.bond.toString(),
        l.openedAt,
        Date.now(),
      );
  }

  async openLobby(l: NewLobby): Promise<void> {
    this.#insert(l);
  }

  async getLobby(id: string): Promise<LobbyRecord | null> {
    const r = this.#db.prepare(`${SELECT} WHERE l.lobby_id = ?`).get(id.toLowerCase()) as
      | LobbyRow
      | undefined;
    return r ? toLobby(r) : null;
  }

  async listLobbies(statuses?: readonly LobbyStatus[]): Promise<LobbyRecord[]> {
    const where = statuses ? ` WHERE l.status IN (${statuses.map(() => '?').join(', ') || 'NULL'})` : '';
    const rows = this.#db
      .prepare(`${SELECT}${where} ORDER BY l.opened_at, l.rowid`)
      .all(...(statuses ?? [])) as unknown as LobbyRow[];
    return rows.map(toLobby);
  }

  /** One join at a time per database file (`LobbyStore.joinLobby`): the admission, then the transaction. */
  joinLobby(j: Omit<LobbyJoin, 'seat'>, next: NewLobby | null, admit?: JoinAdmission): Promise<JoinOutcome> {
    return this.#joins.run(async () => {
      if (admit) await admit(this);
      return this.#join(j, next);
    });
  }

  #join(j: Omit<LobbyJoin, 'seat'>, next: NewLobby | null): JoinOutcome {
    const db = this.#db;
    const player = j.player.toLowerCase();
    const lobbyId = j.lobbyId.toLowerCase();
    return this.#tx((): JoinOutcome => {
      const l = db.prepare(`${SELECT} WHERE l.lobby_id = ?`).get(lobbyId) as LobbyRow | undefined;
      if (!l) return { ok: false, reason: 'unknown-lobby' };
      // A join whose deadline is before the floor may have been left and its row forgotten: refused as one.
      const burned = `SELECT 1 AS x FROM lobby_joins WHERE player = ? AND nonce = ?
         UNION ALL SELECT 1 AS x FROM lobby_leaves WHERE player = ? AND nonce = ?
         UNION ALL SELECT 1 AS x FROM lobby_nonce_floor WHERE forgotten_before > ?`;
      if (db.prepare(burned).get(player, j.nonce, player, j.nonce, j.deadline)) {
        return { ok: false, reason: 'nonce-replayed' };
      }
      if (
        db.prepare('SELECT 1 AS x FROM lobby_joins WHERE lobby_id = ? AND player = ?').get(lobbyId, player)
      ) {
        return { ok: false, reason: 'already-joined' };
      }
      if (l.status !== 'open' || Number(l.filled) >= l.seats) return { ok: false, reason: 'not-open' };
      const seat = Number(l.filled);
      db.prepare(
        `INSERT INTO lobby_joins (lobby_id, player, seat, nonce, deadline, signature, joined_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(lobbyId, player, seat, j.nonce, j.deadline, j.signature, j.joinedAt);
      const filled = seat + 1 === l.seats;
      if (filled) {
        db.prepare(`UPDATE lobbies SET status = 'filled', updated_at = ? WHERE lobby_id = ?`).run(
          Date.now(),
          lobbyId,
        );
        this.#forgetLobby(lobbyId);
        if (next) this.#insert(next);
      }
      return { ok: true, seat, filled };
    });
  }

  /** In the join queue (`LobbyStore.leaveLobby`). */
  leaveLobby(l: LobbyLeave): Promise<LeaveOutcome> {
    return this.#joins.run(async () => this.#leave(l));
  }

  #leave(l: LobbyLeave): LeaveOutcome {
    const db = this.#db;
    const lobbyId = l.lobbyId.toLowerCase();
    const player = l.player.toLowerCase();
    return this.#tx((): LeaveOutcome => {
      const lobby = db.prepare('SELECT status FROM lobbies WHERE lobby_id = ?').get(lobbyId) as
        | { status: string }
        | undefined;
      if (!lobby) return { ok: false, reason: 'unknown-lobby' };
      const join = db
        .prepare('SELECT seat, nonce, deadline FROM lobby_joins WHERE lobby_id = ? AND player = ?')
        .get(lobbyId, player) as { seat: number; nonce: string; deadline: number } | undefined;
      if (!join) return { ok: false, reason: 'not-joined' };
      if (join.nonce !== l.joinNonce.toLowerCase()) return { ok: false, reason: 'stale-leave' };
      if (lobby.status !== 'open') return { ok: false, reason: 'not-open' };
      db.prepare('DELETE FROM lobby_joins WHERE lobby_id = ? AND player = ?').run(lobbyId, player);
      db.prepare(
        'INSERT INTO lobby_leaves (lobby_id, player, nonce, left_at, deadline) VALUES (?, ?, ?, ?, ?)',
      ).run(lobbyId, player, join.nonce, l.leftAt, join.deadline);
      if (l.forgetBefore !== undefined) {
        // The floor first: no join older than the rows about to go can be seated once they are gone. Never past
        // the database's clock: a process whose clock runs ahead must not refuse every fresh join (review 37).
        db.prepare(
          `UPDATE lobby_nonce_floor SET forgotten_before = MAX(forgotten_before, MIN(?, CAST(strftime('%s', 'now') AS INTEGER)))`,
        ).run(l.forgetBefore);
        db.prepare(
          'DELETE FROM lobby_leaves WHERE deadline < (SELECT forgotten_before FROM lobby_nonce_floor)',
        ).run();
      }
      // Later seats move down by one, through negative values: UNIQUE (lobby_id, seat) holds after each row.
      db.prepare('UPDATE lobby_joins SET seat = -seat WHERE lobby_id = ? AND seat > ?').run(
        lobbyId,
        join.seat,
      );
      db.prepare('UPDATE lobby_joins SET seat = -seat - 1 WHERE lobby_id = ? AND seat < 0').run(lobbyId);
      const empty = !db.prepare('SELECT 1 AS x FROM lobby_joins WHERE lobby_id = ?').get(lobbyId);
      const retired = empty && l.retireWhenEmpty === true;
      if (retired) {
        db.prepare(`UPDATE lobbies SET status = 'closed', updated_at = ? WHERE lobby_id = ?`).run(
          Date.now(),
          lobbyId,
        );
        this.#forgetLobby(lobbyId);
      }
      return { ok: true, seat: join.seat, retired };
    });
  }

  /** A lobby that is no longer open takes no joins: its spent nonces need no keeping (in the caller's transaction). */
  #forgetLobby(lobbyId: string): void {
    this.#db.prepare('DELETE FROM lobby_leaves WHERE lobby_id = ?').run(lobbyId);
  }

  async lobbyJoins(id: string): Promise<LobbyJoin[]> {
    const rows = this.#db
      .prepare('SELECT * FROM lobby_joins WHERE lobby_id = ? ORDER BY seat')
      .all(id.toLowerCase()) as unknown as JoinRow[];
    return rows.map(toJoin);
  }

  async lobbyOfGame(gameId: bigint): Promise<LobbyRecord | null> {
    const r = this.#db.prepare(`${SELECT} WHERE l.game_id = ?`).get(gameId.toString()) as
      | LobbyRow
      | undefined;
    return r ? toLobby(r) : null;
  }

  async pendingLobbies(since: number): Promise<PendingLobby[]> {
    // Two indexed lookups (by status; the recent joins by joined_at), not a scan of every lobby ever created.
    const rows = this.#db
      .prepare(
        `${SELECT} WHERE l.status IN ('filled', 'creating')
         UNION ALL
         ${COLUMNS} FROM (SELECT DISTINCT lobby_id FROM lobby_joins INDEXED BY lobby_joins_joined_at WHERE joined_at >= ?) r
           CROSS JOIN lobbies l ON l.lobby_id = r.lobby_id LEFT JOIN games g ON g.game_id = l.game_id
         WHERE l.status = 'created' AND (g.status IS NULL OR g.status = 'watching')
         ORDER BY opened_at`,
      )
      .all(since) as unknown as LobbyRow[];
    return Promise.all(
      rows.map(async (r) => {
        const joins = await this.lobbyJoins(r.lobby_id);
        return {
          lobby: toLobby(r),
          players: joins.map((j) => j.player),
          filledAt: Math.max(0, ...joins.map((j) => j.joinedAt)),
        };
      }),
    );
  }

  async updateLobby(id: string, patch: LobbyPatch): Promise<void> {
    const cols: [string, SQLInputValue][] = [];
    if (patch.status !== undefined) cols.push(['status', patch.status]);
    if (patch.createTx !== undefined)
      cols.push(['create_tx', patch.createTx === null ? null : JSON.stringify(patch.createTx)]);
    if (patch.gameId !== undefined) cols.push(['game_id', patch.gameId?.toString() ?? null]);
    if (patch.createdBlock !== undefined) cols.push(['created_block', patch.createdBlock]);
    if (patch.fault !== undefined) cols.push(['fault', patch.fault]);
    cols.push(['updated_at', Date.now()]);
    const lobbyId = id.toLowerCase();
    this.#tx(() => {
      const res = this.#db
        .prepare(`UPDATE lobbies SET ${cols.map(([c]) => `${c} = ?`).join(', ')} WHERE lobby_id = ?`)
        .run(...cols.map(([, v]) => v), lobbyId);
      if (res.changes !== 1) throw new Error(`no lobby ${id} to update`);
      if (patch.status !== undefined && patch.status !== 'open') this.#forgetLobby(lobbyId);
    });
  }
}
