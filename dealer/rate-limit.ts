import { DEFAULT_CACHE_LIMITS } from './cache-limits.ts';
import { Lru } from './lru.ts';

/** Per-player request budget: `perSecond` sustained, up to `burst` at once. */
export interface PlayerRateLimit {
  perSecond: number;
  burst: number;
}

/** The defaults (config `reveals.playerRateLimit`): a client retrying a lagging turn every 200 ms fits well within them. */
export const DEFAULT_PLAYER_RATE_LIMIT: PlayerRateLimit = { perSecond: 10, burst: 40 };

interface Bucket {
  tokens: number;
  /** Clock reading (ms) when `tokens` was computed. */
  at: number;
}

/**
 * Token buckets keyed by verified player address. Callers take a token only after authenticating the
 * request (signature or session MAC) and checking the signer plays the game, so a forger cannot spend a
 * victim's budget by claiming its address, and only players of dealt games ever get a bucket. A bucket
 * that has refilled is indistinguishable from a fresh one, so each expires once idle long enough to refill.
 * Beyond `maxEntries` buckets (config `caches.entries`) the least recently used goes: that player starts
 * again from a full bucket, a leniency that needs that many players active within one refill time.
 */
export class PlayerRateLimiter {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  /** Milliseconds for an empty bucket to refill: idle that long, a bucket is as good as absent. */
  readonly #refillMs: number;
  readonly #buckets: Lru<string, Bucket>;

  constructor(
    limit: PlayerRateLimit,
    now: () => number = Date.now,
    maxEntries = DEFAULT_CACHE_LIMITS.entries,
  ) {
    if (!(limit.perSecond > 0) || !Number.isFinite(limit.perSecond)) {
      throw new RangeError('playerRateLimit.perSecond must be a positive number');
    }
    if (!Number.isInteger(limit.burst) || limit.burst < 1) {
      throw new RangeError('playerRateLimit.burst must be a positive integer');
    }
    this.#rate = limit.perSecond / 1000;
    this.#burst = limit.burst;
    this.#now = now;
    this.#refillMs = Math.ceil(limit.burst / this.#rate);
    this.#buckets = new Lru({ max: maxEntries, now });
  }

  /** Takes one token for `player`: 0 when allowed, else the seconds until one is available (for Retry-After). */
  take(player: string): number {
    const now = this.#now();
    let b = this.#buckets.get(player);
    if (!b) b = { tokens: this.#burst, at: now };
    else {
      b.tokens = Math.min(this.#burst, b.tokens + Math.max(0, now - b.at) * this.#rate);
      b.at = now;
    }
    this.#buckets.set(player, b, now + this.#refillMs);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.#rate / 1000));
  }

  get size(): number {
    return this.#buckets.size;
  }
}
