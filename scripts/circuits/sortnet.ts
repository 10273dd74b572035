/**
 * Batcher's odd–even merge sorting network for n inputs, as comparator pairs (i < j: after the
 * comparator, position i holds the larger value when sorting descending). Built for the next power
 * of two; comparators that touch a position ≥ n are dropped, which is sound because the missing
 * positions act as values that never move (a comparator (i, j) with j ≥ n never swaps them in).
 * The circuits sort the forced-reveal lanes with it, so lanes cannot be linked to unit slots.
 */
export function sortingNetwork(n: number): [number, number][] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`bad network size ${n}`);
  let size = 1;
  while (size < n) size *= 2;
  const pairs: [number, number][] = [];
  // Knuth's formulation of the odd–even merge sort (TAOCP 5.3.4, exercise 32).
  for (let p = 1; p < size; p *= 2) {
    for (let k = p; k >= 1; k = Math.floor(k / 2)) {
      for (let j = k % p; j + k < size; j += 2 * k) {
        for (let i = 0; i < Math.min(k, size - j - k); i++) {
          const a = i + j;
          const b = i + j + k;
          if (Math.floor(a / (2 * p)) === Math.floor(b / (2 * p)) && b < n) pairs.push([a, b]);
        }
      }
    }
  }
  return pairs;
}
