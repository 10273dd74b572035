import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { Groth16Proof } from '../../core/mapproof/types.ts';
import { DEFAULT_CACHE_LIMITS } from '../cache-limits.ts';
import type { DealerCloseCall } from '../chain/types.ts';
import { Lru } from '../lru.ts';
import {
  decodeSealedShare,
  encodeSealedShare,
  openOpening,
  openSecrets,
  sealOpening,
  sealSecrets,
} from './sealed-secrets.ts';
import type { SecretBox } from './secret-box.ts';
import {
  SQLITE_LOBBY_JOINED_AT_MIGRATION,
  SQLITE_LOBBY_LEAVES_BOUND_MIGRATION,
  SQLITE_LOBBY_LEAVES_MIGRATION,
  SQLITE_LOBBY_MIGRATION,
  SqliteLobbies,
} from './sqlite-lobbies.ts';
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
type Migration = string | ((db: DatabaseSync, box: SecretBox) => void);

/** Ordered, append-only schema migrations; `schema_migrations` records which ran. */
export const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE games (
     game_id TEXT PRIMARY KEY,
     contract TEXT NOT NULL,
     ruleset TEXT NOT NULL,
     players TEXT NOT NULL,
     status TEXT NOT NULL,
     root TEXT,
     master_commitment TEXT,
     root_tx TEXT,
     fault TEXT,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE sealed_shares (
     game_id TEXT NOT NULL,
     seat INTEGER NOT NULL,
     player TEXT NOT NULL,
     commitment TEXT NOT NULL,
     sealed BLOB NOT NULL,
     outcome TEXT NOT NULL,
     PRIMARY KEY (game_id, seat)
   );
   CREATE TABLE game_secrets (
     game_id TEXT PRIMARY KEY,
     sealed TEXT NOT NULL
   );
   CREATE TABLE served_reveals (
     game_id TEXT NOT NULL,
     player TEXT NOT NULL,
     turn INTEGER NOT NULL,
     leaves TEXT NOT NULL,
     blinding TEXT NOT NULL,
     served_at INTEGER NOT NULL,
     PRIMARY KEY (game_id, player, turn)
   );
   CREATE TABLE nonces (
     signer TEXT NOT NULL,
     nonce TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     PRIMARY KEY (signer, nonce)
   );
   CREATE INDEX nonces_expiry ON nonces (expires_at);
   CREATE TABLE chain_cursor (id INTEGER PRIMARY KEY CHECK (id = 0), block INTEGER NOT NULL);
   CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 0), at INTEGER NOT NULL);`,
  // Map proofs: one row per zone's chunk proof, zone -1 for the root proof. Public data, stored plain.
  `CREATE TABLE map_proofs (
     game_id TEXT NOT NULL,
     zone INTEGER NOT NULL,
     proof TEXT NOT NULL,
     PRIMARY KEY (game_id, zone)
   );`,
  // Served reveals' openings (leaves, blinding: exploration data, P6) sealed at rest, bound to (game,
  // player, turn). Existing plaintext rows are sealed into a new table and the old one dropped (with
  // secure_delete on, its freed pages are zeroed; the WAL is truncated after migrating).
  (db, box) => {
    db.exec(`CREATE TABLE served_reveals_sealed (
       game_id TEXT NOT NULL,
       player TEXT NOT NULL,
       turn INTEGER NOT NULL,
       opening TEXT NOT NULL,
       served_at INTEGER NOT NULL,
       PRIMARY KEY (game_id, player, turn)
     )`);
    const rows = db.prepare('SELECT * FROM served_reveals').all() as unknown as {
      game_id: string;
      player: string;
      turn: number;
      leaves: string;
      blinding: string;
      served_at: number;
    }[];
    const insert = db.prepare(
      'INSERT INTO served_reveals_sealed (game_id, player, turn, opening, served_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const r of rows) {
      const opening = sealOpening(box, {
        gameId: BigInt(r.game_id),
        player: r.player,
        turn: r.turn,
        leaves: JSON.parse(r.leaves) as number[],
        blinding: BigInt(r.blinding),
      });
      insert.run(r.game_id, r.player, r.turn, opening, r.served_at);
    }
    db.exec('DROP TABLE served_reveals; ALTER TABLE served_reveals_sealed RENAME TO served_reveals;');
  },
  // Players' reveal receipts (public: signed by the player for the dealer), keyed by (game, player, turn).
  `CREATE TABLE reveal_receipts (
     game_id TEXT NOT NULL,
     player TEXT NOT NULL,
     turn INTEGER NOT NULL,
     reveal_commit TEXT NOT NULL,
     signature TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     PRIMARY KEY (game_id, player, turn)
   );`,
  // Each game's creation block (existing rows: NULL until the watcher backfills them from the chain once),
  // and the index of tracked games' TurnSubmitted logs with the block it is complete up to.
  `ALTER TABLE games ADD COLUMN created_block INTEGER;
   CREATE TABLE turn_commits (
     game_id TEXT NOT NULL,
     player TEXT NOT NULL,
     turn INTEGER NOT NULL,
     reveal_commit TEXT NOT NULL,
     block INTEGER NOT NULL,
     PRIMARY KEY (game_id, player, turn)
   );
   CREATE TABLE turn_cursor (id INTEGER PRIMARY KEY CHECK (id = 0), block INTEGER NOT NULL);`,
  // Lobbies (games the dealer creates once enough players joined) and their joins (dealer/lobby.ts).
  SQLITE_LOBBY_MIGRATION,
  // Lobbies whose games may still wait for their players, found by when their seats were taken.
  SQLITE_LOBBY_JOINED_AT_MIGRATION,
  // The play commitment (core/state.ts playCommitment): one stored value per turn instead of the state and
  // reveal commitments, which is what `TurnSubmitted` now logs. The index keeps the logged value, named for it.
  // Rows indexed before the change hold the revealCommit of games on the previous contract, which this dealer
  // cannot serve anyway (their commitment view and logs are the old ones); receipts keep R (reveal_commit).
  'ALTER TABLE turn_commits RENAME COLUMN reveal_commit TO commitment;',
  // Seats given up in open lobbies, keeping their joins' nonces burned.
  SQLITE_LOBBY_LEAVES_MIGRATION,
  // ... only while they matter: until the join's deadline is forgotten, or its lobby closes (review 34).
  SQLITE_LOBBY_LEAVES_BOUND_MIGRATION,
  // The closing call this dealer sent for a game, counted when the game closes even after a restart.
  'ALTER TABLE games ADD COLUMN close_call TEXT;',
];

interface GameRow {
  game_id: string;
  contract: string;
  ruleset: string;
  players: string;
  status: string;
  root: string | null;
  master_commitment: string | null;
  root_tx: string | null;
  fault: string | null;
  created_block: number | null;
  close_call: string | null;
}

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

function toGame(r: GameRow): GameRecord {
  return {
    gameId: BigInt(r.game_id),
    contract: r.contract,
    ruleset: r.ruleset,
    players: JSON.parse(r.players) as string[],
    status: r.status as DealStatus,
    root: big(r.root),
    masterCommitment: big(r.master_commitment),
    rootTx: r.root_tx,
    fault: r.fault,
    createdBlock: r.created_block,
    closeCall: r.close_call as GameRecord['closeCall'],
  };
}

export interface SqliteStoreOptions {
  /** Burned nonces remembered in memory (default DEFAULT_CACHE_LIMITS.entries): see `#burned`. */
  nonceMemo?: number;
}

