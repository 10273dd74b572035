/**
 * Builds the web pages once with esbuild into build/web/<page>/ (minified ES2022 for browsers):
 *
 *   npm run build:web -- [--out DIR (build/web)] [--deployments DIR (deployments)]
 *
 * The play page trusts, on public chains, only the game contracts recorded in the deployments folder at build
 * time (client/web/trust.ts), and checks the map proof only with the keys under build/circuits and the registries
 * of those records (client/web/map-proof.ts): rebuild it after deploying or building map-proof keys.
 * Each page is one entry of PAGES: its folder name and the function that builds it into a folder.
 * The dealer serves build/web/viewer at /viewer and build/web/play at /play.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../client/viewer/asset.ts';
import { buildViewer } from '../client/viewer/build.ts';
import {
  buildPlayPage,
  DEFAULT_DEPLOYMENTS_DIR,
  mapProofBuildLine,
  mapProofRefusedWarning,
  trustedGamesFrom,
} from '../client/web/build.ts';
import type { TrustedGames } from '../client/web/trust.ts';
import { outputDir, parseCli, runCli } from '../lib/cli.ts';

interface WebPage {
  /** Folder under the output folder, and the page's name. */
  name: string;
  build: (outDir: string, deployments: { dir: string; trusted: TrustedGames }) => Promise<unknown>;
}

const PAGES: readonly WebPage[] = [
  { name: 'viewer', build: (dir) => buildViewer(dir) },
  {
    name: 'play',
    build: async (dir, d) => {
      const built = await buildPlayPage(dir, { trusted: d.trusted, deployments: d.dir });
      process.stdout.write(`${mapProofBuildLine(built)}\n`);
      const warning = mapProofRefusedWarning(built);
      if (warning) process.stderr.write(`build:web: ${warning}\n`);
    },
  },
];

const USAGE = `usage: npm run build:web -- [--out DIR] [--deployments DIR]

Bundles the web pages (${PAGES.map((p) => p.name).join(', ')}) with esbuild, each into DIR/<page>/.
  --out DIR           output folder (default build/web)
  --deployments DIR   deployment records whose game contracts the play page trusts on their
                      chains (default deployments/; the local chain 31337 is always open)`;

await runCli('build:web', async () => {
  const { values } = parseCli({
    name: 'build:web',
    usage: USAGE,
    options: {
      out: { type: 'string', default: path.join(REPO_ROOT, 'build', 'web') },
      deployments: { type: 'string', default: DEFAULT_DEPLOYMENTS_DIR },
    },
  });
  const out = path.resolve(outputDir('out', values.out!));
  const trusted = trustedGamesFrom(values.deployments!);
  const pins = Object.entries(trusted).map(([chain, games]) => `chain ${chain}: ${games.join(', ')}`);
  process.stdout.write(
    `play trusts: ${pins.length ? pins.join('; ') : 'no public chain (local chain only)'}\n`,
  );
  for (const page of PAGES) {
    const dir = path.join(out, page.name);
    const t0 = performance.now();
    await page.build(dir, { dir: values.deployments!, trusted });
    const files = readdirSync(dir).map(
      (f) => `${f} ${statSync(path.join(dir, f)).size.toLocaleString('en-US')} B`,
    );
    const rel = path.relative(process.cwd(), dir) || '.';
    process.stdout.write(
      `${page.name}: ${rel}/ — ${files.join(', ')} (${Math.round(performance.now() - t0)} ms)\n`,
    );
  }
});
