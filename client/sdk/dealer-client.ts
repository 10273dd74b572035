import type { Board } from '@shroud/core/geometry.ts';
import type { MapProof } from '@shroud/core/mapproof/types.ts';
import type { Hasher } from '@shroud/core/poseidon.ts';
import { signRevealReceipt } from '@shroud/core/reveal-receipt.ts';
import { type RevealRequestMessage, revealDomain, signRevealRequest } from '@shroud/core/reveal-request.ts';
import {
  MAX_SESSION_SECONDS,
  type RevealSessionMessage,
  sessionKeyHash,
  sessionMacKey,
  sessionRevealMac,
  signRevealSession,
} from '@shroud/core/reveal-session.ts';
import type { Signer } from 'ethers';
import { backoffDelay, realSleep } from './backoff.ts';
import {
  type DealerErrorBody,
  DealerRefusedError,
  DealerUnavailableError,
  MapProofError,
  TileRejectedError,
} from './errors.ts';
import { readText } from './http-body.ts';
import { type VerifiedTile, verifyRevealedTiles } from './tiles.ts';

/**
 * The opening of one turn's on-chain play commitment: what the player asks the dealer to serve. The leaves and
 * blinding open the reveal commitment; with `stateCommit` it opens the commitment the turn stored.
 */
export interface RevealOpening {
  gameId: bigint;
  turn: number;
  /** Zone-major leaf indices, in the order committed. */
  leaves: number[];
  blinding: bigint;
  stateCommit: bigint;
}

/** The dealer's 200 body. `root` is informational only: clients verify against the chain's root. */
export interface RevealResponse {
  gameId: string;
  player: string;
  turn: number;
  root: string;
  tiles: unknown[];
}

export interface DealerClientOptions {
  /** e.g. `http://127.0.0.1:8080`; the route is appended. */
  baseUrl: string;
  chainId: bigint;
  /** The game contract: the EIP-712 verifying contract. */
  gameContract: string;
  signer: Signer;
  /** Attempts in all, first one included (default 5). */
  maxAttempts?: number;
  /** First backoff ceiling in ms (default 250); doubles per attempt, capped at `maxDelayMs` (default 8000). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Per-attempt timeout (default 10 s). */
  timeoutMs?: number;
  /** How long a signed request stays valid (default 120 s; the dealer caps it). */
  expirySeconds?: number;
  /**
   * Reveal sessions (default true): one EIP-712 `RevealSession` signature per game, then HMAC-authenticated
   * requests (`/session-reveals`). A dealer that does not know the session (restart, expiry) answers 401
   * `unknown-session`, and a new session is opened; a dealer without the session routes (404), or one that
   * refuses to open a session, is asked per request (`/reveals`, one signature each) instead.
   */
  useSessions?: boolean;
  /** Requested session lifetime (default 1800 s, at most MAX_SESSION_SECONDS). */
  sessionSeconds?: number;
  /** Injectable for tests; defaults are the platform's. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Unix milliseconds. */
  now?: () => number;
}

