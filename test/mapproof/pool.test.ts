/**
 * The proving pool replaces workers that die (dealer/mapproof/pool.ts), with stand-in workers speaking the
 * worker's IPC (fake-worker.ts, dead-worker.ts): no circuit is needed to kill a process mid-job.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ProverPool, type WorkerExit } from '../../dealer/mapproof/pool.ts';

const FAKE = fileURLToPath(new URL('./fake-worker.ts', import.meta.url));
const DEAD = fileURLToPath(new URL('./dead-worker.ts', import.meta.url));
/** The fake worker reads no artifacts. */
const ARTS = { wasm: 'unused.wasm', zkey: 'unused.zkey' };
const dir = mkdtempSync(join(tmpdir(), 'shroud-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function until(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `pid job` lines the fake workers log as each job starts. */
function starts(log: string): { pid: number; job: number }[] {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [pid, job] = l.split(' ').map(Number);
      return { pid: pid!, job: job! };
    });
}

describe('ProverPool: dead workers', () => {
  it('a worker SIGKILLed mid-job is replaced: the job finishes on the new worker, the pool keeps its size', async () => {
    const log = join(dir, 'kill.log');
    writeFileSync(log, '');
    const exits: WorkerExit[] = [];
    const pool = new ProverPool({ size: 2, script: FAKE, backoffMs: 50, onExit: (e) => exits.push(e) });
    try {
      await until(() => pool.pids.length === 2);
      const original = pool.pids;
      // Both workers busy (job 1 for a minute), so the killed one's job can only go to its replacement.
      const a = pool.prove({ log, ms: 1500 }, ARTS);
      const b = pool.prove({ log, ms: 60_000 }, ARTS);
      b.catch(() => {}); // ended by close() below
      await until(() => starts(log).length === 2);
      const victim = starts(log).find((s) => s.job === 0)!.pid;
      process.kill(victim, 'SIGKILL');
      const ranOn = Number((await a).publicSignals[0]);
      assert.ok(!original.includes(ranOn), `job 0 finished on a fresh worker (${ranOn}, not ${original})`);
      assert.deepEqual(
        starts(log)
          .map((s) => s.job)
          .sort(),
        [0, 0, 1],
        'job 0 ran twice: on the victim, then on its replacement',
      );
      assert.equal(exits.length, 1);
      assert.equal(exits[0]!.signal, 'SIGKILL');
      assert.equal(exits[0]!.jobLost, true);
      assert.equal(exits[0]!.respawnInMs, 50);
      assert.equal(pool.size, 2);
      assert.equal(pool.pids.length, 2, 'two live workers again');
      assert.ok(!pool.pids.includes(victim));
      assert.ok(pool.pids.includes(ranOn));
      await pool.close();
      await assert.rejects(b, /proving pool closed/);
    } finally {
      await pool.close();
    }
  });

  it('a job that kills its worker twice fails with a clear error; the pool carries on', async () => {
    const log = join(dir, 'die.log');
    writeFileSync(log, '');
    const pool = new ProverPool({ size: 1, script: FAKE, backoffMs: 20 });
    try {
      await assert.rejects(
        pool.prove({ log, ms: 0, die: true }, ARTS),
        /its worker died 2 times \(last: exit code 7\)/,
      );
      assert.equal(starts(log).length, 2, 'tried once, retried once');
      const ok = await pool.prove({ log, ms: 0 }, ARTS);
      assert.equal(ok.publicSignals.length, 1);
    } finally {
      await pool.close();
    }
  });

  it('workers that always die at start-up end in a clear error, not a respawn loop', async () => {
    const exits: WorkerExit[] = [];
    const pool = new ProverPool({
      size: 2,
      script: DEAD,
      backoffMs: 20,
      maxDeaths: 4,
      onExit: (e) => exits.push(e),
    });
    try {
      const started = Date.now();
      await assert.rejects(pool.prove({}, ARTS), /keep dying \(4 in a row, last: exit code 3\)|died 2 times/);
      await until(() => exits.some((e) => e.respawnInMs === null));
      assert.ok(Date.now() - started < 10_000, 'gave up within the backoff (20, 40, 80 ms …)');
      const reported = exits.length;
      assert.ok(reported <= 4, `${reported} exits reported`);
      assert.deepEqual(
        exits.map((e) => e.deaths),
        Array.from({ length: reported }, (_, i) => i + 1),
        'deaths in a row, each one counted',
      );
      await until(() => pool.pids.length === 0); // a worker still starting when the pool gave up dies too
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(exits.length, reported, 'nothing respawned after giving up');
      assert.equal(pool.pids.length, 0);
      await assert.rejects(pool.prove({}, ARTS), /proving workers keep dying/);
    } finally {
      await pool.close();
    }
  });
});
