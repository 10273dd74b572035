import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Hasher } from '../core/index.ts';
import { MAX_SESSION_SECONDS } from '../core/reveal-session.ts';
import type { ArtifactCatalog } from './artifacts.ts';
import { type CacheLimits, cacheLimits } from './cache-limits.ts';
import type { ChainHead } from './chain/head.ts';
import type { ChainView } from './chain/types.ts';
import { SnapshotRateStore } from './ip-rate-store.ts';
import type { LobbyService } from './lobby.ts';
import type { MapProver } from './mapproof/service.ts';
import type { MapCache } from './maps.ts';
import type { DealerMetrics } from './metrics.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { DEFAULT_PLAYER_RATE_LIMIT, type PlayerRateLimit, PlayerRateLimiter } from './rate-limit.ts';
import { type RevealDeps, RevealService } from './reveals.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { lobbyRoutes } from './routes/lobbies.ts';
import { mapProofRoutes } from './routes/mapproof.ts';
import { opsRoutes } from './routes/ops.ts';
import { playRoutes } from './routes/play.ts';
import { receiptRoutes } from './routes/receipts.ts';
import { revealRoutes } from './routes/reveals.ts';
import { viewerRoutes } from './routes/viewer.ts';
import type { DealerStore } from './store/types.ts';

