import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import {
  buildPlayPage,
  DEFAULT_PLAY_DIR,
  mapProofBuildLine,
  PLAY_FILES,
  PLAY_SECURITY_HEADERS,
} from '../../client/web/build.ts';
import { DealerError } from '../errors.ts';

const TYPES: Record<(typeof PLAY_FILES)[number], string> = {
  'play.js': 'text/javascript; charset=utf-8',
  'worker.js': 'text/javascript; charset=utf-8',
  'play.css': 'text/css; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
};

/**
 * `GET /play/`: the web client (client/web/), static files built by `buildPlayPage` into `dir`. Like the viewer
 * it carries no game data: the page talks to this dealer's public routes and to the chain, and proves in the
 * player's browser. A missing build is made on the first request (esbuild, ~2 s), never at start-up, so a
 * dealer that nobody asks for the page never runs it; a dealer without esbuild answers 503 naming the fix.
 */
export function playRoutes(dir: string = DEFAULT_PLAY_DIR) {
  let building: Promise<void> | null = null;
  const ready = async (log: FastifyBaseLogger) => {
    if (existsSync(path.join(dir, 'index.html'))) return;
    building ??= buildPlayPage(dir)
      .then((b) => {
        // What the page checks map proofs with; keys found but refused (malformed, another ruleset's) are a warning.
        const line = mapProofBuildLine(b);
        if (Object.keys(b.mapProofRefused).length) log.warn(line);
        else log.info(line);
      })
      .finally(() => {
        building = null;
      });
    try {
      await building;
    } catch (e) {
      throw new DealerError(
        503,
        'play-not-built',
        `the web client is not built and could not be built here (${(e as Error).message.split('\n')[0]}): run npm run play:web -- --build-only`,
      );
    }
  };
  const send = async (reply: FastifyReply, file: (typeof PLAY_FILES)[number]) => {
    await ready(reply.log);
    return reply
      .type(TYPES[file])
      .header('cache-control', 'no-cache')
      .headers(PLAY_SECURITY_HEADERS)
      .send(readFileSync(path.join(dir, file)));
  };
  return async (app: FastifyInstance) => {
    // The page's files are relative to /play/: a bare /play keeps its query (dealer, rpc, …) on the way there.
    app.get('/play', { schema: { hide: true } }, async (req, reply) => {
      const q = req.url.indexOf('?');
      return reply.redirect(`/play/${q >= 0 ? req.url.slice(q) : ''}`, 302);
    });
    app.get(
      '/play/',
      { schema: { summary: 'The web client: play a game in the browser (proofs made in the page)' } },
      async (_req, reply) => send(reply, 'index.html'),
    );
    app.get<{ Params: { file: string } }>(
      '/play/:file',
      {
        schema: {
          hide: true,
          params: {
            type: 'object',
            required: ['file'],
            properties: { file: { type: 'string', maxLength: 32 } },
          },
        },
      },
      async (req, reply) => {
        const file = req.params.file as (typeof PLAY_FILES)[number];
        if (!PLAY_FILES.includes(file))
          throw new DealerError(404, 'not-found', `no /play/${req.params.file}`, 'file');
        return send(reply, file);
      },
    );
  };
}
