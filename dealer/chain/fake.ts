import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { keccak256, toUtf8Bytes } from 'ethers';
import type { Point } from '../../core/babyjub.ts';
import { expiredCall, type PhaseDeadline } from '../../core/deadlines.ts';
import { InputError } from '../../core/errors.ts';
import type { GamePhaseName } from '../../core/game-phases.ts';
import { packStartAreas } from '../../core/generator/index.ts';
import { checkDurations } from '../../core/limits.ts';
import { recoverReceiptSigner } from '../../core/reveal-receipt.ts';
import { revealDomain } from '../../core/reveal-request.ts';
import { rulesetHash } from '../../core/ruleset/hash.ts';
import { shippedRuleset, shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import { checkSealPublicKey, type SealedShare } from '../../core/sealed.ts';
import { canonicalSignature } from '../receipts.ts';
import { dealerPhase } from './phase.ts';
import {
  type ChainView,
  type CreatedGame,
  type CreatedGameLog,
  type CreateGameParams,
  CreateGameRevert,
  type CreateStatus,
  type DealerCloseCall,
  type DisputeRecord,
  type GameCreator,
  type GameInfo,
  type GamePhase,
  IN_LOGS,
  type PostedRoot,
  type SeatShare,
  type SignedCreate,
  type TurnLog,
  type TxRef,
  type ZoneChallengeRecord,
} from './types.ts';

/** The fake chain's default dealer (Hardhat account #1's address): what a FakeChain sends as unless told otherwise. */
export const FAKE_DEALER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

/** The fake chain's default game contract address (the local chain's first deployment, as in config.default.json). */
export const FAKE_CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

/** A dispute as the fake contract stores it (`leaves` kept, as the event would have them). */
interface FakeDispute {
  seat: number;
  player: string;
  turn: number;
  leaves: number[];
  /**
   * The opening's reveal commitment R, which the contract computes from the disputed leaves and blinding at
   * `openDispute` (after checking Poseidon(stateCommit, R, mapRoot) against the seat's stored play commitment)
   * and keeps in the dispute: a receipt answering the dispute is over it. Null when the test driver gave none.
   */
  revealCommit: bigint | null;
  answered: boolean;
  receipted: boolean;
  answer: bigint[] | null;
  deadline: number;
}

interface FakeGame {
  info: GameInfo;
  createdAt: number;
  /** The contract's phase (the dealer reads it through `dealerPhase`, as from the real chain). */
  phase: GamePhaseName;
  seats: SeatShare[];
  root: PostedRoot | null;
  /** `${player}:${turn}` → the play commitment its spawn/turn proof stored (what `TurnSubmitted` logged). */
  commitments: Record<string, bigint>;
  /**
   * player → the play commitment its seat stores now: its latest turn's, or what a later combat answer replaced
   * it with (`respondCombatFor`). What the `playCommitment` view answers for the latest turn.
   */
  stored: Record<string, bigint>;
  /** Every `TurnSubmitted` in order: the last of a player is its latest (the only one the view answers for). */
  turnLog: TurnLog[];
  dispute: FakeDispute | null;
  /** Every answer the dealer posted, in order (for assertions). */
  answers: bigint[][];
  /** The receipt passed with each answer (`0x`: none), in order. */
  answerReceipts: string[];
  secrets: { masterSecret: bigint; shares: bigint[] } | null;
  /** The zone roots posted with the root. */
  zoneRoots?: bigint[];
  /** The audit's zone challenges, by seat, with the dealer's answer (null: open). */
  zoneChallenges?: Record<number, { zone: number; leaves: bigint[]; answer: bigint[] | null; block: number }>;
  /** The dealer's bond still held (wei): credited to the dealer when the game closes, 0 once slashed. */
  bond?: bigint;
  /** The phase's deadline in fake chain time: FAKE_PHASE_SECONDS after the phase began. */
  deadline?: number;
  /** What `createGame` was called with, for games the dealer created through `submitCreateGame`. */
  created?: Omit<CreateGameParams, 'players'> & { hash: string };
}

interface FakeState {
  chainId: bigint;
  block: number;
  nextGameId: bigint;
  games: Map<string, FakeGame>;
  /** Mined transactions per sender (its next nonce), lowercase address → count. */
  nonces?: Record<string, number>;
  /** Mined createGame transactions: hash → the game. */
  txs?: Record<string, { gameId: bigint; block: number }>;
  /** The fake chain's time (unix seconds): it stands still until `passDeadline` moves it past a deadline. */
  time?: number;
  /** Withdrawable credit per lowercase address (`credit`), and what each withdrew in all. */
  credit?: Record<string, bigint>;
  withdrawn?: Record<string, bigint>;
}

/** The fake chain's clock when no test moved it. */
const FAKE_TIME = 1_700_000_000;
/** Every phase's duration on the fake chain. */
const FAKE_PHASE_SECONDS = 3600;

/** A fake game's closing state at the fake chain's time. */
const closingOf = (s: FakeState, g: FakeGame): PhaseDeadline => {
  const now = s.time ?? FAKE_TIME;
  return { phase: g.phase, deadline: g.deadline ?? now + FAKE_PHASE_SECONDS, now };
};

/** The shipped rulesets by hash: the fake registry (all of them, unless `registered` narrows it). */
let shippedByHash: Map<string, string> | undefined;
function rulesetNameOf(hash: string): string | undefined {
  shippedByHash ??= new Map(
    shippedRulesetNames.map((n) => [rulesetHash(shippedRuleset(n)).toLowerCase(), n]),
  );
  return shippedByHash.get(hash.toLowerCase());
}

/** A fake "signed transaction": the sender, nonce and params as JSON (bigints as decimal strings). */
function encodeCreate(from: string, nonce: number, p: CreateGameParams): string {
  return JSON.stringify({ from, nonce, p }, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

function decodeCreate(raw: string): { from: string; nonce: number; p: CreateGameParams } {
  return JSON.parse(raw, (_k, v) =>
    typeof v === 'string' && /^[0-9]+n$/.test(v) ? BigInt(v.slice(0, -1)) : v,
  );
}

/** JSON with bigints as `{"$n": "…"}` and bytes as `{"$b": hex}`, so the file round-trips exactly. */
function encode(s: FakeState): string {
  return JSON.stringify({ ...s, games: [...s.games.values()] }, (_k, v) => {
    if (typeof v === 'bigint') return { $n: v.toString() };
    if (v instanceof Uint8Array) return { $b: Buffer.from(v).toString('hex') };
    return v;
  });
}

function decode(text: string): FakeState {
  const raw = JSON.parse(text, (_k, v) => {
    if (v && typeof v === 'object' && typeof v.$n === 'string') return BigInt(v.$n);
    if (v && typeof v === 'object' && typeof v.$b === 'string')
      return new Uint8Array(Buffer.from(v.$b, 'hex'));
    return v;
  }) as Omit<FakeState, 'games'> & { games: FakeGame[] };
  return { ...raw, games: new Map(raw.games.map((g) => [g.info.gameId.toString(), g])) };
}

/** A write the contract would revert. */
export class FakeRevert extends Error {}

/**
 * An in-memory game contract for tests and the bench. With `file`, its state lives in a JSON file that
 * is re-read on every call, so a test process and a dealer child process can share one "chain" and the
 * chain outlives a SIGKILLed dealer. It verifies no proof: a test may post any sealed share (the real
 * contract only accepts one whose proof shows it opens).
 */
export class FakeChain implements ChainView, GameCreator {
  readonly #file: string | undefined;
  #state: FakeState;
  /** The address this view writes as (the dealer's transaction key). */
  readonly dealer: string;
  /** Fault injection: method names whose next call throws, and a switch for "RPC unreachable". */
  readonly failNext = new Set<string>();
  unreachable = false;
  /** Every write, in order (for assertions on retries). */
  readonly writes: string[] = [];
  /** Calls per method (reads and writes), for assertions on how often the chain is read. */
  readonly calls = new Map<string, number>();
  /** The block ranges asked of the log scans (`gamesCreated`, `turnsSubmitted`), in order. */
  readonly scans: { method: 'gamesCreated' | 'turnsSubmitted'; from: number; to: number }[] = [];

  /** Rulesets the fake registry knows (shipped names); all shipped ones by default. */
  readonly #registered: ReadonlySet<string> | undefined;
  /** The game contract's address games created by `submitCreateGame` report. */
  readonly contract: string;
  /** Registry start areas a test set against a ruleset hash (lowercase); otherwise the ruleset's own. */
  readonly #startAreas: Map<string, bigint>;

  constructor(
    opts: {
      chainId?: bigint;
      file?: string;
      create?: boolean;
      dealer?: string;
      registered?: string[];
      contract?: string;
      /** Registry start areas by ruleset hash, overriding the ruleset's own (a misregistered ruleset). */
      startAreas?: Record<string, bigint>;
    } = {},
  ) {
    this.#file = opts.file;
    this.contract = opts.contract ?? FAKE_CONTRACT;
    this.#registered = opts.registered ? new Set(opts.registered) : undefined;
    this.#startAreas = new Map(Object.entries(opts.startAreas ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    this.dealer = (opts.dealer ?? FAKE_DEALER).toLowerCase();
    this.#state = { chainId: opts.chainId ?? 31337n, block: 1, nextGameId: 1n, games: new Map() };
    if (this.#file && opts.create) writeFileSync(this.#file, encode(this.#state));
  }

  /** How many times `method` was called. */
  count(method: string): number {
    return this.calls.get(method) ?? 0;
  }

  #read(method: string): FakeState {
    this.calls.set(method, this.count(method) + 1);
    if (this.unreachable) throw new Error('fake chain unreachable');
    if (this.failNext.delete(method)) throw new Error(`injected failure in ${method}`);
    if (this.#file) this.#state = decode(readFileSync(this.#file, 'utf8'));
    return this.#state;
  }

  /** A transaction: mined in a new block (`s.block` inside `fn`), so a scan up to an earlier head never misses its logs. */
  #write<T>(method: string, fn: (s: FakeState) => T): T {
    const s = this.#read(method);
    s.block++;
    let out: T;
    const phases = new Map([...s.games].map(([id, g]) => [id, g.phase]));
    try {
      out = fn(s);
      // As the contract: every phase a game enters comes with its own deadline, never the last phase's.
      for (const [id, g] of s.games) {
        if (phases.get(id) !== g.phase) g.deadline = (s.time ?? FAKE_TIME) + FAKE_PHASE_SECONDS;
      }
    } catch (e) {
      s.block--; // reverted: nothing mined
      throw e;
    }
    this.writes.push(method);
    if (this.#file) {
      writeFileSync(`${this.#file}.tmp`, encode(s));
      renameSync(`${this.#file}.tmp`, this.#file);
    }
    return out;
  }

  #game(s: FakeState, gameId: bigint): FakeGame {
    const g = s.games.get(gameId.toString());
    if (!g) throw new FakeRevert(`no game ${gameId}`);
    return g;
  }

  #asDealer(g: FakeGame): void {
    if (g.info.dealer !== this.dealer) throw new FakeRevert('NotDealer');
  }

  // ---- test driver: what players and the contract do ----

  /** `createGame` by `opts.dealer` (default: this view's dealer) with seal key `sealKey`. */
  createGame(
    ruleset: string,
    players: string[],
    sealKey: Point,
    contract: string,
    opts: { dealer?: string; bond?: bigint } = {},
  ): bigint {
    return this.#write('createGame', (s) => {
      const gameId = s.nextGameId++;
      s.games.set(gameId.toString(), {
        info: {
          gameId,
          contract,
          ruleset,
          players: players.map((p) => p.toLowerCase()),
          dealer: (opts.dealer ?? this.dealer).toLowerCase(),
          sealKey: [sealKey[0], sealKey[1]],
        },
        createdAt: s.block,
        phase: 'Commit',
        seats: players.map((p) => ({ player: p.toLowerCase(), commitment: 0n, sealed: null })),
        root: null,
        commitments: {},
        stored: {},
        turnLog: [],
        dispute: null,
        answers: [],
        answerReceipts: [],
        secrets: null,
        bond: opts.bond ?? 0n,
      });
      return gameId;
    });
  }

  commitShare(gameId: bigint, player: string, commitment: bigint): void {
    this.#write('commitShare', (s) => {
      const g = this.#game(s, gameId);
      const seat = g.seats.find((x) => x.player === player.toLowerCase());
      if (!seat || g.phase !== 'Commit') throw new FakeRevert('not committing');
      seat.commitment = commitment;
      if (g.seats.every((x) => x.commitment !== 0n)) g.phase = 'Reveal';
    });
  }

  /** A `SealedReveal`: unlike the contract, no proof is checked (so tests can post shares that do not open). */
  postSealedShare(gameId: bigint, player: string, sealed: SealedShare): void {
    this.#write('postSealedShare', (s) => {
      const g = this.#game(s, gameId);
      const seat = g.seats.find((x) => x.player === player.toLowerCase());
      if (!seat || g.phase !== 'Reveal') throw new FakeRevert('not sealing');
      seat.sealed = { ephemeralY: sealed.ephemeralY, ciphertext: sealed.ciphertext };
      if (g.seats.every((x) => x.sealed !== null)) g.phase = 'Deal';
    });
  }

  /**
   * Stands for a verified spawn/turn proof storing its play commitment
   * `C = Poseidon(stateCommit, revealCommit, mapRoot)` (core/state.ts `playCommitment`; mapRoot: the game's posted
   * root, `postedRootFor`): the seat's stored value, and a `TurnSubmitted(…, turn, commitment)` log.
   */
  postCommitmentFor(gameId: bigint, player: string, turn: number, commitment: bigint): void {
    this.#write('postCommitmentFor', (s) => {
      const g = this.#game(s, gameId);
      if (g.phase !== 'Play') throw new FakeRevert('not playing');
      const who = player.toLowerCase();
      g.commitments[`${who}:${turn}`] = commitment;
      g.stored[who] = commitment;
      g.turnLog.push({ gameId, player: who, turn, commitment, block: s.block });
    });
  }

  /**
   * Stands for a verified combat answer (`defend`) of `player` as defender: its seat's stored play commitment
   * becomes `commitment` (Poseidon(S', R, mapRoot): new state, same reveal list and root) without a new turn or
   * log.
   */
  respondCombatFor(gameId: bigint, player: string, commitment: bigint): void {
    this.#write('respondCombatFor', (s) => {
      const g = this.#game(s, gameId);
      const who = player.toLowerCase();
      if (g.phase !== 'Play' || g.stored[who] === undefined) throw new FakeRevert('NotDefender');
      g.stored[who] = commitment;
    });
  }

  /**
   * `openDispute` by `player` for its `turn`. The contract computes R from the opened leaves and blinding,
   * checks Poseidon(stateCommit, R, mapRoot) against the seat's stored play commitment and keeps R in the
   * dispute; the fake checks only that a commitment is stored for the turn, and keeps the R the driver passes
   * (`revealCommit`: what a receipt answering the dispute must be over). The game pauses in phase Dispute.
   */
  openDispute(
    gameId: bigint,
    player: string,
    turn: number,
    leaves: number[],
    o: { revealCommit?: bigint; deadline?: number } = {},
  ): void {
    this.#write('openDispute', (s) => {
      const g = this.#game(s, gameId);
      const who = player.toLowerCase();
      const seat = g.seats.findIndex((x) => x.player === who);
      if (g.phase !== 'Play' || seat < 0) throw new FakeRevert('cannot dispute now');
      if (g.commitments[`${who}:${turn}`] === undefined) throw new FakeRevert('NothingToDispute');
      const deadline = o.deadline ?? 0;
      g.dispute = {
        seat,
        player: who,
        turn,
        leaves: [...leaves],
        revealCommit: o.revealCommit ?? null,
        answered: false,
        receipted: false,
        answer: null,
        deadline,
      };
      g.phase = 'Dispute';
    });
  }

  /** The dispute ends with the answer standing (`acceptDisputeAnswer` or the window closing): play resumes. */
  closeDispute(gameId: bigint): void {
    this.#write('closeDispute', (s) => {
      const g = this.#game(s, gameId);
      if (g.phase !== 'Dispute' || !g.dispute?.answered) throw new FakeRevert('NotAnswered');
      g.dispute = null;
      g.phase = 'Play';
    });
  }

  /** The dealer failed (no root by the deadline, or a dispute unanswered): slashed, the game force-opened. */
  forceOpen(gameId: bigint): void {
    this.#write('forceOpen', (s) => {
      const g = this.#game(s, gameId);
      g.dispute = null;
      g.bond = 0n; // slashed: to the players
      g.phase = 'ForceOpen';
    });
  }

  endGame(gameId: bigint): void {
    this.#write('endGame', (s) => {
      this.#game(s, gameId).phase = 'Secrets';
    });
  }

  /** Anyone cancels (e.g. a missed ceremony deadline): the bond is credited to the dealer. */
  cancelGame(gameId: bigint): void {
    this.#write('cancelGame', (s) => {
      this.#close(s, this.#game(s, gameId), 'Cancelled');
    });
  }

  /** Someone else settles the game after its audit: the bond is credited to the dealer. */
  settleGame(gameId: bigint): void {
    this.#write('settleGame', (s) => {
      this.#close(s, this.#game(s, gameId), 'Settled');
    });
  }

  /** Time passes: the chain's clock moves past the game's current phase deadline (and any earlier one). */
  passDeadline(gameId: bigint): void {
    this.#write('passDeadline', (s) => {
      const g = this.#game(s, gameId);
      s.time = closingOf(s, g).deadline + 1;
    });
  }

  /** What `account` withdrew from the game contract in all (wei). */
  withdrawnBy(account: string): bigint {
    return this.#read('withdrawnBy').withdrawn?.[account.toLowerCase()] ?? 0n;
  }

  /** As ShroudFunds: the game closes in `phase`, and the bond still held becomes the dealer's credit. */
  #close(s: FakeState, g: FakeGame, phase: 'Settled' | 'Cancelled'): void {
    g.phase = phase;
    const bond = g.bond ?? 0n;
    g.bond = 0n;
    if (bond === 0n) return;
    s.credit ??= {};
    s.credit[g.info.dealer] = (s.credit[g.info.dealer] ?? 0n) + bond;
  }

  /** Another transaction of the dealer's takes its next nonce (e.g. one sent by hand). */
  useDealerNonce(): void {
    this.#write('useDealerNonce', (s) => {
      s.nonces ??= {};
      s.nonces[this.dealer] = (s.nonces[this.dealer] ?? 0) + 1;
    });
  }

  /** The createGame parameters of a game the dealer created with `submitCreateGame`. */
  createdWith(gameId: bigint): FakeGame['created'] & { players: string[] } {
    const g = this.#game(this.#read('createdWith'), gameId);
    if (!g.created) throw new Error(`game ${gameId} was not created through submitCreateGame`);
    return { ...g.created, players: g.info.players };
  }

  /** Mines an empty block. */
  mine(): void {
    this.#write('mine', () => {});
  }

  /** Every dispute answer posted for the game, in order. */
  answersFor(gameId: bigint): bigint[][] {
    return this.#game(this.#read('answersFor'), gameId).answers;
  }

  /** The receipt passed with each dispute answer of the game (`0x`: none), in order. */
  answerReceiptsFor(gameId: bigint): string[] {
    return this.#game(this.#read('answerReceiptsFor'), gameId).answerReceipts;
  }

  secretsFor(gameId: bigint): FakeGame['secrets'] {
    return this.#game(this.#read('secretsFor'), gameId).secrets;
  }

  /**
   * The map root posted for the game (null before): the root its seats' play commitments bind (core/state.ts
   * `playCommitment`), for test drivers building them.
   */
  postedRootFor(gameId: bigint): bigint | null {
    return this.#game(this.#read('postedRootFor'), gameId).root?.root ?? null;
  }

  /** The zone roots posted with the root (null before), for assertions. */
  zoneRootsFor(gameId: bigint): bigint[] | null {
    return this.#game(this.#read('zoneRootsFor'), gameId).zoneRoots ?? null;
  }

  // ---- GameCreator ----

  /** Checked as the contract would (a revert is thrown here, as a gas estimate would); mined at the broadcast. */
  async submitCreateGame(
    p: CreateGameParams,
    persist: (tx: SignedCreate) => Promise<void>,
  ): Promise<SignedCreate> {
    const s = this.#read('submitCreateGame');
    this.#checkCreate(p);
    const nonce = s.nonces?.[this.dealer] ?? 0;
    const raw = encodeCreate(this.dealer, nonce, p);
    const tx: SignedCreate = { hash: keccak256(toUtf8Bytes(raw)), raw, nonce, fromBlock: s.block };
    await persist(tx);
    this.#broadcast(tx);
    return tx;
  }

  async createStatus(
    tx: SignedCreate,
    match: (g: CreatedGameLog) => boolean | Promise<boolean>,
  ): Promise<CreateStatus> {
    const s = this.#read('createStatus');
    const mined = s.txs?.[tx.hash];
    if (mined) return { state: 'created', gameId: mined.gameId, block: mined.block, hash: tx.hash };
    if ((s.nonces?.[this.dealer] ?? 0) <= tx.nonce) return { state: 'pending' };
    for (const g of s.games.values()) {
      if (!g.created || g.info.dealer !== this.dealer || g.createdAt < tx.fromBlock) continue;
      const log: CreatedGameLog = {
        gameId: g.info.gameId,
        block: g.createdAt,
        hash: g.created.hash,
        players: g.info.players,
        rulesetHash: g.created.rulesetHash.toLowerCase(),
        stake: g.created.stake,
        bond: g.created.bond,
      };
      if (await match(log)) return { state: 'created', gameId: log.gameId, block: log.block, hash: log.hash };
    }
    return { state: 'dropped' };
  }

  /** The ruleset's own areas, unless a test set others (`startAreas`). */
  async registeredStartAreas(rulesetHash: string): Promise<bigint | null> {
    const name = rulesetNameOf(rulesetHash);
    if (!name || (this.#registered && !this.#registered.has(name))) return null;
    return this.#startAreas.get(rulesetHash.toLowerCase()) ?? packStartAreas(shippedRuleset(name).board);
  }

  async rebroadcast(tx: SignedCreate): Promise<void> {
    this.#broadcast(tx);
  }

  #checkCreate(p: CreateGameParams): void {
    const n = p.players.length;
    if (n < 2 || n > 6) throw new CreateGameRevert('BadPlayerCount');
    const seen = new Set<string>();
    for (const x of p.players) {
      const a = x.toLowerCase();
      if (seen.has(a) || a === this.dealer || /^0x0{40}$/.test(a)) throw new CreateGameRevert('BadPlayer');
      seen.add(a);
    }
    try {
      checkSealPublicKey(p.sealKey);
    } catch {
      throw new CreateGameRevert('BadSealKey');
    }
    if (p.bond <= 0n) throw new CreateGameRevert('BondRequired');
    try {
      checkDurations(p.durations);
    } catch (e) {
      if (e instanceof InputError) throw new CreateGameRevert('DurationTooShort');
      throw e;
    }
    if (p.disputeDeposit > p.stake) throw new CreateGameRevert('DepositAboveStake');
    const name = rulesetNameOf(p.rulesetHash);
    if (!name || (this.#registered && !this.#registered.has(name)))
      throw new CreateGameRevert('UnknownRuleset');
    const r = shippedRuleset(name);
    const kind = r.board.kind === 'hex' ? 0 : 1;
    if (p.board.kind !== kind || p.board.width !== r.board.width || p.board.height !== r.board.height) {
      throw new CreateGameRevert('RulesetMismatch');
    }
    if (n > r.players.max) throw new CreateGameRevert('RulesetMismatch');
  }

  /** Mines `tx` unless it is mined already; a nonce another transaction used makes it unminable. */
  #broadcast(tx: SignedCreate): void {
    const { from, nonce, p } = decodeCreate(tx.raw);
    this.#write('createGame', (s) => {
      s.nonces ??= {};
      s.txs ??= {};
      if (s.txs[tx.hash]) return;
      if (nonce < (s.nonces[from] ?? 0)) throw new Error('nonce too low');
      this.#checkCreate(p);
      const gameId = s.nextGameId++;
      const { players, ...rest } = p;
      s.games.set(gameId.toString(), {
        info: {
          gameId,
          contract: this.contract,
          ruleset: rulesetNameOf(p.rulesetHash)!,
          players: players.map((x) => x.toLowerCase()),
          dealer: from,
          sealKey: [p.sealKey[0], p.sealKey[1]],
        },
        createdAt: s.block,
        phase: 'Commit',
        seats: players.map((x) => ({ player: x.toLowerCase(), commitment: 0n, sealed: null })),
        root: null,
        commitments: {},
        stored: {},
        turnLog: [],
        dispute: null,
        answers: [],
        answerReceipts: [],
        secrets: null,
        bond: p.bond,
        created: { ...rest, hash: tx.hash },
      });
      s.nonces[from] = nonce + 1;
      s.txs[tx.hash] = { gameId, block: s.block };
    });
  }

  // ---- ChainView ----

  async chainId(): Promise<bigint> {
    return this.#read('chainId').chainId;
  }

  async headBlock(): Promise<number> {
    return this.#read('headBlock').block;
  }

  /** Every game created in the range, whatever its dealer: the watcher's own checks decide which are ours. */
  async gamesCreated(fromBlock: number, toBlock: number): Promise<CreatedGame[]> {
    const s = this.#read('gamesCreated');
    this.scans.push({ method: 'gamesCreated', from: fromBlock, to: toBlock });
    return [...s.games.values()]
      .filter((g) => g.createdAt >= fromBlock && g.createdAt <= toBlock)
      .map((g) => ({ gameId: g.info.gameId, block: g.createdAt }));
  }

  /** Every game's turns in the range, in chain order. */
  async turnsSubmitted(fromBlock: number, toBlock: number): Promise<TurnLog[]> {
    const s = this.#read('turnsSubmitted');
    this.scans.push({ method: 'turnsSubmitted', from: fromBlock, to: toBlock });
    return [...s.games.values()]
      .flatMap((g) => g.turnLog)
      .filter((t) => t.block >= fromBlock && t.block <= toBlock)
      .sort((a, b) => a.block - b.block);
  }

  async game(gameId: bigint): Promise<GameInfo | null> {
    return this.#read('game').games.get(gameId.toString())?.info ?? null;
  }

  async phase(gameId: bigint): Promise<GamePhase> {
    const g = this.#game(this.#read('phase'), gameId);
    // The fake never opens the map for play: a forced-open game stays in phase ForceOpen.
    return dealerPhase(gameId, { phase: g.phase, openMap: false, secretsPublished: g.secrets !== null });
  }

  async seatShares(gameId: bigint): Promise<SeatShare[]> {
    return this.#game(this.#read('seatShares'), gameId).seats;
  }

  async mapRoot(gameId: bigint): Promise<PostedRoot | null> {
    return this.#game(this.#read('mapRoot'), gameId).root;
  }

  /**
   * As the contract's view: the player's latest turn only, with the seat's stored value (changed by a combat
   * answer since the turn's log); an earlier one is IN_LOGS.
   */
  async playCommitment(
    gameId: bigint,
    player: string,
    turn: number,
  ): Promise<bigint | null | typeof IN_LOGS> {
    const who = player.toLowerCase();
    const g = this.#game(this.#read('playCommitment'), gameId);
    const latest = g.turnLog.filter((t) => t.player === who).at(-1);
    if (!latest || turn > latest.turn) return null;
    return turn < latest.turn ? IN_LOGS : (g.stored[who] ?? latest.commitment);
  }

  async secretsPublished(gameId: bigint): Promise<boolean> {
    return this.#game(this.#read('secretsPublished'), gameId).secrets !== null;
  }

  async dispute(gameId: bigint): Promise<DisputeRecord | null> {
    const d = this.#game(this.#read('dispute'), gameId).dispute;
    if (!d) return null;
    return {
      seat: d.seat,
      player: d.player,
      turn: d.turn,
      answered: d.answered,
      receipted: d.receipted,
      leaves: d.answered ? null : [...d.leaves],
      deadline: d.deadline,
    };
  }

  async postRoot(gameId: bigint, root: PostedRoot, zoneRoots: readonly bigint[]): Promise<TxRef> {
    return this.#write('postRoot', (s) => {
      const g = this.#game(s, gameId);
      this.#asDealer(g);
      if (g.phase !== 'Deal' || g.root) throw new FakeRevert(`cannot post a root in phase ${g.phase}`);
      g.root = root;
      g.zoneRoots = [...zoneRoots];
      g.phase = 'Play';
      return { hash: `0xfake-root-${gameId}-${s.block}` };
    });
  }

  async answerDispute(gameId: bigint, answer: readonly bigint[], receipt: string): Promise<TxRef | null> {
    const g = this.#game(this.#read('answerDispute:check'), gameId);
    if (g.phase !== 'Dispute' || !g.dispute || g.dispute.answered) return null;
    return this.#write('answerDispute', (s) => {
      const g = this.#game(s, gameId);
      this.#asDealer(g);
      if (g.phase !== 'Dispute' || !g.dispute) throw new FakeRevert('WrongPhase');
      if (g.dispute.answered) throw new FakeRevert('AlreadyAnswered');
      const d = g.dispute;
      // As ShroudDisputes: the disputer's signature, exactly 65 bytes with v 27/28 and a low s, over
      // RevealReceipt(gameId, turn, the dispute's revealCommit R).
      if (receipt !== '0x') {
        const revealCommit = d.revealCommit ?? 0n;
        let signer = '';
        if (canonicalSignature(receipt) === receipt.toLowerCase()) {
          try {
            signer = recoverReceiptSigner(
              revealDomain(s.chainId, g.info.contract),
              { gameId, turn: d.turn, revealCommit },
              receipt,
            );
          } catch {}
        }
        if (signer !== d.player) throw new FakeRevert('BadReceipt');
        d.receipted = true;
      }
      d.answered = true;
      d.answer = [...answer];
      g.answers.push([...answer]);
      g.answerReceipts.push(receipt);
      return { hash: `0xfake-answer-${gameId}-${s.block}` };
    });
  }

  async publishSecrets(gameId: bigint, masterSecret: bigint, shares: readonly bigint[]): Promise<TxRef> {
    return this.#write('publishSecrets', (s) => {
      const g = this.#game(s, gameId);
      this.#asDealer(g);
      if (g.phase !== 'Secrets' || g.secrets)
        throw new FakeRevert(`cannot publish secrets in phase ${g.phase}`);
      g.secrets = { masterSecret, shares: [...shares] };
      g.phase = 'Audit';
      return { hash: `0xfake-secrets-${gameId}-${s.block}` };
    });
  }

  /**
   * `challengeZone` by seat `seat`: unlike the contract, only the phase and one challenge per seat are checked
   * (a test poses any challenge); the dealer's answer is recorded, not judged.
   */
  challengeZone(gameId: bigint, seat: number, zone: number, leaves: readonly bigint[]): void {
    this.#write('challengeZone', (s) => {
      const g = this.#game(s, gameId);
      if (g.phase !== 'Audit') throw new FakeRevert('WrongPhase');
      g.zoneChallenges ??= {};
      if (g.zoneChallenges[seat]) throw new FakeRevert('AlreadyChallenged');
      g.zoneChallenges[seat] = { zone, leaves: [...leaves], answer: null, block: s.block };
    });
  }

  /** The dealer's answer to seat `seat`'s zone challenge (null while unanswered), for assertions. */
  zoneAnswer(gameId: bigint, seat: number): bigint[] | null {
    return this.#game(this.#read('zoneAnswer'), gameId).zoneChallenges?.[seat]?.answer ?? null;
  }

  /** The zone challenges posted in a block from `fromBlock` on (no re-org overlap: the fake has no re-orgs). */
  async zoneChallenges(fromBlock: number): Promise<{ challenges: ZoneChallengeRecord[]; toBlock: number }> {
    const s = this.#read('zoneChallenges');
    const challenges = [...s.games.values()].flatMap((g) =>
      Object.entries(g.zoneChallenges ?? {})
        .filter(([, c]) => c.block >= fromBlock)
        .map(([seat, { zone, leaves }]) => ({
          gameId: g.info.gameId,
          seat: Number(seat),
          zone,
          leaves: [...leaves],
        })),
    );
    return { challenges, toBlock: s.block };
  }

  /** The fake has no re-orgs: closed once answered (a refund at the game's end is not modelled). */
  async zoneChallengeClosed(gameId: bigint, seat: number): Promise<boolean> {
    const c = this.#game(this.#read('zoneChallengeClosed'), gameId).zoneChallenges?.[seat];
    return !!c && c.answer !== null;
  }

  async answerZoneChallenge(
    gameId: bigint,
    seat: number,
    _challengerLeaves: readonly bigint[],
    dealerLeaves: readonly bigint[],
  ): Promise<TxRef | null> {
    const g = this.#game(this.#read('answerZoneChallenge:check'), gameId);
    if (g.phase !== 'Audit' || g.zoneChallenges?.[seat]?.answer !== null) return null;
    return this.#write('answerZoneChallenge', (s) => {
      const c = this.#game(s, gameId).zoneChallenges![seat]!;
      if (c.answer !== null) throw new FakeRevert(`ChallengeClosed(${seat})`);
      c.answer = [...dealerLeaves];
      return { hash: `0xfake-zone-answer-${gameId}-${s.block}` };
    });
  }

  async chainTime(): Promise<number> {
    return this.#read('chainTime').time ?? FAKE_TIME;
  }

  /** The fake has no re-orgs: its confirmed state is its latest. */
  async closingState(gameId: bigint, _confirmed = false): Promise<PhaseDeadline> {
    const s = this.#read('closingState');
    return closingOf(s, this.#game(s, gameId));
  }

  /** As the contract: the call reverts unless its phase's deadline passed. */
  async close(gameId: bigint, call: DealerCloseCall): Promise<TxRef | null> {
    if (expiredCall(await this.closingState(gameId)) !== call) return null;
    return this.#write(call, (s) => {
      const g = this.#game(s, gameId);
      if (expiredCall(closingOf(s, g)) !== call) throw new FakeRevert(`cannot ${call} in phase ${g.phase}`);
      this.#close(s, g, call === 'settle' ? 'Settled' : 'Cancelled');
      return { hash: `0xfake-${call}-${gameId}-${s.block}` };
    });
  }

  async credit(): Promise<bigint> {
    return this.#read('credit').credit?.[this.dealer] ?? 0n;
  }

  async withdraw(): Promise<TxRef | null> {
    if ((await this.credit()) === 0n) return null;
    return this.#write('withdraw', (s) => {
      const amount = s.credit?.[this.dealer] ?? 0n;
      if (amount === 0n) throw new FakeRevert('NothingToWithdraw');
      s.credit![this.dealer] = 0n;
      s.withdrawn ??= {};
      s.withdrawn[this.dealer] = (s.withdrawn[this.dealer] ?? 0n) + amount;
      return { hash: `0xfake-withdraw-${s.block}` };
    });
  }
}
