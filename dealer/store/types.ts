import type { LobbyStatus } from '../../core/lobby.ts';
import type { Groth16Proof } from '../../core/mapproof/types.ts';
import type { SealedShare } from '../../core/sealed.ts';
import type { DealerCloseCall, SignedCreate } from '../chain/types.ts';

/** Where the dealer is in dealing one game; each step is persisted before the next starts. */
export type DealStatus =
  | 'watching' // known, ceremony not finished
  | 'root-computed' // secrets stored and tree built, root not yet confirmed on-chain
  | 'dealt' // root confirmed on-chain: reveals may be served, disputes answered
  | 'published' // game ended and master_secret plus every r_i published for the audit
  | 'settled' // settled on-chain after its audit (the bond credited, or slashed by a fraud proof): nothing left to do
  | 'cancelled' // the game was cancelled on-chain (a player missed a ceremony step)
  | 'forced-open'; // force-opened on-chain (this dealer was slashed): the map is public, nothing left to do

/** The statuses of a game whose root this dealer posted and that the chain did not stop: its tiles are served. */
export const ROOT_POSTED: readonly DealStatus[] = ['dealt', 'published', 'settled'];

export interface GameRecord {
  gameId: bigint;
  contract: string;
  ruleset: string;
  players: string[];
  status: DealStatus;
  root: bigint | null;
  masterCommitment: bigint | null;
  rootTx: string | null;
  /**
   * Why the game stopped, e.g. `cancelled on-chain`, or what keeps it from being dealt, e.g.
   * `share-not-opened:1` (a sealed share the contract accepted did not open: a dealer bug, logged as an error).
   */
  fault: string | null;
  /**
   * The block of its `GameCreated` log: the lower bound of every log search for the game. Null only for a game
   * tracked before this was recorded, until the watcher's one-time backfill fills it in.
   */
  createdBlock: number | null;
  /**
   * The closing call this dealer sent for the game (dealer/closing.ts), recorded once sent, so that it is counted
   * (`shroud_dealer_games_closed_total`) when the game is closed at the confirmed block, even by a process started
   * after it was sent. Null: none sent.
   */
  closeCall: DealerCloseCall | null;
}

/** The secrets of one dealt game. Encrypted at rest; never logged. */
export interface DealSecrets {
  /** Opened seed shares in seat order (published at the end for the audit). */
  shares: bigint[];
  seed: bigint;
  masterSecret: bigint;
}

export interface SealedShareRecord {
  seat: number;
  player: string;
  commitment: bigint;
  /** The share as posted, sealed to the dealer's seal key (public: it is in the `SealedReveal` event). */
  sealed: SealedShare;
  /**
   * `ok`: it opened to the preimage of `commitment`. `not-opened`: it did not, which the contract's proof
   * check rules out for an accepted share (a dealer bug; the dealer files nothing and is force-opened).
   */
  outcome: 'ok' | 'not-opened';
}

/** The opening of a served reveal (exploration data, P6): encrypted at rest, bound to (game, player, turn). */
export interface ServedReveal {
  gameId: bigint;
  player: string;
  turn: number;
  leaves: number[];
  blinding: bigint;
}

export type NewGame = Pick<GameRecord, 'gameId' | 'contract' | 'ruleset' | 'players'> &
  Partial<Pick<GameRecord, 'createdBlock'>>;

/** One indexed `TurnSubmitted` log of a tracked game: public chain data, stored plain. */
export interface TurnCommit {
  gameId: bigint;
  /** Lowercase 0x address. */
  player: string;
  turn: number;
  /**
   * The play commitment C = Poseidon(stateCommit, revealCommit, mapRoot) the turn's proof stored (final: from
   * the log).
   */
  commitment: bigint;
  block: number;
}

/** What the turn index knows of one (game, player, turn). */
export interface IndexedTurn {
  /** The turn's play commitment as its `TurnSubmitted` log has it, if the log is indexed. */
  commitment: bigint | null;
  /**
   * (When the turn itself is not indexed.) A later turn of the same player is indexed. The index grows in block order, and a player's turns are
   * logged in turn order, so then every earlier turn of that player that exists is indexed too: a turn
   * missing from it never existed.
   */
  laterTurnIndexed: boolean;
}

/**
 * A player's EIP-712 `RevealReceipt` for a turn it was served (core/reveal-receipt.ts), as the dealer checked it:
 * signed by `player` over the turn's reveal commitment R, which with the state commitment the player sent opens
 * the turn's on-chain play commitment (the contract keeps R in a dispute record and checks receipts over it). Not secret (the player handed it over, and a
 * dispute answer puts it on-chain): stored plain, keyed by (game, player, turn).
 */
export interface RevealReceiptRecord {
  gameId: bigint;
  /** Lowercase 0x address. */
  player: string;
  turn: number;
  revealCommit: bigint;
  /** 65 bytes, `r ‖ s ‖ v` with v 27/28 and a low s (the form the contract accepts), lowercase 0x-hex. */
  signature: string;
}

export type { LobbyStatus };

