/** A cross-process lock (a directory), for builds that parallel test processes share. */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A lock older than this belongs to a killed process (when its holder's pid cannot be read). */
const STALE_MS = 15 * 60_000;

/**
 * Who holds a lock: the pid, and where the system tells (Linux's /proc) the boot and the process's start time.
 * A pid alone is not enough: after a restart or in a fresh container pids are handed out again, so the pid of a
 * killed build may belong to another live process, even to the one now waiting for the lock.
 */
interface Holder {
  pid: number;
  boot?: string;
  start?: string;
}

/** The file's text, or undefined where it cannot be read (no /proc, no such process). */
function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The start time of process `pid` since boot (field 22 of /proc/<pid>/stat, after the parenthesised name). */
function startOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

const bootId = () => readText('/proc/sys/kernel/random/boot_id');

function holderOf(pid: number): Holder {
  return { pid, boot: bootId(), start: startOf(pid) };
}

/** The recorded holder: the JSON this module writes, or a bare pid (locks written before it recorded more). */
function readHolder(lock: string): Holder | null {
  const text = readText(path.join(lock, 'pid'));
  if (text === undefined) return null;
  try {
    const h = JSON.parse(text) as Holder;
    if (typeof h === 'number') return { pid: h };
    return Number.isInteger(h?.pid) ? h : null;
  } catch {
    return null;
  }
}

/**
 * Whether the lock's holder is gone: it was recorded in another boot, its pid is not a live process, or that pid
 * now belongs to a process that started at another time; with no holder recorded, whether the lock is old.
 */
function isStale(lock: string): boolean {
  const h = readHolder(lock);
  if (!h || !Number.isInteger(h.pid) || h.pid <= 0) return Date.now() - statSync(lock).mtimeMs > STALE_MS;
  const boot = bootId();
  if (h.boot && boot && h.boot !== boot) return true;
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const start = startOf(h.pid);
  return Boolean(h.start && start && h.start !== start);
}

/** Runs `fn` holding the lock `${target}.lock`, waiting for any other holder first. */
export async function withLock<T>(target: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${target}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), JSON.stringify(holderOf(process.pid)));
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
