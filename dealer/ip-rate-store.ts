/**
 * The store of the per-IP request budget (`@fastify/rate-limit`, config `http.rateLimit`): a fixed window per
 * client address, as the plugin's own LocalStore, except that each request gets a snapshot of its count. The
 * plugin reads the count after an await; LocalStore (11.2) hands every request the same mutable record, so of
 * concurrent requests from one address past the budget all saw the last count and all were refused, not only the
 * excess (review 31; `test/dealer/ops.test.ts`).
 */
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { DEFAULT_CACHE_LIMITS } from './cache-limits.ts';
import { Lru } from './lru.ts';

interface Window {
  count: number;
  /** Clock reading (ms) when the window opened. */
  start: number;
}

/**
 * One window per key, the least recently used dropped past `DEFAULT_CACHE_LIMITS.entries` keys (that client
 * starts a fresh window: a leniency that needs that many addresses active at once), each gone once it closed.
 */
export class SnapshotRateStore implements FastifyRateLimitStore {
  readonly #windows: Lru<string, Window>;
  readonly #now: () => number;

  constructor(_options?: unknown, now: () => number = Date.now) {
    this.#now = now;
    this.#windows = new Lru({ max: DEFAULT_CACHE_LIMITS.entries, now });
  }

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = this.#now();
    const open = this.#windows.get(key);
    const w = open && open.start + timeWindow > now ? open : { count: 0, start: now };
    w.count++;
    this.#windows.set(key, w, w.start + timeWindow);
    callback(null, { current: w.count, ttl: w.start + timeWindow - now });
  }

  /** Route-level budgets get a store of their own, as LocalStore's children do. */
  child(): FastifyRateLimitStore {
    return new SnapshotRateStore(undefined, this.#now);
  }
}
