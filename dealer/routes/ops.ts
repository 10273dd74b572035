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

/** `GET /health` (chain reachable, DB writable, head block) and `GET /metrics` (Prometheus). */
export function opsRoutes(chain: ChainView, store: DealerStore, metrics: DealerMetrics) {
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
        const [head, db] = await Promise.allSettled([
          withTimeout(chain.headBlock(), 2000),
          withTimeout(store.ping(), 2000),
        ]);
        const body = {
          ok: head.status === 'fulfilled' && db.status === 'fulfilled',
          chain: head.status === 'fulfilled',
          db: db.status === 'fulfilled',
          headBlock: head.status === 'fulfilled' ? head.value : null,
        };
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
