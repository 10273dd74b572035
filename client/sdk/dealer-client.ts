import type { Signer } from 'ethers';
import type { Board } from '../../core/geometry.ts';
import type { Hasher } from '../../core/poseidon.ts';
import { type RevealRequestMessage, revealDomain, signRevealRequest } from '../../core/reveal-request.ts';
import {
  type DealerErrorBody,
  DealerRefusedError,
  DealerUnavailableError,
  TileRejectedError,
} from './errors.ts';
import { type VerifiedTile, verifyRevealedTiles } from './tiles.ts';

/** The opening of one turn's on-chain `revealCommit`: what the player asks the dealer to serve. */
export interface RevealOpening {
  gameId: bigint;
  turn: number;
  /** Zone-major leaf indices, in the order committed. */
  leaves: number[];
  blinding: bigint;
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
  /** Injectable for tests; defaults are the platform's. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Unix milliseconds. */
  now?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 256 bits from the platform CSPRNG (Web Crypto: the same in browsers and Node). */
function randomNonce(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

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

  constructor(o: DealerClientOptions) {
    if (!/^https?:\/\//.test(o.baseUrl)) throw new TypeError(`baseUrl must be http(s): ${o.baseUrl}`);
    this.#o = {
      maxAttempts: 5,
      baseDelayMs: 250,
      maxDelayMs: 8000,
      timeoutMs: 10_000,
      expirySeconds: 120,
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

  /** Signs a fresh request and POSTs it. Returns the raw (unverified) response body. */
  async requestReveal(opening: RevealOpening): Promise<RevealResponse> {
    const o = this.#o;
    const player = await o.signer.getAddress();
    let last: Extract<Attempt, { kind: 'retry' }> | undefined;
    for (let attempt = 1; attempt <= o.maxAttempts; attempt++) {
      if (last) {
        const ceiling = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (attempt - 2));
        const jittered = o.random() * ceiling;
        await o.sleep(Math.min(o.maxDelayMs, Math.max(jittered, last.retryAfterMs ?? 0)));
      }
      // A fresh nonce per attempt: the dealer may have burned the last one before the answer was lost.
      const r = await this.#attempt(player, opening);
      if (r.kind === 'ok') return checkResponse(r.body, opening);
      last = r;
    }
    throw new DealerUnavailableError(o.maxAttempts, last!.status, last!.cause);
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

  async #attempt(player: string, opening: RevealOpening): Promise<Attempt> {
    const o = this.#o;
    const msg: RevealRequestMessage = {
      gameId: opening.gameId,
      player,
      turn: opening.turn,
      leaves: opening.leaves,
      blinding: opening.blinding,
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
      nonce: msg.nonce.toString(),
      expiry: msg.expiry,
      signature,
    });
    let res: Response;
    try {
      res = await o.fetch(`${o.baseUrl}/v1/games/${opening.gameId}/reveals`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (cause) {
      return { kind: 'retry', status: null, cause, retryAfterMs: null };
    }
    const text = await res.text().catch(() => '');
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
