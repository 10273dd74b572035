import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sortingNetwork } from '../../scripts/circuits/sortnet.ts';

/** Applies the network, larger values first (as the circuit's comparators do). */
function run(pairs: readonly [number, number][], values: readonly number[]): number[] {
  const v = values.slice();
  for (const [a, b] of pairs) {
    if (v[a]! < v[b]!) [v[a], v[b]] = [v[b]!, v[a]!];
  }
  return v;
}

test('the sorting network sorts every 0/1 input for n ≤ 16 (0-1 principle: so it sorts everything)', () => {
  for (let n = 0; n <= 16; n++) {
    const pairs = sortingNetwork(n);
    for (const [a, b] of pairs) assert.ok(a < b && b < n, `n ${n}: pair (${a}, ${b})`);
    for (let m = 0; m < 1 << n; m++) {
      const bits = Array.from({ length: n }, (_, i) => (m >> i) & 1);
      const want = bits.slice().sort((x, y) => y - x);
      assert.deepEqual(run(pairs, bits), want, `n ${n}, input ${m.toString(2)}`);
    }
  }
});

test('it sorts random inputs for the larger slot counts, with Batcher-sized networks', () => {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (const n of [17, 24, 32, 33, 48, 105]) {
    const pairs = sortingNetwork(n);
    for (let t = 0; t < 300; t++) {
      const xs = Array.from({ length: n }, () => rand() % 9);
      assert.deepEqual(
        run(pairs, xs),
        xs.slice().sort((x, y) => y - x),
      );
    }
  }
  assert.equal(sortingNetwork(16).length, 63);
  assert.equal(sortingNetwork(32).length, 191);
});
