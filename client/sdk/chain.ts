/**
 * The SDK's chain layer: a player's reads and writes against `ShroudGame` (ethers v6), browser-safe (no
 * node: imports). Proving stays behind the small `Prover` interface (see prover.ts for the snarkjs one),
 * so a browser passes its own artifacts (URLs or bytes) and a server may prove elsewhere.
 */

import type { Point } from '@shroud/core/babyjub.ts';
import { shareCommitment } from '@shroud/core/commitments.ts';
import { FIELD_MODULUS } from '@shroud/core/field.ts';
import { GAME_PHASES, type GamePhaseName } from '@shroud/core/game-phases.ts';
import { DURATION_FIELDS, type Durations } from '@shroud/core/limits.ts';
import type { SolidityProof } from '@shroud/core/mapproof/types.ts';
import type { Hasher } from '@shroud/core/poseidon.ts';
import { addressToField, sealShare as sealToDealer } from '@shroud/core/sealed.ts';
import type {
  AttackPlan,
  CombatPlan,
  SpawnPlan,
  TurnPlan,
  WitnessPlan,
} from '@shroud/core/witness/inputs.ts';
import {
  Contract,
  type ContractRunner,
  type ContractTransactionReceipt,
  type Log,
  type Signer,
} from 'ethers';
import { type RetryOptions, realSleep, withRetries } from './backoff.ts';

/** The slice of ShroudGame a player uses (human-readable ABI; checked against the artifact by the demo test). */
const PROOF = '(uint256[2] a, uint256[2][2] b, uint256[2] c) proof';
const DURATIONS =
  '(uint32 commitSeconds, uint32 revealSeconds, uint32 rootSeconds, uint32 turnSeconds, uint32 combatSeconds, uint32 disputeSeconds, uint32 secretsSeconds, uint32 auditSeconds)';
const BOARD = '(uint8 kind, uint16 width, uint16 height, uint32 maxTurns)';

