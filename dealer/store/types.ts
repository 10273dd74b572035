import type { Groth16Proof } from '../../core/mapproof/types.ts';
import type { SealedShare } from '../../core/sealed.ts';

/** Where the dealer is in dealing one game; each step is persisted before the next starts. */
export type DealStatus =
  | 'watching' // known, ceremony not finished
  | 'root-computed' // secrets stored and tree built, root not yet confirmed on-chain
  | 'dealt' // root confirmed on-chain: reveals may be served, disputes answered
  | 'published' // game ended and master_secret plus every r_i published for the audit
  | 'cancelled' // the game was cancelled on-chain (a player missed a ceremony step)
  | 'forced-open'; // force-opened on-chain (this dealer was slashed): the map is public, nothing left to do

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

export type NewGame = Pick<GameRecord, 'gameId' | 'contract' | 'ruleset' | 'players'>;

/**
 * The dealer's durable state: enough to resume after a crash at any point. Async so a Postgres
 * implementation fits behind it.
 */
export interface DealerStore {
  /** Inserts the game if absent (status `watching`); never overwrites. */
  addGame(g: NewGame): Promise<void>;
  getGame(gameId: bigint): Promise<GameRecord | null>;
  listGames(statuses?: readonly DealStatus[]): Promise<GameRecord[]>;
  updateGame(
    gameId: bigint,
    patch: Partial<Omit<GameRecord, 'gameId' | 'contract' | 'ruleset' | 'players'>>,
  ): Promise<void>;

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

  /** Burns a request nonce. False if it was already used. */
  burnNonce(signer: string, nonce: bigint, expiresAt: number): Promise<boolean>;
  /** Forgets nonces whose requests expired before `now` (they can no longer be replayed). */
  pruneNonces(now: number): Promise<number>;

  getCursor(): Promise<number | null>;
  setCursor(block: number): Promise<void>;

  /** Proves the DB is writable (health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
