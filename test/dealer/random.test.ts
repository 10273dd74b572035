/** The dealer's random field elements (master secrets): uniform in [1, p), never a value the core would refuse. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIELD_MODULUS, loadHasher, masterCommitment, tileSalt } from '../../core/index.ts';
import { randomFieldElement } from '../../dealer/random.ts';

test('randomFieldElement draws below p (rejection, not reduction) and over the whole range', async () => {
  const h = await loadHasher();
  const draws = Array.from({ length: 2000 }, () => randomFieldElement());
  for (const v of draws) assert.ok(v > 0n && v < FIELD_MODULUS, `${v}`);
  assert.equal(new Set(draws).size, draws.length);
  // p ≈ 1.51 · 2^253: about a third of the draws lie in [2^253, p), none at or above p.
  const high = draws.filter((v) => v >= 1n << 253n).length;
  assert.ok(high > 400 && high < 1000, `${high} of 2000 draws ≥ 2^253`);
  // A master secret drawn here is one the core takes.
  assert.doesNotThrow(() => masterCommitment(h, draws[0]!));
  assert.doesNotThrow(() => tileSalt(h, draws[1]!, 0));
});
