import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { withLock } from '../../scripts/circuits/lock.ts';

/** Whether `p` settles within `ms`. */
const settlesWithin = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

describe('build lock (scripts/circuits/lock.ts)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shroud-lock-'));
  const holdBy = (name: string, pid: number) => {
    const lock = path.join(dir, `${name}.lock`);
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'pid'), String(pid));
    return lock;
  };

  it("takes over a lock whose holder was killed (its pid is gone), without waiting for the lock's age", async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    holdBy('dead', dead);
    assert.equal(
      await settlesWithin(
        withLock(path.join(dir, 'dead'), async () => 1),
        2_000,
      ),
      true,
    );
  });

  it('waits while the holder lives, then runs', async () => {
    const lock = holdBy('live', process.pid);
    let ran = false;
    const p = withLock(path.join(dir, 'live'), async () => {
      ran = true;
    });
    assert.equal(await settlesWithin(p, 700), false);
    assert.equal(ran, false);
    rmSync(lock, { recursive: true });
    await p;
    assert.equal(ran, true);
    rmSync(dir, { recursive: true, force: true });
  });
});
