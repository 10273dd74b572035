import type { FastifyInstance } from 'fastify';
import { viewerHtml } from '../../client/viewer/write.ts';

/**
 * `GET /viewer`: the fogged-map viewer page. It carries no game data: the player loads the replay their
 * client wrote, so the dealer learns nothing of anyone's view (P4, P6).
 */
export function viewerRoutes() {
  const page = viewerHtml(null);
  return async (app: FastifyInstance) => {
    app.get(
      '/viewer',
      { schema: { summary: 'The fogged-map viewer (loads a replay file client-side)' } },
      async (_req, reply) => reply.type('text/html; charset=utf-8').send(page),
    );
  };
}