/** 256 bits from the platform CSPRNG (Web Crypto: the same in browsers and Node). */
function randomNonce(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** A live reveal session for one game. */
interface LiveSession {
  id: string;
  macKey: Uint8Array;
  expiry: number;
}

const toHex = (b: Uint8Array) => `0x${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;

/** Outcome of one HTTP attempt: a final answer, or a transient failure worth retrying. */
type Attempt =
  | { kind: 'ok'; body: unknown }
  | { kind: 'retry'; status: number | null; cause: unknown; retryAfterMs: number | null };

function retryAfterMs(res: Response): number | null {
  const v = res.headers.get('retry-after');
  if (v === null) return null;
  const s = Number(v);
  return Number.isFinite(s) && s >= 0 ? s * 1000 : null;
}

/**
 * Client of the dealer's reveal route. Retries only what can be transient (network errors,
 * timeouts, 5xx, 429) with exponential backoff and full jitter; a 4xx is the dealer's considered
 * answer and is surfaced at once as DealerRefusedError.
 */
export class DealerClient {
  readonly #o: Required<Omit<DealerClientOptions, 'signer'>> & { signer: Signer };
  /** Live sessions by game id; games whose dealer refused sessions are in `#noSessions`. */
  readonly #sessions = new Map<string, LiveSession>();
  readonly #noSessions = new Set<string>();
  /** Requests served per route, for callers that report it. */
  readonly stats = { sessionReveals: 0, signedReveals: 0, sessionsOpened: 0 };

  constructor(o: DealerClientOptions) {
    if (!/^https?:\/\//.test(o.baseUrl)) throw new TypeError(`baseUrl must be http(s): ${o.baseUrl}`);
    this.#o = {
      maxAttempts: 5,
      baseDelayMs: 250,
      maxDelayMs: 8000,
      timeoutMs: 10_000,
      expirySeconds: 120,
      useSessions: true,
      sessionSeconds: 1800,
      fetch: globalThis.fetch.bind(globalThis),
      sleep: realSleep,
      random: Math.random,
      now: Date.now,
      ...o,
      baseUrl: o.baseUrl.replace(/\/+$/, ''),
    };
    if (!Number.isInteger(this.#o.maxAttempts) || this.#o.maxAttempts < 1) {
      throw new TypeError(`maxAttempts must be a positive integer, got ${this.#o.maxAttempts}`);
    }
  }

  /**
   * Fetches the tiles of an opening: under a reveal session when the dealer supports them (see
   * `useSessions`), else with a freshly signed request. Returns the raw (unverified) response body.
   */
  async requestReveal(opening: RevealOpening): Promise<RevealResponse> {
    const key = opening.gameId.toString();
    if (!this.#o.useSessions || this.#noSessions.has(key)) return this.requestSignedReveal(opening);
    for (let round = 0; round < 2; round++) {
      const session = await this.#session(opening.gameId);
      if (!session) return this.requestSignedReveal(opening);
      try {
        const res = await this.#withRetries(
          () => this.#sessionAttempt(session, opening),
          (b) => checkResponse(b, opening),
        );
        this.stats.sessionReveals++;
        return res;
      } catch (e) {
        // The dealer forgot the session (restart, expiry) or it is used up: open a new one, once.
        if (
          e instanceof DealerRefusedError &&
          (e.code === 'unknown-session' || e.code === 'session-exhausted' || e.code === 'expired')
        ) {
          this.#sessions.delete(key);
          continue;
        }
        throw e;
      }
    }
    return this.requestSignedReveal(opening);
  }

  /** Drops the session of a game (the next request opens a new one). */
  forgetSession(gameId: bigint): void {
    this.#sessions.delete(gameId.toString());
  }

  /** Signs a fresh per-request EIP-712 request and POSTs it to `/reveals`. */
  async requestSignedReveal(opening: RevealOpening): Promise<RevealResponse> {
    const o = this.#o;
    const player = await o.signer.getAddress();
    const res = await this.#withRetries(
      () => this.#attempt(player, opening),
      (b) => checkResponse(b, opening),
    );
    this.stats.signedReveals++;
    return res;
  }

  /**
   * The game's ZK map proof (`GET /v1/games/:gameId/map-proof`), unverified: pass it to `verifyMapProof`
   * (`@shroud/sdk/mapproof.ts`) with the chain's values. Null while the dealer is still proving (202), and when it
   * has none to serve (404: no map proofs, unknown game, or not dealt yet). Retries like the other routes.
   */
  async fetchMapProof(gameId: bigint): Promise<MapProof | null> {
    const o = this.#o;
    try {
      return await this.#withRetries(
        () => this.#send(`${o.baseUrl}/v1/games/${gameId}/map-proof`, { method: 'GET' }),
        (b) => {
          const body = b as { status?: unknown; proof?: unknown } | null;
          if (body?.status !== 'done') return null;
          if (typeof body.proof !== 'object' || body.proof === null)
            throw new MapProofError(null, 'the dealer answered "done" without a proof');
          return body.proof as MapProof;
        },
      );
    } catch (e) {
      if (e instanceof DealerRefusedError && e.status === 404) return null;
      throw e;
    }
  }

  /** Runs attempts with exponential backoff and full jitter; a 4xx surfaces at once. */
  async #withRetries<T>(once: () => Promise<Attempt>, accept: (body: unknown) => T): Promise<T> {
    const o = this.#o;
    let last: Extract<Attempt, { kind: 'retry' }> | undefined;
    for (let attempt = 1; attempt <= o.maxAttempts; attempt++) {
      if (last) {
        const jittered = backoffDelay(attempt, o.baseDelayMs, o.maxDelayMs, o.random);
        await o.sleep(Math.min(o.maxDelayMs, Math.max(jittered, last.retryAfterMs ?? 0)));
      }
      // A fresh nonce per attempt: the dealer may have burned the last one before the answer was lost.
      const r = await once();
      if (r.kind === 'ok') return accept(r.body);
      last = r;
    }
    throw new DealerUnavailableError(o.maxAttempts, last!.status, last!.cause);
  }

  /**
   * Hands the dealer this player's EIP-712 receipt for a served and verified turn
   * (`POST /v1/games/:gameId/receipts`, core/reveal-receipt.ts). With it the dealer can show a later dispute of
   * that turn false and keep its deposit; a player that was served has nothing to fear from that.
   */
  async sendReceipt(gameId: bigint, turn: number, revealCommit: bigint, stateCommit: bigint): Promise<void> {
    const o = this.#o;
    const msg = { gameId, turn, revealCommit };
    const signature = await signRevealReceipt(o.signer, revealDomain(o.chainId, o.gameContract), msg);
    const body = JSON.stringify({
      player: await o.signer.getAddress(),
      turn,
      revealCommit: revealCommit.toString(),
      stateCommit: stateCommit.toString(),
      signature,
    });
    await this.#withRetries(
      () => this.#post(`${o.baseUrl}/v1/games/${gameId}/receipts`, body),
      () => undefined,
    );
  }

  /** `requestReveal`, then all-or-nothing verification against `chainRoot` (read it from the contract). */
  async fetchVerifiedTiles(
    h: Hasher,
    board: Board,
    chainRoot: bigint,
    opening: RevealOpening,
  ): Promise<VerifiedTile[]> {
    const res = await this.requestReveal(opening);
    return verifyRevealedTiles(h, board, chainRoot, opening.leaves, res.tiles);
  }

  /** The game's live session, opened on first use; null when this dealer will not open one. */
  async #session(gameId: bigint): Promise<LiveSession | null> {
    const o = this.#o;
    const key = gameId.toString();
    const now = Math.floor(o.now() / 1000);
    const live = this.#sessions.get(key);
    // Margin: a request's own expiry must fall inside the session.
    if (live && live.expiry > now + 30) return live;
    const sessionKey = crypto.getRandomValues(new Uint8Array(32));
    const player = await o.signer.getAddress();
    const msg: RevealSessionMessage = {
      gameId,
      player,
      sessionKeyHash: sessionKeyHash(sessionKey),
      expiry: now + Math.min(o.sessionSeconds, MAX_SESSION_SECONDS),
      nonce: randomNonce(),
    };
    const signature = await signRevealSession(o.signer, revealDomain(o.chainId, o.gameContract), msg);
    const body = JSON.stringify({
      gameId: gameId.toString(),
      player,
      sessionKey: toHex(sessionKey),
      expiry: msg.expiry,
      nonce: msg.nonce.toString(),
      signature,
    });
    let res: Response;
    try {
      res = await o.fetch(`${o.baseUrl}/v1/games/${gameId}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch {
      return null; // the per-request route retries with backoff
    }
    const text = await readText(res).catch(() => '');
    if (!res.ok) {
      // No session routes, or a refusal (expiry policy…): per-request from now on for this game.
      if (res.status >= 400 && res.status < 500 && res.status !== 429) this.#noSessions.add(key);
      return null;
    }
    let id: unknown;
    try {
      id = (JSON.parse(text) as { sessionId?: unknown }).sessionId;
    } catch {}
    if (typeof id !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(id)) return null;
    const session = { id, macKey: sessionMacKey(sessionKey, id), expiry: msg.expiry };
    this.#sessions.set(key, session);
    this.stats.sessionsOpened++;
    return session;
  }

  async #sessionAttempt(session: LiveSession, opening: RevealOpening): Promise<Attempt> {
    const o = this.#o;
    const m = {
      sessionId: session.id,
      gameId: opening.gameId,
      turn: opening.turn,
      leaves: opening.leaves,
      blinding: opening.blinding,
      stateCommit: opening.stateCommit,
      nonce: randomNonce(),
      expiry: Math.min(session.expiry, Math.floor(o.now() / 1000) + o.expirySeconds),
    };
    const body = JSON.stringify({
      sessionId: m.sessionId,
      turn: m.turn,
      leaves: m.leaves,
      blinding: m.blinding.toString(),
      stateCommit: m.stateCommit.toString(),
      nonce: m.nonce.toString(),
      expiry: m.expiry,
      mac: sessionRevealMac(session.macKey, m),
    });
    return this.#post(`${o.baseUrl}/v1/games/${opening.gameId}/session-reveals`, body);
  }

  async #attempt(player: string, opening: RevealOpening): Promise<Attempt> {
    const o = this.#o;
    const msg: RevealRequestMessage = {
      gameId: opening.gameId,
      player,
      turn: opening.turn,
      leaves: opening.leaves,
      blinding: opening.blinding,
      stateCommit: opening.stateCommit,
      nonce: randomNonce(),
      expiry: Math.floor(o.now() / 1000) + o.expirySeconds,
    };
    const signature = await signRevealRequest(o.signer, revealDomain(o.chainId, o.gameContract), msg);
    const body = JSON.stringify({
      gameId: msg.gameId.toString(),
      player: msg.player,
      turn: msg.turn,
      leaves: msg.leaves,
      blinding: msg.blinding.toString(),
      stateCommit: msg.stateCommit.toString(),
      nonce: msg.nonce.toString(),
      expiry: msg.expiry,
      signature,
    });
    return this.#post(`${o.baseUrl}/v1/games/${opening.gameId}/reveals`, body);
  }

  #post(url: string, body: string): Promise<Attempt> {
    return this.#send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  }

  async #send(url: string, init: RequestInit): Promise<Attempt> {
    const o = this.#o;
    let res: Response;
    try {
      res = await o.fetch(url, { ...init, signal: AbortSignal.timeout(o.timeoutMs) });
    } catch (cause) {
      return { kind: 'retry', status: null, cause, retryAfterMs: null };
    }
    let text: string;
    try {
      text = await readText(res);
    } catch (cause) {
      // A body past the cap is a broken or hostile answer; one cut short, a dropped connection: both transient.
      return { kind: 'retry', status: res.status, cause, retryAfterMs: null };
    }
    if (res.ok) {
      try {
        return { kind: 'ok', body: JSON.parse(text) };
      } catch (cause) {
        // A 200 that is not JSON is a broken proxy or dealer: transient from the client's view.
        return { kind: 'retry', status: res.status, cause, retryAfterMs: null };
      }
    }
    if (res.status === 429 || res.status >= 500) {
      return {
        kind: 'retry',
        status: res.status,
        cause: new Error(text.slice(0, 200)),
        retryAfterMs: retryAfterMs(res),
      };
    }
    throw new DealerRefusedError(res.status, parseErrorBody(text));
  }
}

function parseErrorBody(text: string): DealerErrorBody | string {
  try {
    const b = JSON.parse(text) as DealerErrorBody;
    if (typeof b?.error === 'string' && typeof b.message === 'string') return b;
  } catch {}
  return text;
}

/** The envelope must answer this very request; the tiles themselves are checked by verifyRevealedTiles. */
function checkResponse(body: unknown, opening: RevealOpening): RevealResponse {
  const b = body as Partial<RevealResponse> | null;
  if (typeof b !== 'object' || b === null || !Array.isArray(b.tiles)) {
    throw new TileRejectedError('malformed', null, 'response has no tiles array');
  }
  if (b.turn !== opening.turn)
    throw new TileRejectedError('malformed', null, `response is for turn ${b.turn}`);
  if (
    typeof b.gameId !== 'string' ||
    !/^[0-9]{1,78}$/.test(b.gameId) ||
    BigInt(b.gameId) !== opening.gameId
  ) {
    throw new TileRejectedError('malformed', null, `response is for game ${b.gameId}`);
  }
  return b as RevealResponse;
}
