/**
 * The SDK's chain layer: a player's reads and writes against `ShroudGame` (ethers v6), browser-safe (no
 * node: imports). Proving stays behind the small `Prover` interface (see prover.ts for the snarkjs one),
 * so a browser passes its own artifacts (URLs or bytes) and a server may prove elsewhere.
 */

import { MAP_PROOF_REGISTRY_ABI } from '@shroud/core/abi/map-proof-registry.ts';
import { SHROUD_GAME_ABI } from '@shroud/core/abi/shroud-game.ts';
import { VERIFIER_REGISTRY_ABI } from '@shroud/core/abi/verifier-registry.ts';
import type { Point } from '@shroud/core/babyjub.ts';
import { CIRCUIT_ID } from '@shroud/core/circuits.ts';
import { shareCommitment } from '@shroud/core/commitments.ts';
import type { DeadlineCall } from '@shroud/core/deadlines.ts';
import { FIELD_MODULUS } from '@shroud/core/field.ts';
import {
  GAME_PHASES,
  type GamePhaseName,
  type GameReasonName,
  phaseName,
  reasonName,
} from '@shroud/core/game-phases.ts';
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
import { decodeReveal } from '@shroud/core/witness/publics.ts';
import type { ContractRunner, ContractTransactionReceipt, Log, Signer } from 'ethers';
import { type RetryOptions, realSleep, withRetries } from './backoff.ts';
import {
  type FunctionArgs,
  type FunctionResult,
  type ParsedEvent,
  parseEvent,
  type RevertName,
  revertName,
  type TypedContract,
  typedContract,
  type ViewName,
  viewOf,
  type WriteName,
  writeOf,
} from './typed-contract.ts';

/** The contracts' ABIs, generated from the Hardhat artifacts (scripts/contracts/abi.ts). */
export { SHROUD_GAME_ABI, VERIFIER_REGISTRY_ABI };

/** ShroudGame as ethers sees it, typed by its ABI. */
export type GameContract = TypedContract<typeof SHROUD_GAME_ABI>;
type GameAbi = typeof SHROUD_GAME_ABI;
type RegistryAbi = typeof VERIFIER_REGISTRY_ABI;

