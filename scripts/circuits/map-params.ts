/** Writes circuits/map/generator_params.circom from core/generator/params.ts (run after changing the generator). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadHasher } from '../../core/index.ts';
import { generatorParamsCircom } from '../../core/mapproof/circom-params.ts';
import { parseCli, runCli } from '../../lib/cli.ts';

export const MAP_PARAMS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../circuits/map/generator_params.circom',
);

const USAGE = `usage: node scripts/circuits/map-params.ts

Writes circuits/map/generator_params.circom (the generator's constants and the Merkle zero hashes as Circom
functions) from core/generator/params.ts. Run it after changing the generator. No flags.`;

if (import.meta.main) {
  await runCli('map-params', async () => {
    parseCli({ name: 'map-params', usage: USAGE, options: {} });
    writeFileSync(MAP_PARAMS_FILE, generatorParamsCircom(await loadHasher()));
    console.log(`wrote ${MAP_PARAMS_FILE}`);
  });
}
