import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per app instance, so tests can build several apps in one process. */
export interface DealerMetrics {
  registry: Registry;
  revealsServed: Counter;
  gamesDealt: Counter;
  /** Reveal disputes answered on-chain (each one a player saying it was not served). */
  disputesAnswered: Counter;
  /** Audit zone challenges answered on-chain (someone said a zone of the posted tree is not Gen(seed)). */
  zoneChallengesAnswered: Counter;
  /** Games this dealer closed on-chain, by call: `cancelMissed` (a ceremony missed) or `settle` (audit over). */
  gamesClosed: Counter<'call'>;
  /** Wei this dealer withdrew from the game contract (its bonds and deposits back). */
  creditWithdrawn: Counter;
  /** Map-proof parts finished per game (zones + 1 root proof when complete). */
  mapProofDone: Gauge<'game'>;
  /** Chunk jobs this dealer queued (`mapProof.queue`) and what became of them: completed, failed, rejected. */
  mapChunkJobs: Counter<'outcome'>;
  /** Chunk jobs in the queue by state, read from pg-boss at each scrape (its counts of the last supervision pass). */
  mapChunkJobsNow: Gauge<'state'>;
  /** Sets the source of that gauge (the dealer's chunk queue). */
  watchChunkJobs(source: () => Promise<Record<string, number>>): void;
  requestSeconds: Histogram<'method' | 'route' | 'status'>;
  /** Entries per bounded cache (dealer/lru.ts), read from the `watchCaches` sources at each scrape. */
  cacheEntries: Gauge<'cache'>;
  /** Adds a source of cache sizes (name → entries) to the gauge. */
  watchCaches(source: () => Record<string, number>): void;
  /** Every source's sizes, merged. */
  cacheSizes(): Record<string, number>;
}

export function createMetrics(): DealerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'shroud_dealer_' });
  const sources: (() => Record<string, number>)[] = [];
  const cacheSizes = (): Record<string, number> => Object.assign({}, ...sources.map((s) => s()));
  let chunkJobs: (() => Promise<Record<string, number>>) | undefined;
  return {
    watchChunkJobs: (source) => {
      chunkJobs = source;
    },
    watchCaches: (source) => {
      sources.push(source);
    },
    cacheSizes,
    cacheEntries: new Gauge({
      name: 'shroud_dealer_cache_entries',
      help: 'Entries held per bounded in-memory cache (config caches: each stays at or below its bound)',
      labelNames: ['cache'],
      registers: [registry],
      collect() {
        for (const [cache, n] of Object.entries(cacheSizes())) this.set({ cache }, n);
      },
    }),
    registry,
    revealsServed: new Counter({
      name: 'shroud_dealer_reveals_served_total',
      help: 'Reveal requests answered with tiles',
      registers: [registry],
    }),
    gamesDealt: new Counter({
      name: 'shroud_dealer_games_dealt_total',
      help: 'Games whose root this dealer posted',
      registers: [registry],
    }),
    disputesAnswered: new Counter({
      name: 'shroud_dealer_disputes_answered_total',
      help: 'Reveal disputes this dealer answered on-chain',
      registers: [registry],
    }),
    zoneChallengesAnswered: new Counter({
      name: 'shroud_dealer_zone_challenges_answered_total',
      help: 'Audit zone challenges this dealer answered on-chain',
      registers: [registry],
    }),
    gamesClosed: new Counter({
      name: 'shroud_dealer_games_closed_total',
      help: 'Games this dealer closed on-chain after a deadline (cancelMissed, settle)',
      labelNames: ['call'],
      registers: [registry],
    }),
    creditWithdrawn: new Counter({
      name: 'shroud_dealer_credit_withdrawn_wei_total',
      help: 'Wei this dealer withdrew from the game contract: bonds and dispute deposits of closed games',
      registers: [registry],
    }),
    mapProofDone: new Gauge({
      name: 'shroud_dealer_map_proof_parts',
      help: 'Finished parts of the map proof of each game being proven (zone chunk proofs, then the root proof)',
      labelNames: ['game'],
      registers: [registry],
    }),
    mapChunkJobs: new Counter({
      name: 'shroud_dealer_map_chunk_jobs_total',
      help: 'Map-proof chunk jobs this dealer put on the job queue (outcome queued), and how they ended: completed (proof verified), failed (out of tries), rejected (a proof that does not verify)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    mapChunkJobsNow: new Gauge({
      name: 'shroud_dealer_map_chunk_jobs',
      help: 'Map-proof chunk jobs in the job queue by state (queued, active, failed and not yet deleted), as of the last supervision pass',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        if (!chunkJobs) return;
        try {
          for (const [state, n] of Object.entries(await chunkJobs())) this.set({ state }, n);
        } catch {
          // The database is unreachable: the scrape still answers, with the last counts.
        }
      },
    }),
    requestSeconds: new Histogram({
      name: 'shroud_dealer_http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
  };
}
