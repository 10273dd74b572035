import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Point } from '../../core/babyjub.ts';
import type { SealedShare } from '../../core/sealed.ts';
import type { ChainView, DisputeRecord, GameInfo, GamePhase, PostedRoot, SeatShare, TxRef } from './types.ts';

/** The fake chain's default dealer (Hardhat account #1's address): what a FakeChain sends as unless told otherwise. */
export const FAKE_DEALER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

/** A dispute as the fake contract stores it (`leaves` kept, as the event would have them). */
interface FakeDispute {
  seat: number;
  player: string;
  turn: number;
  leaves: number[];
  answered: boolean;
  answer: bigint[] | null;
  deadline: number;
}

interface FakeGame {
  info: GameInfo;
  createdAt: number;
  phase: GamePhase;
  seats: SeatShare[];
  root: PostedRoot | null;
  /** `${player}:${turn}` → revealCommit. */
  reveals: Record<string, bigint>;
  dispute: FakeDispute | null;
  /** Every answer the dealer posted, in order (for assertions). */
  answers: bigint[][];
  secrets: { masterSecret: bigint; shares: bigint[] } | null;
}

interface FakeState {
  chainId: bigint;
  block: number;
  nextGameId: bigint;
  games: Map<string, FakeGame>;
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
export class FakeChain implements ChainView {
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

