/**
 * core/poseidon.ts: Node's circomlibjs and the browser's poseidon-lite are the same function on arities
 * 1..16, and both refuse what is not a field element instead of reducing it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { FIELD_MODULUS as P } from '../../core/field.ts';
import {
  countingHasher,
  fieldHasher,
  type Hasher,
  loadHasher,
  MAX_POSEIDON_INPUTS,
} from '../../core/poseidon.ts';
import { loadPoseidon as loadCircomlib } from '../../core/poseidon-circomlib.ts';
import { loadPoseidon as loadLite } from '../../core/poseidon-lite.ts';

const node = fieldHasher(await loadCircomlib());
const browser = fieldHasher(await loadLite());
const hashers: [string, Hasher][] = [
  ['circomlibjs (Node)', node],
  ['poseidon-lite (browser)', browser],
  ['loadHasher()', await loadHasher()],
];

const randomField = (): bigint => BigInt(`0x${randomBytes(32).toString('hex')}`) % P;

describe('Poseidon', () => {
  test('circomlib reference vectors: Poseidon(1, 2) and Poseidon(0)', () => {
    for (const [name, h] of hashers) {
      assert.equal(
        h.hash([1n, 2n]),
        7853200120776062878684798364095072458815029376092732009249414926327459813530n,
        name,
      );
      assert.equal(
        h.hash([0n]),
        19014214495641488759237505126948346942972912379615652741039992445865937985820n,
        name,
      );
    }
  });

  test('Node and browser hashers agree on every arity 1..16, random and edge inputs (0, 1, p − 1)', () => {
    for (let n = 1; n <= MAX_POSEIDON_INPUTS; n++) {
      const vectors = [
        Array.from({ length: n }, randomField),
        Array.from({ length: n }, randomField),
        Array(n).fill(0n),
        Array(n).fill(P - 1n),
        Array.from({ length: n }, (_, i) => [0n, 1n, P - 1n][i % 3]!),
      ];
      for (const v of vectors) assert.equal(browser.hash(v), node.hash(v), `arity ${n}: ${v.join(',')}`);
    }
  });

  test('loadHasher() is built once and hashes as both', async () => {
    assert.equal(await loadHasher(), await loadHasher());
    const v = [randomField(), randomField(), randomField()];
    assert.equal((await loadHasher()).hash(v), node.hash(v));
  });

  test('both refuse a value ≥ p or < 0 (the raw hashes would reduce it mod p) and a non-bigint, naming the input', () => {
    const bad: unknown[] = [P, P + 1n, 1n << 256n, -1n, -P, 5, '5', undefined];
    for (const [name, h] of hashers) {
      for (const x of bad) {
        assert.throws(
          () => h.hash([1n, x as bigint]),
          (e: any) =>
            e.name === 'InputError' && e.field === 'inputs[1]' && /not a field element/.test(e.message),
          `${name}: ${String(x)}`,
        );
      }
      for (const n of [0, MAX_POSEIDON_INPUTS + 1]) {
        assert.throws(
          () => h.hash(Array(n).fill(1n)),
          (e: any) => e.name === 'InputError' && e.field === 'inputs' && e.message.includes(`got ${n}`),
          `${name}: ${n} inputs`,
        );
      }
    }
  });

  test('without the guard, p would hash like 0: the refusal is what keeps hashes one-to-one', async () => {
    const rawNode = await loadCircomlib();
    const rawLite = await loadLite();
    assert.equal(rawNode([P]), node.hash([0n]));
    assert.equal(rawLite([P]), node.hash([0n]));
  });

  test('countingHasher counts calls by arity and passes results through', () => {
    const c = countingHasher(browser);
    assert.equal(c.hash([1n, 2n]), node.hash([1n, 2n]));
    c.hash([3n]);
    c.hash([4n]);
    assert.deepEqual([...c.calls.entries()].sort(), [
      [1, 2],
      [2, 1],
    ]);
    assert.equal(c.total(), 3);
  });
});
