/** Reading and writing `ceremony.json` (atomically: a half-written record would strand a ceremony). */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../lib/cli.ts';
import { CEREMONY_FILE, CEREMONY_LOG, type CeremonyRecord } from './types.ts';

export const recordFile = (dir: string) => path.join(dir, CEREMONY_FILE);
export const logFile = (dir: string) => path.join(dir, CEREMONY_LOG);

/** The ceremony of `--dir`; a folder without one is a usage error naming the flag. */
export function readCeremony(dir: string): CeremonyRecord {
  const f = recordFile(dir);
  if (!existsSync(f)) throw new UsageError(`--dir ${dir}: no ${CEREMONY_FILE} (start one with init)`);
  let rec: CeremonyRecord;
  try {
    rec = JSON.parse(readFileSync(f, 'utf8')) as CeremonyRecord;
  } catch (e) {
    throw new Error(`${f}: not JSON (${(e as Error).message})`);
  }
  if (rec.version !== 1 || !Array.isArray(rec.circuits) || !rec.ptau)
    throw new Error(`${f}: not a version 1 ceremony record`);
  return rec;
}

export function writeCeremony(dir: string, rec: CeremonyRecord): void {
  const f = recordFile(dir);
  const tmp = `${f}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(rec, null, 2)}\n`);
  renameSync(tmp, f);
}

/** A path the record holds (relative to the folder) as a real path. */
export const inDir = (dir: string, rel: string) => path.join(dir, rel);
