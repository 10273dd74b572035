/**
 * `buildPlayPage(outDir)`: the web client as static files — index.html, play.css, play.js (the page) and
 * worker.js (the prover worker) — bundled with esbuild for browsers. The dealer serves them under `/play`;
 * `npm run play:web` serves them locally. Node only (esbuild); nothing here runs in the page.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_CHAIN_ID, type TrustedGames } from './trust.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..', '..');
/** Where `npm run play:web` and the dealer look for the built page by default. */
export const DEFAULT_PLAY_DIR = path.join(ROOT, 'build', 'web', 'play');

/** The deployment records the page trusts by default (`deployments/<chainId>.json`, written by scripts/deploy.ts). */
export const DEFAULT_DEPLOYMENTS_DIR = path.join(ROOT, 'deployments');

/**
 * The game contracts a page built now will trust (client/web/trust.ts): the ShroudGame of every deployment record
 * in `dir` but the local chain's. A record whose name, chain id or address is malformed stops the build.
 */
export function trustedGamesFrom(dir: string = DEFAULT_DEPLOYMENTS_DIR): TrustedGames {
  const trust: Record<string, string[]> = {};
  if (!existsSync(dir)) return trust;
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const file = path.join(dir, f);
    const id = f.slice(0, -'.json'.length);
    if (!/^[1-9][0-9]*$/.test(id)) throw new Error(`${file}: a deployment record is named <chainId>.json`);
    const d = JSON.parse(readFileSync(file, 'utf8')) as { chainId?: unknown; shroudGame?: unknown };
    if (String(d.chainId) !== id) throw new Error(`${file}: chainId ${String(d.chainId)} is not ${id}`);
    if (typeof d.shroudGame !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(d.shroudGame))
      throw new Error(`${file}: shroudGame is not an address`);
    if (BigInt(id) !== LOCAL_CHAIN_ID) trust[id] = [d.shroudGame.toLowerCase()];
  }
  return trust;
}

/** The files of a built page; `index.html` is written last, so its presence means the build finished. */
export const PLAY_FILES = ['play.js', 'worker.js', 'play.css', 'index.html'] as const;

/**
 * The page holds a hot session key: it may load code only from its own origin (WebAssembly for the prover, blob
 * workers for snarkjs's threads), talk to any dealer and RPC over http(s), and may not be framed by another site
 * (clickjacking Export, Join or Retry). `'unsafe-eval'` because ajv compiles the ruleset schema into a function
 * at run time (core/ruleset/validate.ts); inline scripts and scripts from other origins stay refused.
 */
export const PLAY_SECURITY_HEADERS = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'",
    "worker-src 'self' blob:",
    "connect-src 'self' http: https: ws: wss:",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

export interface PlayBuild {
  dir: string;
  /** The game contracts compiled in (trust.ts). */
  trusted: TrustedGames;
  /** Bytes per file, and `bundle` = play.js + worker.js. */
  bytes: Record<(typeof PLAY_FILES)[number], number> & { bundle: number };
}

/**
 * Builds into a fresh folder beside `outDir`, then renames it into place: a reader (the dealer answering
 * `/play`) never sees half a build, and two builds racing leave one whole one.
 */
export async function buildPlayPage(
  outDir: string = DEFAULT_PLAY_DIR,
  opts: { trusted?: TrustedGames } = {},
): Promise<PlayBuild> {
  const trusted = opts.trusted ?? trustedGamesFrom();
  const parent = path.dirname(path.resolve(outDir));
  mkdirSync(parent, { recursive: true });
  const tmp = mkdtempSync(path.join(parent, '.play-build-'));
  try {
    // Imported here, not at the top: the dealer imports this module for its constants and never needs esbuild
    // unless it builds.
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: { play: path.join(HERE, 'main.ts'), worker: path.join(HERE, 'worker.ts') },
      outdir: tmp,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      minify: true,
      sourcemap: false,
      legalComments: 'none',
      logLevel: 'silent',
      absWorkingDir: ROOT,
      define: { __SHROUD_TRUSTED_GAMES__: JSON.stringify(trusted) },
    });
    copyFileSync(path.join(HERE, 'play.css'), path.join(tmp, 'play.css'));
    copyFileSync(path.join(HERE, 'index.html'), path.join(tmp, 'index.html'));
    rmSync(outDir, { recursive: true, force: true });
    renameSync(tmp, outDir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  const bytes = Object.fromEntries(
    PLAY_FILES.map((f) => [f, statSync(path.join(outDir, f)).size]),
  ) as PlayBuild['bytes'];
  bytes.bundle = bytes['play.js'] + bytes['worker.js'];
  return { dir: outDir, trusted, bytes };
}
