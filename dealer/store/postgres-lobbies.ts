/** The lobbies' tables on PostgreSQL (dealer/store/postgres.ts runs the migration and delegates here). */
import type pg from 'pg';
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
  LobbyReads,
  LobbyRecord,
  LobbyStatus,
  LobbyStore,
  NewLobby,
  PendingLobby,
} from './types.ts';

/** Lobbies and their joins: amounts NUMERIC (uint96), the signed createGame JSONB. */
export const POSTGRES_LOBBY_MIGRATION = `CREATE TABLE lobbies (
     lobby_id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     ruleset TEXT NOT NULL,
     ruleset_hash TEXT NOT NULL,
     seats INTEGER NOT NULL,
     stake NUMERIC NOT NULL,
     dispute_deposit NUMERIC NOT NULL,
     max_turns BIGINT NOT NULL,
     bond NUMERIC NOT NULL,
     status TEXT NOT NULL,
     opened_at BIGINT NOT NULL,
     seq BIGSERIAL,
     create_tx JSONB,
     game_id NUMERIC,
     created_block BIGINT,
     fault TEXT,
     updated_at BIGINT NOT NULL
   );
   CREATE INDEX lobbies_status ON lobbies (status);
   CREATE TABLE lobby_joins (
     lobby_id TEXT NOT NULL REFERENCES lobbies (lobby_id),
     player TEXT NOT NULL,
     seat INTEGER NOT NULL,
     nonce TEXT NOT NULL,
     deadline BIGINT NOT NULL,
     signature TEXT NOT NULL,
     joined_at BIGINT NOT NULL,
     PRIMARY KEY (lobby_id, player),
     UNIQUE (lobby_id, seat),
     UNIQUE (player, nonce)
   );`;

/** When seats were taken: the lobbies whose games may still wait for their players are found by it. */
export const POSTGRES_LOBBY_JOINED_AT_MIGRATION =
  'CREATE INDEX lobby_joins_joined_at ON lobby_joins (joined_at);';

/** Seats given up (`LobbyStore.leaveLobby`): their joins' nonces stay burned. */
export const POSTGRES_LOBBY_LEAVES_MIGRATION = `CREATE TABLE lobby_leaves (
     lobby_id TEXT NOT NULL REFERENCES lobbies (lobby_id),
     player TEXT NOT NULL,
     nonce TEXT NOT NULL,
     left_at BIGINT NOT NULL,
     PRIMARY KEY (player, nonce)
   );`;

/**
 * Spent nonces kept only while they matter (`LobbyLeave.forgetBefore`): each left join keeps its deadline, and
 * `lobby_nonce_floor` the latest `forgetBefore`; a join with a deadline before it is refused, so the rows of the
 * joins whose deadline is before it can go. Rows from before this migration get a deadline no join of theirs
 * can have passed: their leave's time plus the longest `maxJoinAheadSeconds` the config accepts (86400). Rows of
 * lobbies no longer open go (those lobbies take no joins); from now on a lobby drops them as it closes.
 */
export const POSTGRES_LOBBY_LEAVES_BOUND_MIGRATION = `ALTER TABLE lobby_leaves ADD COLUMN deadline BIGINT;
   UPDATE lobby_leaves SET deadline = left_at + 86400;
   DELETE FROM lobby_leaves WHERE lobby_id NOT IN (SELECT lobby_id FROM lobbies WHERE status = 'open');
   CREATE INDEX lobby_leaves_deadline ON lobby_leaves (deadline);
   CREATE INDEX lobby_leaves_lobby ON lobby_leaves (lobby_id);
   CREATE TABLE lobby_nonce_floor (id INTEGER PRIMARY KEY CHECK (id = 0), forgotten_before BIGINT NOT NULL);
   INSERT INTO lobby_nonce_floor (id, forgotten_before) VALUES (0, 0);`;

/** Unique violation: a concurrent join (another process) used the same nonce first. */
const UNIQUE_VIOLATION = '23505';
/** lock_not_available: the join lock was not free within `JOIN_LOCK_TIMEOUT`. */
const LOCK_NOT_AVAILABLE = '55P03';
/** How long a join waits for the join lock before it is refused as busy (a stalled holder blocks no one longer). */
const JOIN_LOCK_TIMEOUT = '5s';
/**
 * The advisory lock key every join takes for its transaction (`pg_advisory_xact_lock`): joins of all dealer
 * processes on one database run one at a time, so their admission checks across lobbies cannot race.
 */
