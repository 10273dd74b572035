import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Point } from '../../core/babyjub.ts';
import { recoverReceiptSigner } from '../../core/reveal-receipt.ts';
import { revealDomain } from '../../core/reveal-request.ts';
import type { SealedShare } from '../../core/sealed.ts';
import { canonicalSignature } from '../receipts.ts';
import {
  type ChainView,
  type CreatedGame,
  type DisputeRecord,
  type GameInfo,
  type GamePhase,
  IN_LOGS,
  type PostedRoot,
  type SeatShare,
  type TurnLog,
  type TxRef,
} from './types.ts';

/** The fake chain's default dealer (Hardhat account #1's address): what a FakeChain sends as unless told otherwise. */
export const FAKE_DEALER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

/** A dispute as the fake contract stores it (`leaves` kept, as the event would have them). */
interface FakeDispute {
  seat: number;
  player: string;
  turn: number;
  leaves: number[];
  answered: boolean;
  receipted: boolean;
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
  /** Every `TurnSubmitted` in order: the last of a player is its latest (the only one the view answers for). */
  turnLog: TurnLog[];
  dispute: FakeDispute | null;
  /** Every answer the dealer posted, in order (for assertions). */
  answers: bigint[][];
  /** The receipt passed with each answer (`0x`: none), in order. */
  answerReceipts: string[];
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
  /** The block ranges asked of the log scans (`gamesCreated`, `turnsSubmitted`), in order. */
  readonly scans: { method: 'gamesCreated' | 'turnsSubmitted'; from: number; to: number }[] = [];

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

  /** A transaction: mined in a new block (`s.block` inside `fn`), so a scan up to an earlier head never misses its logs. */
  #write<T>(method: string, fn: (s: FakeState) => T): T {
    const s = this.#read(method);
    s.block++;
    let out: T;
    try {
      out = fn(s);
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
        turnLog: [],
        dispute: null,
        answers: [],
        answerReceipts: [],
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
      const who = player.toLowerCase();
      g.reveals[`${who}:${turn}`] = revealCommit;
      g.turnLog.push({ gameId, player: who, turn, revealCommit, block: s.block });
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
      g.dispute = {
        seat,
        player: who,
        turn,
        leaves: [...leaves],
        answered: false,
        receipted: false,
        answer: null,
        deadline,
      };
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

  /** The receipt passed with each dispute answer of the game (`0x`: none), in order. */
  answerReceiptsFor(gameId: bigint): string[] {
    return this.#game(this.#read('answerReceiptsFor'), gameId).answerReceipts;
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
    return this.#game(this.#read('phase'), gameId).phase;
  }

  async seatShares(gameId: bigint): Promise<SeatShare[]> {
    return this.#game(this.#read('seatShares'), gameId).seats;
  }

  async mapRoot(gameId: bigint): Promise<PostedRoot | null> {
    return this.#game(this.#read('mapRoot'), gameId).root;
  }

  /** As the contract's view: the player's latest turn only; an earlier one is IN_LOGS. */
  async revealCommit(gameId: bigint, player: string, turn: number): Promise<bigint | null | typeof IN_LOGS> {
    const who = player.toLowerCase();
    const latest = this.#game(this.#read('revealCommit'), gameId)
      .turnLog.filter((t) => t.player === who)
      .at(-1);
    if (!latest || turn > latest.turn) return null;
    return turn < latest.turn ? IN_LOGS : latest.revealCommit;
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

  async answerDispute(gameId: bigint, answer: readonly bigint[], receipt: string): Promise<TxRef | null> {
    const g = this.#game(this.#read('answerDispute:check'), gameId);
    if (g.phase !== 'dispute' || !g.dispute || g.dispute.answered) return null;
    return this.#write('answerDispute', (s) => {
      const g = this.#game(s, gameId);
      this.#asDealer(g);
      if (g.phase !== 'dispute' || !g.dispute) throw new FakeRevert('WrongPhase');
      if (g.dispute.answered) throw new FakeRevert('AlreadyAnswered');
      const d = g.dispute;
      // As ShroudDisputes: the disputer's signature, exactly 65 bytes with v 27/28 and a low s, over
      // RevealReceipt(gameId, turn, the seat's stored revealCommit).
      if (receipt !== '0x') {
        const revealCommit = g.reveals[`${d.player}:${d.turn}`] ?? 0n;
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
      if (g.phase !== 'ended' || g.secrets)
        throw new FakeRevert(`cannot publish secrets in phase ${g.phase}`);
      g.secrets = { masterSecret, shares: [...shares] };
      return { hash: `0xfake-secrets-${gameId}-${s.block}` };
    });
  }
}
