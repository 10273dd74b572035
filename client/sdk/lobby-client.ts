/**
 * Joining a dealer's lobby: list the open lobbies, sign an EIP-712 `Join` (core/lobby.ts) for one, and wait
 * until the dealer created the game. The game is then like any other: check its on-chain terms
 * (`checkGameTerms`), commit the stake, play. Browser-safe (fetch and Web Crypto only).
 */

import { InputError } from '@shroud/core/errors.ts';
import { checkDurations, type Durations } from '@shroud/core/limits.ts';
import {
  type JoinMessage,
  type JoinStatusView,
  type LobbiesView,
  type LobbyView,
  lobbyDomain,
  randomBytes32,
  signJoin,
  toJoinBody,
} from '@shroud/core/lobby.ts';
import { type LeaveMessage, type LeaveView, signLeave, toLeaveBody } from '@shroud/core/lobby-leave.ts';
import type { Signer } from 'ethers';
import { backoffDelay, realSleep } from './backoff.ts';
import type { GameChain, GameConfig } from './chain.ts';
import {
  type DealerErrorBody,
  DealerRefusedError,
  DealerUnavailableError,
  GameTermsRejectedError,
  LobbyGameFailedError,
  LobbyTermsRejectedError,
} from './errors.ts';
import { readText } from './http-body.ts';
import { checkGameTerms } from './terms.ts';

/** One lobby, as the dealer lists it, with what a join signs. */
export interface LobbyInfo {
  id: string;
  /** The operator's name for this kind of game, e.g. `tiny-duel`. */
  kind: string;
  ruleset: string;
  rulesetHash: string;
  seats: number;
  /** Seats taken. */
  filled: number;
  stake: bigint;
  disputeDeposit: bigint;
  maxTurns: number;
  /** The dealer's bond per game (the players' if it is slashed). */
  bond: bigint;
  durations: Durations;
  status: string;
  gameId: bigint | null;
  /** The `Join` domain: the chain and game contract the game will be created on. */
  chainId: bigint;
  gameContract: string;
  /** The dealer's address (the games' `dealer`). */
  dealer: string;
}

/** A seat taken: what `waitForGame` follows. */
export interface JoinTicket {
  lobbyId: string;
  /** Lowercase 0x address. */
  player: string;
  seat: number;
  /**
   * The nonce of the join holding the seat (what `leave` names; empty from a dealer that does not say), and
   * the signed join's deadline (0 when the ticket came from `status`).
   */
  nonce: string;
  deadline: number;
  status: 'waiting' | 'created' | 'failed';
  gameId: bigint | null;
  /**
   * Seats taken and seats in all, when the join was answered (absent from older dealers): `filled === seats`
   * once the lobby is full, and its game, not the seat, is the player's (a leave is refused).
   */
  filled?: number;
  seats?: number;
  /** The lobby as the join signed it (from `join` only): what `checkLobbyGame` holds the game to. */
  lobby?: LobbyInfo;
}

export interface LobbyClientOptions {
  /** Refuse (LobbyTermsRejectedError) a dealer whose lobbies are on another chain. */
  chainId?: bigint;
  /** Refuse a dealer whose lobbies create games on another contract. */
  gameContract?: string;
  /** How long a signed join stays valid, seconds (default 120; the dealer caps it). */
  deadlineSeconds?: number;
  /** Attempts in all per request (default 5), with exponential backoff and jitter as DealerClient. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Per-attempt timeout (default 10 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Unix milliseconds. */
  now?: () => number;
}

/** What this player accepts of a lobby; checked before anything is signed. */
export interface JoinOptions {
  /** Largest stake this player pays (wei). Default: the lobby's, whatever it is. */
  maxStake?: bigint;
  /**
   * The terms this player agreed to (a page funds its session key's gas from the listing it showed): a lobby, or
   * a game, with more turns, a larger dispute deposit or a smaller bond than these is refused before staking.
   */
  maxTurns?: number;
  maxDisputeDeposit?: bigint;
  minBond?: bigint;
  /** The ruleset this player means to play (0x hash). */
  rulesetHash?: string;
  /** The seat count this player means to play. */
  seats?: number;
  /** Stricter duration floors than the protocol's. */
  floors?: Partial<Durations>;
  /** Overrides the client's `deadlineSeconds`. */
  deadlineSeconds?: number;
}

