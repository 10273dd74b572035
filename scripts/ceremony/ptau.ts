/**
 * The ceremony's powers of tau: identified by its blake2b-512 against the published Hermez files at init,
 * and found again (the same bytes) by verify and finalize.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { timed } from '../circuits/build.ts';
import { isDevPtau } from '../circuits/devptau.ts';
import { readPtauPower } from '../circuits/ptau.ts';
import type { Progress } from '../lib/progress.ts';
import { blake2bFile } from './digest.ts';
import { publishedPtau } from './hermez.ts';
import type { PtauRecord } from './types.ts';

/** blake2b-512 of a ptau; a large one (a Hermez file is 0.3–300 GB) under the progress display. */
export function hashPtau(file: string, progress: Progress): Promise<string> {
  if (statSync(file).size < 1 << 28) return blake2bFile(file);
  return timed(
    progress,
    `blake2b of ${path.basename(file)}`,
    undefined,
    (f) => blake2bFile(file, f),
    'ptau blake2b',
  );
}

/**
 * The record of `--ptau FILE`: a published Hermez file, or (only with `dev`) any other ptau, whose keys
 * are then development keys. Refuses an unknown file in one line naming its hash.
 */
export async function identifyPtau(file: string, dev: boolean, progress: Progress): Promise<PtauRecord> {
  const blake2b = await hashPtau(file, progress);
  const known = publishedPtau(blake2b);
  const power = readPtauPower(file);
  if (!known && !dev) {
    const what = isDevPtau(file) ? ' (its contribution is the INSECURE development beacon)' : '';
    throw new Error(
      `--ptau ${file}: blake2b ${blake2b} is not a published Hermez powersOfTau28_hez_final file${what}; ` +
        'pass --dev for a test ceremony (development keys: local chains only)',
    );
  }
  if (known && known.power !== power)
    throw new Error(`--ptau ${file}: has power ${power}, the published ${known.name} ${known.power}`);
  return {
    name: known?.name ?? path.basename(file),
    path: path.resolve(file),
    blake2b,
    power,
    published: known !== undefined,
  };
}

/** The ceremony's ptau file: `--ptau` or where init read it, with the same blake2b. */
export async function findCeremonyPtau(rec: PtauRecord, flag: string | undefined, progress: Progress) {
  const file = flag ?? rec.path;
  if (!existsSync(file))
    throw new Error(`the ceremony's ptau ${rec.name} is not at ${file}: pass --ptau FILE`);
  const blake2b = await hashPtau(file, progress);
  if (blake2b !== rec.blake2b)
    throw new Error(
      `${flag ? '--ptau ' : 'ptau '}${file}: blake2b ${blake2b} is not the ceremony's ${rec.name} (${rec.blake2b})`,
    );
  return file;
}
