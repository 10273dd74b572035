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
 * that has refilled is indistinguishable from a fresh one, so idle ones are dropped when the table grows.
 */
export class PlayerRateLimiter {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #maxEntries: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(limit: PlayerRateLimit, now: () => number = Date.now, maxEntries = 100_000) {
    if (!(limit.perSecond > 0) || !Number.isFinite(limit.perSecond)) {
      throw new RangeError('playerRateLimit.perSecond must be a positive number');
    }
    if (!Number.isInteger(limit.burst) || limit.burst < 1) {
      throw new RangeError('playerRateLimit.burst must be a positive integer');
    }
    this.#rate = limit.perSecond / 1000;
    this.#burst = limit.burst;
    this.#now = now;
    this.#maxEntries = maxEntries;
  }

  /** Takes one token for `player`: 0 when allowed, else the seconds until one is available (for Retry-After). */
  take(player: string): number {
    const now = this.#now();
    let b = this.#buckets.get(player);
    if (!b) {
      if (this.#buckets.size >= this.#maxEntries) this.#sweep(now);
      b = { tokens: this.#burst, at: now };
      this.#buckets.set(player, b);
    } else {
      b.tokens = Math.min(this.#burst, b.tokens + Math.max(0, now - b.at) * this.#rate);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.#rate / 1000));
  }

  get size(): number {
    return this.#buckets.size;
  }

  /** Drops buckets that have refilled (as good as absent); if too few have, the first-created half. */
  #sweep(now: number): void {
    const full = Math.ceil(this.#burst / this.#rate);
    for (const [k, b] of this.#buckets) if (now - b.at >= full) this.#buckets.delete(k);
    if (this.#buckets.size < this.#maxEntries) return;
    let drop = this.#buckets.size >> 1;
    for (const k of this.#buckets.keys()) {
      if (drop-- <= 0) break;
      this.#buckets.delete(k);
    }
  }
}
