/**
 * The pieces that let the pretest build circuits side by side: the bounded pool and a progress display that
 * reports several steps at once. (The builds' own safety under concurrency is the cache lock: lock.test.ts.)
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { mapPool } from '../../scripts/lib/pool.ts';
import { consoleProgress } from '../../scripts/lib/progress.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mapPool', () => {
  it('keeps at most `limit` calls in flight and the results in the items’ order', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapPool([30, 5, 20, 1, 10], 2, async (ms, i) => {
      peak = Math.max(peak, ++inFlight);
      await tick(ms);
      inFlight--;
      return `${i}:${ms}`;
    });
    assert.deepEqual(out, ['0:30', '1:5', '2:20', '3:1', '4:10']);
    assert.equal(peak, 2);
  });

  it('starts nothing after a failure, waits for the calls in flight, then throws the first error', async () => {
    const started: number[] = [];
    let settled = 0;
    await assert.rejects(
      mapPool([0, 1, 2, 3, 4], 2, async (i) => {
        started.push(i);
        if (i === 0) throw new Error('boom 0');
        await tick(20);
        settled++;
        if (i === 1) throw new Error('boom 1');
      }),
      /^Error: boom 0$/,
    );
    assert.deepEqual(started, [0, 1]);
    assert.equal(settled, 1, 'the call in flight finished before the pool threw');
  });

  it('refuses a limit that is not a positive integer; an empty list is fine', async () => {
    await assert.rejects(
      mapPool([1], 0, async () => 1),
      /limit 0 is not a positive integer/,
    );
    await assert.rejects(
      mapPool([1], 1.5, async () => 1),
      /limit 1.5/,
    );
    assert.deepEqual(await mapPool([], 3, async () => 1), []);
  });
});

describe('consoleProgress with steps at once (plain mode)', () => {
  it('gives each running step its own heartbeat and end line', async () => {
    let text = '';
    const out = new Writable({
      write(chunk, _enc, cb) {
        text += String(chunk);
        cb();
      },
    }) as unknown as NodeJS.WriteStream;
    const p = consoleProgress({ out, plain: true, heartbeatMs: 1 });
    const a = p.step('setup a', 60_000);
    const b = p.step('setup b');
    await tick(1_100); // the heartbeat timer runs once a second
    b.done();
    a.done();
    const lines = text.trim().split('\n');
    assert.deepEqual(lines.slice(0, 2), ['· setup a… (expected about 1 min 00 s)', '· setup b…']);
    assert.ok(
      lines.some((l) => /^· setup a: \d+ s elapsed, about \d+ s left$/.test(l)),
      text,
    );
    assert.ok(
      lines.some((l) => /^· setup b: \d+ s elapsed, no estimate yet \(first run\)$/.test(l)),
      text,
    );
    assert.match(lines.at(-2)!, /^· setup b: done in \d+ s$/);
    assert.match(lines.at(-1)!, /^· setup a: done in \d+ s$/);
  });
});
