/**
 * Builds the viewer once with esbuild: `app.ts` and everything it imports bundled into one minified ES2022
 * module, and the page that loads it. Used by `npm run build:web`, by `writeViewer` (rebuilding when a
 * source is newer than the bundle), and by the dealer at start-up when the built page is missing.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT, VIEWER_DIR, VIEWER_FILES } from './asset.ts';
import { fillPage } from './page.ts';

const here = (f: string) => join(REPO_ROOT, 'client', 'viewer', f);
const TEMPLATE = here('index.html');
/** Not bundled, but they shape the output: a change to them makes the build stale too. */
const BUILD_SOURCES = [TEMPLATE, here('build.ts'), here('page.ts')];

export interface BuiltFile {
  path: string;
  bytes: number;
}

/** Writes through a temporary file and a rename, so a concurrent reader never sees half a file. */
function writeAtomic(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Bundles the viewer into `outDir` (app.js, index.html, inputs.json); returns the files written. */
export async function buildViewer(outDir: string = VIEWER_DIR): Promise<BuiltFile[]> {
  const r = await esbuild.build({
    entryPoints: [here('app.ts')],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const js = r.outputFiles[0]!.text;
  const version = createHash('sha256').update(js).digest('hex').slice(0, 16);
  // Relative to the page at `/viewer`; the version makes a long cache safe across rebuilds.
  const page = fillPage(
    readFileSync(TEMPLATE, 'utf8'),
    null,
    `<script type="module" src="viewer/${VIEWER_FILES.app}?v=${version}"></script>`,
  );
  const inputs = [...Object.keys(r.metafile.inputs), ...BUILD_SOURCES.map((f) => relative(REPO_ROOT, f))];
  mkdirSync(outDir, { recursive: true });
  const files: [string, string][] = [
    [VIEWER_FILES.app, js],
    [VIEWER_FILES.page, page],
    [VIEWER_FILES.inputs, `${JSON.stringify(inputs.sort(), null, 1)}\n`],
  ];
  return files.map(([name, data]) => {
    writeAtomic(join(outDir, name), data);
    return { path: join(outDir, name), bytes: Buffer.byteLength(data) };
  });
}

/** Whether `outDir` lacks a build, or one of the sources it lists is newer than its bundle (or gone). */
export function viewerStale(outDir: string = VIEWER_DIR): boolean {
  const app = join(outDir, VIEWER_FILES.app);
  const list = join(outDir, VIEWER_FILES.inputs);
  if (!existsSync(app) || !existsSync(join(outDir, VIEWER_FILES.page)) || !existsSync(list)) return true;
  const built = statSync(app).mtimeMs;
  let inputs: string[];
  try {
    inputs = JSON.parse(readFileSync(list, 'utf8')) as string[];
  } catch {
    return true;
  }
  return inputs.some((f) => {
    const src = join(REPO_ROOT, f);
    return !existsSync(src) || statSync(src).mtimeMs > built;
  });
}

/** The bundled module, built first if missing or older than its sources. */
export async function viewerModule(outDir: string = VIEWER_DIR): Promise<string> {
  if (viewerStale(outDir)) await buildViewer(outDir);
  return readFileSync(join(outDir, VIEWER_FILES.app), 'utf8');
}