/** What a lobby creates: its ruleset, seats and money terms. */
export interface LobbyTerms {
  /** The configured lobby kind it is an instance of. */
  kind: string;
  /** Shipped ruleset name. */
  ruleset: string;
  /** 0x, lowercase. */
  rulesetHash: string;
  seats: number;
  stake: bigint;
  disputeDeposit: bigint;
  maxTurns: number;
  bond: bigint;
}

export interface NewLobby extends LobbyTerms {
  /** 0x, 32 random bytes, lowercase: what players sign. */
  id: string;
  /** Unix seconds. */
  openedAt: number;
}

export interface LobbyRecord extends NewLobby {
  status: LobbyStatus;
  /** Seats taken. */
  filled: number;
  /** The signed createGame, kept before it was broadcast (from `creating` on). */
  createTx: SignedCreate | null;
  gameId: bigint | null;
  createdBlock: number | null;
  fault: string | null;
}

/** One accepted join: public data (the player's signature binds it to the lobby). */
export interface LobbyJoin {
  lobbyId: string;
  /** Lowercase 0x address. */
  player: string;
  /** Seat in the game: join order. */
  seat: number;
  /** 0x, 32 bytes: single use per player, across lobbies (a left join's: while `leaveLobby` keeps it spent). */
  nonce: string;
  deadline: number;
  signature: string;
  /** Unix seconds. */
  joinedAt: number;
}

export type JoinOutcome =
  | { ok: true; seat: number; filled: boolean }
  | { ok: false; reason: 'unknown-lobby' | 'not-open' | 'nonce-replayed' | 'already-joined' | 'busy' };

/** A signed leave the dealer checked: the player gives up the seat its join `joinNonce` took. */
export interface LobbyLeave {
  lobbyId: string;
  /** Lowercase 0x address. */
  player: string;
  /** Lowercase 0x, 32 bytes. */
  joinNonce: string;
  /** Unix seconds. */
  leftAt: number;
  /**
   * Unix seconds: the spent nonces of left joins whose deadline is before it are forgotten, and every join with
   * a deadline before it (or before any earlier leave's) is refused from then on, whatever its nonce. The dealer
   * passes a time a little before now (dealer/lobby.ts `FORGET_GRACE_SECONDS`): it refuses those joins as
   * expired anyway. Capped by the database's clock, so a process whose clock runs ahead cannot push it past the
   * deadlines of honest joins. Left out: nothing is forgotten.
   */
  forgetBefore?: number;
  /**
   * The lobby is kept on terms its kind no longer has (dealer/lobby.ts `start`): closed in the same transaction
   * when this leave empties it, so it does not linger open beside its kind's current lobby.
   */
  retireWhenEmpty?: boolean;
}

export type LeaveOutcome =
  | { ok: true; seat: number; retired: boolean }
  | {
      ok: false;
      /** `stale-leave`: the player's seat was taken by another join than the one the leave names. */
      reason: 'unknown-lobby' | 'not-joined' | 'stale-leave' | 'not-open' | 'busy';
    };

/** A filled lobby whose game may still be waiting for its players (`LobbyStore.pendingLobbies`). */
export interface PendingLobby {
  lobby: LobbyRecord;
  /** Lowercase 0x addresses, in seat order. */
  players: string[];
  /** Unix seconds of its last join: when it filled. */
  filledAt: number;
}

export type LobbyPatch = Partial<
  Pick<LobbyRecord, 'status' | 'createTx' | 'gameId' | 'createdBlock' | 'fault'>
>;

/** The reads a join's admission check makes, inside the join's serialization (`LobbyStore.joinLobby`). */
export type LobbyReads = Pick<LobbyStore, 'listLobbies' | 'lobbyJoins' | 'pendingLobbies'>;
/** A check run before a join takes its seat, with every other join held back; it throws to refuse. */
export type JoinAdmission = (reads: LobbyReads) => Promise<void>;

