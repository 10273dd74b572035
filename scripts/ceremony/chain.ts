/**
 * The chain of zkeys per circuit: each step (a contribution, the beacon) reads the latest zkey, which must be
 * the very file the record names, and writes the next. A step is applied to every circuit or to none: the
 * record is written once, after all circuits succeeded, and only then are the previous zkeys removed.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { sha256File } from './digest.ts';
import { inDir, writeCeremony } from './record.ts';
import type { CeremonyRecord, CircuitRecord } from './types.ts';

/** `spawn_0003.zkey`: the zkey after 3 steps. */
export const zkeyName = (circuit: string, step: number) => `${circuit}_${String(step).padStart(4, '0')}.zkey`;

/** Steps applied so far (contributions and the beacon). */
export const stepsOf = (c: CircuitRecord) => c.contributions.length + (c.beacon ? 1 : 0);

/**
 * Refuses a latest zkey that is not the file the record names: a step would build on the wrong previous
 * file (`hint` says what that means to the caller).
 */
export async function checkLatest(dir: string, c: CircuitRecord, hint: string): Promise<void> {
  const file = inDir(dir, c.zkey);
  if (!existsSync(file)) throw new Error(`${c.id}: ${c.zkey} is missing from ${dir}`);
  const sha = await sha256File(file);
  if (sha !== c.zkeySha256)
    throw new Error(`${c.id}: ${c.zkey} has sha256 ${sha}, ceremony.json records ${c.zkeySha256}: ${hint}`);
}

/** What one step produced for one circuit. */
export interface StepResult<T> {
  c: CircuitRecord;
  /** The new zkey, relative to the folder, and its sha256. */
  zkey: string;
  zkeySha256: string;
  result: T;
}

/**
 * Runs `step` on every circuit (each from its latest zkey to the next), then `commit`s each result into
 * the record, writes it and removes the superseded zkeys. On any failure the new files are removed and
 * the folder is as it was.
 */
export async function applyStep<T>(
  dir: string,
  rec: CeremonyRecord,
  step: (c: CircuitRecord, prev: string, next: string) => Promise<T>,
  commit: (r: StepResult<T>) => void,
): Promise<StepResult<T>[]> {
  for (const c of rec.circuits)
    await checkLatest(dir, c, 'not the file the previous step produced (the wrong previous file)');
  const next = (c: CircuitRecord) => path.join(path.dirname(c.zkey), zkeyName(c.circuit, stepsOf(c) + 1));
  const done: StepResult<T>[] = [];
  try {
    for (const c of rec.circuits) {
      const zkey = next(c);
      const result = await step(c, inDir(dir, c.zkey), inDir(dir, zkey));
      done.push({ c, zkey, zkeySha256: await sha256File(inDir(dir, zkey)), result });
    }
  } catch (e) {
    for (const c of rec.circuits) rmSync(inDir(dir, next(c)), { force: true });
    throw e;
  }
  const superseded = rec.circuits.map((c) => c.zkey);
  for (const d of done) {
    commit(d);
    d.c.zkey = d.zkey;
    d.c.zkeySha256 = d.zkeySha256;
  }
  writeCeremony(dir, rec);
  for (const f of superseded) rmSync(inDir(dir, f), { force: true });
  return done;
}
