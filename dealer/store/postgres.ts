import pg from 'pg';
import type { Groth16Proof } from '../../core/mapproof/types.ts';
import type { DealerCloseCall } from '../chain/types.ts';
import { StoreOpenError } from './errors.ts';
import {
  POSTGRES_LOBBY_JOINED_AT_MIGRATION,
  POSTGRES_LOBBY_LEAVES_BOUND_MIGRATION,
  POSTGRES_LOBBY_LEAVES_MIGRATION,
  POSTGRES_LOBBY_MIGRATION,
  PostgresLobbies,
} from './postgres-lobbies.ts';
import { describeTarget, postgresTarget, urlPassword } from './postgres-url.ts';
import {
  decodeSealedShare,
  encodeSealedShare,
  openOpening,
  openSecrets,
  sealOpening,
  sealSecrets,
} from './sealed-secrets.ts';
import type { SecretBox } from './secret-box.ts';
import type {
  DealerStore,
  DealSecrets,
  DealStatus,
  GameRecord,
  IndexedTurn,
  JoinAdmission,
  JoinOutcome,
  LeaveOutcome,
  LobbyJoin,
  LobbyLeave,
  LobbyPatch,
  LobbyRecord,
  LobbyStatus,
  NewGame,
  NewLobby,
  PendingLobby,
  RevealReceiptRecord,
  SealedShareRecord,
  ServedReveal,
  TurnCommit,
} from './types.ts';

/** A migration: SQL, or code for one that needs the at-rest key (run in the same transaction). */
type Migration = string | ((c: pg.PoolClient, box: SecretBox) => Promise<void>);

/**
 * Ordered, append-only schema migrations; `schema_migrations` records which ran. Bigints are NUMERIC
 * (exact, any size, ordered as numbers) written and read as decimal strings; lists and proofs are JSONB.
 */