/** The lobbies' durable state (both stores): joins and creation progress survive a crash. */
export interface LobbyStore {
  /** Inserts a lobby with status `open`. */
  openLobby(l: NewLobby): Promise<void>;
  getLobby(id: string): Promise<LobbyRecord | null>;
  /** Oldest first. */
  listLobbies(statuses?: readonly LobbyStatus[]): Promise<LobbyRecord[]>;
  /**
   * One transaction: refuses a nonce the player used before (any lobby; of a left join, while its lobby is open
   * and its deadline not forgotten: `LobbyLeave.forgetBefore`), a deadline before the latest `forgetBefore`, a
   * player already seated here, a lobby not open; else seats the player next. The last seat marks the lobby `filled` and opens `next`
   * (when given) in the same transaction, so a crash never leaves a full lobby without its successor.
   * `admit` runs first, while every other join of this database waits (PostgreSQL: a transaction-scoped
   * advisory lock, its reads on the join's own connection; SQLite: one join at a time per database file in this
   * process, the deployment SQLite supports), so what it checks across lobbies (one seat per player, the
   * pending-games cap) cannot change before the seat is taken; a throw refuses the join and writes nothing.
   * `busy`: the join waited too long for the others (PostgreSQL's lock timeout); nothing was written.
   */
  joinLobby(j: Omit<LobbyJoin, 'seat'>, next: NewLobby | null, admit?: JoinAdmission): Promise<JoinOutcome>;
  /**
   * Gives up a seat in an open lobby, serialized with the joins (a leave and the join that would fill the lobby
   * cannot both win): the seat's row goes, later seats move down by one, and the join's nonce stays burned (its
   * signed join cannot seat the player again) until its deadline is before a later leave's `forgetBefore` (the
   * join is refused by its deadline then) or its lobby closes (filled, retired: it takes no joins any more).
   * Refused, changing nothing: no such seat, a seat of another join, a lobby no longer open.
   */
  leaveLobby(l: LobbyLeave): Promise<LeaveOutcome>;
  /** In seat order. */
  lobbyJoins(id: string): Promise<LobbyJoin[]>;
  /** The lobby whose game is `gameId`. */
  lobbyOfGame(gameId: bigint): Promise<LobbyRecord | null>;
  /**
   * The filled lobbies whose games may not be under way: `filled` and `creating` ones, and `created` ones
   * with a join at or after `since` (unix seconds) whose game this dealer does not track past `watching` (no
   * record yet, or still waiting for commits and sealed shares). Oldest first.
   */
  pendingLobbies(since: number): Promise<PendingLobby[]>;
  updateLobby(id: string, patch: LobbyPatch): Promise<void>;
}

/**
 * The dealer's durable state: enough to resume after a crash at any point. Async so a Postgres
 * implementation fits behind it.
 */
export interface DealerStore extends LobbyStore {
  /** Inserts the game if absent (status `watching`); never overwrites. */
  addGame(g: NewGame): Promise<void>;
  getGame(gameId: bigint): Promise<GameRecord | null>;
  listGames(statuses?: readonly DealStatus[]): Promise<GameRecord[]>;
  updateGame(
    gameId: bigint,
    patch: Partial<Omit<GameRecord, 'gameId' | 'contract' | 'ruleset' | 'players'>>,
  ): Promise<void>;

  /**
   * Clears the game's recorded closing call if it is `call`, in one statement: true for the one caller that
   * cleared it (which counts it), false for every other (another dealer process on the same database, a repeat).
   */
  claimCloseCall(gameId: bigint, call: DealerCloseCall): Promise<boolean>;

  putSealedShares(gameId: bigint, shares: readonly SealedShareRecord[]): Promise<void>;
  sealedShares(gameId: bigint): Promise<SealedShareRecord[]>;

  /** Stores the secrets unless some are already stored; returns the stored ones (the first draw wins). */
  putSecretsOnce(gameId: bigint, secrets: DealSecrets): Promise<DealSecrets>;
  getSecrets(gameId: bigint): Promise<DealSecrets | null>;

  /** Keeps a finished map proof (zone ≥ 0: that zone's chunk proof; −1: the root proof); first write wins. */
  putMapProof(gameId: bigint, zone: number, proof: Groth16Proof): Promise<void>;
  mapProofs(gameId: bigint): Promise<Map<number, Groth16Proof>>;

  /**
   * Records the first opening served for (game, player, turn); later calls keep the first. The leaves and
   * blinding are sealed with the at-rest key (bound to game, player and turn); only the key is plain.
   */
  recordReveal(r: ServedReveal): Promise<void>;
  getReveal(gameId: bigint, player: string, turn: number): Promise<ServedReveal | null>;

  /**
   * Keeps a player's receipt for (game, player, turn); the first one stored stays. True when this call
   * stored it, false when one was already there.
   */
  putReceipt(r: RevealReceiptRecord): Promise<boolean>;
  getReceipt(gameId: bigint, player: string, turn: number): Promise<RevealReceiptRecord | null>;

  /**
   * Adds `TurnSubmitted` logs to the turn index and, in the same transaction, records that the index is
   * complete up to block `scannedTo` (the turn cursor). A turn seen again (a re-scanned block, a re-org)
   * takes the last log seen.
   */
  putTurnCommits(turns: readonly TurnCommit[], scannedTo: number): Promise<void>;
  /** The turn index on (game, player, turn): one indexed lookup, no chain read. */
  indexedTurn(gameId: bigint, player: string, turn: number): Promise<IndexedTurn>;
  /** The last block the turn index covers; null before the first scan. */
  getTurnCursor(): Promise<number | null>;

  /** Burns a request nonce. False if it was already used. */
  burnNonce(signer: string, nonce: bigint, expiresAt: number): Promise<boolean>;
  /** Forgets nonces whose requests expired before `now` (they can no longer be replayed). */
  pruneNonces(now: number): Promise<number>;
  /** Entries of the store's in-memory caches, if it keeps any (the `shroud_dealer_cache_entries` gauge). */
  cacheSizes?(): Record<string, number>;

  getCursor(): Promise<number | null>;
  setCursor(block: number): Promise<void>;

  /** Proves the DB is writable (health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