/** The slice of IShroudGame a player uses (human-readable; test/contracts/abi.test.ts checks it against the artifact). */
export const SHROUD_PLAYER_ABI = [
  'function commit(uint256 gameId, uint256 commitment) payable',
  `function sealedReveal(uint256 gameId, uint256 ephemeralY, uint256 ciphertext, ${PROOF})`,
  `function spawn(uint256 gameId, ${PROOF}, uint256[] report, uint256 newCommit, uint256 revealCommit_)`,
  `function submitTurn(uint256 gameId, ${PROOF}, uint256[] report, uint256 newCommit, uint256 revealCommit_)`,
  `function attack(uint256 gameId, ${PROOF}, uint256 nullifier, uint256 targetCol, uint256 targetRow, uint256 defender)`,
  `function respondCombat(uint256 gameId, ${PROOF}, uint256 present, uint256 unitType, uint256 unitHp, uint256 newCommit)`,
  'function claimTurnTimeout(uint256 gameId)',
  'function claimCombatTimeout(uint256 gameId)',
  'function openDispute(uint256 gameId, uint32[] leaves, uint256 blinding) payable',
  'function acceptDisputeAnswer(uint256 gameId)',
  'function challengeDisputeAnswer(uint256 gameId, uint32[] leaves, uint256[] answer, uint256 index)',
  'function claimDisputeTimeout(uint256 gameId)',
  'function startForceOpen(uint256 gameId)',
  'function revealShare(uint256 gameId, uint256 share)',
  'function proposeOpenRoot(uint256 gameId, uint256[] zoneRoots)',
  'function challengeOpenRoot(uint256 gameId, uint256[] zoneRoots, uint256 zone, uint256[64] leaves)',
  'function answerOpenRootChallenge(uint256 gameId, uint256[] zoneRoots, uint256[64] challengerLeaves, uint256[64] proposerLeaves)',
  'function claimOpenRootTimeout(uint256 gameId)',
  `function createGame((address[] players, address dealer, uint256[2] sealKey, bytes32 rulesetHash, ${DURATIONS} durations, ${BOARD} board, uint96 stake, uint96 disputeDeposit) params) payable returns (uint256)`,
  'function gameCount() view returns (uint256)',
  'function gameIdOf(uint256 counter) view returns (uint256)',
  'function getCombat(uint256 gameId) view returns ((uint8 attacker, uint8 defender, uint16 col, uint16 row, uint40 turnLeft))',
  'function getDispute(uint256 gameId) view returns ((uint8 seat, uint8 nLeaves, bool answered, bool receipted, uint32 turn, uint40 pausedLeft, uint96 deposit, bytes32 leavesHash, bytes32 answerHash))',
  'function getOpenRoot(uint256 gameId) view returns ((bool proposed, uint8 proposer, bool challenged, uint8 challenger, uint16 zone, uint256 root, bytes32 zoneRootsHash, bytes32 challengeHash))',
  'function getGame(uint256 gameId) view returns (address dealer, uint8 phase, uint256 nPlayers, uint256 deadline, uint256 turn, uint256 toMove, uint256 root, uint256 masterCommitment, uint256 seed, uint256 bond, bool openMap)',
  `function getGameConfig(uint256 gameId) view returns (${BOARD} board, uint256 depth, bytes32 rulesetHash, uint256 stake, ${DURATIONS} durations, uint256[2] sealKey, uint256 disputeDeposit)`,
  'function getSeat(uint256 gameId, uint256 seat) view returns ((address player, bool committed, bool revealed, bool shareRevealed, bool atFault, bool forfeited, bool staked, bool spawned, bool proposedOpenRoot, uint32 lastTurn, uint96 escrow, uint32 disputedTurn, uint256 commitment, uint256 share, uint256 stateCommitment, uint256 zoneMask, uint256 revealCommit))',
  'function revealCommit(uint256 gameId, address player, uint256 turn) view returns (uint256)',
  'function seatPlusOne(uint256 gameId, address player) view returns (uint256)',
  `function durationBounds() pure returns (${DURATIONS} minimum, ${DURATIONS} maximum)`,
  'function registry() view returns (address)',
  'function sealVerifier() view returns (address)',
  'event GameCreated(uint256 indexed gameId, address indexed dealer, address[] players, bytes32 rulesetHash, uint256 bond, uint256 stake)',
  'event RootPosted(uint256 indexed gameId, uint256 root, uint256 masterCommitment)',
  'event TurnSubmitted(uint256 indexed gameId, address indexed player, uint256 turn, uint256 revealCommit)',
  'event ZoneReveal(uint256 indexed gameId, address indexed player, uint256 zone, uint256 unitType)',
  'event AttackDeclared(uint256 indexed gameId, address indexed attacker, address indexed defender, uint256 col, uint256 row, uint256 nullifier, uint256 deadline)',
  'event CombatResolved(uint256 indexed gameId, address indexed attacker, address indexed defender, uint256 col, uint256 row, uint256 unitType, uint256 hpBefore, bool killed)',
  'event CombatFizzled(uint256 indexed gameId, address indexed attacker, address indexed defender, uint256 col, uint256 row)',
  'event DisputeOpened(uint256 indexed gameId, uint256 seat, uint256 turn, uint32[] leaves, uint256 deadline)',
  'event DisputeAnswered(uint256 indexed gameId, uint256 seat, uint256 turn, uint256[] answer)',
  'event DisputeClosed(uint256 indexed gameId, uint256 seat, uint256 turn)',
  'event DealerSlashed(uint256 indexed gameId, uint8 reason, uint256 amount)',
  'event MapOpened(uint256 indexed gameId, uint256 seed)',
  'event OpenRootProposed(uint256 indexed gameId, uint256 seat, uint256 root, uint256[] zoneRoots, uint256 deadline)',
  'event OpenRootChallenged(uint256 indexed gameId, uint256 seat, uint256 zone, uint256[] leaves, uint256 deadline)',
  'event OpenRootDecided(uint256 indexed gameId, uint256 leafIndex, uint256 loser, bool proposalStands)',
  'event OpenRootAdopted(uint256 indexed gameId, uint256 root)',
  'event GameEnded(uint256 indexed gameId, uint256 turn)',
  'event SecretsPublished(uint256 indexed gameId, uint256 masterSecret, uint256[] shares, uint256 seed)',
  'error AlreadyAnswered()',
  'error AlreadyChallenged()',
  'error AlreadyCommitted()',
  'error AlreadyProposed()',
  'error AlreadyRevealed()',
  'error AlreadySpawned()',
  'error AnswerMismatch()',
  'error BadDealer()',
  'error BadDefender()',
  'error BadLeafIndex()',
  'error BadPlayer(uint256 index)',
  'error DeadlineNotPassed(uint256 deadline)',
  'error DeadlinePassed(uint256 deadline)',
  'error InvalidProof()',
  'error NoFraud()',
  'error NoProposal()',
  'error NotAnswered()',
  'error NotChallenged()',
  'error NotDefender()',
  'error NotDisputer()',
  'error NothingToDispute()',
  'error NotInField()',
  'error NotPlayer()',
  'error NotSpawned()',
  'error NotYourTurn()',
  'error NullifierUsed()',
  'error OffBoard()',
  'error OpeningMismatch()',
  'error ProposalMismatch()',
  'error RulesetMismatch()',
  'error ShareMismatch(uint256 seat)',
  'error UnknownGame()',
  'error UnknownRuleset(bytes32 rulesetHash)',
  'error WrongDeposit(uint256 expected, uint256 sent)',
  'error WrongPhase(uint8 expected, uint8 actual)',
  'error WrongStake(uint256 expected, uint256 sent)',
  'error ZoneMismatch()',
] as const;

/**
 * The VerifierRegistry views a player needs: the ruleset's combat damage, each circuit's verifier, and the
 * SHA-256 of the proving artifacts registered beside a verifier (what downloaded artifacts are checked against).
 */