type Attempt = { ok: true; body: unknown } | { ok: false; status: number | null; cause: unknown };

/** A dealer's lobbies, seen from a player. */
export class LobbyClient {
  readonly #base: string;
  readonly #o: Required<Omit<LobbyClientOptions, 'chainId' | 'gameContract'>> &
    Pick<LobbyClientOptions, 'chainId' | 'gameContract'>;

  constructor(dealerUrl: string, opts: LobbyClientOptions = {}) {
    if (!/^https?:\/\//.test(dealerUrl)) throw new TypeError(`dealerUrl must be http(s): ${dealerUrl}`);
    this.#base = dealerUrl.replace(/\/+$/, '');
    this.#o = {
      deadlineSeconds: 120,
      maxAttempts: 5,
      baseDelayMs: 250,
      maxDelayMs: 8000,
      timeoutMs: 10_000,
      fetch: globalThis.fetch.bind(globalThis),
      sleep: realSleep,
      random: Math.random,
      now: Date.now,
      ...opts,
    };
  }

  /** The open lobbies (`GET /v1/lobbies`). */
  async lobbies(): Promise<LobbyInfo[]> {
    const l = (await this.#request('GET', '/v1/lobbies')) as LobbiesView;
    this.#checkDomain(l);
    return l.lobbies.map((x) => toInfo(l, x));
  }

  /**
   * Signs a `Join` for `lobbyId` with `signer` and takes a seat. The lobby's terms are checked against
   * `opts` first (LobbyTermsRejectedError, nothing signed); the dealer's refusals are DealerRefusedError
   * with its code (e.g. `lobby-closed`, `already-joined`).
   */
  async join(signer: Signer, lobbyId: string, opts: JoinOptions = {}): Promise<JoinTicket> {
    const listing = (await this.#request('GET', '/v1/lobbies')) as LobbiesView;
    this.#checkDomain(listing);
    const lobby = toInfo(
      listing,
      (await this.#request('GET', `/v1/lobbies/${encodeURIComponent(lobbyId)}`)) as LobbyView,
    );
    checkLobby(lobby, opts);
    const player = await signer.getAddress();
    const m: JoinMessage = {
      lobbyId: lobby.id,
      player,
      rulesetHash: lobby.rulesetHash,
      stake: lobby.stake,
      seats: lobby.seats,
      nonce: randomBytes32(),
      deadline: Math.floor(this.#o.now() / 1000) + (opts.deadlineSeconds ?? this.#o.deadlineSeconds),
    };
    const signature = await signJoin(signer, lobbyDomain(lobby.chainId, lobby.gameContract), m);
    let res: JoinStatusView;
    try {
      res = (await this.#request(
        'POST',
        `/v1/lobbies/${lobby.id}/joins`,
        JSON.stringify(toJoinBody(m, signature)),
      )) as JoinStatusView;
    } catch (e) {
      // The answer to an earlier attempt was lost after the dealer seated us: the retry is a replay.
      if (e instanceof DealerRefusedError && (e.code === 'nonce-replayed' || e.code === 'already-joined')) {
        const seated = await this.status(lobby.id, player).catch(() => null);
        if (seated) return { ...seated, nonce: seated.nonce || m.nonce, deadline: m.deadline, lobby };
      }
      throw e;
    }
    return { ...toTicket(res), nonce: m.nonce, deadline: m.deadline, lobby };
  }

  /**
   * One lobby, open or not (`GET /v1/lobbies/:id`): what `checkLobbyGame` holds the game of a seat taken earlier
   * (a retry or a reload: the join's own view of the lobby is gone) to.
   */
  async lobby(lobbyId: string): Promise<LobbyInfo> {
    const listing = (await this.#request('GET', '/v1/lobbies')) as LobbiesView;
    this.#checkDomain(listing);
    return toInfo(
      listing,
      (await this.#request('GET', `/v1/lobbies/${encodeURIComponent(lobbyId)}`)) as LobbyView,
    );
  }

  /** A seat's status (`GET /v1/lobbies/:id/joins/:player`); DealerRefusedError `not-joined` when none. */
  async status(lobbyId: string, player: string): Promise<JoinTicket> {
    const res = (await this.#request(
      'GET',
      `/v1/lobbies/${encodeURIComponent(lobbyId)}/joins/${encodeURIComponent(player)}`,
    )) as JoinStatusView;
    if (res.status === 'failed') throw new LobbyGameFailedError(lobbyId, res.message ?? 'failed');
    return { ...toTicket(res), deadline: 0 };
  }

  /**
   * Gives up `signer`'s seat in lobby `lobbyId` while it has not filled: signs a `Leave` naming the join that
   * holds the seat (core/lobby-leave.ts). Nothing is staked before the game exists, so leaving costs nothing.
   * DealerRefusedError `lobby-closed` once the lobby filled (the game is the player's: play it, or stay away and
   * it is cancelled when its commit window ends); LobbyGameFailedError when the dealer could not create it. A
   * retry that finds no seat any more (the answer to an earlier attempt was lost) is the leave done.
   */
  async leave(signer: Signer, lobbyId: string): Promise<LeaveView> {
    const listing = (await this.#request('GET', '/v1/lobbies')) as LobbiesView;
    this.#checkDomain(listing);
    const player = await signer.getAddress();
    const seat = await this.status(lobbyId, player);
    if (!seat.nonce)
      throw new Error('leave: the dealer does not say which join holds the seat (an older dealer)');
    const m: LeaveMessage = { lobbyId: seat.lobbyId, player, joinNonce: seat.nonce };
    const signature = await signLeave(signer, lobbyDomain(BigInt(listing.chainId), listing.gameContract), m);
    try {
      return (await this.#request(
        'POST',
        `/v1/lobbies/${seat.lobbyId}/leaves`,
        JSON.stringify(toLeaveBody(m, signature)),
      )) as LeaveView;
    } catch (e) {
      if (e instanceof DealerRefusedError && e.code === 'not-joined')
        return { lobbyId: seat.lobbyId, player: player.toLowerCase(), seat: seat.seat, status: 'left' };
      throw e;
    }
  }

  /**
   * Polls the seat until the dealer created the game (its id), or it could not (LobbyGameFailedError).
   * `signal` aborts the wait (rejecting with its reason); `onAnswer` sees each answer (a page's Leave follows
   * whether the lobby is full).
   */
  async waitForGame(
    lobbyId: string,
    ticket: Pick<JoinTicket, 'player'>,
    o: { pollMs?: number; signal?: AbortSignal; onAnswer?: (t: JoinTicket) => void } = {},
  ): Promise<{ gameId: bigint }> {
    for (;;) {
      o.signal?.throwIfAborted();
      const t = await this.status(lobbyId, ticket.player);
      // An abort while the answer was on its way wins: the caller left (a page's Leave).
      o.signal?.throwIfAborted();
      o.onAnswer?.(t);
      if (t.status === 'created' && t.gameId !== null) return { gameId: t.gameId };
      await abortableSleep(this.#o.sleep, o.pollMs ?? 2000, o.signal);
    }
  }

  #checkDomain(l: LobbiesView): void {
    const o = this.#o;
    if (o.chainId !== undefined && BigInt(l.chainId) !== o.chainId) {
      throw new LobbyTermsRejectedError(
        'chainId',
        `the dealer's lobbies are on chain ${l.chainId}, not ${o.chainId}`,
      );
    }
    if (o.gameContract !== undefined && l.gameContract.toLowerCase() !== o.gameContract.toLowerCase()) {
      throw new LobbyTermsRejectedError(
        'gameContract',
        `the dealer's games are on ${l.gameContract}, not ${o.gameContract}`,
      );
    }
  }

  /** One request with retries on network errors, timeouts, 5xx and 429; a 4xx is DealerRefusedError at once. */
  async #request(method: 'GET' | 'POST', path: string, body?: string): Promise<unknown> {
    const o = this.#o;
    let last: Extract<Attempt, { ok: false }> | undefined;
    for (let attempt = 1; attempt <= o.maxAttempts; attempt++) {
      if (last) await o.sleep(backoffDelay(attempt, o.baseDelayMs, o.maxDelayMs, o.random));
      const r = await this.#attempt(method, path, body);
      if (r.ok) return r.body;
      last = r;
    }
    throw new DealerUnavailableError(o.maxAttempts, last!.status, last!.cause);
  }

  async #attempt(method: string, path: string, body?: string): Promise<Attempt> {
    const o = this.#o;
    let res: Response;
    try {
      res = await o.fetch(`${this.#base}${path}`, {
        method,
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (cause) {
      return { ok: false, status: null, cause };
    }
    let text: string;
    try {
      text = await readText(res);
    } catch (cause) {
      // A body past the cap is a broken or hostile answer; one cut short, a dropped connection: both transient.
      return { ok: false, status: res.status, cause };
    }
    if (res.ok) {
      try {
        return { ok: true, body: JSON.parse(text) };
      } catch (cause) {
        return { ok: false, status: res.status, cause };
      }
    }
    if (res.status === 429 || res.status >= 500) {
      return { ok: false, status: res.status, cause: new Error(text.slice(0, 200)) };
    }
    throw new DealerRefusedError(res.status, errorBody(text));
  }
}

/** Throws LobbyTermsRejectedError naming the first term of the lobby `opts` does not accept. */
export function checkLobby(l: LobbyInfo, opts: JoinOptions): void {
  if (l.status !== 'open') throw new LobbyTermsRejectedError('status', `the lobby is ${l.status}, not open`);
  if (opts.maxStake !== undefined && l.stake > opts.maxStake) {
    throw new LobbyTermsRejectedError(
      'stake',
      `${l.stake} wei is above this player's limit ${opts.maxStake}`,
    );
  }
  if (opts.rulesetHash !== undefined && l.rulesetHash.toLowerCase() !== opts.rulesetHash.toLowerCase()) {
    throw new LobbyTermsRejectedError('rulesetHash', `the lobby plays ${l.ruleset} (${l.rulesetHash})`);
  }
  if (opts.seats !== undefined && l.seats !== opts.seats) {
    throw new LobbyTermsRejectedError('seats', `the lobby seats ${l.seats}, not ${opts.seats}`);
  }
  if (opts.maxTurns !== undefined && l.maxTurns > opts.maxTurns)
    throw new LobbyTermsRejectedError(
      'maxTurns',
      `the lobby plays ${l.maxTurns} turns, above ${opts.maxTurns}`,
    );
  if (opts.maxDisputeDeposit !== undefined && l.disputeDeposit > opts.maxDisputeDeposit)
    throw new LobbyTermsRejectedError(
      'disputeDeposit',
      `the lobby's dispute deposit ${l.disputeDeposit} wei is above ${opts.maxDisputeDeposit}`,
    );
  if (opts.minBond !== undefined && l.bond < opts.minBond)
    throw new LobbyTermsRejectedError('bond', `the lobby's bond ${l.bond} wei is below ${opts.minBond}`);
  try {
    checkDurations(l.durations, 'durations', opts.floors);
  } catch (e) {
    if (e instanceof InputError)
      throw new LobbyTermsRejectedError(e.field, e.message.slice(e.field.length + 2));
    throw e;
  }
}

/** The game a dealer answered for a seat, as the chain has it (GameChain `game`, `seat`, `config`). */
export interface LobbyGameOnChain {
  /** Lowercase 0x. */
  dealer: string;
  /** The dealer's bond held by the game (wei): what the players share if it is slashed. */
  bond: bigint;
  /** Seat order, lowercase 0x addresses. */
  players: readonly string[];
  config: GameConfig;
}

/**
 * Throws GameTermsRejectedError naming the first way the on-chain game `g` is not the one `player` signed a
 * join of `lobby` for. The dealer's answer to `waitForGame` is only a game id: it could name any game this
 * player is seated in (the contract seats players without asking them), e.g. one with a larger stake. So
 * before staking: the lobby's dealer, this player among exactly `seats` players, the signed ruleset, a stake
 * at most the signed one (and `opts.maxStake`), the listed deposit and turn limit at most, durations no
 * shorter than listed (and within the protocol's and `opts.floors`).
 */
export function checkLobbyGame(
  g: LobbyGameOnChain,
  lobby: LobbyInfo,
  player: string,
  opts: Pick<JoinOptions, 'maxStake' | 'floors' | 'maxTurns' | 'maxDisputeDeposit' | 'minBond'> = {},
): void {
  const atMost = <T extends number | bigint>(listed: T, mine: T | undefined): T =>
    mine !== undefined && mine < listed ? mine : listed;
  const reject = (field: string, message: string) => {
    throw new GameTermsRejectedError(field, message);
  };
  if (g.dealer.toLowerCase() !== lobby.dealer.toLowerCase())
    reject('dealer', `the game's dealer is ${g.dealer}, not the lobby's ${lobby.dealer}`);
  const me = player.toLowerCase();
  if (g.players.length !== lobby.seats || !g.players.some((p) => p.toLowerCase() === me))
    reject(
      'players',
      `the game seats ${g.players.join(', ')}: not ${lobby.seats} players including ${player}`,
    );
  checkGameTerms(g.config, {
    rulesetHash: lobby.rulesetHash,
    maxStake: atMost(lobby.stake, opts.maxStake),
    maxDisputeDeposit: atMost(lobby.disputeDeposit, opts.maxDisputeDeposit),
    ...(opts.floors ? { floors: opts.floors } : {}),
  });
  const maxTurns = atMost(lobby.maxTurns, opts.maxTurns);
  if (g.config.maxTurns > maxTurns)
    reject('maxTurns', `the game lasts ${g.config.maxTurns} turns, at most ${maxTurns} were agreed`);
  const minBond = opts.minBond !== undefined && opts.minBond > lobby.bond ? opts.minBond : lobby.bond;
  if (g.bond < minBond) reject('bond', `the game's bond is ${g.bond} wei, the lobby's ${minBond}`);
  for (const [f, listed] of Object.entries(lobby.durations) as [keyof Durations, number][])
    if (g.config.durations[f] < listed)
      reject(`durations.${f}`, `${g.config.durations[f]} s, shorter than the lobby's ${listed} s`);
}

/**
 * `checkLobbyGame` on game `gameId` as `chain` reads it: the id a dealer answered is only its word, so the game is
 * read on-chain (dealer, bond, seats, config) and held to the lobby `player` signed a join of, before staking.
 */
export async function checkLobbyGameOnChain(
  chain: Pick<GameChain, 'game' | 'seat' | 'config'>,
  gameId: bigint,
  lobby: LobbyInfo,
  player: string,
  opts: Parameters<typeof checkLobbyGame>[3] = {},
): Promise<void> {
  const g = await chain.game(gameId);
  const players: string[] = [];
  for (let i = 0; i < g.nPlayers; i++) players.push((await chain.seat(gameId, i)).player);
  checkLobbyGame(
    { dealer: g.dealer, bond: g.bond, players, config: await chain.config(gameId) },
    lobby,
    player,
    opts,
  );
}

function toInfo(l: LobbiesView, x: LobbyView): LobbyInfo {
  return {
    id: x.id,
    kind: x.kind,
    ruleset: x.ruleset,
    rulesetHash: x.rulesetHash,
    seats: x.seats,
    filled: x.filled,
    stake: BigInt(x.stake),
    disputeDeposit: BigInt(x.disputeDeposit),
    maxTurns: x.maxTurns,
    bond: BigInt(x.bond),
    durations: x.durations,
    status: x.status,
    gameId: x.gameId === null ? null : BigInt(x.gameId),
    chainId: BigInt(l.chainId),
    gameContract: l.gameContract,
    dealer: l.dealer,
  };
}

function toTicket(r: JoinStatusView): Omit<JoinTicket, 'deadline'> {
  return {
    lobbyId: r.lobbyId,
    player: r.player,
    seat: r.seat,
    nonce: typeof r.nonce === 'string' ? r.nonce : '',
    status: r.status,
    gameId: r.gameId === null ? null : BigInt(r.gameId),
    ...(Number.isSafeInteger(r.filled) && Number.isSafeInteger(r.seats)
      ? { filled: r.filled, seats: r.seats }
      : {}),
  };
}

function errorBody(text: string): DealerErrorBody | string {
  try {
    const b = JSON.parse(text) as DealerErrorBody;
    if (typeof b?.error === 'string' && typeof b.message === 'string') return b;
  } catch {}
  return text;
}

/** `sleep(ms)`, cut short (rejecting with the signal's reason) when `signal` aborts, at once when it already has. */
function abortableSleep(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
