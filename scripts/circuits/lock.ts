/** A cross-process lock (a directory), for builds that parallel test processes share. */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** A lock older than this belongs to a killed process. */
const STALE_MS = 15 * 60_000;

/** Runs `fn` holding the lock `${target}.lock`, waiting for any other holder first. */
export async function withLock<T>(target: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${target}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_MS) rmSync(lock, { recursive: true, force: true });
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