  constructor(opts: { chainId?: bigint; file?: string; create?: boolean; dealer?: string } = {}) {
    this.#file = opts.file;
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

  #write<T>(method: string, fn: (s: FakeState) => T): T {
    const s = this.#read(method);
    const out = fn(s);
    s.block++;
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
    opts: { dealer?: string } = {},
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
        phase: 'commit',
        seats: players.map((p) => ({ player: p.toLowerCase(), commitment: 0n, sealed: null })),
        root: null,
        reveals: {},
        dispute: null,
        answers: [],
        secrets: null,
      });
      return gameId;
    });
  }

  commitShare(gameId: bigint, player: string, commitment: bigint): void {
    this.#write('commitShare', (s) => {
      const g = this.#game(s, gameId);
      const seat = g.seats.find((x) => x.player === player.toLowerCase());
      if (!seat || g.phase !== 'commit') throw new FakeRevert('not committing');
      seat.commitment = commitment;
      if (g.seats.every((x) => x.commitment !== 0n)) g.phase = 'sealing';
    });
  }

  /** A `SealedReveal`: unlike the contract, no proof is checked (so tests can post shares that do not open). */
  postSealedShare(gameId: bigint, player: string, sealed: SealedShare): void {
    this.#write('postSealedShare', (s) => {
      const g = this.#game(s, gameId);
      const seat = g.seats.find((x) => x.player === player.toLowerCase());
      if (!seat || g.phase !== 'sealing') throw new FakeRevert('not sealing');
      seat.sealed = { ephemeralY: sealed.ephemeralY, ciphertext: sealed.ciphertext };
      if (g.seats.every((x) => x.sealed !== null)) g.phase = 'dealing';
    });
  }

  /** Stands for a verified spawn/turn proof storing its revealCommit. */
  postRevealCommitFor(gameId: bigint, player: string, turn: number, revealCommit: bigint): void {
    this.#write('postRevealCommitFor', (s) => {
      const g = this.#game(s, gameId);
      if (g.phase !== 'playing') throw new FakeRevert('not playing');
      g.reveals[`${player.toLowerCase()}:${turn}`] = revealCommit;
    });
  }

  /**
   * `openDispute` by `player` for its `turn` (the contract checks the opening against the stored
   * revealCommit; the fake only checks one is stored). The game pauses in 'dispute'.
   */
  openDispute(gameId: bigint, player: string, turn: number, leaves: number[], deadline = 0): void {
    this.#write('openDispute', (s) => {
      const g = this.#game(s, gameId);
      const who = player.toLowerCase();
      const seat = g.seats.findIndex((x) => x.player === who);
      if (g.phase !== 'playing' || seat < 0) throw new FakeRevert('cannot dispute now');
      if (g.reveals[`${who}:${turn}`] === undefined) throw new FakeRevert('NothingToDispute');
      g.dispute = { seat, player: who, turn, leaves: [...leaves], answered: false, answer: null, deadline };
      g.phase = 'dispute';
    });
  }

  /** The dispute ends with the answer standing (`acceptDisputeAnswer` or the window closing): play resumes. */
  closeDispute(gameId: bigint): void {
    this.#write('closeDispute', (s) => {
      const g = this.#game(s, gameId);
      if (g.phase !== 'dispute' || !g.dispute?.answered) throw new FakeRevert('NotAnswered');
      g.dispute = null;
      g.phase = 'playing';
    });
  }

  /** The dealer failed (no root by the deadline, or a dispute unanswered): slashed, the game force-opened. */
  forceOpen(gameId: bigint): void {
    this.#write('forceOpen', (s) => {
      const g = this.#game(s, gameId);
      g.dispute = null;
      g.phase = 'forced-open';
    });
  }

  endGame(gameId: bigint): void {
    this.#write('endGame', (s) => {
      this.#game(s, gameId).phase = 'ended';
    });
  }

  /** Anyone cancels (e.g. a missed ceremony deadline). */
  cancelGame(gameId: bigint): void {
    this.#write('cancelGame', (s) => {
      this.#game(s, gameId).phase = 'cancelled';
    });
  }

  /** Mines an empty block. */
  mine(): void {
    this.#write('mine', () => {});
  }

  /** Every dispute answer posted for the game, in order. */
  answersFor(gameId: bigint): bigint[][] {
    return this.#game(this.#read('answersFor'), gameId).answers;
  }

  secretsFor(gameId: bigint): FakeGame['secrets'] {
    return this.#game(this.#read('secretsFor'), gameId).secrets;
  }

  // ---- ChainView ----

  async chainId(): Promise<bigint> {
    return this.#read('chainId').chainId;
  }

  async headBlock(): Promise<number> {
    return this.#read('headBlock').block;
  }

  /** Every game created in the range, whatever its dealer: the watcher's own checks decide which are ours. */
  async gamesCreated(fromBlock: number, toBlock: number): Promise<bigint[]> {
    const s = this.#read('gamesCreated');
    return [...s.games.values()]
      .filter((g) => g.createdAt >= fromBlock && g.createdAt <= toBlock)
      .map((g) => g.info.gameId);
  }

  async game(gameId: bigint): Promise<GameInfo | null> {
    return this.#read('game').games.get(gameId.toString())?.info ?? null;
  }

  async phase(gameId: bigint): Promise<GamePhase> {
    return this.#game(this.#read('phase'), gameId).phase;
  }

  async seatShares(gameId: bigint): Promise<SeatShare[]> {
    return this.#game(this.#read('seatShares'), gameId).seats;
  }

  async mapRoot(gameId: bigint): Promise<PostedRoot | null> {
    return this.#game(this.#read('mapRoot'), gameId).root;
  }

  async revealCommit(gameId: bigint, player: string, turn: number): Promise<bigint | null> {
    return this.#game(this.#read('revealCommit'), gameId).reveals[`${player.toLowerCase()}:${turn}`] ?? null;
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
      leaves: d.answered ? null : [...d.leaves],
      deadline: d.deadline,
    };
  }

  async postRoot(gameId: bigint, root: PostedRoot): Promise<TxRef> {
    return this.#write('postRoot', (s) => {
      const g = this.#game(s, gameId);
      this.#asDealer(g);
      if (g.phase !== 'dealing' || g.root) throw new FakeRevert(`cannot post a root in phase ${g.phase}`);
      g.root = root;
      g.phase = 'playing';
      return { hash: `0xfake-root-${gameId}-${s.block}` };
    });
  }

  async answerDispute(gameId: bigint, answer: readonly bigint[]): Promise<TxRef | null> {
    const g = this.#game(this.#read('answerDispute:check'), gameId);
    if (g.phase !== 'dispute' || !g.dispute || g.dispute.answered) return null;
    return this.#write('answerDispute', (s) => {
      const g = this.#game(s, gameId);
      this.#asDealer(g);
      if (g.phase !== 'dispute' || !g.dispute) throw new FakeRevert('WrongPhase');
      if (g.dispute.answered) throw new FakeRevert('AlreadyAnswered');
      g.dispute.answered = true;
      g.dispute.answer = [...answer];
      g.answers.push([...answer]);
      return { hash: `0xfake-answer-${gameId}-${s.block}` };
    });
  }

  async publishSecrets(gameId: bigint, masterSecret: bigint, shares: readonly bigint[]): Promise<TxRef> {
    return this.#write('publishSecrets', (s) => {
      const g = this.#game(s, gameId);
      if (g.phase !== 'ended' || g.secrets)
        throw new FakeRevert(`cannot publish secrets in phase ${g.phase}`);
      g.secrets = { masterSecret, shares: [...shares] };
      return { hash: `0xfake-secrets-${gameId}-${s.block}` };
    });
  }
}
