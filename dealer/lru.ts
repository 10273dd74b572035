/**
 * The dealer's one bounded cache: a Map kept in recency order (a Map iterates in insertion order, so
 * deleting and re-inserting a key moves it to the end), with at most `max` entries and, optionally, an
 * expiry per entry. Every process-lifetime cache of the dealer is one of these, so none grows for the
 * life of the process and none is emptied wholesale when full.
 */

export interface LruOptions {
  /** Most entries held (≥ 1). */
  max: number;
  /** Default lifetime of an entry, in the clock's unit; none: entries expire only when `set` says so. */
  ttl?: number;
  /** The clock (default `Date.now`, ms); `ttl` and `set`'s `expiresAt` are in its unit. */
  now?: () => number;
  /**
   * What a new key meets when the cache is full of live entries: `evict` (default) drops the least recently
   * used one; `refuse` keeps every live entry and `set` returns false. `refuse` is for memories that must not
   * forget, e.g. nonces that can still be replayed: once full, new requests are refused instead.
   */
  whenFull?: 'evict' | 'refuse';
}

interface Entry<V> {
  value: V;
  /** Expires when the clock reaches this; Infinity: never. */
  expiresAt: number;
}

export class Lru<K, V> {
  readonly max: number;
  readonly #map = new Map<K, Entry<V>>();
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #refuse: boolean;
  /** No entry expires before this (a lower bound), so a full `refuse` cache sweeps only when one can have. */
  #soonest = Number.POSITIVE_INFINITY;
  #evictions = 0;

  constructor(o: LruOptions) {
    if (!Number.isInteger(o.max) || o.max < 1)
      throw new RangeError(`Lru max must be an integer ≥ 1, got ${o.max}`);
    if (o.ttl !== undefined && !(o.ttl > 0)) throw new RangeError(`Lru ttl must be positive, got ${o.ttl}`);
    this.max = o.max;
    this.#ttl = o.ttl ?? Number.POSITIVE_INFINITY;
    this.#now = o.now ?? Date.now;
    this.#refuse = o.whenFull === 'refuse';
  }

  get size(): number {
    return this.#map.size;
  }

  /** Live entries dropped to make room so far (expired ones do not count). */
  get evictions(): number {
    return this.#evictions;
  }

  /** The value, or undefined if absent or expired; a hit counts as a use (moves the key to most recent). */
  get(key: K): V | undefined {
    const e = this.#map.get(key);
    if (e === undefined) return undefined;
    if (e.expiresAt <= this.#now()) {
      this.#map.delete(key);
      return undefined;
    }
    this.#map.delete(key);
    this.#map.set(key, e);
    return e.value;
  }

  /** The value, or undefined if absent or expired, without counting as a use. */
  peek(key: K): V | undefined {
    const e = this.#map.get(key);
    if (e === undefined) return undefined;
    if (e.expiresAt <= this.#now()) {
      this.#map.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Whether a live entry is held; like `get`, a hit counts as a use. */
  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /**
   * Stores `value` as the most recently used, until `expiresAt` (default: now + ttl). Returns false only for
   * a new key in a full `refuse` cache (nothing stored); an `evict` cache drops its least recently used entry.
   */
  set(key: K, value: V, expiresAt: number = this.#now() + this.#ttl): boolean {
    if (this.#map.delete(key) || this.#map.size < this.max || this.#makeRoom()) {
      this.#map.set(key, { value, expiresAt });
      if (expiresAt < this.#soonest) this.#soonest = expiresAt;
      return true;
    }
    return false;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  /** Forgets everything (an invalidation, e.g. a new block: never a way to make room). */
  clear(): void {
    this.#map.clear();
    this.#soonest = Number.POSITIVE_INFINITY;
  }

  /** Drops every expired entry; returns how many. */
  prune(): number {
    const now = this.#now();
    let dropped = 0;
    let soonest = Number.POSITIVE_INFINITY;
    for (const [k, e] of this.#map) {
      if (e.expiresAt <= now) {
        this.#map.delete(k);
        dropped++;
      } else if (e.expiresAt < soonest) soonest = e.expiresAt;
    }
    this.#soonest = soonest;
    return dropped;
  }

  /** Live values, least recently used first (a copy: the cache may change while the caller walks it). */
  values(): V[] {
    const now = this.#now();
    return [...this.#map.values()].filter((e) => e.expiresAt > now).map((e) => e.value);
  }

  /** Keys, least recently used first (a copy; expired ones included until pruned or touched). */
  keys(): K[] {
    return [...this.#map.keys()];
  }

  /**
   * Frees one slot in a full cache. `evict`: the least recently used entry goes (no sweep: a full cache must
   * not cost a scan per insert). `refuse`: only expired entries go, in one sweep, and only once one can have
   * expired; a sweep frees every expired entry, so its cost is shared by the inserts it makes room for.
   */
  #makeRoom(): boolean {
    const now = this.#now();
    if (this.#refuse) return this.#soonest <= now && this.prune() > 0;
    const oldest = this.#map.entries().next();
    if (oldest.done) return true; // unreachable: a full cache has a key (max ≥ 1)
    const [key, e] = oldest.value;
    this.#map.delete(key);
    if (e.expiresAt > now) this.#evictions++;
    return true;
  }
}
