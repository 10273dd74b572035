import assert from 'node:assert/strict';
import { test } from 'node:test';
import { liteHasher } from '../../client/web/hasher.ts';
import { loadHasher } from '../../core/index.ts';

test("the page's poseidon-lite hasher equals circomlibjs' for every arity, and refuses 0 or 17 inputs", async () => {
  const ref = await loadHasher();
  for (let n = 1; n <= 16; n++) {
    const inputs = Array.from({ length: n }, (_, i) => BigInt(i * 7919 + n) ** 5n);
    assert.equal(liteHasher.hash(inputs), ref.hash(inputs), `arity ${n}`);
  }
  assert.throws(() => liteHasher.hash([]), /1 to 16 inputs, not 0/);
  assert.throws(() => liteHasher.hash(new Array(17).fill(1n)), /1 to 16 inputs, not 17/);
});
