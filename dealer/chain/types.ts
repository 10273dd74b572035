import type { Groth16Proof } from '../../core/mapproof/types.ts';
import type { BadShareEvidence } from '../../core/sealed.ts';

/** Where a game stands on-chain, as far as the dealer cares. */
export type GamePhase =
  | 'commit' // players post C_i
  | 'sealing' // players post Enc(dealerEncKey, r_i)
  | 'dealing' // every sealed share is in: the dealer must post the root
  | 'playing' // root posted: spawn, turns, combat
  | 'ended' // the dealer must publish master_secret and every r_i
  | 'cancelled'
  | 'forced-open';

/** A game's fixed parameters, read once. */
export interface GameInfo {
  gameId: bigint;
  /** The game contract: EIP-712 `verifyingContract` for reveal requests. */
  contract: string;
  /** Shipped ruleset name. The ethers adapter maps the on-chain rulesetHash to it. */
  ruleset: string;
  /** Seat order, lowercase 0x addresses. */
  players: string[];
  /** Compressed secp256k1 key the shares are sealed to. */
  dealerEncKey: Uint8Array;
}

/** One seat's ceremony data: `C_i` and the sealed share (null while not posted). */
export interface SeatShare {
  player: string;
  commitment: bigint;
  sealed: Uint8Array | null;
}

export interface PostedRoot {
  root: bigint;
  masterCommitment: bigint;
}

/** Opaque receipt of a write (a tx hash on a real chain). */
export interface TxRef {
  hash: string;
}

/**
 * Everything the dealer reads from and writes to the chain. Reads of immutable facts (a posted root, a
 * posted revealCommit) may be cached by callers; writes must be safe to retry after checking state.
 */
export interface ChainView {
  chainId(): Promise<bigint>;
  headBlock(): Promise<number>;
  /** Games created in blocks [fromBlock, toBlock] that name this dealer. */
  gamesCreated(fromBlock: number, toBlock: number): Promise<bigint[]>;
  game(gameId: bigint): Promise<GameInfo | null>;
  phase(gameId: bigint): Promise<GamePhase>;
  seatShares(gameId: bigint): Promise<SeatShare[]>;
  mapRoot(gameId: bigint): Promise<PostedRoot | null>;
  /** The `revealCommit` a player's verified spawn (turn 0) or turn proof stored; null if none. */
  revealCommit(gameId: bigint, player: string, turn: number): Promise<bigint | null>;
  /** Whether master_secret and the shares are already published (so a retried publish is skipped). */
  secretsPublished(gameId: bigint): Promise<boolean>;

  postRoot(gameId: bigint, root: PostedRoot): Promise<TxRef>;
  postBadShareEvidence(gameId: bigint, player: string, evidence: BadShareEvidence): Promise<TxRef>;
  publishSecrets(gameId: bigint, masterSecret: bigint, shares: readonly bigint[]): Promise<TxRef>;
  /**
   * Posts the map root proof to the MapProofRegistry (the chain verifies the aggregate; clients verify
   * each zone). Null when no registry is configured; safe to retry (reads first).
   */
  submitMapProof?(
    gameId: bigint,
    seedHash: bigint,
    zoneRoots: readonly bigint[],
    proof: Groth16Proof,
  ): Promise<TxRef | null>;
}
