/**
 * Builds the installable packages `@shroud/core` and `@shroud/sdk` as JavaScript with type declarations:
 *
 *   npm run build:packages -- [--out DIR (build/packages)] [--pack]
 *
 * The workspace runs the TypeScript sources directly, but Node's type stripping refuses files under
 * node_modules, so a plain Node app that installs the packages needs JavaScript. `tsc` (scripts/packages/
 * tsconfig.json) emits each module as `.js` and `.d.ts`, rewriting relative `./x.ts` imports to `./x.js`. Imports
 * between the packages keep their written form (`@shroud/core/field.ts`): the built core's exports map sends
 * every `./*.ts` subpath to `./*.js` (and its types to `./*.d.ts`), so the same specifier works in the workspace
 * and installed. `--pack` also writes each package's npm tarball into DIR.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { outputDir, parseCli, runCli, UsageError } from '../../lib/cli.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A workspace package: its folder, relative to the repository. */
export const PACKAGES = ['core', 'client/sdk'] as const;

type Exports = string | { [k: string]: Exports };

/** A source path in an exports or imports map (`./x.ts`) as built (`./x.js`; `./x.d.ts` for `types`). */
function built(target: Exports, condition?: string): Exports {
  if (typeof target !== 'string') {
    return Object.fromEntries(Object.entries(target).map(([k, v]) => [k, built(v, k)]));
  }
  return target.endsWith('.ts') ? target.replace(/\.ts$/, condition === 'types' ? '.d.ts' : '.js') : target;
}

/** The package.json of the built package: exports and imports point at the JavaScript and declarations. */
export function builtManifest(source: Record<string, unknown>): Record<string, unknown> {
  const exports = (source.exports ?? {}) as Record<string, Exports>;
  const out: Record<string, Exports> = {};
  for (const [key, target] of Object.entries(exports)) {
    // Before the catch-all `./*`: a `.ts` subpath (the workspace's spelling) resolves to the built module.
    if (key === './*') out['./*.ts'] = { types: './*.d.ts', default: './*.js' };
    out[key] = built(target);
  }
  const m: Record<string, unknown> = { ...source, exports: out };
  if (source.imports) m.imports = built(source.imports as Exports);
  return m;
}

/** A folder this script wrote: a package.json whose exports send `./*.ts` to JavaScript, and no TypeScript source. */
function isBuild(dir: string): boolean {
  try {
    const m = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      exports?: Record<string, unknown>;
    };
    return (
      m.exports?.['./*.ts'] !== undefined &&
      !packageFiles(dir).some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    );
  } catch {
    return false;
  }
}

/** The files under `dir`, as paths relative to it (no node_modules). */
export function packageFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => !f.split(path.sep).includes('node_modules') && statSync(path.join(dir, f)).isFile(),
  );
}

/** Builds both packages into `outDir/<name>/` (e.g. build/packages/sdk); returns their folders (and tarballs). */
export function buildPackages(
  outDir: string,
  o: { pack?: boolean } = {},
): { dirs: string[]; tarballs: string[] } {
  // Each package's folder is replaced: refuse one that holds anything but an earlier build (`--out .` in a
  // clone would otherwise replace the core's sources).
  for (const pkg of PACKAGES) {
    // Not inside a package's sources either: the build would list its own output as their data files.
    const rel = path.relative(path.join(ROOT, pkg), path.resolve(outDir));
    if (!rel.startsWith('..') && !path.isAbsolute(rel))
      throw new UsageError(`--out ${outDir}: inside the ${pkg} package's sources; choose another folder`);
    const dir = path.join(outDir, path.basename(pkg));
    if (existsSync(dir) && !isBuild(dir))
      throw new UsageError(
        `--out ${outDir}: ${dir} exists and is not a package build; choose another folder`,
      );
  }
  const emitted = mkdtempSync(path.join(tmpdir(), 'shroud-packages-'));
  try {
    return assemble(outDir, emitted, o.pack === true);
  } finally {
    rmSync(emitted, { recursive: true, force: true });
  }
}

/** Emits the modules into `emitted`, then lays out each package's folder (and tarball) in `outDir`. */
function assemble(outDir: string, emitted: string, pack: boolean): { dirs: string[]; tarballs: string[] } {
  const tsc = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'tsc'),
    ['-p', path.join(ROOT, 'scripts', 'packages', 'tsconfig.json'), '--outDir', emitted],
    { encoding: 'utf8' },
  );
  // TS2877 is tsc noting that it keeps `@shroud/core/x.ts` as written (not a relative path): intended, the
  // built core's exports map resolves it. Anything else fails the build (the sources are type-checked apart).
  const errors = `${tsc.stdout}${tsc.stderr}`
    .split('\n')
    .filter((l) => /error TS\d+/.test(l) && !/error TS2877:/.test(l));
  // A crash, a signal or a non-zero exit without the expected notes (no `error TS` line at all) fails too.
  const onlyNotes = /error TS2877:/.test(`${tsc.stdout}${tsc.stderr}`) && errors.length === 0;
  if (tsc.error || tsc.signal || (tsc.status !== 0 && !onlyNotes))
    throw new Error(
      `tsc failed (${tsc.error?.message ?? tsc.signal ?? `exit ${tsc.status}`}):\n${errors.join('\n') || tsc.stderr}`,
    );
  // Only the two packages' folders: a module outside them would be an import upward (refused).
  const tops = new Set(PACKAGES.map((p) => p.split('/')[0]));
  const stray = readdirSync(emitted).filter((d) => !tops.has(d));
  if (stray.length) throw new Error(`the packages import from outside them: ${stray.join(', ')}`);
  const dirs: string[] = [];
  const tarballs: string[] = [];
  for (const pkg of PACKAGES) {
    const source = JSON.parse(readFileSync(path.join(ROOT, pkg, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const dir = path.join(outDir, path.basename(pkg));
    rmSync(dir, { recursive: true, force: true });
    cpSync(path.join(emitted, pkg), dir, { recursive: true });
    // Data files the modules read (tsc copies imported JSON; the rest are copied here).
    for (const rel of packageFiles(path.join(ROOT, pkg))) {
      if (!rel.endsWith('.ts') && rel !== 'package.json' && !existsSync(path.join(dir, rel))) {
        mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        cpSync(path.join(ROOT, pkg, rel), path.join(dir, rel));
      }
    }
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(builtManifest(source), null, 2)}\n`);
    dirs.push(dir);
    if (pack) {
      const r = spawnSync('npm', ['pack', '--silent', '--pack-destination', outDir], {
        cwd: dir,
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`npm pack ${pkg} failed:\n${r.stdout}${r.stderr}`);
      tarballs.push(path.join(outDir, r.stdout.trim().split('\n').at(-1)!));
    }
  }
  return { dirs, tarballs };
}

const USAGE = `usage: npm run build:packages -- [--out DIR] [--pack]

Builds @shroud/core and @shroud/sdk as JavaScript with type declarations into DIR/core and DIR/sdk, for apps
that install them outside this workspace (Node does not run TypeScript under node_modules).
  --out DIR   output folder (default build/packages)
  --pack      also write each package's npm tarball into DIR`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('build:packages', async () => {
    const { values } = parseCli({
      name: 'build:packages',
      usage: USAGE,
      options: { out: { type: 'string' }, pack: { type: 'boolean' } },
    });
    const out = values.out ? outputDir('out', values.out) : path.join(ROOT, 'build', 'packages');
    const r = buildPackages(out, { pack: values.pack === true });
    for (const p of [...r.dirs, ...r.tarballs]) console.log(p);
  });
}