const JOIN_LOCK = 0x53684a6e; // "ShJn"

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** A lobby that is no longer open takes no joins: its spent nonces need no keeping (in the caller's transaction). */
async function forgetLobby(q: Queryable, lobbyId: string): Promise<void> {
  await q.query('DELETE FROM lobby_leaves WHERE lobby_id = $1', [lobbyId]);
}

export class PostgresLobbies implements LobbyStore {
  readonly #pool: pg.Pool;
  readonly #tx: <T>(fn: (c: pg.PoolClient) => Promise<T>) => Promise<T>;
  /** This process's joins, one at a time: at most one pool connection waits on the join lock. */
  readonly #joins = new SerialQueue();

  constructor(pool: pg.Pool, tx: <T>(fn: (c: pg.PoolClient) => Promise<T>) => Promise<T>) {
    this.#pool = pool;
    this.#tx = tx;
  }

  async #insert(q: Queryable, l: NewLobby): Promise<void> {
    await q.query(
      `INSERT INTO lobbies (lobby_id, kind, ruleset, ruleset_hash, seats, stake, dispute_deposit, max_turns, bond,
         status, opened_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10, $11)`,
      [
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
      ],
    );
  }

  openLobby(l: NewLobby): Promise<void> {
    return this.#insert(this.#pool, l);
  }

  async getLobby(id: string): Promise<LobbyRecord | null> {
    const { rows } = await this.#pool.query<LobbyRow>(`${SELECT} WHERE l.lobby_id = $1`, [id.toLowerCase()]);
    return rows[0] ? toLobby(rows[0]) : null;
  }

  listLobbies(statuses?: readonly LobbyStatus[]): Promise<LobbyRecord[]> {
    return this.#listLobbies(this.#pool, statuses);
  }

  async #listLobbies(q: Queryable, statuses?: readonly LobbyStatus[]): Promise<LobbyRecord[]> {
    const { rows } = statuses
      ? await q.query<LobbyRow>(`${SELECT} WHERE l.status = ANY($1) ORDER BY l.opened_at, l.seq`, [
          [...statuses],
        ])
      : await q.query<LobbyRow>(`${SELECT} ORDER BY l.opened_at, l.seq`);
    return rows.map(toLobby);
  }

  /** The admission's reads, on the join's own connection (inside its transaction and lock). */
  #readsOn(q: Queryable): LobbyReads {
    return {
      listLobbies: (statuses) => this.#listLobbies(q, statuses),
      lobbyJoins: (id) => this.#lobbyJoins(q, id),
      pendingLobbies: (since) => this.#pendingLobbies(q, since),
    };
  }

  async joinLobby(
    j: Omit<LobbyJoin, 'seat'>,
    next: NewLobby | null,
    admit?: JoinAdmission,
  ): Promise<JoinOutcome> {
    const player = j.player.toLowerCase();
    const lobbyId = j.lobbyId.toLowerCase();
    try {
      return await this.#joins.run(() =>
        this.#tx(async (c): Promise<JoinOutcome> => {
          await this.#joinLock(c);
          if (admit) await admit(this.#readsOn(c));
          // Row lock: joins to one lobby take their seats one at a time, across processes.
          const locked = await c.query<{ status: string; seats: number }>(
            'SELECT status, seats FROM lobbies WHERE lobby_id = $1 FOR UPDATE',
            [lobbyId],
          );
          const l = locked.rows[0];
          if (!l) return { ok: false, reason: 'unknown-lobby' };
          // A join whose deadline is before the floor may have been left and its row forgotten: refused as one.
          const used = await c.query(
            `SELECT 1 FROM lobby_joins WHERE player = $1 AND nonce = $2
             UNION ALL SELECT 1 FROM lobby_leaves WHERE player = $1 AND nonce = $2
             UNION ALL SELECT 1 FROM lobby_nonce_floor WHERE forgotten_before > $3`,
            [player, j.nonce, j.deadline],
          );
          if (used.rowCount) return { ok: false, reason: 'nonce-replayed' };
          const seated = await c.query('SELECT 1 FROM lobby_joins WHERE lobby_id = $1 AND player = $2', [
            lobbyId,
            player,
          ]);
          if (seated.rowCount) return { ok: false, reason: 'already-joined' };
          const count = await c.query<{ n: string }>(
            'SELECT COUNT(*) AS n FROM lobby_joins WHERE lobby_id = $1',
            [lobbyId],
          );
          const seat = Number(count.rows[0]!.n);
          if (l.status !== 'open' || seat >= l.seats) return { ok: false, reason: 'not-open' };
          await c.query(
            `INSERT INTO lobby_joins (lobby_id, player, seat, nonce, deadline, signature, joined_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [lobbyId, player, seat, j.nonce, j.deadline, j.signature, j.joinedAt],
          );
          const filled = seat + 1 === l.seats;
          if (filled) {
            await c.query(`UPDATE lobbies SET status = 'filled', updated_at = $1 WHERE lobby_id = $2`, [
              Date.now(),
              lobbyId,
            ]);
            await forgetLobby(c, lobbyId);
            if (next) await this.#insert(c, next);
          }
          return { ok: true, seat, filled };
        }),
      );
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === UNIQUE_VIOLATION) return { ok: false, reason: 'nonce-replayed' };
      if (code === LOCK_NOT_AVAILABLE) return { ok: false, reason: 'busy' };
      throw e;
    }
  }

  /** Under the join lock, as a join (`LobbyStore.leaveLobby`). */
  async leaveLobby(l: LobbyLeave): Promise<LeaveOutcome> {
    const lobbyId = l.lobbyId.toLowerCase();
    const player = l.player.toLowerCase();
    try {
      return await this.#joins.run(() =>
        this.#tx(async (c): Promise<LeaveOutcome> => {
          await this.#joinLock(c);
          const locked = await c.query<{ status: string }>(
            'SELECT status FROM lobbies WHERE lobby_id = $1 FOR UPDATE',
            [lobbyId],
          );
          const lobby = locked.rows[0];
          if (!lobby) return { ok: false, reason: 'unknown-lobby' };
          const joins = await c.query<{ seat: number; nonce: string; deadline: string }>(
            'SELECT seat, nonce, deadline FROM lobby_joins WHERE lobby_id = $1 AND player = $2',
            [lobbyId, player],
          );
          const join = joins.rows[0];
          if (!join) return { ok: false, reason: 'not-joined' };
          if (join.nonce !== l.joinNonce.toLowerCase()) return { ok: false, reason: 'stale-leave' };
          if (lobby.status !== 'open') return { ok: false, reason: 'not-open' };
          await c.query('DELETE FROM lobby_joins WHERE lobby_id = $1 AND player = $2', [lobbyId, player]);
          await c.query(
            'INSERT INTO lobby_leaves (lobby_id, player, nonce, left_at, deadline) VALUES ($1, $2, $3, $4, $5)',
            [lobbyId, player, join.nonce, l.leftAt, join.deadline],
          );
          if (l.forgetBefore !== undefined) {
            // The floor first: no join older than the rows about to go can be seated once they are gone. Never past
            // the database server's clock: a dealer process whose clock runs ahead must not refuse every fresh
            // join, in every lobby, of every process (review 37).
            await c.query(
              `UPDATE lobby_nonce_floor
                 SET forgotten_before = GREATEST(forgotten_before, LEAST($1, EXTRACT(EPOCH FROM clock_timestamp())::BIGINT))`,
              [l.forgetBefore],
            );
            await c.query(
              'DELETE FROM lobby_leaves WHERE deadline < (SELECT forgotten_before FROM lobby_nonce_floor)',
            );
          }
          // Later seats move down by one, through negative values: UNIQUE (lobby_id, seat) holds after each row.
          await c.query('UPDATE lobby_joins SET seat = -seat WHERE lobby_id = $1 AND seat > $2', [
            lobbyId,
            join.seat,
          ]);
          await c.query('UPDATE lobby_joins SET seat = -seat - 1 WHERE lobby_id = $1 AND seat < 0', [
            lobbyId,
          ]);
          const left = await c.query('SELECT 1 FROM lobby_joins WHERE lobby_id = $1 LIMIT 1', [lobbyId]);
          const retired = left.rowCount === 0 && l.retireWhenEmpty === true;
          if (retired) {
            await c.query(`UPDATE lobbies SET status = 'closed', updated_at = $1 WHERE lobby_id = $2`, [
              Date.now(),
              lobbyId,
            ]);
            await forgetLobby(c, lobbyId);
          }
          return { ok: true, seat: join.seat, retired };
        }),
      );
    } catch (e) {
      if ((e as { code?: string }).code === LOCK_NOT_AVAILABLE) return { ok: false, reason: 'busy' };
      throw e;
    }
  }

  /** Every join and leave of this database, in every process, waits here for the one before to commit. */
  async #joinLock(c: pg.PoolClient): Promise<void> {
    await c.query(`SET LOCAL lock_timeout = '${JOIN_LOCK_TIMEOUT}'`);
    await c.query('SELECT pg_advisory_xact_lock($1)', [JOIN_LOCK]);
  }

  lobbyJoins(id: string): Promise<LobbyJoin[]> {
    return this.#lobbyJoins(this.#pool, id);
  }

  async #lobbyJoins(q: Queryable, id: string): Promise<LobbyJoin[]> {
    const { rows } = await q.query<JoinRow>('SELECT * FROM lobby_joins WHERE lobby_id = $1 ORDER BY seat', [
      id.toLowerCase(),
    ]);
    return rows.map(toJoin);
  }

  async lobbyOfGame(gameId: bigint): Promise<LobbyRecord | null> {
    const { rows } = await this.#pool.query<LobbyRow>(`${SELECT} WHERE l.game_id = $1`, [gameId.toString()]);
    return rows[0] ? toLobby(rows[0]) : null;
  }

  pendingLobbies(since: number): Promise<PendingLobby[]> {
    return this.#pendingLobbies(this.#pool, since);
  }

  async #pendingLobbies(q: Queryable, since: number): Promise<PendingLobby[]> {
    // Two indexed lookups (by status; the recent joins by joined_at), not a scan of every lobby ever created.
    const { rows } = await q.query<LobbyRow>(
      `${SELECT} WHERE l.status IN ('filled', 'creating')
       UNION ALL
       ${COLUMNS} FROM (SELECT DISTINCT lobby_id FROM lobby_joins WHERE joined_at >= $1) r
         JOIN lobbies l ON l.lobby_id = r.lobby_id LEFT JOIN games g ON g.game_id = l.game_id
       WHERE l.status = 'created' AND (g.status IS NULL OR g.status = 'watching')
       ORDER BY opened_at, seq`,
      [since],
    );
    // One at a time: a transaction's client takes one query at a time.
    const out: PendingLobby[] = [];
    for (const r of rows) {
      const joins = await this.#lobbyJoins(q, r.lobby_id);
      out.push({
        lobby: toLobby(r),
        players: joins.map((j) => j.player),
        filledAt: Math.max(0, ...joins.map((j) => j.joinedAt)),
      });
    }
    return out;
  }

  async updateLobby(id: string, patch: LobbyPatch): Promise<void> {
    const cols: [string, string | number | null][] = [];
    if (patch.status !== undefined) cols.push(['status', patch.status]);
    if (patch.createTx !== undefined)
      cols.push(['create_tx', patch.createTx === null ? null : JSON.stringify(patch.createTx)]);
    if (patch.gameId !== undefined) cols.push(['game_id', patch.gameId?.toString() ?? null]);
    if (patch.createdBlock !== undefined) cols.push(['created_block', patch.createdBlock]);
    if (patch.fault !== undefined) cols.push(['fault', patch.fault]);
    cols.push(['updated_at', Date.now()]);
    const set = cols.map(([c], i) => `${c} = $${i + 1}`).join(', ');
    const lobbyId = id.toLowerCase();
    const closes = patch.status !== undefined && patch.status !== 'open';
    const update = async (q: Queryable) => {
      const res = await q.query(`UPDATE lobbies SET ${set} WHERE lobby_id = $${cols.length + 1}`, [
        ...cols.map(([, v]) => v),
        lobbyId,
      ]);
      if (res.rowCount !== 1) throw new Error(`no lobby ${id} to update`);
      if (closes) await forgetLobby(q, lobbyId);
    };
    await (closes ? this.#tx(update) : update(this.#pool));
  }
}
