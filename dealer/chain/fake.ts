import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { BadShareEvidence } from '../../core/sealed.ts';
import type { ChainView, GameInfo, GamePhase, PostedRoot, SeatShare, TxRef } from './types.ts';

interface FakeGame {
  info: GameInfo;
  createdAt: number;
  phase: GamePhase;
  seats: SeatShare[];
  root: PostedRoot | null;
  /** `${player}:${turn}` → revealCommit. */
  reveals: Record<string, bigint>;
  evidence: { player: string; evidence: BadShareEvidence }[];
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
 * chain outlives a SIGKILLed dealer.
 */
export class FakeChain implements ChainView {
  readonly #file: string | undefined;
  #state: FakeState;
  /** Fault injection: method names whose next call throws, and a switch for "RPC unreachable". */
  readonly failNext = new Set<string>();
  unreachable = false;
  /** Every write, in order (for assertions on retries). */
  readonly writes: string[] = [];

  constructor(opts: { chainId?: bigint; file?: string; create?: boolean } = {}) {
    this.#file = opts.file;
    this.#state = { chainId: opts.chainId ?? 31337n, block: 1, nextGameId: 1n, games: new Map() };
    if (this.#file && opts.create) writeFileSync(this.#file, encode(this.#state));
  }

  #read(method: string): FakeState {
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

  // ---- test driver: what players and the contract do ----

  createGame(ruleset: string, players: string[], dealerEncKey: Uint8Array, contract: string): bigint {
    return this.#write('createGame', (s) => {
      const gameId = s.nextGameId++;
      s.games.set(gameId.toString(), {
        info: { gameId, contract, ruleset, players: players.map((p) => p.toLowerCase()), dealerEncKey },
        createdAt: s.block,
        phase: 'commit',
        seats: players.map((p) => ({ player: p.toLowerCase(), commitment: 0n, sealed: null })),
        root: null,
        reveals: {},
        evidence: [],
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

  postSealedShare(gameId: bigint, player: string, sealed: Uint8Array): void {
    this.#write('postSealedShare', (s) => {
      const g = this.#game(s, gameId);
      const seat = g.seats.find((x) => x.player === player.toLowerCase());
      if (!seat || g.phase !== 'sealing') throw new FakeRevert('not sealing');
      seat.sealed = sealed;
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

  endGame(gameId: bigint): void {
    this.#write('endGame', (s) => {
      this.#game(s, gameId).phase = 'ended';
    });
  }

  evidenceFor(gameId: bigint): { player: string; evidence: BadShareEvidence }[] {
    return this.#game(this.#read('evidenceFor'), gameId).evidence;
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

  async postRoot(gameId: bigint, root: PostedRoot): Promise<TxRef> {
    return this.#write('postRoot', (s) => {
      const g = this.#game(s, gameId);
      if (g.phase !== 'dealing' || g.root) throw new FakeRevert(`cannot post a root in phase ${g.phase}`);
      g.root = root;
      g.phase = 'playing';
      return { hash: `0xfake-root-${gameId}-${s.block}` };
    });
  }

  async postBadShareEvidence(gameId: bigint, player: string, evidence: BadShareEvidence): Promise<TxRef> {
    return this.#write('postBadShareEvidence', (s) => {
      const g = this.#game(s, gameId);
      if (g.phase !== 'dealing') throw new FakeRevert(`cannot cancel in phase ${g.phase}`);
      g.evidence.push({ player: player.toLowerCase(), evidence });
      g.phase = 'cancelled';
      return { hash: `0xfake-evidence-${gameId}-${s.block}` };
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
