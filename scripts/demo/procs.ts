/**
 * Child processes for the demo: each runs in its own process group (detached), its output goes to a log
 * file, and every one is killed (the whole group) on success, failure, SIGINT/SIGTERM and process exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Child {
  name: string;
  proc: ChildProcess;
  log: string;
  /** Resolves with the exit code (or signal name) once the process ended. */
  exited: Promise<number | string>;
}

const children = new Set<Child>();

/** Starts `cmd args` detached (own process group), stdout+stderr to `log`. */
export function startChild(
  name: string,
  cmd: string,
  args: string[],
  o: { log: string; env?: NodeJS.ProcessEnv; cwd?: string },
): Child {
  const fd = openSync(o.log, 'a');
  const proc = spawn(cmd, args, {
    cwd: o.cwd,
    env: o.env ?? process.env,
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<number | string>((resolve) => {
    proc.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    proc.once('error', () => resolve('spawn-error'));
  });
  const child: Child = { name, proc, log: o.log, exited };
  children.add(child);
  void exited.then(() => children.delete(child));
  return child;
}

function killGroup(c: Child, signal: NodeJS.Signals): void {
  if (c.proc.pid === undefined || c.proc.exitCode !== null || c.proc.signalCode !== null) return;
  try {
    process.kill(-c.proc.pid, signal);
  } catch {
    try {
      c.proc.kill(signal);
    } catch {}
  }
}

/** SIGTERM every child's group, then SIGKILL what is still alive after `graceMs`. */
export async function stopAll(graceMs = 3000): Promise<void> {
  const live = [...children];
  for (const c of live) killGroup(c, 'SIGTERM');
  await Promise.race([
    Promise.all(live.map((c) => c.exited)),
    new Promise((r) => setTimeout(r, graceMs).unref()),
  ]);
  for (const c of live) killGroup(c, 'SIGKILL');
  await Promise.race([
    Promise.all(live.map((c) => c.exited)),
    new Promise((r) => setTimeout(r, 1000).unref()),
  ]);
}

/** Last `n` lines of a child's log, for failure messages. */
export function tail(file: string, n = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

let installed = false;
/**
 * Kills every child on process exit (synchronously: SIGKILL to each group) and turns SIGINT/SIGTERM into
 * a clean stop with exit code 130/143.
 */
export function installCleanup(onSignal?: (signal: NodeJS.Signals) => void): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    for (const c of children) killGroup(c, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      onSignal?.(signal);
      void stopAll(1500).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** Polls `probe` until it returns true; fails early when `child` exits, with its log's tail. */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  o: { timeoutMs: number; child?: Child; intervalMs?: number },
): Promise<void> {
  const until = Date.now() + o.timeoutMs;
  let dead: number | string | null = null;
  void o.child?.exited.then((c) => {
    dead = c;
  });
  for (;;) {
    if (dead !== null) {
      throw new Error(
        `${what}: ${o.child!.name} exited (${dead}) before it was ready\n${tail(o.child!.log)}`,
      );
    }
    try {
      if (await probe()) return;
    } catch {}
    if (Date.now() > until) {
      const log = o.child ? `\n${tail(o.child.log)}` : '';
      throw new Error(`${what}: not ready after ${Math.round(o.timeoutMs / 1000)} s${log}`);
    }
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 250));
  }
}

/** Runs a command to completion (own process group, killed with the others on a signal); throws on failure. */
export async function run(
  name: string,
  cmd: string,
  args: string[],
  o: { log: string; env?: NodeJS.ProcessEnv; cwd?: string },
): Promise<void> {
  const c = startChild(name, cmd, args, o);
  const code = await c.exited;
  if (code !== 0) throw new Error(`${name} failed (${code}); log ${o.log}:\n${tail(o.log)}`);
}
