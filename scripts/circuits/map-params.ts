/** Writes circuits/map/generator_params.circom from core/generator/params.ts (run after changing the generator). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadHasher } from '../../core/index.ts';
import { generatorParamsCircom } from '../../core/mapproof/circom-params.ts';

export const MAP_PARAMS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../circuits/map/generator_params.circom',
);

if (import.meta.main) {
  writeFileSync(MAP_PARAMS_FILE, generatorParamsCircom(await loadHasher()));
  console.log(`wrote ${MAP_PARAMS_FILE}`);
}
