import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { withLock } from '../../scripts/circuits/lock.ts';

/** Whether `p` settles within `ms`. */
const settlesWithin = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

describe('build lock (scripts/circuits/lock.ts)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shroud-lock-'));
  /** A lock recorded as held by `holder` (a bare pid: the older format). */
  const holdBy = (name: string, holder: number | { pid: number; boot?: string; start?: string }) => {
    const lock = path.join(dir, `${name}.lock`);
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'pid'), JSON.stringify(holder));
    return lock;
  };
  const procStat = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
  };
  /** Whether a withLock on the held lock `name` runs within 2 s (takes the lock over). */
  const takesOver = (name: string) =>
    settlesWithin(
      withLock(path.join(dir, name), async () => 1),
      2_000,
    );
  /** A withLock on the held `lock` waits while it is held, then runs once it is released. */
  const waitsForHolder = async (lock: string) => {
    let ran = false;
    const p = withLock(lock.slice(0, -'.lock'.length), async () => {
      ran = true;
    });
    assert.equal(await settlesWithin(p, 700), false);
    assert.equal(ran, false);
    rmSync(lock, { recursive: true });
    await p;
    assert.equal(ran, true);
  };
  const linux = existsSync('/proc/self/stat') && existsSync('/proc/sys/kernel/random/boot_id');
  const boot = linux ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : '';

  it("takes over a lock whose holder was killed (its pid is gone), without waiting for the lock's age", async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    holdBy('dead', dead);
    assert.equal(await takesOver('dead'), true);
  });

  it('takes over a lock whose pid was handed out again: to the process now waiting, after a restart', {
    skip: !linux && 'no /proc',
  }, async () => {
    // A build killed before the machine (or its container) restarted, whose pid is now this very process's.
    holdBy('reused', { pid: process.pid, boot, start: String(Number(procStat(process.pid)) - 1) });
    assert.equal(await takesOver('reused'), true);
    holdBy('reboot', { pid: process.pid, boot: '00000000-0000-0000-0000-000000000000' });
    assert.equal(await takesOver('reboot'), true);
  });

  it('waits while the holder recorded with its start time lives, then runs', {
    skip: !linux && 'no /proc',
  }, async () => {
    await waitsForHolder(holdBy('alive', { pid: process.pid, boot, start: procStat(process.pid) }));
  });

  it('waits while a holder recorded as a bare pid (an older lock) lives, then runs', async () => {
    await waitsForHolder(holdBy('live', process.pid));
    rmSync(dir, { recursive: true, force: true });
  });
});