export const VERIFIER_REGISTRY_ABI = [
  'function getRuleset(bytes32 rulesetHash) view returns ((bool registered, uint8 kind, uint16 width, uint16 height, uint8 maxPlayers, uint8 damage, bool passability, uint8 maxRevealedTiles))',
  'function getVerifier(bytes32 rulesetHash, uint256 circuit) view returns ((address target, bytes4 selector, uint16 nPublic))',
  'function artifactsOf(address verifier) view returns ((bytes32 zkey, bytes32 wasm))',
] as const;

/** The registry's circuit ids (VerifierRegistry.sol): the seal circuit has none, ShroudGame holds its verifier. */
export const CIRCUIT_IDS = { spawn: 0, turn: 1, attack: 2, combat: 3, maproot: 4 } as const;
export type RegistryCircuit = keyof typeof CIRCUIT_IDS;

export { GAME_PHASES, type GamePhaseName };

/** The circuits a player proves: the sealed share (ruleset-independent), then the play circuits. */
export type CircuitKind = 'seal' | 'spawn' | 'turn' | 'attack' | 'combat';

export type { SolidityProof };

/** Proves a witness plan. Implementations must check the proof's public signals equal `plan.publicSignals`. */
export interface Prover {
  prove(circuit: CircuitKind, plan: WitnessPlan): Promise<SolidityProof>;
}

/** A write the chain accepted. */
export interface TxResult {
  hash: string;
  blockNumber: number;
  gasUsed: bigint;
  events: GameEvent[];
}

export type GameEvent =
  | { kind: 'TurnSubmitted'; player: string; turn: number; revealCommit: bigint; tx: string; block: number }
  | { kind: 'ZoneReveal'; player: string; zone: number; unitType: number; tx: string; block: number }
  | {
      kind: 'AttackDeclared';
      attacker: string;
      defender: string;
      col: number;
      row: number;
      tx: string;
      block: number;
    }
  | {
      kind: 'CombatResolved';
      attacker: string;
      defender: string;
      col: number;
      row: number;
      unitType: number;
      hpBefore: number;
      killed: boolean;
      tx: string;
      block: number;
    }
  | {
      kind: 'CombatFizzled';
      attacker: string;
      defender: string;
      col: number;
      row: number;
      tx: string;
      block: number;
    }
  | {
      kind: 'DisputeOpened';
      seat: number;
      turn: number;
      leaves: number[];
      deadline: number;
      tx: string;
      block: number;
    }
  | { kind: 'DisputeAnswered'; seat: number; turn: number; answer: bigint[]; tx: string; block: number }
  | { kind: 'DisputeClosed'; seat: number; turn: number; tx: string; block: number }
  | { kind: 'DealerSlashed'; reason: number; amount: bigint; tx: string; block: number }
  | { kind: 'MapOpened'; seed: bigint; tx: string; block: number }
  | {
      kind: 'OpenRootProposed';
      seat: number;
      root: bigint;
      zoneRoots: bigint[];
      deadline: number;
      tx: string;
      block: number;
    }
  | {
      kind: 'OpenRootChallenged';
      seat: number;
      zone: number;
      leaves: bigint[];
      deadline: number;
      tx: string;
      block: number;
    }
  | { kind: 'OpenRootAdopted'; root: bigint; tx: string; block: number }
  | { kind: 'GameEnded'; turn: number; tx: string; block: number }
  | {
      kind: 'SecretsPublished';
      masterSecret: bigint;
      shares: bigint[];
      seed: bigint;
      tx: string;
      block: number;
    };

export interface GameState {
  dealer: string;
  phase: GamePhaseName;
  nPlayers: number;
  deadline: number;
  turn: number;
  toMove: number;
  root: bigint;
  masterCommitment: bigint;
  seed: bigint;
  /** The dealer's bond still held (0 once slashed or paid back). */
  bond: bigint;
  openMap: boolean;
}

export interface SeatState {
  player: string;
  committed: boolean;
  revealed: boolean;
  shareRevealed: boolean;
  forfeited: boolean;
  spawned: boolean;
  proposedOpenRoot: boolean;
  lastTurn: number;
  /** lastTurn + 1 of the seat's last dispute (0: none). */
  disputedTurn: number;
  commitment: bigint;
  stateCommitment: bigint;
  zoneMask: bigint;
  revealCommit: bigint;
}

export interface GameConfig {
  kind: number;
  width: number;
  height: number;
  maxTurns: number;
  depth: number;
  rulesetHash: string;
  stake: bigint;
  durations: Durations;
  /** The dealer's Baby Jubjub key the shares are sealed to. */
  sealKey: Point;
  /** Paid with `openDispute` (≤ stake). */
  disputeDeposit: bigint;
}

/** The open reveal dispute of a game (meaningful in phase Dispute). */
export interface DisputeState {
  seat: number;
  nLeaves: number;
  answered: boolean;
  turn: number;
  deposit: bigint;
}

