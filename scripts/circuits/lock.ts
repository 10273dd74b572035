/** A cross-process lock (a directory), for builds that parallel test processes share. */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A lock older than this belongs to a killed process (when its holder's pid cannot be read). */
const STALE_MS = 15 * 60_000;

/** Whether the lock's holder is gone: its recorded pid is not a live process, or (no pid) the lock is old. */
function isStale(lock: string): boolean {
  let pid = Number.NaN;
  try {
    pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {}
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
  return Date.now() - statSync(lock).mtimeMs > STALE_MS;
}

/** Runs `fn` holding the lock `${target}.lock`, waiting for any other holder first. */
export async function withLock<T>(target: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${target}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      try {
        if (isStale(lock)) rmSync(lock, { recursive: true, force: true });
      } catch {}
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
