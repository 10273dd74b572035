import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VIEWER_DIR, VIEWER_FILES } from '../../client/viewer/asset.ts';
import { DealerError } from '../errors.ts';

/** One served file: its bytes and their ETag. */
interface Asset {
  body: Buffer;
  etag: string;
}

export interface ViewerRouteOptions {
  /** Folder of the built viewer (default build/web/viewer, written by `npm run build:web`). */
  dir?: string;
  /** Builds the viewer into a folder; called at start-up only when the built page is missing. */
  build?: (dir: string) => Promise<unknown>;
}

/**
 * esbuild is a development dependency: the build module is loaded only when the built page is missing
 * (a development checkout), by a computed specifier so production code never depends on it. A production
 * install ships build/web instead (`npm run build:web`).
 */
const BUILD_MODULE = '../../client/viewer/build.ts';
async function esbuildViewer(dir: string): Promise<unknown> {
  const m = (await import(BUILD_MODULE)) as typeof import('../../client/viewer/build.ts');
  return m.buildViewer(dir);
}

function asset(file: string): Asset {
  const body = readFileSync(file);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** The built page and module, built first if the page is missing. */
async function loadViewer(dir: string, build: (dir: string) => Promise<unknown>) {
  const files = [VIEWER_FILES.page, VIEWER_FILES.app].map((f) => join(dir, f));
  if (!files.every((f) => existsSync(f))) await build(dir);
  const [page, app] = files.map(asset) as [Asset, Asset];
  return { page, app };
}

function send(req: FastifyRequest, reply: FastifyReply, a: Asset, type: string, cache: string) {
  reply.header('etag', a.etag).header('cache-control', cache);
  if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
  return reply.type(type).send(a.body);
}

/**
 * `GET /viewer` and `GET /viewer/app.js`: the fogged-map viewer, built once (never per request). The page
 * carries no game data: the player loads the replay their client wrote, so the dealer learns nothing of
 * anyone's view (P4, P6). The page is revalidated by ETag; the module, whose URL carries its hash, is
 * cached for a year. Without a built viewer (and no way to build one) both answer 503 and the rest of the
 * dealer runs on.
 */
export function viewerRoutes(o: ViewerRouteOptions = {}) {
  const dir = o.dir ?? VIEWER_DIR;
  return async (app: FastifyInstance) => {
    let viewer: Awaited<ReturnType<typeof loadViewer>> | null = null;
    let missing = '';
    try {
      viewer = await loadViewer(dir, o.build ?? esbuildViewer);
    } catch (e) {
      missing = `the viewer is not built in ${dir} and could not be built here (${(e as Error).message.split('\n')[0]}): run npm run build:web`;
      app.log.error(missing);
    }
    const unavailable = () => {
      throw new DealerError(503, 'viewer-unavailable', missing);
    };
    app.get(
      '/viewer',
      { schema: { summary: 'The fogged-map viewer page (loads a replay file client-side)' } },
      async (req, reply) =>
        viewer ? send(req, reply, viewer.page, 'text/html; charset=utf-8', 'no-cache') : unavailable(),
    );
    app.get(
      `/viewer/${VIEWER_FILES.app}`,
      { schema: { summary: "The viewer's module (versioned by the page's ?v=hash)" } },
      async (req, reply) =>
        viewer
          ? send(
              req,
              reply,
              viewer.app,
              'text/javascript; charset=utf-8',
              'public, max-age=31536000, immutable',
            )
          : unavailable(),
    );
  };
}
