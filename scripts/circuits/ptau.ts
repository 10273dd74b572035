/**
 * Which powers of tau a Groth16 setup uses. Only what the user points at (`--ptau FILE`,
 * `--ptau-dir DIR`, `SHROUD_PTAU_DIR`) is read from outside the clone; otherwise an INSECURE
 * development ptau is made under `build/circuits/ptau/` (seconds; see devptau.ts).
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { devPtauName, generateDevPtau, isDevPtau } from './devptau.ts';
import { withLock } from './lock.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where development ptau files are made and cached. */
export const DEV_PTAU_DIR = path.join(ROOT, 'build', 'circuits', 'ptau');
/** Smallest development ptau made: one power-14 file (~15 s) serves every duel and tiny circuit. */
export const DEV_MIN_POWER = 14;

export interface PtauChoice {
  /** A prepared (phase 2) ptau file. */
  ptau?: string;
  /** A folder of prepared ptau files; the smallest that fits is used. */
  ptauDir?: string;
}

export interface ResolvedPtau {
  file: string;
  power: number;
  /** Made from the public development beacon: its keys must never leave a local chain. */
  dev: boolean;
}

export interface PtauHooks {
  log?: (m: string) => void;
  /** Called while a development ptau is generated: fraction done 0..1 and its power. */
  onDevProgress?: (done: number, power: number) => void;
}

/** The folder the user pointed at: `--ptau-dir`, else `$SHROUD_PTAU_DIR`, else none. */
export function userPtauDir(flag?: string): string | undefined {
  const dir = flag ?? process.env.SHROUD_PTAU_DIR;
  return dir ? path.resolve(dir) : undefined;
}

/** The power of a .ptau file, from its header section. */
export function readPtauPower(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    readSync(fd, head, 0, head.length, 0);
    if (head.toString('latin1', 0, 4) !== 'ptau') throw new Error(`${file} is not a ptau file`);
    const nSections = head.readUInt32LE(8);
    let off = 12;
    for (let i = 0; i < nSections; i++) {
      const type = head.readUInt32LE(off);
      const size = Number(head.readBigUInt64LE(off + 4));
      const p = off + 12;
      if (type === 1) {
        const n8 = head.readUInt32LE(p);
        return head.readUInt32LE(p + 4 + n8);
      }
      off = p + size;
    }
  } finally {
    closeSync(fd);
  }
  throw new Error(`${file}: no ptau header`);
}

/** The smallest `.ptau` of `dir` with power ≥ `power`, if any. */
export function smallestFitting(dir: string, power: number): ResolvedPtau | undefined {
  if (!existsSync(dir)) return undefined;
  let best: { file: string; power: number } | undefined;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.ptau')) continue;
    const file = path.join(dir, f);
    const p = readPtauPower(file);
    if (p >= power && (!best || p < best.power)) best = { file, power: p };
  }
  return best && { ...best, dev: isDevPtau(best.file) };
}

/**
 * The ptau for a circuit of `power`: the user's file (which must be big enough), else the smallest
 * fitting file of the user's folder (none fitting is an error), else a development ptau.
 */
export async function resolvePtau(
  power: number,
  choice: PtauChoice,
  hooks: PtauHooks = {},
): Promise<ResolvedPtau> {
  if (choice.ptau) {
    const file = path.resolve(choice.ptau);
    if (!existsSync(file)) throw new Error(`--ptau ${choice.ptau}: no such file`);
    const p = readPtauPower(file);
    if (p < power)
      throw new Error(
        `ptau ${file} has power ${p}; this circuit needs power ${power} (2^${power} constraints)`,
      );
    return { file, power: p, dev: isDevPtau(file) };
  }
  const dir = userPtauDir(choice.ptauDir);
  if (dir) {
    if (!existsSync(dir))
      throw new Error(`ptau folder ${dir}: no such folder (--ptau-dir or SHROUD_PTAU_DIR)`);
    const found = smallestFitting(dir, power);
    if (!found) throw new Error(`no ptau in ${dir} has power ≥ ${power} (this circuit needs 2^${power})`);
    return found;
  }
  return devPtau(power, hooks);
}

/** The smallest cached development ptau that fits, generated (under a lock) when there is none. */
export async function devPtau(power: number, hooks: PtauHooks = {}): Promise<ResolvedPtau> {
  mkdirSync(DEV_PTAU_DIR, { recursive: true });
  return withLock(path.join(DEV_PTAU_DIR, 'generate'), async () => {
    const cached = smallestFitting(DEV_PTAU_DIR, power);
    if (cached) return cached;
    const p = Math.max(power, DEV_MIN_POWER);
    const file = path.join(DEV_PTAU_DIR, devPtauName(p));
    await generateDevPtau(p, file, {
      ...(hooks.log ? { log: hooks.log } : {}),
      onProgress: (done) => hooks.onDevProgress?.(done, p),
    });
    return { file, power: p, dev: true };
  });
}
