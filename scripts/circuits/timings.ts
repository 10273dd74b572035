/**
 * Expected durations of the long build steps, for the progress display: this machine's own last
 * run (`build/timings.json`), else the reference run shipped with the repo (timings.reference.json:
 * a fresh clone's demo and test run on 2 idle cores), else a rough model from the constraint count.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LOCAL = path.join(ROOT, 'build', 'timings.json');
const REFERENCE = path.join(ROOT, 'scripts', 'circuits', 'timings.reference.json');

function readJson(file: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** Step keys: `compile duel/turn`, `setup duel/turn`, `ptau 14`. */
export function expectedMs(key: string, model?: () => number): number | undefined {
  return readJson(LOCAL)[key] ?? readJson(REFERENCE)[key] ?? model?.();
}

/** Groth16 setup (new, contribute, beacon, verify, export) grows about linearly with constraints. */
export const setupModelMs = (constraints: number) => 4000 + 3.5 * constraints;
/** A development key (devzkey.ts: one fixed-base multiplication per point) and its exports. */
export const devSetupModelMs = (constraints: number) => 3000 + 0.7 * constraints;
/** A development ptau: ~20 s at power 14, twice the points (and time) per power. */
export const ptauModelMs = (power: number) => 20_000 * 2 ** (power - 14);

/** Records a step's duration for the next estimate (best effort: a read-only build dir is fine). */
export function recordMs(key: string, ms: number): void {
  try {
    const all = readJson(LOCAL);
    all[key] = Math.round(ms);
    mkdirSync(path.dirname(LOCAL), { recursive: true });
    const tmp = `${LOCAL}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`);
    renameSync(tmp, LOCAL);
  } catch {}
}
