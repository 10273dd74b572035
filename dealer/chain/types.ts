import type { Point } from '../../core/babyjub.ts';
import type { DeadlineCall, PhaseDeadline } from '../../core/deadlines.ts';
import type { Durations } from '../../core/limits.ts';
import type { Groth16Proof } from '../../core/mapproof/types.ts';
import type { SealedShare } from '../../core/sealed.ts';

/**
 * Where a game stands on-chain, as far as the dealer cares: read from the contract's phase (core/game-phases.ts)
 * by `dealerPhase` (phase.ts), the only place the two meet.
 */
export type GamePhase =
  | 'commit' // players post C_i
  | 'sealing' // players post their shares sealed to the game's seal key (with a verified proof)
  | 'dealing' // every sealed share is in: the dealer must post the root
  | 'playing' // root posted: spawn, turns, combat
  | 'dispute' // a player disputed a reveal: the dealer must answer on-chain before the deadline
  | 'ended' // the dealer must publish master_secret and every r_i (then the audit)
  | 'cancelled'
  /** The dealer failed (no root, or a dispute unanswered or answered wrongly): slashed, shares revealed on-chain, the map public. */
  | 'forced-open';

/** A zone challenge of a game's audit (ShroudAudit): a seat says the dealer's leaves of `zone` are `leaves`. */
export interface ZoneChallengeRecord {
  gameId: bigint;
  seat: number;
  zone: number;
  leaves: bigint[];
}

/** A game's fixed parameters, read once. */
export interface GameInfo {
  gameId: bigint;
  /** The game contract: EIP-712 `verifyingContract` for reveal requests. */
  contract: string;
  /** Shipped ruleset name. The ethers adapter maps the on-chain rulesetHash to it. */
  ruleset: string;
  /** Seat order, lowercase 0x addresses. */
  players: string[];
  /** The game's dealer (lowercase 0x address): the only account that may post its root or answer its disputes. */
  dealer: string;
  /** The Baby Jubjub seal key the shares are sealed to (`GameParams.sealKey`). */
  sealKey: Point;
}

/** One seat's ceremony data: `C_i` and the sealed share (null while not posted). */
export interface SeatShare {
  player: string;
  commitment: bigint;
  sealed: SealedShare | null;
}

export interface PostedRoot {
  root: bigint;
  masterCommitment: bigint;
}

/** A game's reveal dispute (`getDispute` and its `DisputeOpened` event). */
export interface DisputeRecord {
  seat: number;
  /** The disputing seat's address, lowercase. */
  player: string;
  /** The disputed spawn (0) or turn. */
  turn: number;
  answered: boolean;
  /** The answer showed the disputer's receipt for the turn (a false dispute: the deposit is the dealer's). */
  receipted: boolean;
  /** The opened leaves in the opening's order (from `DisputeOpened`); null once answered (not read then). */
  leaves: number[] | null;
  /** Unix seconds: the answer must be mined by then. */
  deadline: number;
}

/** A `GameCreated` log: the game and the block that created it. */
export interface CreatedGame {
  gameId: bigint;
  block: number;
}

/**
 * A `TurnSubmitted` log: the play commitment `C = Poseidon(stateCommit, revealCommit, mapRoot)` (core/state.ts
 * `playCommitment`) a verified spawn (turn 0) or turn proof stored, and its block. Final: a later combat
 * answer changes the seat's stored C (new state, same reveal list) but not this log.
 */
export interface TurnLog {
  gameId: bigint;
  /** Lowercase 0x address. */
  player: string;
  turn: number;
  /** The play commitment C the proof stored (the event's `commitment`). */
  commitment: bigint;
  block: number;
}

/**
 * What the `playCommitment` view says of an earlier turn than the player's latest: the contract keeps only the
 * latest one (it reverts `CommitmentInLogs`); earlier ones are only in the `TurnSubmitted` logs, which the
 * watcher indexes into the store.
 */
export const IN_LOGS = 'in-logs';

/** The deadline exits a dealer sends for its own games (dealer/closing.ts): the two that give its bond back. */
export type DealerCloseCall = Extract<DeadlineCall, 'cancelMissed' | 'settle'>;

/** Opaque receipt of a write (a tx hash on a real chain). */
export interface TxRef {
  hash: string;
}

/**
 * Everything the dealer reads from and writes to the chain. Reads of immutable facts (a posted root, a
 * `TurnSubmitted` log) may be cached by callers, but not the `playCommitment` view's answer (a combat answer
 * replaces it); writes must be safe to retry after checking state.
 *
 * Nothing here publishes anything derived from the dealer's seal key: the sealed shares are opened
 * privately (core `openSealedShare`), and the chain verified at sealedReveal that each one opens.
 */