export const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE games (
     game_id NUMERIC PRIMARY KEY,
     contract TEXT NOT NULL,
     ruleset TEXT NOT NULL,
     players JSONB NOT NULL,
     status TEXT NOT NULL,
     root NUMERIC,
     master_commitment NUMERIC,
     root_tx TEXT,
     fault TEXT,
     updated_at BIGINT NOT NULL
   );
   CREATE TABLE sealed_shares (
     game_id NUMERIC NOT NULL,
     seat INTEGER NOT NULL,
     player TEXT NOT NULL,
     commitment NUMERIC NOT NULL,
     sealed BYTEA NOT NULL,
     outcome TEXT NOT NULL,
     PRIMARY KEY (game_id, seat)
   );
   CREATE TABLE game_secrets (
     game_id NUMERIC PRIMARY KEY,
     sealed TEXT NOT NULL
   );
   CREATE TABLE map_proofs (
     game_id NUMERIC NOT NULL,
     zone INTEGER NOT NULL,
     proof JSONB NOT NULL,
     PRIMARY KEY (game_id, zone)
   );
   CREATE TABLE served_reveals (
     game_id NUMERIC NOT NULL,
     player TEXT NOT NULL,
     turn INTEGER NOT NULL,
     leaves JSONB NOT NULL,
     blinding NUMERIC NOT NULL,
     served_at BIGINT NOT NULL,
     PRIMARY KEY (game_id, player, turn)
   );
   CREATE TABLE nonces (
     signer TEXT NOT NULL,
     nonce NUMERIC NOT NULL,
     expires_at BIGINT NOT NULL,
     PRIMARY KEY (signer, nonce)
   );
   CREATE INDEX nonces_expiry ON nonces (expires_at);
   CREATE TABLE chain_cursor (id INTEGER PRIMARY KEY CHECK (id = 0), block BIGINT NOT NULL);
   CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 0), at BIGINT NOT NULL);`,
  // Served reveals' openings (leaves, blinding: exploration data, P6) sealed at rest, bound to (game,
  // player, turn). Existing plaintext rows are sealed into a new table and the old one dropped, which
  // deletes its files (an UPDATE would leave the plaintext in dead tuples until a VACUUM FULL).
  async (c, box) => {
    await c.query(`CREATE TABLE served_reveals_sealed (
       game_id NUMERIC NOT NULL,
       player TEXT NOT NULL,
       turn INTEGER NOT NULL,
       opening TEXT NOT NULL,
       served_at BIGINT NOT NULL,
       PRIMARY KEY (game_id, player, turn)
     )`);
    const { rows } = await c.query<{
      game_id: string;
      player: string;
      turn: number;
      leaves: number[];
      blinding: string;
      served_at: string;
    }>('SELECT game_id, player, turn, leaves, blinding, served_at FROM served_reveals');
    for (const r of rows) {
      const opening = sealOpening(box, {
        gameId: BigInt(r.game_id),
        player: r.player,
        turn: r.turn,
        leaves: r.leaves,
        blinding: BigInt(r.blinding),
      });
      await c.query(
        'INSERT INTO served_reveals_sealed (game_id, player, turn, opening, served_at) VALUES ($1, $2, $3, $4, $5)',
        [r.game_id, r.player, r.turn, opening, r.served_at],
      );
    }
    await c.query('DROP TABLE served_reveals');
    await c.query('ALTER TABLE served_reveals_sealed RENAME TO served_reveals');
    await c.query('ALTER INDEX served_reveals_sealed_pkey RENAME TO served_reveals_pkey');
  },
  // Players' reveal receipts (public: signed by the player for the dealer), keyed by (game, player, turn).
  `CREATE TABLE reveal_receipts (
     game_id NUMERIC NOT NULL,
     player TEXT NOT NULL,
     turn BIGINT NOT NULL,
     reveal_commit NUMERIC NOT NULL,
     signature TEXT NOT NULL,
     received_at BIGINT NOT NULL,
     PRIMARY KEY (game_id, player, turn)
   );`,
  // Each game's creation block (existing rows: NULL until the watcher backfills them from the chain once),
  // and the index of tracked games' TurnSubmitted logs with the block it is complete up to.
  `ALTER TABLE games ADD COLUMN created_block BIGINT;
   CREATE TABLE turn_commits (
     game_id NUMERIC NOT NULL,
     player TEXT NOT NULL,
     turn BIGINT NOT NULL,
     reveal_commit NUMERIC NOT NULL,
     block BIGINT NOT NULL,
     PRIMARY KEY (game_id, player, turn)
   );
   CREATE TABLE turn_cursor (id INTEGER PRIMARY KEY CHECK (id = 0), block BIGINT NOT NULL);`,
  // Lobbies (games the dealer creates once enough players joined) and their joins (dealer/lobby.ts).
  POSTGRES_LOBBY_MIGRATION,
  // Lobbies whose games may still wait for their players, found by when their seats were taken.
  POSTGRES_LOBBY_JOINED_AT_MIGRATION,
  // The play commitment (core/state.ts playCommitment): one stored value per turn instead of the state and
  // reveal commitments, which is what `TurnSubmitted` now logs. The index keeps the logged value, named for it.
  // Rows indexed before the change hold the revealCommit of games on the previous contract, which this dealer
  // cannot serve anyway (their commitment view and logs are the old ones); receipts keep R (reveal_commit).
  'ALTER TABLE turn_commits RENAME COLUMN reveal_commit TO commitment;',
  // Seats given up in open lobbies, keeping their joins' nonces burned.
  POSTGRES_LOBBY_LEAVES_MIGRATION,
  // ... only while they matter: until the join's deadline is forgotten, or its lobby closes (review 34).
  POSTGRES_LOBBY_LEAVES_BOUND_MIGRATION,
  // The closing call this dealer sent for a game, counted when the game closes even after a restart.
  'ALTER TABLE games ADD COLUMN close_call TEXT;',
];

/** Serializes migrations across dealer processes starting at once ('SHROUD' in ASCII). */
const MIGRATION_LOCK = '91570083681604';

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /** Gives up connecting after this long (default 10 s), so a dead server fails fast. */
  connectTimeoutMs?: number;
  /** An idle connection was lost (e.g. the server restarted); the pool replaces it on next use. */
  onConnectionLost?: (message: string) => void;
}

interface GameRow {
  game_id: string;
  contract: string;
  ruleset: string;
  players: string[];
  status: string;
  root: string | null;
  master_commitment: string | null;
  root_tx: string | null;
  fault: string | null;
  /** BIGINT: pg returns it as a string. */
  created_block: string | null;
  close_call: string | null;
}

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

function toGame(r: GameRow): GameRecord {
  return {
    gameId: BigInt(r.game_id),
    contract: r.contract,
    ruleset: r.ruleset,
    players: r.players,
    status: r.status as DealStatus,
    root: big(r.root),
    masterCommitment: big(r.master_commitment),
    rootTx: r.root_tx,
    fault: r.fault,
    createdBlock: r.created_block === null ? null : Number(r.created_block),
    closeCall: r.close_call as GameRecord['closeCall'],
  };
}

/**
 * The store on PostgreSQL, for operators who already run one (backups, replicas, several dealers on
 * one DB). Same semantics as SqliteStore: first write wins, burns are atomic across processes.
 */
export class PostgresStore implements DealerStore {
  readonly #pool: pg.Pool;
  readonly #box: SecretBox;
  readonly #lobbies: PostgresLobbies;
  #closed = false;

  private constructor(pool: pg.Pool, box: SecretBox) {
    this.#pool = pool;
    this.#box = box;
    this.#lobbies = new PostgresLobbies(pool, (fn) => this.#tx(fn));
  }

  /**
   * Connects and brings the schema up to date. Throws StoreOpenError, naming host, port and database
   * but never the password, when the URL is not a postgres URL, the server cannot be reached, or the
   * migration fails (e.g. no right to create tables).
   */
  static async open(url: string, box: SecretBox, o: PostgresOptions = {}): Promise<PostgresStore> {
    const target = postgresTarget(url);
    if (!target) throw new StoreOpenError('db.url: not a postgres:// URL');
    const where = describeTarget(target);
    const pool = new pg.Pool({
      connectionString: url,
      max: o.maxConnections ?? 10,
      connectionTimeoutMillis: o.connectTimeoutMs ?? 10_000,
      keepAlive: true,
    });
    // Without a listener, an idle connection dropped by the server would crash the process.
    pool.on('error', (e) => o.onConnectionLost?.(e.message));
    const store = new PostgresStore(pool, box);
    // Only the code and message: pg's messages name the user at most, and the scrub is belt and braces.
    const reason = (e: unknown) => {
      const err = e as Error & { code?: string };
      const why = (err.code ? `${err.code}: ` : '') + err.message;
      const pw = urlPassword(url);
      return pw ? why.replaceAll(pw, '[redacted]') : why;
    };
    let step = 'connect to';
    try {
      (await pool.connect()).release();
      step = 'migrate';
      await store.#migrate();
      return store;
    } catch (e) {
      await pool.end().catch(() => {});
      throw new StoreOpenError(`cannot ${step} PostgreSQL at ${where} (${reason(e)})`);
    }
  }

  async #migrate(): Promise<void> {
    await this.#tx(async (c) => {
      // Held until commit: a second dealer starting now waits, then finds the schema current.
      await c.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK]);
      await c.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
      );
      const { rows } = await c.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
      for (let v = (rows[0]?.v ?? 0) + 1; v <= MIGRATIONS.length; v++) {
        const m = MIGRATIONS[v - 1]!;
        if (typeof m === 'string') await c.query(m);
        else await m(c, this.#box);
        await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [v, Date.now()]);
      }
    });
  }

  async #tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.#pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      c.release();
      return out;
    } catch (e) {
      try {
        await c.query('ROLLBACK');
        c.release();
      } catch (lost) {
        c.release(lost as Error); // a connection that cannot roll back is discarded, not reused
      }
      throw e;
    }
  }

  async addGame(g: NewGame): Promise<void> {
    await this.#pool.query(
      `INSERT INTO games (game_id, contract, ruleset, players, status, created_block, updated_at)
       VALUES ($1, $2, $3, $4, 'watching', $5, $6) ON CONFLICT (game_id) DO NOTHING`,
      [
        g.gameId.toString(),
        g.contract,
        g.ruleset,
        JSON.stringify(g.players),
        g.createdBlock ?? null,
        Date.now(),
      ],
    );
  }

  async getGame(gameId: bigint): Promise<GameRecord | null> {
    const { rows } = await this.#pool.query<GameRow>('SELECT * FROM games WHERE game_id = $1', [
      gameId.toString(),
    ]);
    return rows[0] ? toGame(rows[0]) : null;
  }

  async listGames(statuses?: readonly DealStatus[]): Promise<GameRecord[]> {
    const { rows } = statuses
      ? await this.#pool.query<GameRow>('SELECT * FROM games WHERE status = ANY($1) ORDER BY game_id', [
          [...statuses],
        ])
      : await this.#pool.query<GameRow>('SELECT * FROM games ORDER BY game_id');
    return rows.map(toGame);
  }

  async updateGame(gameId: bigint, patch: Parameters<DealerStore['updateGame']>[1]): Promise<void> {
    const cols: [string, string | number | null][] = [];
    if (patch.status !== undefined) cols.push(['status', patch.status]);
    if (patch.root !== undefined) cols.push(['root', patch.root?.toString() ?? null]);
    if (patch.masterCommitment !== undefined)
      cols.push(['master_commitment', patch.masterCommitment?.toString() ?? null]);
    if (patch.rootTx !== undefined) cols.push(['root_tx', patch.rootTx]);
    if (patch.fault !== undefined) cols.push(['fault', patch.fault]);
    if (patch.createdBlock !== undefined) cols.push(['created_block', patch.createdBlock]);
    if (patch.closeCall !== undefined) cols.push(['close_call', patch.closeCall]);
    cols.push(['updated_at', Date.now()]);
    const set = cols.map(([c], i) => `${c} = $${i + 1}`).join(', ');
    const res = await this.#pool.query(`UPDATE games SET ${set} WHERE game_id = $${cols.length + 1}`, [
      ...cols.map(([, v]) => v),
      gameId.toString(),
    ]);
    if (res.rowCount !== 1) throw new Error(`no game ${gameId} to update`);
  }

  async claimCloseCall(gameId: bigint, call: DealerCloseCall): Promise<boolean> {
    const res = await this.#pool.query(
      'UPDATE games SET close_call = NULL WHERE game_id = $1 AND close_call = $2',
      [gameId.toString(), call],
    );
    return res.rowCount === 1;
  }

  async putSealedShares(gameId: bigint, shares: readonly SealedShareRecord[]): Promise<void> {
    // One statement per share (a seat listed twice keeps its last outcome, as in SQLite), one transaction.
    await this.#tx(async (c) => {
      for (const s of shares) {
        await c.query(
          `INSERT INTO sealed_shares (game_id, seat, player, commitment, sealed, outcome)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (game_id, seat) DO UPDATE SET outcome = excluded.outcome`,
          [
            gameId.toString(),
            s.seat,
            s.player,
            s.commitment.toString(),
            Buffer.from(encodeSealedShare(s.sealed)),
            s.outcome,
          ],
        );
      }
    });
  }

  async sealedShares(gameId: bigint): Promise<SealedShareRecord[]> {
    const { rows } = await this.#pool.query<{
      seat: number;
      player: string;
      commitment: string;
      sealed: Buffer;
      outcome: SealedShareRecord['outcome'];
    }>(
      'SELECT seat, player, commitment, sealed, outcome FROM sealed_shares WHERE game_id = $1 ORDER BY seat',
      [gameId.toString()],
    );
    return rows.map((r) => ({
      seat: r.seat,
      player: r.player,
      commitment: BigInt(r.commitment),
      sealed: decodeSealedShare(new Uint8Array(r.sealed)),
      outcome: r.outcome,
    }));
  }

  async putSecretsOnce(gameId: bigint, s: DealSecrets): Promise<DealSecrets> {
    // The insert is the arbiter: a concurrent draw (another process) that committed first wins.
    const res = await this.#pool.query(
      'INSERT INTO game_secrets (game_id, sealed) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING',
      [gameId.toString(), sealSecrets(this.#box, gameId, s)],
    );
    if (res.rowCount === 1) return s;
    const stored = await this.getSecrets(gameId);
    if (!stored) throw new Error(`secrets of game ${gameId} vanished`);
    return stored;
  }

  async getSecrets(gameId: bigint): Promise<DealSecrets | null> {
    const { rows } = await this.#pool.query<{ sealed: string }>(
      'SELECT sealed FROM game_secrets WHERE game_id = $1',
      [gameId.toString()],
    );
    return rows[0] ? openSecrets(this.#box, gameId, rows[0].sealed) : null;
  }

  async putMapProof(gameId: bigint, zone: number, proof: Groth16Proof): Promise<void> {
    await this.#pool.query(
      'INSERT INTO map_proofs (game_id, zone, proof) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [gameId.toString(), zone, JSON.stringify(proof)],
    );
  }

  async mapProofs(gameId: bigint): Promise<Map<number, Groth16Proof>> {
    const { rows } = await this.#pool.query<{ zone: number; proof: Groth16Proof }>(
      'SELECT zone, proof FROM map_proofs WHERE game_id = $1 ORDER BY zone',
      [gameId.toString()],
    );
    return new Map(rows.map((r) => [r.zone, r.proof]));
  }

  async recordReveal(r: ServedReveal): Promise<void> {
    await this.#pool.query(
      `INSERT INTO served_reveals (game_id, player, turn, opening, served_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [r.gameId.toString(), r.player, r.turn, sealOpening(this.#box, r), Date.now()],
    );
  }

  async getReveal(gameId: bigint, player: string, turn: number): Promise<ServedReveal | null> {
    const { rows } = await this.#pool.query<{ opening: string }>(
      'SELECT opening FROM served_reveals WHERE game_id = $1 AND player = $2 AND turn = $3',
      [gameId.toString(), player, turn],
    );
    const r = rows[0];
    return r ? openOpening(this.#box, gameId, player, turn, r.opening) : null;
  }

  async putReceipt(r: RevealReceiptRecord): Promise<boolean> {
    const res = await this.#pool.query(
      `INSERT INTO reveal_receipts (game_id, player, turn, reveal_commit, signature, received_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [r.gameId.toString(), r.player, r.turn, r.revealCommit.toString(), r.signature, Date.now()],
    );
    return res.rowCount === 1;
  }

  async getReceipt(gameId: bigint, player: string, turn: number): Promise<RevealReceiptRecord | null> {
    const { rows } = await this.#pool.query<{ reveal_commit: string; signature: string }>(
      'SELECT reveal_commit, signature FROM reveal_receipts WHERE game_id = $1 AND player = $2 AND turn = $3',
      [gameId.toString(), player, turn],
    );
    const r = rows[0];
    return r ? { gameId, player, turn, revealCommit: BigInt(r.reveal_commit), signature: r.signature } : null;
  }

  async putTurnCommits(turns: readonly TurnCommit[], scannedTo: number): Promise<void> {
    await this.#tx(async (c) => {
      for (const t of turns) {
        await c.query(
          `INSERT INTO turn_commits (game_id, player, turn, commitment, block) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (game_id, player, turn)
           DO UPDATE SET commitment = excluded.commitment, block = excluded.block`,
          [t.gameId.toString(), t.player, t.turn, t.commitment.toString(), t.block],
        );
      }
      await c.query(
        'INSERT INTO turn_cursor (id, block) VALUES (0, $1) ON CONFLICT (id) DO UPDATE SET block = excluded.block',
        [scannedTo],
      );
    });
  }

  async indexedTurn(gameId: bigint, player: string, turn: number): Promise<IndexedTurn> {
    // The first indexed turn at or after `turn` (primary-key order): itself, or proof that a later one is in.
    const { rows } = await this.#pool.query<{ turn: string; commitment: string }>(
      `SELECT turn, commitment FROM turn_commits WHERE game_id = $1 AND player = $2 AND turn >= $3
       ORDER BY turn LIMIT 1`,
      [gameId.toString(), player, turn],
    );
    const r = rows[0];
    if (!r) return { commitment: null, laterTurnIndexed: false };
    if (Number(r.turn) === turn) return { commitment: BigInt(r.commitment), laterTurnIndexed: false };
    return { commitment: null, laterTurnIndexed: true };
  }

  async getTurnCursor(): Promise<number | null> {
    const { rows } = await this.#pool.query<{ block: string }>('SELECT block FROM turn_cursor WHERE id = 0');
    return rows[0] ? Number(rows[0].block) : null;
  }

  /** One atomic insert: of two concurrent burns (any processes), the unique key lets exactly one in. */
  async burnNonce(signer: string, nonce: bigint, expiresAt: number): Promise<boolean> {
    const res = await this.#pool.query(
      'INSERT INTO nonces (signer, nonce, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [signer, nonce.toString(), expiresAt],
    );
    return res.rowCount === 1;
  }

  async pruneNonces(now: number): Promise<number> {
    const res = await this.#pool.query('DELETE FROM nonces WHERE expires_at < $1', [now]);
    return res.rowCount ?? 0;
  }

  async getCursor(): Promise<number | null> {
    const { rows } = await this.#pool.query<{ block: string }>('SELECT block FROM chain_cursor WHERE id = 0');
    return rows[0] ? Number(rows[0].block) : null;
  }

  async setCursor(block: number): Promise<void> {
    await this.#pool.query(
      'INSERT INTO chain_cursor (id, block) VALUES (0, $1) ON CONFLICT (id) DO UPDATE SET block = excluded.block',
      [block],
    );
  }

  openLobby(l: NewLobby): Promise<void> {
    return this.#lobbies.openLobby(l);
  }

  getLobby(id: string): Promise<LobbyRecord | null> {
    return this.#lobbies.getLobby(id);
  }

  listLobbies(statuses?: readonly LobbyStatus[]): Promise<LobbyRecord[]> {
    return this.#lobbies.listLobbies(statuses);
  }

  joinLobby(j: Omit<LobbyJoin, 'seat'>, next: NewLobby | null, admit?: JoinAdmission): Promise<JoinOutcome> {
    return this.#lobbies.joinLobby(j, next, admit);
  }

  leaveLobby(l: LobbyLeave): Promise<LeaveOutcome> {
    return this.#lobbies.leaveLobby(l);
  }

  lobbyJoins(id: string): Promise<LobbyJoin[]> {
    return this.#lobbies.lobbyJoins(id);
  }

  lobbyOfGame(gameId: bigint): Promise<LobbyRecord | null> {
    return this.#lobbies.lobbyOfGame(gameId);
  }

  pendingLobbies(since: number): Promise<PendingLobby[]> {
    return this.#lobbies.pendingLobbies(since);
  }

  updateLobby(id: string, patch: LobbyPatch): Promise<void> {
    return this.#lobbies.updateLobby(id, patch);
  }

  async ping(): Promise<void> {
    await this.#pool.query(
      'INSERT INTO health (id, at) VALUES (0, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at',
      [Date.now()],
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}
