import type { FastifyInstance } from 'fastify';
import type { ChainView } from '../chain/types.ts';
import type { DealerMetrics } from '../metrics.ts';
import type { DealerStore } from '../store/types.ts';

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    t = setTimeout(() => reject(new Error('timeout')), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(t);
  }
}

interface Health {
  ok: boolean;
  chain: boolean;
  db: boolean;
  headBlock: number | null;
}

/** How long one health check answers every `/health` request: probes hit it often, and nothing limits them. */
export const HEALTH_TTL_MS = 1000;

/**
 * `GET /health` (chain reachable, DB writable, head block) and `GET /metrics` (Prometheus). A health check writes
 * to the database and reads the chain, so it runs at most once a second however often `/health` is asked (the
 * route is not rate-limited: a load balancer's probes must never be refused); concurrent asks share it.
 */
export function opsRoutes(chain: ChainView, store: DealerStore, metrics: DealerMetrics, now = Date.now) {
  let last: { at: number; health: Promise<Health> } | null = null;
  const check = async (): Promise<Health> => {
    const [head, db] = await Promise.allSettled([
      withTimeout(chain.headBlock(), 2000),
      withTimeout(store.ping(), 2000),
    ]);
    return {
      ok: head.status === 'fulfilled' && db.status === 'fulfilled',
      chain: head.status === 'fulfilled',
      db: db.status === 'fulfilled',
      headBlock: head.status === 'fulfilled' ? head.value : null,
    };
  };
  const health = () => {
    if (!last || now() - last.at >= HEALTH_TTL_MS) last = { at: now(), health: check() };
    return last.health;
  };
  return async (app: FastifyInstance) => {
    app.get(
      '/health',
      {
        config: { rateLimit: false },
        schema: {
          summary: 'Liveness: chain reachable, DB writable',
          response: {
            '2xx': {
              type: 'object',
              properties: {
                ok: { type: 'boolean' },
                chain: { type: 'boolean' },
                db: { type: 'boolean' },
                headBlock: { type: ['integer', 'null'] },
              },
            },
            '5xx': {
              type: 'object',
              properties: {
                ok: { type: 'boolean' },
                chain: { type: 'boolean' },
                db: { type: 'boolean' },
                headBlock: { type: ['integer', 'null'] },
              },
            },
          },
        },
      },
      async (_req, reply) => {
        const body = await health();
        return reply.status(body.ok ? 200 : 503).send(body);
      },
    );
    app.get(
      '/metrics',
      {
        config: { rateLimit: false },
        schema: { summary: 'Prometheus metrics', response: { 200: { type: 'string' } } },
      },
      async (_req, reply) => {
        return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
      },
    );
  };
}
