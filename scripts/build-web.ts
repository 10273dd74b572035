/**
 * Builds the web pages once with esbuild into build/web/<page>/ (minified ES2022 for browsers):
 *
 *   npm run build:web -- [--out DIR (build/web)]
 *
 * Each page is one entry of PAGES: its folder name and the function that builds it into a folder.
 * The dealer serves build/web/viewer at /viewer and build/web/play at /play.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../client/viewer/asset.ts';
import { buildViewer } from '../client/viewer/build.ts';
import { buildPlayPage } from '../client/web/build.ts';
import { outputDir, parseCli, runCli } from './lib/cli.ts';

interface WebPage {
  /** Folder under the output folder, and the page's name. */
  name: string;
  build: (outDir: string) => Promise<unknown>;
}

const PAGES: readonly WebPage[] = [
  { name: 'viewer', build: buildViewer },
  { name: 'play', build: buildPlayPage },
];

const USAGE = `usage: npm run build:web -- [--out DIR]

Bundles the web pages (${PAGES.map((p) => p.name).join(', ')}) with esbuild, each into DIR/<page>/.
  --out DIR   output folder (default build/web)`;

await runCli('build:web', async () => {
  const { values } = parseCli({
    name: 'build:web',
    usage: USAGE,
    options: { out: { type: 'string', default: path.join(REPO_ROOT, 'build', 'web') } },
  });
  const out = path.resolve(outputDir('out', values.out!));
  for (const page of PAGES) {
    const dir = path.join(out, page.name);
    const t0 = performance.now();
    await page.build(dir);
    const files = readdirSync(dir).map(
      (f) => `${f} ${statSync(path.join(dir, f)).size.toLocaleString('en-US')} B`,
    );
    const rel = path.relative(process.cwd(), dir) || '.';
    process.stdout.write(
      `${page.name}: ${rel}/ — ${files.join(', ')} (${Math.round(performance.now() - t0)} ms)\n`,
    );
  }
});