/** The standing open-root proposal and its pending challenge (meaningful in phase OpenRoot). */
export interface OpenRootState {
  proposed: boolean;
  proposer: number;
  challenged: boolean;
  challenger: number;
  zone: number;
  root: bigint;
}

/** What a player needs to know to play a game it was seated in. */
export interface JoinedGame {
  gameId: bigint;
  seat: number;
  players: string[];
  config: GameConfig;
}

/** A contract error, decoded to its name when the revert data allows. */
export class ChainError extends Error {
  readonly revert: string | undefined;
  constructor(what: string, revert: string | undefined, cause: unknown) {
    const detail = revert ?? (cause as { shortMessage?: string })?.shortMessage ?? String(cause);
    super(`${what}: ${detail}`, { cause });
    this.name = 'ChainError';
    this.revert = revert;
  }
}

/** The node could not be reached after every retry. Nothing was changed locally. */
export class ChainUnavailableError extends Error {
  readonly attempts: number;
  constructor(what: string, attempts: number, cause: unknown) {
    super(`${what}: chain unreachable after ${attempts} attempts`, { cause });
    this.name = 'ChainUnavailableError';
    this.attempts = attempts;
  }
}

/** ethers' codes for a node that did not answer (as opposed to a call that reverted). */
function isNetworkError(e: unknown): boolean {
  const code = (e as { code?: string })?.code;
  return code === 'NETWORK_ERROR' || code === 'TIMEOUT' || code === 'SERVER_ERROR' || code === 'ECONNREFUSED';
}

/** A uniformly random field element from the platform CSPRNG (Web Crypto). */
export function randomField(): bigint {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    bytes[0]! &= 0x3f; // < 2^254: rejection sampling below p keeps it uniform
    let v = 0n;
    for (const b of bytes) v = (v << 8n) | BigInt(b);
    if (v < FIELD_MODULUS) return v;
  }
}

const lower = (a: unknown) => String(a).toLowerCase();

/** Blocks per eth_getLogs call. */
const LOG_CHUNK = 5000;

/** A `Durations` tuple as ethers decodes it. */
function durationsOf(d: Record<string, unknown>): Durations {
  return Object.fromEntries(DURATION_FIELDS.map((f) => [f, Number(d[f])])) as unknown as Durations;
}

/** Gas limit for an estimate: +25% covers the state changes a concurrent transaction can cause. */
export const withHeadroom = (estimate: bigint): bigint => estimate + estimate / 4n;

/**
 * A player's handle on the game contract. Reads need only a provider-backed runner; writes need a Signer.
 * Every write waits for one confirmation and returns the gas used and the game's events it emitted.
 */
export class GameChain {
  readonly address: string;
  readonly contract: Contract;
  readonly #runner: ContractRunner;
  readonly #retry: RetryOptions;