export interface ChainView {
  /** The address this view sends transactions from (lowercase): games naming another dealer are not ours. */
  readonly dealer: string;
  chainId(): Promise<bigint>;
  headBlock(): Promise<number>;
  /**
   * Games created in blocks [fromBlock, toBlock], with their creation blocks: at least every one naming this
   * dealer (an implementation may return others; the watcher checks each game's dealer and seal key).
   */
  gamesCreated(fromBlock: number, toBlock: number): Promise<CreatedGame[]>;
  /**
   * Every `TurnSubmitted` log in blocks [fromBlock, toBlock], of all games (the caller keeps those of the games
   * it tracks): one scan per block range, however many games there are.
   */
  turnsSubmitted(fromBlock: number, toBlock: number): Promise<TurnLog[]>;
  game(gameId: bigint): Promise<GameInfo | null>;
  phase(gameId: bigint): Promise<GamePhase>;
  /** `fromBlock`: the game's creation block when known (the lower bound of its log search). */
  seatShares(gameId: bigint, fromBlock?: number): Promise<SeatShare[]>;
  mapRoot(gameId: bigint): Promise<PostedRoot | null>;
  /**
   * The contract's `playCommitment` view, at the confirmed block: the play commitment the player's seat stores
   * for its latest spawn (turn 0) or turn when `turn` is it; null when the player has none at `turn` (nor
   * later); IN_LOGS when `turn` is earlier than the player's latest (only its `TurnSubmitted` log has it: see
   * `turnsSubmitted`). Never scans logs. NOT final: a combat answer (`defend`) replaces the seat's stored value
   * by Poseidon(S', R, mapRoot) without a new turn, so callers cache it at most until the head changes.
   */
  playCommitment(gameId: bigint, player: string, turn: number): Promise<bigint | null | typeof IN_LOGS>;
  /**
   * Whether master_secret and the shares are already published (so a retried publish is skipped); with
   * `confirmed`, at the confirmed block (a publish a re-org may still drop is not counted).
   */
  secretsPublished(gameId: bigint, confirmed?: boolean): Promise<boolean>;
  /**
   * The game's current reveal dispute, or null when none is stored. `fromBlock`: the game's creation block
   * when known (the lower bound of the `DisputeOpened` search).
   */
  dispute(gameId: bigint, fromBlock?: number): Promise<DisputeRecord | null>;

