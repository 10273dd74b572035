/**
 * The proving keys a seat needs: the game's ruleset's spawn/turn/attack/combat circuits and the global seal
 * circuit, by default as `node scripts/contracts/verifiers.ts` generated them (they must match the verifiers
 * the contract was deployed with).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../lib/cli.ts';
import type { ProverArtifacts } from '../sdk/prover.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A wasm/zkey pair is missing: a UsageError naming the flag when the folder came from it. */
function pair(circuit: string, dir: string, flag: string, given: boolean) {
  const wasm = path.join(dir, `${circuit}.wasm`);
  const zkey = path.join(dir, `${circuit}.zkey`);
  if (!existsSync(wasm) || !existsSync(zkey)) {
    const what = `no ${circuit}.wasm/${circuit}.zkey`;
    if (given) throw new UsageError(`--${flag} ${dir}: ${what}`);
    throw new Error(`${what} in ${dir} (node scripts/contracts/verifiers.ts builds them; or --${flag} DIR)`);
  }
  return { wasm, zkey };
}

/** `dir`/`sealDir`: the `--artifacts`/`--seal-artifacts` values, when given. */
export function proverArtifacts(ruleset: string, dir?: string, sealDir?: string): ProverArtifacts {
  const play = path.resolve(dir ?? path.join(ROOT, 'contracts', 'generated', ruleset));
  const seal = path.resolve(sealDir ?? path.join(ROOT, 'contracts', 'generated', 'seal'));
  const p = (c: string) => pair(c, play, 'artifacts', dir !== undefined);
  return {
    seal: pair('seal', seal, 'seal-artifacts', sealDir !== undefined),
    spawn: p('spawn'),
    turn: p('turn'),
    attack: p('attack'),
    combat: p('combat'),
  };
}
