import type { FastifyInstance, FastifyReply } from 'fastify';
import { ARTIFACT_HEX_RE, type ArtifactKind } from '../../core/artifacts.ts';
import { ArtifactCatalog } from '../artifacts.ts';
import { DealerError } from '../errors.ts';
import { errorSchema } from '../plugins/schemas.ts';

/** Where the routes live; index URLs are absolute paths under it. */
export const ARTIFACTS_PREFIX = '/v1/artifacts/';

/** A URL names its content, which therefore never changes: cache for a year, never revalidate. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const CONTENT_TYPE: Record<ArtifactKind, string> = {
  wasm: 'application/wasm',
  zkey: 'application/octet-stream',
};

const hashHex = { type: 'string', pattern: '^0x[0-9a-f]{64}$' } as const;
const indexRow = {
  type: 'object',
  properties: {
    ruleset: { type: ['string', 'null'], description: 'null for the ruleset-independent seal circuit' },
    rulesetHash: { type: ['string', 'null'] },
    circuit: { type: 'string' },
    zkey: { ...hashHex, description: 'SHA-256 of the zkey (the registry’s artifactsOf(verifier).zkey)' },
    wasm: { ...hashHex, description: 'SHA-256 of the witness-generator wasm' },
    zkeyBytes: { type: 'integer' },
    wasmBytes: { type: 'integer' },
    zkeyUrl: { type: 'string' },
    wasmUrl: { type: 'string' },
  },
} as const;

/** `<64 lowercase hex>.<zkey|wasm>`, or a 400 naming the part at fault (`hash` first, then `kind`). */
function parseFileName(file: string): { hash: `0x${string}`; kind: ArtifactKind } {
  const dot = file.lastIndexOf('.');
  const hex = dot < 0 ? file : file.slice(0, dot);
  const ext = dot < 0 ? '' : file.slice(dot + 1);
  if (!ARTIFACT_HEX_RE.test(hex))
    throw new DealerError(400, 'invalid-request', 'hash: expected 64 lowercase hex digits (SHA-256)', 'hash');
  if (ext !== 'zkey' && ext !== 'wasm')
    throw new DealerError(400, 'invalid-request', 'kind: expected the extension .zkey or .wasm', 'kind');
  return { hash: `0x${hex}`, kind: ext };
}

/** If-None-Match matches a strong ETag under the weak comparison RFC 9110 §13.1.2 prescribes (or `*`). */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

function cacheHeaders(reply: FastifyReply, etag: string): void {
  reply.header('cache-control', IMMUTABLE).header('etag', etag).header('x-content-type-options', 'nosniff');
}

/**
 * `GET /v1/artifacts`: the index of served artifacts; `GET|HEAD /v1/artifacts/<sha256>.zkey|.wasm`: the file
 * whose SHA-256 that is, streamed, immutable (strong ETag = the hash, If-None-Match → 304). Clients check
 * every download against the hashes the VerifierRegistry holds, so any host (this one, a CDN fed by
 * `npm run artifacts:export`) is as good as another.
 */
export function artifactRoutes(catalog: ArtifactCatalog) {
  return async (app: FastifyInstance) => {
    app.get(
      '/v1/artifacts',
      {
        schema: {
          summary: 'Index of the proving artifacts served here (content-addressed by SHA-256)',
          response: { 200: { type: 'array', items: indexRow } },
        },
      },
      async (_req, reply) => {
        // The index changes when the operator rebuilds; the files it points to never do.
        reply.header('cache-control', 'no-cache');
        return catalog.index(ARTIFACTS_PREFIX);
      },
    );

    // GET and HEAD in one route: Fastify's automatic HEAD would open the file and read it all to discard it.
    app.route<{ Params: { file: string } }>({
      method: ['GET', 'HEAD'],
      url: '/v1/artifacts/:file',
      schema: {
        summary: 'A proving artifact by content hash: <sha256>.zkey or <sha256>.wasm (GET or HEAD)',
        description:
          'Streams the file whose SHA-256 is the hash in the URL, with Cache-Control immutable, a strong ' +
          'ETag (the hash) and If-None-Match → 304. Check it against VerifierRegistry.artifactsOf(verifier).',
        params: {
          type: 'object',
          required: ['file'],
          properties: { file: { type: 'string', maxLength: 80 } },
        },
        response: { '4xx': errorSchema },
      },
      handler: async (req, reply) => {
        const { hash, kind } = parseFileName(req.params.file);
        const etag = `"${hash.slice(2)}"`;
        if (!catalog.lookup(hash, kind))
          throw new DealerError(404, 'not-found', `no ${kind} with SHA-256 ${hash} here`, 'hash');
        if (ifNoneMatch(req.headers['if-none-match'], etag)) {
          cacheHeaders(reply, etag);
          return reply.status(304).send();
        }
        const opened = await catalog.open(hash, kind);
        if (!opened) throw new DealerError(404, 'not-found', `no ${kind} with SHA-256 ${hash} here`, 'hash');
        cacheHeaders(reply, etag);
        reply
          .header('content-type', CONTENT_TYPE[kind])
          .header('content-length', String(opened.file.size))
          .header('accept-ranges', 'none');
        if (req.method === 'HEAD') {
          await opened.handle.close();
          return reply.send();
        }
        return reply.send(ArtifactCatalog.stream(opened.handle));
      },
    });
  };
}