  /**
   * Posts the root and `Poseidon(master_secret)` with the dealt tree's zone roots (its nodes at the zone level):
   * players build their passability witnesses from them and the audit judges against them.
   */
  postRoot(gameId: bigint, root: PostedRoot, zoneRoots: readonly bigint[]): Promise<TxRef>;
  /**
   * Answers the open dispute (`answerDispute`) with `receipt`: the disputer's 65-byte `RevealReceipt` signature
   * for the disputed turn (the deposit is then the dealer's), or `0x` when the dealer holds none. Reads first:
   * null, and nothing sent, when the game is no longer in dispute or the dispute is already answered (a retry
   * after a lost transaction receipt).
   */
  answerDispute(gameId: bigint, answer: readonly bigint[], receipt: string): Promise<TxRef | null>;
  /** Publishes the master secret and every share after play. Only the dealer may. */
  publishSecrets(gameId: bigint, masterSecret: bigint, shares: readonly bigint[]): Promise<TxRef>;
  /**
   * The zone challenges posted (`ZoneChallenged` logs, leaves included) from `fromBlock` (less the re-org depth)
   * to the latest block, not the confirmed one (a challenge has an answer deadline, as a dispute does), in log
   * order, and that block: one log scan for every game, so that a dealer with many games in their audit window
   * does not read each one. A challenge may be closed since; `answerZoneChallenge` reads that first.
   */
  zoneChallenges(fromBlock: number): Promise<{ challenges: ZoneChallengeRecord[]; toBlock: number }>;
  /**
   * Whether seat `seat`'s zone challenge is closed (answered, or refunded at the game's end) at the confirmed
   * block: until then an answer a re-org may still drop is not counted, and the challenge is watched.
   */
  zoneChallengeClosed(gameId: bigint, seat: number): Promise<boolean>;
  /**
   * Answers seat `seat`'s zone challenge with the dealer's 64 leaves of its zone. Reads first: null, and nothing sent,
   * when the challenge is no longer open (answered by anyone, or the game is over).
   */
  answerZoneChallenge(
    gameId: bigint,
    seat: number,
    challengerLeaves: readonly bigint[],
    dealerLeaves: readonly bigint[],
  ): Promise<TxRef | null>;
  /** The chain's time: the latest block's timestamp (unix seconds). */
  chainTime(): Promise<number>;
  /**
   * The game's contract phase and deadline, and the chain's time: what closing it needs (core/deadlines.ts). With
   * `confirmed`, the phase and deadline at the confirmed block (the latest less the confirmations).
   */
  closingState(gameId: bigint, confirmed?: boolean): Promise<PhaseDeadline>;
  /**
   * Sends the dealer's closing call for the game: `cancelMissed` (a player missed a ceremony step: the bond
   * comes back) or `settle` (the audit window closed without fraud). Reads first: null, and nothing sent, when
   * `expiredCall` no longer gives that call (someone else closed the game, or its deadline is still ahead).
   */
  close(gameId: bigint, call: DealerCloseCall): Promise<TxRef | null>;
  /** This dealer's withdrawable credit in the game contract (bonds of closed games, deposits of disputes). */
  credit(): Promise<bigint>;
  /** Withdraws the credit to the dealer's address. Reads first: null, and nothing sent, when there is none. */
  withdraw(): Promise<TxRef | null>;
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

/** A board as `createGame` takes it (`IShroudGame.Board`). */
export interface CreateBoard {
  /** 0 hex, 1 square. */
  kind: 0 | 1;
  width: number;
  height: number;
  maxTurns: number;
}

/** `IShroudGame.GameParams` (the dealer is the sender) and the bond sent as `msg.value`. */
export interface CreateGameParams {
  /** Seat order, 0x addresses. */
  players: string[];
  sealKey: Point;
  rulesetHash: string;
  durations: Durations;
  board: CreateBoard;
  stake: bigint;
  disputeDeposit: bigint;
  /** Wei locked as the dealer's bond (> 0, ≤ uint96). */
  bond: bigint;
}

/**
 * A signed `createGame` transaction, kept before it is broadcast so that after a crash the very same
 * transaction (same nonce) is looked up or sent again: at most one of its kind can ever be mined.
 * Nothing in it is secret (it is public once broadcast).
 */
export interface SignedCreate {
  hash: string;
  /** The signed transaction, 0x-hex (FakeChain: its own encoding). */
  raw: string;
  /** The sender's account nonce it was signed with. */
  nonce: number;
  /** The head block before signing: a GameCreated of this transaction is at or after it. */
  fromBlock: number;
}

/** A `GameCreated` log with what identifies a game's creation (players, ruleset, stake, bond). */
export interface CreatedGameLog {
  gameId: bigint;
  block: number;
  hash: string;
  /** Lowercase 0x addresses, in seat order. */
  players: string[];
  rulesetHash: string;
  stake: bigint;
  bond: bigint;
}

/** Where a signed createGame stands. */
export type CreateStatus =
  /** Mined: the game exists (from its GameCreated log). */
  | { state: 'created'; gameId: bigint; block: number; hash: string }
  /** Mined and reverted. */
  | { state: 'reverted'; reason: string }
  /** Not mined, its nonce not used yet: broadcast it (again). */
  | { state: 'pending' }
  /** Its nonce was used by another transaction that created no such game: it can never be mined. */
  | { state: 'dropped' };

/** The chain refused a createGame (it would revert, or did): retrying the same one cannot help. */
export class CreateGameRevert extends Error {
  override name = 'CreateGameRevert';
  /** The contract's custom error (e.g. `UnknownRuleset`), or `reverted`. */
  readonly reason: string;
  constructor(reason: string) {
    super(`createGame reverted: ${reason}`);
    this.reason = reason;
  }
}

/** The dealer's game creation: sign, persist, broadcast, then find out what became of it. */
export interface GameCreator {
  /** The sender (lowercase): the games' dealer. */
  readonly dealer: string;
  /**
   * Signs a createGame (CreateGameRevert when the chain says it would revert), awaits `persist` with it, and
   * only then broadcasts it. Serialized with the sender's other writes, so the nonce signed is the next one.
   */
  submitCreateGame(p: CreateGameParams, persist: (tx: SignedCreate) => Promise<void>): Promise<SignedCreate>;
  /** Where `tx` stands; `match` finds its game by its GameCreated log when another tx took its nonce. */
  createStatus(
    tx: SignedCreate,
    match: (g: CreatedGameLog) => boolean | Promise<boolean>,
  ): Promise<CreateStatus>;
  /** Broadcasts `tx` again (nothing happens when the node already has it, or it is mined). */
  rebroadcast(tx: SignedCreate): Promise<void>;
  /**
   * The start areas the game's VerifierRegistry feeds MapGen for a ruleset (packed as core `packStartAreas`;
   * 0 = none), or null when the ruleset is not registered. Fraud proofs regenerate tiles with them, so a lobby
   * is opened only where they are the ruleset's.
   */
  registeredStartAreas(rulesetHash: string): Promise<bigint | null>;
}
