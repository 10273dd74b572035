/**
 * The bounds of the dealer's in-memory caches (config `caches`, SHROUD_CACHE_*), each an Lru
 * (dealer/lru.ts). A miss only costs a rebuild or a store read: every cache is a copy of something
 * durable (the store, the chain) or of something that can be recomputed, except the live reveal
 * sessions, whose loss costs a client one new signature. Sizes are entries; the notes give their
 * memory as measured (bench: `npm run bench -- soak`).
 */
export interface CacheLimits {
  /** Dealt maps (tree and every tile's served entry). */
  maps: number;
  /** Per-game answers: confirmed game records, map-proof progress. */
  games: number;
  /** Serialized answers of verified openings (per game, player, turn, leaves and blinding). */
  openings: number;
  /** Players' public keys with their precomputed multiples (the signed route's fast verify). */
  signers: number;
  /** Live reveal sessions (each with its MAC key and its burned nonces). */
  sessions: number;
  /**
   * Small per-key memos: on-chain play commitments and refusals, served and receipted markers per
   * (game, player, turn), per-player rate buckets, the SQLite store's memo of burned nonces.
   */
  entries: number;
}

export const DEFAULT_CACHE_LIMITS: Readonly<CacheLimits> = {
  // More than the games a dealer serves at once, so live games never rebuild: ~1.2 MB each on duel
  // (~75 MB in all), ~7 MB on standard (~430 MB: lower it on a small host). A miss rebuilds the map from
  // the store, synchronously: ~0.2 s on duel, ~1.5 s on standard.
  maps: 64,
  // A game record (~1 KB) and its map-proof progress: a few MB.
  games: 4096,
  // An answer is ~1 KB per tile: ~8 KB for 8 tiles, ~33 KB at duel's 32 (≤ 135 MB). Re-fetches come from
  // the latest turn or two of the players online, so a few thousand cover them.
  openings: 4096,
  // ~0.55 MB each (window-8 tables): ~140 MB. A miss is one public-key recovery (~1 ms) instead of a
  // verify (~0.3 ms), and the key goes back in the cache.
  signers: 256,
  // Sessions last at most an hour and a player keeps at most 4 per game; ~1 KB each plus its nonces
  // (bounded per session; the per-player rate limit keeps them to rate × request lifetime).
  sessions: 10_000,
  // ~100–200 B each: ≤ ~20 MB per memo. Room for every turn of thousands of live games.
  entries: 100_000,
};

/** The defaults, overridden by what the config sets. */
export function cacheLimits(set: Partial<CacheLimits> = {}): CacheLimits {
  return { ...DEFAULT_CACHE_LIMITS, ...set };
}