/** The registry's circuit ids (core `CIRCUIT_ID`): the seal circuit has none, ShroudGame holds its verifier. */
export const CIRCUIT_IDS = CIRCUIT_ID;
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
  | { kind: 'TurnSubmitted'; player: string; turn: number; commitment: bigint; tx: string; block: number }
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
  | { kind: 'DealerSlashed'; reason: GameReasonName; amount: bigint; tx: string; block: number }
  | { kind: 'MapOpened'; seed: bigint; tx: string; block: number }
  | {
      kind: 'RootPosted';
      root: bigint;
      masterCommitment: bigint;
      /** The dealer's zone roots: players' passability witnesses and the audit's zone challenges use them. */
      zoneRoots: bigint[];
      tx: string;
      block: number;
    }
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
    }
  | {
      kind: 'ZoneChallenged';
      seat: number;
      zone: number;
      tx: string;
      block: number;
    }
  | {
      kind: 'ZoneChallengeDecided';
      seat: number;
      leafIndex: number;
      dealerStands: boolean;
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
  /** The open map's root replaced the dealer's (`root`): seats spawned before play on only once they `rebind`. */
  rootAdopted: boolean;
  /** The dealer's root the adopted open root replaced (0 before adoption): what those seats' commitments bind. */
  replacedRoot: bigint;
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
  /**
   * Poseidon(stateCommit, revealCommit, mapRoot): the units bound to the reveal list of the seat's latest spawn or
   * turn and to the map root the seat plays on (core/state.ts playCommitment).
   */
  playCommitment: bigint;
  zoneMask: bigint;
  /** Its play commitment binds the adopted open root (spawned after adoption, or `rebind`). */
  rebound: boolean;
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

/** A `Durations` struct as ethers decodes it. */
function durationsOf(d: { readonly [F in keyof Durations]: bigint }): Durations {
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
  readonly contract: GameContract;
  readonly #runner: ContractRunner;
  readonly #retry: RetryOptions;

  /** Reads retry network failures with backoff (default 5 attempts, 250 ms doubling to 8 s); writes never retry. */
  constructor(gameContract: string, runner: ContractRunner, retry: Partial<RetryOptions> = {}) {
    this.address = gameContract;
    this.#runner = runner;
    this.contract = typedContract(gameContract, SHROUD_GAME_ABI, runner);
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
      phase: phaseName(g.phase),
      nPlayers: Number(g.nPlayers),
      deadline: Number(g.deadline),
      turn: Number(g.turn),
      toMove: Number(g.toMove),
      root: g.root,
      masterCommitment: g.masterCommitment,
      seed: g.seed,
      bond: g.bond,
      openMap: g.openMap,
      rootAdopted: g.rootAdopted,
      replacedRoot: g.replacedRoot,
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
      commitment: s.commitment,
      playCommitment: s.playCommitment,
      zoneMask: s.zoneMask,
      rebound: s.rebound,
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
      stake: c.stake,
      durations: durationsOf(c.durations),
      sealKey: [c.sealKey[0], c.sealKey[1]],
      disputeDeposit: c.disputeDeposit,
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
      answered: d.answered,
      turn: Number(d.turn),
      deposit: d.deposit,
    };
  }

  /** The seats' zone challenges of the game's audit (ShroudAudit) still unanswered. */
  /** The block the game's root was posted in (0: none yet): its logs from there hold the root, secrets and audit. */
  async rootBlock(gameId: bigint): Promise<number> {
    return Number(await this.#call('rootBlock', gameId));
  }

  /**
   * The zone roots the dealer posted with the game's root (its `RootPosted` log, found at the block the contract
   * records: one log query), unchecked: `zoneRootsBuild` tells whether they build the root. Null before the root.
   */
  async postedZoneRoots(gameId: bigint): Promise<bigint[] | null> {
    const block = await this.rootBlock(gameId);
    if (block === 0) return null;
    const posted = (await this.events(gameId, block, block)).find((e) => e.kind === 'RootPosted');
    if (posted?.kind !== 'RootPosted') throw new Error(`game ${gameId}: no RootPosted log at block ${block}`);
    return posted.zoneRoots;
  }

  async audit(gameId: bigint): Promise<{ open: number }> {
    const a = await this.#call('getAudit', gameId);
    return { open: Number(a.open) };
  }

  async openRoot(gameId: bigint): Promise<OpenRootState> {
    const o = await this.#call('getOpenRoot', gameId);
    return {
      proposed: o.proposed,
      proposer: Number(o.proposer),
      challenged: o.challenged,
      challenger: Number(o.challenger),
      zone: Number(o.zone),
      root: o.root,
    };
  }

  /** The combat damage registered for the game's ruleset (the `damage` input of combat proofs). */
  async damage(gameId: bigint): Promise<number> {
    const { rulesetHash } = await this.config(gameId);
    return Number((await this.#registryCall('getRuleset', rulesetHash)).damage);
  }

  /**
   * The start areas the registry feeds MapGen for the ruleset (packed as core `packStartAreas`; 0 = none). Fraud
   * proofs and force-opened maps regenerate tiles with them, so they must equal the ruleset's own.
   */
  async startAreas(rulesetHash: string): Promise<bigint> {
    return this.#registryCall('startAreasOf', rulesetHash);
  }

  /**
   * The play circuits' interface version of the game's registry (core `CIRCUITS_VERSION`); 0 for a registry from
   * before versions (it has no such view).
   */
  async circuitsVersion(): Promise<number> {
    try {
      return Number(await this.#registryCall('CIRCUITS_VERSION'));
    } catch (e) {
      if (e instanceof ChainError) return 0;
      throw e;
    }
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
    for (const e of this.parseLogs(receipt.logs)) if (e.name === 'GameCreated') return e.args.gameId;
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

  /**
   * Puts this player's latest turn's opening on-chain (its reveal list, and the state commitment that with it
   * opens the seat's stored play commitment), paying the game's dispute deposit (P6 given up for it).
   */
  async openDispute(
    gameId: bigint,
    leaves: readonly number[],
    blinding: bigint,
    stateCommit: bigint,
  ): Promise<TxResult> {
    const { disputeDeposit } = await this.config(gameId);
    return this.#send('openDispute', [gameId, leaves, blinding, stateCommit], disputeDeposit);
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

  /**
   * Audit (P3): posts zone `zone`'s 64 leaves as this player computes them from the published secrets, paying the
   * game's dispute deposit (once per seat and game). The dealer must answer with its own leaves of that zone; the
   * first difference is judged against Gen(seed) on-chain.
   */
  async challengeZone(
    gameId: bigint,
    zoneRoots: readonly bigint[],
    zone: number,
    leaves: readonly bigint[],
  ): Promise<TxResult> {
    const { disputeDeposit } = await this.config(gameId);
    return this.#send('challengeZone', [gameId, zoneRoots, zone, leaves], disputeDeposit);
  }

  /** Audit (P3): the dealer's published zone roots do not build its posted root; slashes and settles. */
  proveZoneRootsFraud(gameId: bigint, zoneRoots: readonly bigint[]): Promise<TxResult> {
    return this.#send('proveZoneRootsFraud', [gameId, zoneRoots]);
  }

  /** Anyone, once a deadline passed: the matching permissionless exit (core/deadlines.ts). */
  claim(fn: DeadlineCall, gameId: bigint): Promise<TxResult> {
    return this.#send(fn, [gameId]);
  }

  /** The withdrawable credit of `account` (stakes, bonds and deposits of closed games), in wei. */
  async credit(account: string): Promise<bigint> {
    return this.#call('credit', account);
  }

  /** Sends the signer's whole credit to it (reverts `NothingToWithdraw` when there is none). */
  withdraw(): Promise<TxResult> {
    return this.#send('withdraw', []);
  }

  /** From now on the signer's credit accrues to `payee` (the zero address: to the signer again). */
  setPayee(payee: string): Promise<TxResult> {
    return this.#send('setPayee', [payee]);
  }

  /** Where `account`'s credit accrues: the payee it named, or null for itself. */
  async payeeOf(account: string): Promise<string | null> {
    const payee = await this.#call('payeeOf', account);
    return BigInt(payee) === 0n ? null : payee;
  }

  /** Sends the whole credit of the signer's payee to it (reverts `NoPayee` without one, `NothingToWithdraw`). */
  withdrawToPayee(): Promise<TxResult> {
    return this.#send('withdrawToPayee', []);
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

  /** MapProofRegistry contracts already checked to be this game contract's. */
  readonly #mapProofRegistries = new Map<string, Promise<TypedContract<typeof MAP_PROOF_REGISTRY_ABI>>>();

  /**
   * What the MapProofRegistry at `registry` (the deployment's `mapProofRegistry`) recorded for the game: the hash
   * of the zone roots and the seed hash of the map proof it verified, or null before the dealer's proof was
   * verified there. A registry that checks another game contract's roots is refused (ChainError `OtherGame`).
   */
  async mapProofRecord(
    registry: string,
    gameId: bigint,
  ): Promise<{ zoneRootsHash: string; seedHash: bigint } | null> {
    const key = lower(registry);
    let c = this.#mapProofRegistries.get(key);
    if (!c) {
      const contract = typedContract(registry, MAP_PROOF_REGISTRY_ABI, this.#runner);
      c = this.#retried('game', () => viewOf(contract, 'game')()).then((game) => {
        if (lower(game) !== lower(this.address))
          throw new ChainError(
            'mapProofRecord',
            'OtherGame',
            `the registry at ${registry} checks maps of ${game}, not ${this.address}`,
          );
        return contract;
      });
      this.#mapProofRegistries.set(key, c);
      c.catch(() => this.#mapProofRegistries.delete(key));
    }
    const contract = await c;
    const r = await this.#retried('verified', () => viewOf(contract, 'verified')(gameId));
    if (BigInt(r.zoneRootsHash) === 0n) return null;
    return { zoneRootsHash: lower(r.zoneRootsHash), seedHash: r.seedHash };
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
    return this.#play('playTurn', gameId, plan, proof);
  }

  /** Spawn and turn take the same arguments: the proof and the plan's public outputs. */
  #play(fn: 'spawn' | 'playTurn', gameId: bigint, plan: SpawnPlan | TurnPlan, proof: SolidityProof) {
    return this.#send(fn, [gameId, proof, plan.report, plan.newCommit]);
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

  /**
   * After an open root was adopted: re-binds the caller's play commitment from the dealer's root to the open one,
   * opening it with its state commitment and reveal commitment (`rebind`).
   */
  async rebind(gameId: bigint, stateCommit: bigint, revealCommit: bigint): Promise<TxResult> {
    return this.#send('rebind', [gameId, stateCommit, revealCommit]);
  }

  async respondCombat(gameId: bigint, plan: CombatPlan, proof: SolidityProof): Promise<TxResult> {
    return this.#send('defend', [
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

  /** The game's logs among `logs`, decoded (others skipped). */
  parseLogs(logs: readonly Log[]): ParsedEvent<GameAbi>[] {
    const out: ParsedEvent<GameAbi>[] = [];
    for (const l of logs) {
      const p = lower(l.address) === lower(this.address) ? parseEvent(this.contract, l) : null;
      if (p) out.push(p);
    }
    return out;
  }

  #decode(logs: readonly Log[]): GameEvent[] {
    const out: GameEvent[] = [];
    for (const l of logs) {
      if (lower(l.address) !== lower(this.address)) continue;
      const p = parseEvent(this.contract, l);
      if (!p) continue;
      const { name, args: a } = p;
      const at = { tx: l.transactionHash, block: l.blockNumber };
      // The fields every attack and combat event shares.
      const fight = (a: { attacker: string; defender: string; col: bigint; row: bigint }) => ({
        attacker: lower(a.attacker),
        defender: lower(a.defender),
        col: Number(a.col),
        row: Number(a.row),
      });
      switch (name) {
        case 'TurnSubmitted':
          out.push({
            kind: 'TurnSubmitted',
            player: lower(a.player),
            turn: Number(a.turn),
            commitment: a.commitment,
            ...at,
          });
          break;
        case 'ZoneReveals':
          // One log per proof; one event per forced reveal.
          for (const code of a.lanes) {
            out.push({ kind: 'ZoneReveal', player: lower(a.player), ...decodeReveal(code), ...at });
          }
          break;
        case 'AttackDeclared':
          out.push({ kind: 'AttackDeclared', ...fight(a), ...at });
          break;
        case 'CombatResolved':
          out.push({
            kind: 'CombatResolved',
            ...fight(a),
            unitType: Number(a.unitType),
            hpBefore: Number(a.hpBefore),
            killed: a.killed,
            ...at,
          });
          break;
        case 'CombatFizzled':
          out.push({ kind: 'CombatFizzled', ...fight(a), ...at });
          break;
        case 'DisputeOpened':
          out.push({
            kind: 'DisputeOpened',
            seat: Number(a.seat),
            turn: Number(a.turn),
            leaves: a.leaves.map(Number),
            deadline: Number(a.deadline),
            ...at,
          });
          break;
        case 'DisputeAnswered':
          out.push({
            kind: 'DisputeAnswered',
            seat: Number(a.seat),
            turn: Number(a.turn),
            answer: [...a.answer],
            ...at,
          });
          break;
        case 'DisputeClosed':
          out.push({ kind: 'DisputeClosed', seat: Number(a.seat), turn: Number(a.turn), ...at });
          break;
        case 'DealerSlashed':
          out.push({ kind: 'DealerSlashed', reason: reasonName(a.reason), amount: a.amount, ...at });
          break;
        case 'MapOpened':
          out.push({ kind: 'MapOpened', seed: a.seed, ...at });
          break;
        case 'RootPosted':
          out.push({
            kind: 'RootPosted',
            root: a.root,
            masterCommitment: a.masterCommitment,
            zoneRoots: [...a.zoneRoots],
            ...at,
          });
          break;
        case 'OpenRootProposed':
          out.push({
            kind: 'OpenRootProposed',
            seat: Number(a.seat),
            root: a.root,
            zoneRoots: [...a.zoneRoots],
            deadline: Number(a.deadline),
            ...at,
          });
          break;
        case 'OpenRootChallenged':
          out.push({
            kind: 'OpenRootChallenged',
            seat: Number(a.seat),
            zone: Number(a.zone),
            leaves: [...a.leaves],
            deadline: Number(a.deadline),
            ...at,
          });
          break;
        case 'OpenRootAdopted':
          out.push({ kind: 'OpenRootAdopted', root: a.root, ...at });
          break;
        case 'GameEnded':
          out.push({ kind: 'GameEnded', turn: Number(a.turn), ...at });
          break;
        case 'SecretsPublished':
          out.push({
            kind: 'SecretsPublished',
            masterSecret: a.masterSecret,
            shares: [...a.shares],
            seed: a.seed,
            ...at,
          });
          break;
        case 'ZoneChallenged':
          out.push({
            kind: 'ZoneChallenged',
            seat: Number(a.seat),
            zone: Number(a.zone),
            ...at,
          });
          break;
        case 'ZoneChallengeDecided':
          out.push({
            kind: 'ZoneChallengeDecided',
            seat: Number(a.seat),
            leafIndex: Number(a.leafIndex),
            dealerStands: a.dealerStands,
            ...at,
          });
          break;
      }
    }
    return out;
  }

  /** A view of the game, retried while the node is unreachable; a revert surfaces at once. */
  #call<N extends ViewName<GameAbi>>(fn: N, ...args: FunctionArgs<GameAbi, N>) {
    return this.#retried(fn, () => viewOf(this.contract, fn)(...args));
  }

  #registry: Promise<TypedContract<RegistryAbi>> | undefined;

  /** A registry view, with the same retries as the game's (the registry address is immutable: read once). */
  async #registryCall<N extends ViewName<RegistryAbi>>(
    fn: N,
    ...args: FunctionArgs<RegistryAbi, N>
  ): Promise<FunctionResult<RegistryAbi, N>> {
    this.#registry ??= this.registryAddress().then((a) =>
      typedContract(a, VERIFIER_REGISTRY_ABI, this.#runner),
    );
    const registry = await this.#registry.catch((e) => {
      this.#registry = undefined;
      throw e;
    });
    return this.#retried(fn, () => viewOf(registry, fn)(...args));
  }

  async #retried<T>(fn: string, read: () => Promise<T>): Promise<T> {
    let r: Awaited<ReturnType<typeof withRetries<T>>>;
    try {
      r = await withRetries(read, isNetworkError, this.#retry);
    } catch (e) {
      throw new ChainError(fn, this.revertName(e), e);
    }
    if ('value' in r) return r.value;
    throw new ChainUnavailableError(fn, r.attempts, r.error);
  }

  async #send<N extends WriteName<GameAbi>>(
    fn: N,
    args: FunctionArgs<GameAbi, N>,
    value?: bigint,
  ): Promise<TxResult> {
    let receipt: ContractTransactionReceipt | null;
    try {
      const f = writeOf(this.contract, fn);
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

  /** The custom error a call reverted with, if the revert data names one of the game's errors. */
  revertName(e: unknown): RevertName<GameAbi> | undefined {
    return revertName(this.contract, e);
  }
}