export interface HttpOptions {
  bodyLimitBytes: number;
  corsOrigins: string[];
  rateLimit: { max: number; timeWindowMs: number };
  docs: boolean;
  /** Reverse proxies whose `X-Forwarded-For` is believed (dealer/config.ts `http.trustProxy`); none by default. */
  trustProxy?: string[];
  maxExpirySeconds: number;
  /** Longest reveal session, seconds; defaults to MAX_SESSION_SECONDS (1 h). */
  maxSessionSeconds?: number;
  /**
   * Per verified player (after its signature or session MAC checked out), across the reveal, session,
   * session-reveal and receipt routes; over budget is a 429 `rate-limited` naming `player`. Defaults to
   * DEFAULT_PLAYER_RATE_LIMIT. (`rateLimit` above is per client IP, before any check.)
   */
  playerRateLimit?: PlayerRateLimit;
  /**
   * Longest time a client may take to send a whole request, headers and body (default 30 s), and to leave a
   * connection idle, e.g. not reading a response (default 120 s): one slow socket each would otherwise hold a
   * connection (and an artifact's file handle) forever, and a few thousand of them take the dealer offline.
   */
  requestTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/** Defaults of `requestTimeoutMs` and `idleTimeoutMs`. */
export const REQUEST_TIMEOUT_MS = 30_000;
export const IDLE_TIMEOUT_MS = 120_000;

/** Everything the HTTP side needs, injected so tests can swap the chain, the store and the clock. */
export interface AppDeps {
  h: Hasher;
  chain: ChainView;
  store: DealerStore;
  maps: MapCache;
  metrics: DealerMetrics;
  chainId: bigint;
  logger: Logger;
  http: HttpOptions;
  /** Unix seconds; defaults to the wall clock. */
  now?: () => number;
  /** Milliseconds, for the per-player token buckets; defaults to Date.now. */
  nowMs?: () => number;
  /**
   * The head block the chain watcher publishes each tick (main.ts shares one): the reveal service caches
   * "no play commitment yet" refusals and the `playCommitment` view's answers until it changes. Without it
   * neither is cached.
   */
  head?: ChainHead;
  /** Serves the ZK map proofs when the operator enabled them. */
  mapProver?: MapProver;
  /** Serves the proving artifacts (`/v1/artifacts`) when the artifacts folder exists. */
  artifacts?: ArtifactCatalog;
  /** The lobby routes, when the operator configured lobbies (dealer/lobby.ts). */
  lobbies?: LobbyService;
  /** Overrides the reveal signature checker (diagnostics only; never from config). */
  signatures?: RevealDeps['signatures'];
  /**
   * Bounds of the in-memory caches (config `caches`), defaults for those not given. The map cache and the
   * store are built by the caller, with theirs.
   */
  caches?: Partial<CacheLimits>;
  /** Where the web client's built files are (`GET /play/`); default build/web/play, built on first request. */
  playDir?: string;
}

/** Pino redaction: belt and braces, since no code path should put these in a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'masterSecret',
  'seed',
  'shares',
  'dealerKey',
  'sealSecretKey',
  'masterKey',
  'txKey',
  'keys',
  '*.masterSecret',
  '*.seed',
  '*.shares',
  '*.dealerKey',
  '*.sealSecretKey',
  '*.masterKey',
  '*.txKey',
];

export async function buildApp(d: AppDeps): Promise<FastifyInstance> {
  const requestTimeout = d.http.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    loggerInstance: d.logger as FastifyBaseLogger,
    bodyLimit: d.http.bodyLimitBytes,
    // Behind a TLS proxy every client shares the proxy's address: the per-IP limit must key on the forwarded one.
    trustProxy: d.http.trustProxy?.length ? d.http.trustProxy : false,
    // Fastify's defaults are 0 (no limit) for both; Node checks the request timeout every
    // connectionsCheckingInterval, so that is tied to it.
    requestTimeout,
    connectionTimeout: d.http.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
    http: {
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.floor(requestTimeout / 4))),
    },
    // Wrong types are errors, never silently coerced; unknown fields are refused, not stripped.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });
  // JSON only: anything else is a 415 naming the content type, not a confusing schema error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  errorsPlugin(app);

  app.addHook('onResponse', async (req, reply) => {
    d.metrics.requestSeconds
      .labels(req.method, req.routeOptions.url ?? 'unmatched', String(reply.statusCode))
      .observe(reply.elapsedTime / 1000);
  });

  await app.register(cors, {
    origin: d.http.corsOrigins.includes('*') ? true : d.http.corsOrigins.length ? d.http.corsOrigins : false,
  });
  await app.register(rateLimit, {
    global: true,
    max: d.http.rateLimit.max,
    timeWindow: d.http.rateLimit.timeWindowMs,
    // Each request's count is its own (dealer/ip-rate-store.ts): only the excess of a burst is refused.
    store: SnapshotRateStore,
  });

  if (d.http.docs) {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Shroud dealer',
          version: '1',
          description:
            'Serves the tiles behind opened reveal commitments and the proving artifacts (content-addressed by SHA-256); ' +
            'seats players in lobbies and creates their games.',
        },
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  }

  const caches = cacheLimits(d.caches);
  const reveals = new RevealService({
    h: d.h,
    chain: d.chain,
    store: d.store,
    maps: d.maps,
    chainId: d.chainId,
    maxExpirySeconds: d.http.maxExpirySeconds,
    maxSessionSeconds: Math.min(d.http.maxSessionSeconds ?? MAX_SESSION_SECONDS, MAX_SESSION_SECONDS),
    now: d.now ?? (() => Math.floor(Date.now() / 1000)),
    onServed: () => d.metrics.revealsServed.inc(),
    signatures: d.signatures,
    head: d.head,
    caches,
    limiter: new PlayerRateLimiter(
      d.http.playerRateLimit ?? DEFAULT_PLAYER_RATE_LIMIT,
      d.nowMs ?? Date.now,
      caches.entries,
    ),
  });
  d.metrics.watchCaches(() => ({
    maps: d.maps.size,
    ...d.store.cacheSizes?.(),
    ...reveals.cacheSizes(),
    ...d.mapProver?.cacheSizes(),
  }));
  await app.register(revealRoutes(reveals));
  await app.register(receiptRoutes(reveals));
  const pruner = setInterval(() => reveals.pruneSessions(), 60_000);
  pruner.unref();
  app.addHook('onClose', async () => clearInterval(pruner));
  await app.register(opsRoutes(d.chain, d.store, d.metrics, d.nowMs ?? Date.now));
  if (d.mapProver) await app.register(mapProofRoutes(d.store, d.mapProver));
  if (d.artifacts) await app.register(artifactRoutes(d.artifacts));
  if (d.lobbies) await app.register(lobbyRoutes(d.lobbies));
  await app.register(viewerRoutes());
  await app.register(playRoutes(d.playDir));
  return app;
}
