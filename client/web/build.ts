/**
 * `buildPlayPage(outDir)`: the web client as static files — index.html, play.css, play.js (the page) and
 * worker.js (the prover worker) — bundled with esbuild for browsers. The dealer serves them under `/play`;
 * `npm run play:web` serves them locally. Node only (esbuild); nothing here runs in the page.
 */
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..', '..');
/** Where `npm run play:web` and the dealer look for the built page by default. */
export const DEFAULT_PLAY_DIR = path.join(ROOT, 'build', 'web', 'play');

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
  /** Bytes per file, and `bundle` = play.js + worker.js. */
  bytes: Record<(typeof PLAY_FILES)[number], number> & { bundle: number };
}

/**
 * Builds into a fresh folder beside `outDir`, then renames it into place: a reader (the dealer answering
 * `/play`) never sees half a build, and two builds racing leave one whole one.
 */
export async function buildPlayPage(outDir: string = DEFAULT_PLAY_DIR): Promise<PlayBuild> {
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
  return { dir: outDir, bytes };
}
