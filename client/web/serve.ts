/**
 * `npm run play:web`: serves the web client (built by `buildPlayPage`, rebuilt with `--build`) on this machine
 * and prints the address to open, carrying the dealer and chain it plays against. The dealer serves the same
 * page under its own `/play/`; this is for a player who runs the page locally (the dealer must allow this
 * origin: its `http.corsOrigins` has http://127.0.0.1:5173 and http://localhost:5173 by default).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { cliArgs, intFlag, UsageError } from '../../lib/cli.ts';
import {
  buildPlayPage,
  DEFAULT_PLAY_DIR,
  mapProofBuildLine,
  mapProofRefusedWarning,
  PLAY_FILES,
  PLAY_SECURITY_HEADERS,
} from './build.ts';

const USAGE = `usage: npm run play:web -- --dealer URL [--rpc URL] [--contract 0x…] [--port N] [--host H] [--build]
       npm run play:web -- --build-only [--dir DIR]

Serves the Shroud web client and prints the address to open in a browser: pick a lobby, connect a wallet
(a browser wallet, or on the local chain 31337 a key generated in the page) and play; proofs are made in the
browser. The page is built into build/web/play/ when missing.

  --dealer URL     the dealer (its lobbies, tiles and proving artifacts)
  --rpc URL        the chain's JSON-RPC (optional with a browser wallet; required for a generated key)
  --contract 0x…   pin the game contract (the dealer's lobbies must be on it)
  --port N         default 5173 (the dealer's default CORS origins allow it)
  --host H         default 127.0.0.1
  --dir DIR        where the built page is (default build/web/play)
  --build          rebuild the page first
  --build-only     build the page and exit`;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

const url = (flag: string, v: string) => {
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return v.replace(/\/+$/, '');
  } catch {}
  throw new UsageError(`--${flag} ${v}: not an http(s) URL`);
};

const args = cliArgs(
  {
    name: 'play:web',
    usage: USAGE,
    options: {
      dealer: { type: 'string' },
      rpc: { type: 'string' },
      contract: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      dir: { type: 'string' },
      build: { type: 'boolean' },
      'build-only': { type: 'boolean' },
    },
  },
  ({ values: v }) => {
    const buildOnly = v['build-only'] ?? false;
    if (!buildOnly && !v.dealer) throw new UsageError('--dealer is required (see --help)');
    if (v.contract !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(v.contract))
      throw new UsageError(`--contract ${v.contract}: not an address (0x + 40 hex digits)`);
    return {
      dealer: v.dealer ? url('dealer', v.dealer) : null,
      rpc: v.rpc ? url('rpc', v.rpc) : null,
      contract: v.contract ?? null,
      port: v.port === undefined ? 5173 : intFlag('port', v.port, 0, 65535),
      host: v.host ?? '127.0.0.1',
      dir: path.resolve(v.dir ?? DEFAULT_PLAY_DIR),
      build: (v.build ?? false) || buildOnly,
      buildOnly,
    };
  },
);

try {
  if (args.build || !existsSync(path.join(args.dir, 'index.html'))) {
    const b = await buildPlayPage(args.dir);
    console.log(
      `built ${b.dir}: play.js ${b.bytes['play.js']} bytes, worker.js ${b.bytes['worker.js']} bytes`,
    );
    console.log(mapProofBuildLine(b));
    const warning = mapProofRefusedWarning(b);
    if (warning) console.error(`play:web: ${warning}`);
  }
} catch (e) {
  console.error(`play:web: ${(e as Error).message.split('\n')[0]}`);
  process.exit(1);
}
if (!args.buildOnly) {
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/+/, '') || 'index.html';
    if (req.method !== 'GET' || !(PLAY_FILES as readonly string[]).includes(name)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res
      .writeHead(200, {
        'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        ...PLAY_SECURITY_HEADERS,
      })
      .end(readFileSync(path.join(args.dir, name)));
  });
  server.on('error', (e) => {
    console.error(`play:web: --port ${args.port}: ${e.message}`);
    process.exit(1);
  });
  server.listen(args.port, args.host, () => {
    const a = server.address();
    const port = typeof a === 'object' && a ? a.port : args.port;
    const q = new URLSearchParams({ dealer: args.dealer! });
    if (args.rpc) q.set('rpc', args.rpc);
    if (args.contract) q.set('contract', args.contract);
    console.log(`open http://${args.host}:${port}/?${q} (Ctrl-C stops)`);
  });
}