  /** Reads retry network failures with backoff (default 5 attempts, 250 ms doubling to 8 s); writes never retry. */
  constructor(gameContract: string, runner: ContractRunner, retry: Partial<RetryOptions> = {}) {
    this.address = gameContract;
    this.#runner = runner;
    this.contract = new Contract(gameContract, SHROUD_PLAYER_ABI, runner);
    this.#retry = {
      maxAttempts: 5,
      baseDelayMs: 250,
      maxDelayMs: 8000,
      sleep: realSleep,
      random: Math.random,
      ...retry,
    };
  }

  /** The same contract, sending as `signer`. */
  connect(signer: Signer): GameChain {
    return new GameChain(this.address, signer, this.#retry);
  }

  get provider() {
    const p = this.#runner.provider;
    if (!p) throw new Error('GameChain: the runner has no provider');
    return p;
  }

  async chainId(): Promise<bigint> {
    return (await this.provider.getNetwork()).chainId;
  }

  async signerAddress(): Promise<string> {
    const s = this.#runner as Signer;
    if (typeof s.getAddress !== 'function') throw new Error('GameChain: writes need a Signer');
    return lower(await s.getAddress());
  }

  async game(gameId: bigint): Promise<GameState> {
    const g = await this.#call('getGame', gameId);
    return {
      dealer: lower(g.dealer),
      phase: GAME_PHASES[Number(g.phase)] ?? 'None',
      nPlayers: Number(g.nPlayers),
      deadline: Number(g.deadline),
      turn: Number(g.turn),
      toMove: Number(g.toMove),
      root: BigInt(g.root),
      masterCommitment: BigInt(g.masterCommitment),
      seed: BigInt(g.seed),
      bond: BigInt(g.bond),
      openMap: Boolean(g.openMap),
    };
  }

  async seat(gameId: bigint, seat: number): Promise<SeatState> {
    const s = await this.#call('getSeat', gameId, seat);
    return {
      player: lower(s.player),
      committed: s.committed,
      revealed: s.revealed,
      shareRevealed: s.shareRevealed,
      forfeited: s.forfeited,
      spawned: s.spawned,
      proposedOpenRoot: s.proposedOpenRoot,
      lastTurn: Number(s.lastTurn),
      disputedTurn: Number(s.disputedTurn),
      commitment: BigInt(s.commitment),
      stateCommitment: BigInt(s.stateCommitment),
      zoneMask: BigInt(s.zoneMask),
      revealCommit: BigInt(s.revealCommit),
    };
  }

  async config(gameId: bigint): Promise<GameConfig> {
    const c = await this.#call('getGameConfig', gameId);
    return {
      kind: Number(c.board.kind),
      width: Number(c.board.width),
      height: Number(c.board.height),
      maxTurns: Number(c.board.maxTurns),
      depth: Number(c.depth),
      rulesetHash: lower(c.rulesetHash),
      stake: BigInt(c.stake),
      durations: durationsOf(c.durations),
      sealKey: [BigInt(c.sealKey[0]), BigInt(c.sealKey[1])],
      disputeDeposit: BigInt(c.disputeDeposit),
    };
  }

  /** The contract's floors and ceilings of every duration (`durationBounds()`). */
  async durationBounds(): Promise<{ minimum: Durations; maximum: Durations }> {
    const [lo, hi] = await this.#call('durationBounds');
    return { minimum: durationsOf(lo), maximum: durationsOf(hi) };
  }

  async dispute(gameId: bigint): Promise<DisputeState> {
    const d = await this.#call('getDispute', gameId);
    return {
      seat: Number(d.seat),
      nLeaves: Number(d.nLeaves),
      answered: Boolean(d.answered),
      turn: Number(d.turn),
      deposit: BigInt(d.deposit),
    };
  }

  async openRoot(gameId: bigint): Promise<OpenRootState> {
    const o = await this.#call('getOpenRoot', gameId);
    return {
      proposed: Boolean(o.proposed),
      proposer: Number(o.proposer),
      challenged: Boolean(o.challenged),
      challenger: Number(o.challenger),
      zone: Number(o.zone),
      root: BigInt(o.root),
    };
  }

  /** The combat damage registered for the game's ruleset (the `damage` input of combat proofs). */
  async damage(gameId: bigint): Promise<number> {
    const { rulesetHash } = await this.config(gameId);
    const registry = new Contract(String(await this.#call('registry')), VERIFIER_REGISTRY_ABI, this.#runner);
    return Number((await registry.getFunction('getRuleset')(rulesetHash)).damage);
  }

  /** The VerifierRegistry the game checks proofs with. */
  async registryAddress(): Promise<string> {
    return lower(await this.#call('registry'));
  }

  /** The sealed-share verifier the game holds itself (not in the registry's ruleset table). */
  async sealVerifier(): Promise<string> {
    return lower(await this.#call('sealVerifier'));
  }

  /** The verifier contract registered for `circuit` of a ruleset; the zero address when none is. */
  async verifierOf(rulesetHash: string, circuit: RegistryCircuit): Promise<string> {
    const v = await this.#registryCall('getVerifier', rulesetHash, CIRCUIT_IDS[circuit]);
    return lower(v.target);
  }

  /** The SHA-256 of the zkey and wasm registered for `verifier` (0x-hex; all zeros when none are). */
  async artifactsOf(verifier: string): Promise<{ zkey: `0x${string}`; wasm: `0x${string}` }> {
    const a = await this.#registryCall('artifactsOf', verifier);
    return { zkey: lower(a.zkey) as `0x${string}`, wasm: lower(a.wasm) as `0x${string}` };
  }

  /** The on-chain map root; 0n before the dealer posted it. Verify every served tile against this. */
  async root(gameId: bigint): Promise<bigint> {
    return (await this.game(gameId)).root;
  }

  /** Seat order, lowercase addresses, and `player`'s seat in it. */
  async join(gameId: bigint, player?: string): Promise<JoinedGame> {
    const who = lower(player ?? (await this.signerAddress()));
    const g = await this.game(gameId);
    const players: string[] = [];
    for (let i = 0; i < g.nPlayers; i++) players.push((await this.seat(gameId, i)).player);
    const seat = players.indexOf(who);
    if (seat < 0) throw new ChainError(`join game ${gameId}`, 'NotPlayer', `${who} has no seat`);
    return { gameId, seat, players, config: await this.config(gameId) };
  }

  /** The id of the game `receipt` created (from its GameCreated log). */
  gameIdFromReceipt(receipt: { logs: readonly Log[] }): bigint {
    for (const e of this.parseLogs(receipt.logs)) if (e.name === 'GameCreated') return BigInt(e.args[0]);
    throw new Error('no GameCreated event in the receipt');
  }

  /**
   * Posts `C_i = Poseidon(gameId, player, share)`, paying the game's stake. The caller checks the game's terms
   * first (`checkGameTerms`): once staked, a player is bound by them.
   */
  async commitShare(h: Hasher, gameId: bigint, share: bigint): Promise<TxResult> {
    const player = await this.signerAddress();
    const { stake } = await this.config(gameId);
    const c = shareCommitment(h, gameId, addressToField(player), share);
    return this.#send('commit', [gameId, c], stake);
  }

  /**
   * Posts the share sealed to the dealer's key (core/sealed.ts) with the `seal` proof that it opens `C_i` under
   * that key and this game's id and player: the contract refuses anything else, so an accepted share always opens.
   */
  async sealShare(h: Hasher, prover: Prover, gameId: bigint, share: bigint): Promise<TxResult> {
    const player = await this.signerAddress();
    const { sealKey } = await this.config(gameId);
    const { sealed, plan } = sealToDealer(h, sealKey, share, { gameId, player: addressToField(player) });
    const proof = await prover.prove('seal', plan);
    return this.#send('sealedReveal', [gameId, sealed.ephemeralY, sealed.ciphertext, proof]);
  }

  /** Puts this player's latest turn's opening on-chain, paying the game's dispute deposit (P6 given up for it). */
  async openDispute(gameId: bigint, leaves: readonly number[], blinding: bigint): Promise<TxResult> {
    const { disputeDeposit } = await this.config(gameId);
    return this.#send('openDispute', [gameId, leaves, blinding], disputeDeposit);
  }

  acceptDisputeAnswer(gameId: bigint): Promise<TxResult> {
    return this.#send('acceptDisputeAnswer', [gameId]);
  }

  challengeDisputeAnswer(
    gameId: bigint,
    leaves: readonly number[],
    answer: readonly bigint[],
    index: number,
  ) {
    return this.#send('challengeDisputeAnswer', [gameId, leaves, answer, index]);
  }

  /** Anyone, once a deadline passed: the matching permissionless exit. */
  claim(
    fn:
      | 'claimDisputeTimeout'
      | 'claimOpenRootTimeout'
      | 'claimTurnTimeout'
      | 'claimCombatTimeout'
      | 'startForceOpen',
    gameId: bigint,
  ): Promise<TxResult> {
    return this.#send(fn, [gameId]);
  }

  /** Force-open: reveals this player's share on-chain (checked against its `C_i`). */
  revealShare(gameId: bigint, share: bigint): Promise<TxResult> {
    return this.#send('revealShare', [gameId, share]);
  }

  proposeOpenRoot(gameId: bigint, zoneRoots: readonly bigint[]): Promise<TxResult> {
    return this.#send('proposeOpenRoot', [gameId, zoneRoots]);
  }

  /** Disputes zone `zone` of the standing proposal with its 64 leaves as this player computes them. */
  challengeOpenRoot(gameId: bigint, zoneRoots: readonly bigint[], zone: number, leaves: readonly bigint[]) {
    return this.#send('challengeOpenRoot', [gameId, zoneRoots, zone, leaves]);
  }

  /** Shows the proposal's leaves of the challenged zone: the first difference is decided against Gen(seed). */
  answerOpenRootChallenge(
    gameId: bigint,
    zoneRoots: readonly bigint[],
    challengerLeaves: readonly bigint[],
    proposerLeaves: readonly bigint[],
  ): Promise<TxResult> {
    return this.#send('answerOpenRootChallenge', [gameId, zoneRoots, challengerLeaves, proposerLeaves]);
  }

  /** Waits for the dealer's root (polls `getGame`); throws on cancellation, force-open or timeout. */
  async waitForRoot(gameId: bigint, o: { timeoutMs?: number; pollMs?: number } = {}): Promise<bigint> {
    const until = Date.now() + (o.timeoutMs ?? 120_000);
    for (;;) {
      const g = await this.game(gameId);
      if (g.root !== 0n) return g.root;
      if (g.phase === 'Cancelled' || g.phase === 'ForceOpen')
        throw new Error(`game ${gameId}: ${g.phase} before the root was posted`);
      if (Date.now() > until) throw new Error(`game ${gameId}: no root after ${o.timeoutMs ?? 120_000} ms`);
      await new Promise((r) => setTimeout(r, o.pollMs ?? 250));
    }
  }

  /**
   * The opponents' stored zone masks as proofs take them: increasing seat order skipping `seat`, 0 for
   * forfeited seats and for seats the ruleset has but the game does not (`maxPlayers − 1` in all).
   */
  async opponentMasks(gameId: bigint, seat: number, maxPlayers: number): Promise<bigint[]> {
    const { nPlayers } = await this.game(gameId);
    const out: bigint[] = [];
    for (let k = 0; k < maxPlayers; k++) {
      if (k === seat) continue;
      if (k >= nPlayers) {
        out.push(0n);
        continue;
      }
      const s = await this.seat(gameId, k);
      out.push(s.forfeited ? 0n : s.zoneMask);
    }
    return out;
  }

  async spawn(gameId: bigint, plan: SpawnPlan, proof: SolidityProof): Promise<TxResult> {
    return this.#play('spawn', gameId, plan, proof);
  }

  async submitTurn(gameId: bigint, plan: TurnPlan, proof: SolidityProof): Promise<TxResult> {
    return this.#play('submitTurn', gameId, plan, proof);
  }

  /** Spawn and turn take the same arguments: the proof and the plan's public outputs. */
  #play(fn: 'spawn' | 'submitTurn', gameId: bigint, plan: SpawnPlan | TurnPlan, proof: SolidityProof) {
    return this.#send(fn, [gameId, proof, plan.report, plan.newCommit, plan.revealCommit]);
  }

  async attack(
    gameId: bigint,
    plan: AttackPlan,
    proof: SolidityProof,
    target: { col: number; row: number },
    defenderSeat: number,
  ): Promise<TxResult> {
    return this.#send('attack', [gameId, proof, plan.nullifier, target.col, target.row, defenderSeat]);
  }

  async respondCombat(gameId: bigint, plan: CombatPlan, proof: SolidityProof): Promise<TxResult> {
    return this.#send('respondCombat', [
      gameId,
      proof,
      plan.present ? 1n : 0n,
      plan.unitType,
      plan.unitHp,
      plan.newCommit,
    ]);
  }

  /** The pending combat (meaningful in phase Combat). */
  /**
   * The game's combat record. `pending` is false once it is resolved: the contract deletes the record, and
   * its zeros would otherwise read as "seat 0 attacked by seat 0" (a seat never attacks itself).
   */
  async combat(
    gameId: bigint,
  ): Promise<{ attacker: number; defender: number; col: number; row: number; pending: boolean }> {
    const c = await this.#call('getCombat', gameId);
    return {
      attacker: Number(c.attacker),
      defender: Number(c.defender),
      col: Number(c.col),
      row: Number(c.row),
      pending: Number(c.attacker) !== Number(c.defender),
    };
  }

  /** The game's events in blocks [fromBlock, toBlock] (default: to the head), in log order, read in chunks. */
  async events(gameId: bigint, fromBlock: number, toBlock?: number): Promise<GameEvent[]> {
    const to = toBlock ?? (await this.provider.getBlockNumber());
    const out: GameEvent[] = [];
    // Public RPCs cap the block span of one eth_getLogs.
    for (let from = fromBlock; from <= to; from += LOG_CHUNK) {
      const logs = await this.provider.getLogs({
        address: this.address,
        fromBlock: from,
        toBlock: Math.min(to, from + LOG_CHUNK - 1),
        topics: [null, `0x${gameId.toString(16).padStart(64, '0')}`],
      });
      out.push(...this.#decode(logs));
    }
    return out;
  }

  parseLogs(logs: readonly Log[]) {
    const out = [];
    for (const l of logs) {
      if (lower(l.address) !== lower(this.address)) continue;
      try {
        const p = this.contract.interface.parseLog(l);
        if (p) out.push(p);
      } catch {}
    }
    return out;
  }

  #decode(logs: readonly Log[]): GameEvent[] {
    const out: GameEvent[] = [];
    for (const l of logs) {
      if (lower(l.address) !== lower(this.address)) continue;
      let p: ReturnType<Contract['interface']['parseLog']>;
      try {
        p = this.contract.interface.parseLog(l);
      } catch {
        continue;
      }
      if (!p) continue;
      const a = p.args;
      const at = { tx: l.transactionHash, block: l.blockNumber };
      // The fields every attack and combat event shares.
      const fight = () => ({
        attacker: lower(a.attacker),
        defender: lower(a.defender),
        col: Number(a.col),
        row: Number(a.row),
      });
      switch (p.name) {
        case 'TurnSubmitted':
          out.push({
            kind: 'TurnSubmitted',
            player: lower(a.player),
            turn: Number(a.turn),
            revealCommit: BigInt(a.revealCommit),
            ...at,
          });
          break;
        case 'ZoneReveal':
          out.push({
            kind: 'ZoneReveal',
            player: lower(a.player),
            zone: Number(a.zone),
            unitType: Number(a.unitType),
            ...at,
          });
          break;
        case 'AttackDeclared':
          out.push({ kind: 'AttackDeclared', ...fight(), ...at });
          break;
        case 'CombatResolved':
          out.push({
            kind: 'CombatResolved',
            ...fight(),
            unitType: Number(a.unitType),
            hpBefore: Number(a.hpBefore),
            killed: Boolean(a.killed),
            ...at,
          });
          break;
        case 'CombatFizzled':
          out.push({ kind: 'CombatFizzled', ...fight(), ...at });
          break;
        case 'DisputeOpened':
          out.push({
            kind: 'DisputeOpened',
            seat: Number(a.seat),
            turn: Number(a.turn),
            leaves: [...a.leaves].map(Number),
            deadline: Number(a.deadline),
            ...at,
          });
          break;
        case 'DisputeAnswered':
          out.push({
            kind: 'DisputeAnswered',
            seat: Number(a.seat),
            turn: Number(a.turn),
            answer: [...a.answer].map(BigInt),
            ...at,
          });
          break;
        case 'DisputeClosed':
          out.push({ kind: 'DisputeClosed', seat: Number(a.seat), turn: Number(a.turn), ...at });
          break;
        case 'DealerSlashed':
          out.push({ kind: 'DealerSlashed', reason: Number(a.reason), amount: BigInt(a.amount), ...at });
          break;
        case 'MapOpened':
          out.push({ kind: 'MapOpened', seed: BigInt(a.seed), ...at });
          break;
        case 'OpenRootProposed':
          out.push({
            kind: 'OpenRootProposed',
            seat: Number(a.seat),
            root: BigInt(a.root),
            zoneRoots: [...a.zoneRoots].map(BigInt),
            deadline: Number(a.deadline),
            ...at,
          });
          break;
        case 'OpenRootChallenged':
          out.push({
            kind: 'OpenRootChallenged',
            seat: Number(a.seat),
            zone: Number(a.zone),
            leaves: [...a.leaves].map(BigInt),
            deadline: Number(a.deadline),
            ...at,
          });
          break;
        case 'OpenRootAdopted':
          out.push({ kind: 'OpenRootAdopted', root: BigInt(a.root), ...at });
          break;
        case 'GameEnded':
          out.push({ kind: 'GameEnded', turn: Number(a.turn), ...at });
          break;
        case 'SecretsPublished':
          out.push({
            kind: 'SecretsPublished',
            masterSecret: BigInt(a.masterSecret),
            shares: [...a.shares].map(BigInt),
            seed: BigInt(a.seed),
            ...at,
          });
          break;
      }
    }
    return out;
  }

  /** A read, retried while the node is unreachable; a revert surfaces at once. */
  // biome-ignore lint/suspicious/noExplicitAny: ethers decodes results into its dynamic Result type.
  async #call(fn: string, ...args: unknown[]): Promise<any> {
    return this.#callOn(this.contract, fn, args);
  }

  #registry: Promise<Contract> | undefined;

  /** A registry view, with the same retries as the game's (the registry address is immutable: read once). */
  // biome-ignore lint/suspicious/noExplicitAny: ethers decodes results into its dynamic Result type.
  async #registryCall(fn: string, ...args: unknown[]): Promise<any> {
    this.#registry ??= this.registryAddress().then(
      (a) => new Contract(a, VERIFIER_REGISTRY_ABI, this.#runner),
    );
    const registry = await this.#registry.catch((e) => {
      this.#registry = undefined;
      throw e;
    });
    return this.#callOn(registry, fn, args);
  }

  // biome-ignore lint/suspicious/noExplicitAny: ethers decodes results into its dynamic Result type.
  async #callOn(contract: Contract, fn: string, args: unknown[]): Promise<any> {
    let r: Awaited<ReturnType<typeof withRetries<unknown>>>;
    try {
      r = await withRetries(() => contract.getFunction(fn)(...args), isNetworkError, this.#retry);
    } catch (e) {
      throw new ChainError(fn, this.revertName(e), e);
    }
    if ('value' in r) return r.value;
    throw new ChainUnavailableError(fn, r.attempts, r.error);
  }

  async #send(fn: string, args: unknown[], value?: bigint): Promise<TxResult> {
    let receipt: ContractTransactionReceipt | null;
    try {
      const f = this.contract.getFunction(fn);
      const overrides = value ? { value } : {};
      // An estimate holds for the state it was made on. Another player's transaction mined first can make
      // this one dearer: the last commit or sealed reveal also closes the phase (71.6k gas, not 64.2k), so
      // two players committing at once ran the second out of gas (ethers: "could not coalesce error").
      const gasLimit = withHeadroom(await f.estimateGas(...args, overrides));
      const tx = await f(...args, { ...overrides, gasLimit });
      receipt = await tx.wait(1);
    } catch (e) {
      throw new ChainError(fn, this.revertName(e), e);
    }
    if (receipt?.status !== 1) throw new ChainError(fn, 'reverted', null);
    return {
      hash: receipt.hash,
      blockNumber: receipt.blockNumber,
      gasUsed: receipt.gasUsed,
      events: this.#decode(receipt.logs),
    };
  }

  /** The custom error a call reverted with, if the revert data names one of the ABI's errors. */
  revertName(e: unknown): string | undefined {
    const err = e as { revert?: { name?: string }; data?: unknown; info?: { error?: { data?: unknown } } };
    if (err?.revert?.name) return err.revert.name;
    const data = typeof err?.data === 'string' ? err.data : err?.info?.error?.data;
    if (typeof data !== 'string' || !/^0x[0-9a-fA-F]{8}/.test(data)) return undefined;
    try {
      return this.contract.interface.parseError(data)?.name;
    } catch {
      return undefined;
    }
  }
}
