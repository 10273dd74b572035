import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { removeIfStale, withLock } from '../../scripts/circuits/lock.ts';

/** Whether `p` settles within `ms`. */
const settlesWithin = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

describe('build lock (scripts/circuits/lock.ts)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shroud-lock-'));
  /** A lock recorded as held by `holder` (a bare pid: the older format). */
  const holdBy = (
    name: string,
    holder: number | { pid: number; boot?: string; start?: string; ns?: string },
  ) => {
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

  it('a waiter that found the lock stale and moves it after another waiter took it puts it back', {
    skip: !linux && 'no /proc',
  }, async () => {
    const dead = JSON.stringify({ pid: spawnSync(process.execPath, ['-e', '0']).pid!, boot });
    // The other waiter took the lock between this one's look (which saw the dead holder) and its move.
    const live = JSON.stringify({ pid: process.pid, boot, start: procStat(process.pid) });
    const lock = holdBy('raced', JSON.parse(live));
    removeIfStale(lock, dead);
    assert.equal(readFileSync(path.join(lock, 'pid'), 'utf8'), live, 'the live holder keeps its lock');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('raced')),
      ['raced.lock'],
      'nothing left aside',
    );
    removeIfStale(lock); // its own look: the holder lives
    assert.equal(existsSync(lock), true);
    rmSync(lock, { recursive: true });
  });

  it('a holder in another pid namespace (a container sharing the checkout) is judged by its heartbeat', {
    skip: !linux && 'no /proc',
  }, async () => {
    // Its pid means nothing here (no such process in this namespace): only the lock's age tells.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const lock = holdBy('foreign', { pid: gone, boot, start: '1', ns: 'pid:[1]' });
    const waiting = withLock(path.join(dir, 'foreign'), async () => 1);
    assert.equal(await settlesWithin(waiting, 700), false, 'a recent heartbeat: the holder lives');
    const old = new Date(Date.now() - 16 * 60_000);
    utimesSync(lock, old, old);
    assert.equal(await settlesWithin(waiting, 2_000), true, 'no heartbeat for 16 minutes: taken over');
  });

  it('a holder touches its lock every minute (its heartbeat)', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const target = path.join(dir, 'beat');
    await withLock(target, async () => {
      const lock = `${target}.lock`;
      const old = new Date(Date.now() - 16 * 60_000);
      utimesSync(lock, old, old);
      t.mock.timers.tick(60_000);
      assert.ok(Date.now() - statSync(lock).mtimeMs < 60_000, 'touched again');
    });
  });

  it('releases only its own lock: one taken over meanwhile stays with its new holder', async () => {
    const target = path.join(dir, 'own');
    const other = JSON.stringify({ pid: 1 });
    await withLock(target, async () => {
      writeFileSync(path.join(`${target}.lock`, 'pid'), other);
    });
    assert.equal(readFileSync(path.join(`${target}.lock`, 'pid'), 'utf8'), other);
    rmSync(`${target}.lock`, { recursive: true });
  });

  it('waits while a holder recorded as a bare pid (an older lock) lives, then runs', async () => {
    await waitsForHolder(holdBy('live', process.pid));
    rmSync(dir, { recursive: true, force: true });
  });
});
