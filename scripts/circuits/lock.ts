/** A cross-process lock (a directory), for builds that parallel test processes share. */
import { randomUUID } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * A lock untouched for this long belongs to a killed process, when its holder cannot be looked up (no pid recorded,
 * or a pid of another pid namespace: a container sharing the checkout). A holder touches its lock every minute.
 */
const STALE_MS = 15 * 60_000;
const HEARTBEAT_MS = 60_000;

/**
 * Who holds a lock: the pid, and where the system tells (Linux's /proc) the boot and the process's start time.
 * A pid alone is not enough: after a restart or in a fresh container pids are handed out again, so the pid of a
 * killed build may belong to another live process, even to the one now waiting for the lock.
 */
interface Holder {
  pid: number;
  boot?: string;
  start?: string;
  /** The pid namespace (Linux's /proc/self/ns/pid link): a pid means a process only inside its own namespace. */
  ns?: string;
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

function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

/** This process as a lock's holder. */
function me(): Holder {
  return { pid: process.pid, boot: bootId(), start: startOf(process.pid), ns: pidNamespace() };
}

const holderFile = (lock: string) => path.join(lock, 'pid');

/** The recorded holder (its text): the JSON this module writes, or a bare pid (locks written before it recorded more). */
function parseHolder(text: string | undefined): Holder | null {
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
 * Whether the holder recorded as `text` in `lock` is gone: it was recorded in another boot, its pid is not a live
 * process, or that pid now belongs to a process that started at another time; with no holder recorded, or one in
 * another pid namespace, whether the lock went untouched for `STALE_MS`.
 */
function isStale(lock: string, text: string | undefined): boolean {
  const h = parseHolder(text);
  const untouched = () => Date.now() - statSync(lock).mtimeMs > STALE_MS;
  if (!h || !Number.isInteger(h.pid) || h.pid <= 0) return untouched();
  const boot = bootId();
  if (h.boot && boot && h.boot !== boot) return true;
  const ns = pidNamespace();
  if (h.ns && ns && h.ns !== ns) return untouched();
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const start = startOf(h.pid);
  return Boolean(h.start && start && h.start !== start);
}

/**
 * Takes `lock` away when its holder is gone. Waiters that both find it stale must not both delete: the second would
 * delete the lock the first has just taken. So the lock is moved aside (one move wins) and deleted only if it still
 * names the holder found gone (`seen`, read before the look); a lock taken meanwhile is put back, and its holder
 * never notices.
 */
export function removeIfStale(lock: string, seen = readText(holderFile(lock))): void {
  if (!isStale(lock, seen)) return;
  const aside = `${lock}.stale-${randomUUID()}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // released or moved by another waiter: look again
  }
  if (readText(holderFile(aside)) !== seen) {
    try {
      renameSync(aside, lock);
      return;
    } catch {} // a third process took the lock in the meantime: the one moved aside was stale as well
  }
  rmSync(aside, { recursive: true, force: true });
}

/**
 * Takes `lock` when it is free: the holder is written first and the lock appears with it in one rename (a directory
 * replaces only a missing or empty one), so no waiter ever sees a lock without its holder.
 */
function tryTake(lock: string, holder: string): boolean {
  const fresh = mkdtempSync(`${lock}.new-`);
  try {
    writeFileSync(holderFile(fresh), holder);
    renameSync(fresh, lock);
    return true;
  } catch {
    rmSync(fresh, { recursive: true, force: true });
    return false;
  }
}

/** Runs `fn` holding the lock `${target}.lock`, waiting for any other holder first. */
export async function withLock<T>(target: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${target}.lock`;
  const holder = JSON.stringify(me());
  mkdirSync(path.dirname(lock), { recursive: true });
  while (!tryTake(lock, holder)) {
    try {
      removeIfStale(lock);
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  // Waiters in another pid namespace cannot see this process: for them, the lock's age says it is alive.
  const heartbeat = setInterval(() => {
    try {
      utimesSync(lock, new Date(), new Date());
    } catch {}
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    // Only our own lock: one taken from us (believed stale) is its new holder's.
    if (readText(holderFile(lock)) === holder) rmSync(lock, { recursive: true, force: true });
  }
}