/** The default store: one SQLite file in WAL mode with synchronous=FULL, so a commit survives power loss. */
export class SqliteStore implements DealerStore {
  readonly #db: DatabaseSync;
  readonly #box: SecretBox;
  readonly #lobbies: SqliteLobbies;
  /**
   * Nonces burned by this process (committed or in the pending batch), until their expiry: a replay is
   * refused without a SELECT, and a concurrent one sees the burn before its batch commits. Only a memo:
   * the `nonces` table decides. So it may forget a live nonce (the least recently used, once full): a
   * replay of it then finds the committed row, or, if its batch is still pending, the same batch's
   * `ON CONFLICT DO NOTHING`, and is refused either way.
   */
  readonly #burned: Lru<string, true>;
  #pendingBurns: {
    signer: string;
    nonce: string;
    expiresAt: number;
    key: string;
    resolve: (fresh: boolean) => void;
    reject: (e: unknown) => void;
  }[] = [];

  constructor(path: string, box: SecretBox, o: SqliteStoreOptions = {}) {
    this.#box = box;
    this.#burned = new Lru({
      max: o.nonceMemo ?? DEFAULT_CACHE_LIMITS.entries,
      now: () => Math.floor(Date.now() / 1000),
    });
    this.#db = new DatabaseSync(path, { timeout: 5000 });
    // secure_delete: deleted content (e.g. plaintext rows a migration replaced) is zeroed, not left in free pages.
    this.#db.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;',
    );
    this.#migrate();
    this.#lobbies = new SqliteLobbies(this.#db, (fn) => this.#tx(fn), path);
  }

  #migrate(): void {
    const db = this.#db;
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)',
    );
    const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
    let ran = false;
    for (let v = (row.v ?? 0) + 1; v <= MIGRATIONS.length; v++) {
      this.#tx(() => {
        const m = MIGRATIONS[v - 1]!;
        if (typeof m === 'string') db.exec(m);
        else m(db, this.#box);
        db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(v, Date.now());
      });
      ran = true;
    }
    // Old page images (e.g. plaintext a migration replaced) leave the WAL: copied back zeroed, then truncated.
    if (ran) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  #tx<T>(fn: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const out = fn();
      this.#db.exec('COMMIT');
      return out;
    } catch (e) {
      this.#db.exec('ROLLBACK');
      throw e;
    }
  }

  async addGame(g: NewGame): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO games (game_id, contract, ruleset, players, status, created_block, updated_at)
         VALUES (?, ?, ?, ?, 'watching', ?, ?) ON CONFLICT (game_id) DO NOTHING`,
      )
      .run(
        g.gameId.toString(),
        g.contract,
        g.ruleset,
        JSON.stringify(g.players),
        g.createdBlock ?? null,
        Date.now(),
      );
  }

  async getGame(gameId: bigint): Promise<GameRecord | null> {
    const r = this.#db.prepare('SELECT * FROM games WHERE game_id = ?').get(gameId.toString()) as
      | GameRow
      | undefined;
    return r ? toGame(r) : null;
  }

  async listGames(statuses?: readonly DealStatus[]): Promise<GameRecord[]> {
    const rows = this.#db
      .prepare('SELECT * FROM games ORDER BY CAST(game_id AS INTEGER)')
      .all() as unknown as GameRow[];
    return rows.map(toGame).filter((g) => !statuses || statuses.includes(g.status));
  }

  async updateGame(gameId: bigint, patch: Parameters<DealerStore['updateGame']>[1]): Promise<void> {
    const cols: [string, SQLInputValue][] = [];
    if (patch.status !== undefined) cols.push(['status', patch.status]);
    if (patch.root !== undefined) cols.push(['root', patch.root?.toString() ?? null]);
    if (patch.masterCommitment !== undefined)
      cols.push(['master_commitment', patch.masterCommitment?.toString() ?? null]);
    if (patch.rootTx !== undefined) cols.push(['root_tx', patch.rootTx]);
    if (patch.fault !== undefined) cols.push(['fault', patch.fault]);
    if (patch.createdBlock !== undefined) cols.push(['created_block', patch.createdBlock]);
    if (patch.closeCall !== undefined) cols.push(['close_call', patch.closeCall]);
    cols.push(['updated_at', Date.now()]);
    const set = cols.map(([c]) => `${c} = ?`).join(', ');
    const res = this.#db
      .prepare(`UPDATE games SET ${set} WHERE game_id = ?`)
      .run(...cols.map(([, v]) => v), gameId.toString());
    if (res.changes !== 1) throw new Error(`no game ${gameId} to update`);
  }

  async claimCloseCall(gameId: bigint, call: DealerCloseCall): Promise<boolean> {
    const res = this.#db
      .prepare('UPDATE games SET close_call = NULL WHERE game_id = ? AND close_call = ?')
      .run(gameId.toString(), call);
    return res.changes === 1;
  }

  async putSealedShares(gameId: bigint, shares: readonly SealedShareRecord[]): Promise<void> {
    this.#tx(() => {
      const stmt = this.#db.prepare(
        `INSERT INTO sealed_shares (game_id, seat, player, commitment, sealed, outcome) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (game_id, seat) DO UPDATE SET outcome = excluded.outcome`,
      );
      for (const s of shares) {
        stmt.run(
          gameId.toString(),
          s.seat,
          s.player,
          s.commitment.toString(),
          encodeSealedShare(s.sealed),
          s.outcome,
        );
      }
    });
  }

  async sealedShares(gameId: bigint): Promise<SealedShareRecord[]> {
    const rows = this.#db
      .prepare('SELECT * FROM sealed_shares WHERE game_id = ? ORDER BY seat')
      .all(gameId.toString()) as unknown as {
      seat: number;
      player: string;
      commitment: string;
      sealed: Uint8Array;
      outcome: SealedShareRecord['outcome'];
    }[];
    return rows.map((r) => ({
      seat: r.seat,
      player: r.player,
      commitment: BigInt(r.commitment),
      sealed: decodeSealedShare(new Uint8Array(r.sealed)),
      outcome: r.outcome,
    }));
  }

  #readSecrets(gameId: bigint): DealSecrets | null {
    const r = this.#db.prepare('SELECT sealed FROM game_secrets WHERE game_id = ?').get(gameId.toString()) as
      | { sealed: string }
      | undefined;
    return r ? openSecrets(this.#box, gameId, r.sealed) : null;
  }

  async putSecretsOnce(gameId: bigint, s: DealSecrets): Promise<DealSecrets> {
    return this.#tx(() => {
      const existing = this.#readSecrets(gameId);
      if (existing) return existing;
      this.#db
        .prepare('INSERT INTO game_secrets (game_id, sealed) VALUES (?, ?)')
        .run(gameId.toString(), sealSecrets(this.#box, gameId, s));
      return s;
    });
  }

  async getSecrets(gameId: bigint): Promise<DealSecrets | null> {
    return this.#readSecrets(gameId);
  }

  async putMapProof(gameId: bigint, zone: number, proof: Groth16Proof): Promise<void> {
    this.#db
      .prepare('INSERT INTO map_proofs (game_id, zone, proof) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
      .run(gameId.toString(), zone, JSON.stringify(proof));
  }

  async mapProofs(gameId: bigint): Promise<Map<number, Groth16Proof>> {
    const rows = this.#db
      .prepare('SELECT zone, proof FROM map_proofs WHERE game_id = ?')
      .all(gameId.toString()) as { zone: number; proof: string }[];
    return new Map(rows.map((r) => [r.zone, JSON.parse(r.proof) as Groth16Proof]));
  }

  async recordReveal(r: ServedReveal): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO served_reveals (game_id, player, turn, opening, served_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      )
      .run(r.gameId.toString(), r.player, r.turn, sealOpening(this.#box, r), Date.now());
  }

  async getReveal(gameId: bigint, player: string, turn: number): Promise<ServedReveal | null> {
    const r = this.#db
      .prepare('SELECT opening FROM served_reveals WHERE game_id = ? AND player = ? AND turn = ?')
      .get(gameId.toString(), player, turn) as { opening: string } | undefined;
    return r ? openOpening(this.#box, gameId, player, turn, r.opening) : null;
  }

  async putReceipt(r: RevealReceiptRecord): Promise<boolean> {
    const res = this.#db
      .prepare(
        `INSERT INTO reveal_receipts (game_id, player, turn, reveal_commit, signature, received_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .run(r.gameId.toString(), r.player, r.turn, r.revealCommit.toString(), r.signature, Date.now());
    return res.changes === 1;
  }

  async getReceipt(gameId: bigint, player: string, turn: number): Promise<RevealReceiptRecord | null> {
    const r = this.#db
      .prepare(
        'SELECT reveal_commit, signature FROM reveal_receipts WHERE game_id = ? AND player = ? AND turn = ?',
      )
      .get(gameId.toString(), player, turn) as { reveal_commit: string; signature: string } | undefined;
    return r ? { gameId, player, turn, revealCommit: BigInt(r.reveal_commit), signature: r.signature } : null;
  }

  async putTurnCommits(turns: readonly TurnCommit[], scannedTo: number): Promise<void> {
    this.#tx(() => {
      const stmt = this.#db.prepare(
        `INSERT INTO turn_commits (game_id, player, turn, commitment, block) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (game_id, player, turn) DO UPDATE SET commitment = excluded.commitment, block = excluded.block`,
      );
      for (const t of turns) {
        stmt.run(t.gameId.toString(), t.player, t.turn, t.commitment.toString(), t.block);
      }
      this.#db
        .prepare(
          'INSERT INTO turn_cursor (id, block) VALUES (0, ?) ON CONFLICT (id) DO UPDATE SET block = excluded.block',
        )
        .run(scannedTo);
    });
  }

  async indexedTurn(gameId: bigint, player: string, turn: number): Promise<IndexedTurn> {
    // The first indexed turn at or after `turn` (primary-key order): itself, or proof that a later one is in.
    const r = this.#db
      .prepare(
        `SELECT turn, commitment FROM turn_commits WHERE game_id = ? AND player = ? AND turn >= ?
         ORDER BY turn LIMIT 1`,
      )
      .get(gameId.toString(), player, turn) as { turn: number; commitment: string } | undefined;
    if (!r) return { commitment: null, laterTurnIndexed: false };
    if (r.turn === turn) return { commitment: BigInt(r.commitment), laterTurnIndexed: false };
    return { commitment: null, laterTurnIndexed: true };
  }

  async getTurnCursor(): Promise<number | null> {
    const r = this.#db.prepare('SELECT block FROM turn_cursor WHERE id = 0').get() as
      | { block: number }
      | undefined;
    return r ? r.block : null;
  }

  /**
   * Burns are group-committed: a burn is answered only after the transaction holding it is durable,
   * but concurrent burns share one transaction (one fsync) instead of paying one each.
   */
  async burnNonce(signer: string, nonce: bigint, expiresAt: number): Promise<boolean> {
    const key = `${signer}:${nonce}`;
    if (this.#burned.has(key)) return false;
    const seen = this.#db
      .prepare('SELECT 1 AS x FROM nonces WHERE signer = ? AND nonce = ?')
      .get(signer, nonce.toString());
    if (seen) {
      this.#burned.set(key, true, expiresAt);
      return false;
    }
    this.#burned.set(key, true, expiresAt); // synchronously, before any await: a concurrent replay sees it
    return new Promise<boolean>((resolve, reject) => {
      this.#pendingBurns.push({ signer, nonce: nonce.toString(), expiresAt, key, resolve, reject });
      if (this.#pendingBurns.length === 1) setImmediate(() => this.#flushBurns());
    });
  }

  #flushBurns(): void {
    const batch = this.#pendingBurns.splice(0);
    let inserted: boolean[];
    try {
      inserted = this.#tx(() => {
        const stmt = this.#db.prepare(
          'INSERT INTO nonces (signer, nonce, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        );
        // changes = 0: another process sharing the DB burned it first.
        return batch.map((b) => stmt.run(b.signer, b.nonce, b.expiresAt).changes === 1);
      });
    } catch (e) {
      for (const b of batch) {
        this.#burned.delete(b.key);
        b.reject(e);
      }
      return;
    }
    batch.forEach((b, i) => {
      b.resolve(inserted[i]!);
    });
  }

  /** Entries of the in-memory nonce memo (the `shroud_dealer_cache_entries` gauge). */
  cacheSizes(): Record<string, number> {
    return { 'burned-nonces': this.#burned.size };
  }

  async pruneNonces(now: number): Promise<number> {
    this.#burned.prune();
    return Number(this.#db.prepare('DELETE FROM nonces WHERE expires_at < ?').run(now).changes);
  }

  async getCursor(): Promise<number | null> {
    const r = this.#db.prepare('SELECT block FROM chain_cursor WHERE id = 0').get() as
      | { block: number }
      | undefined;
    return r ? r.block : null;
  }

  async setCursor(block: number): Promise<void> {
    this.#db
      .prepare(
        'INSERT INTO chain_cursor (id, block) VALUES (0, ?) ON CONFLICT (id) DO UPDATE SET block = excluded.block',
      )
      .run(block);
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
    this.#db
      .prepare('INSERT INTO health (id, at) VALUES (0, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at')
      .run(Date.now());
  }

  async close(): Promise<void> {
    if (this.#db.isOpen && this.#pendingBurns.length > 0) this.#flushBurns();
    if (this.#db.isOpen) this.#db.close();
  }
}
