import { loadPoseidon } from '#poseidon';
import { InputError } from './errors.ts';
import { FIELD_MODULUS } from './field.ts';

/** Poseidon over BN254 (circomlib parameters), 1 to 16 inputs. The one hash of the protocol core. */
export interface Hasher {
  hash(inputs: readonly bigint[]): bigint;
}

/** Most inputs of one Poseidon call (circomlib's largest width, t = 17). */
export const MAX_POSEIDON_INPUTS = 16;

/**
 * A raw Poseidon behind `Hasher`, refusing what the circuits cannot hash: no inputs or more than 16, and
 * anything but a bigint in [0, p). The implementations would reduce a value ≥ p (or < 0) modulo p
 * silently, so two different inputs would share a hash off-circuit; an error names the input instead.
 */
export function fieldHasher(poseidon: (inputs: readonly bigint[]) => bigint): Hasher {
  return {
    hash(inputs) {
      const n = inputs.length;
      if (n < 1 || n > MAX_POSEIDON_INPUTS) {
        throw new InputError('inputs', `Poseidon takes 1..${MAX_POSEIDON_INPUTS} inputs, got ${n}`);
      }
      for (let i = 0; i < n; i++) {
        const x = inputs[i];
        if (typeof x !== 'bigint' || x < 0n || x >= FIELD_MODULUS) {
          throw new InputError(`inputs[${i}]`, 'not a field element (a bigint in [0, p))');
        }
      }
      return poseidon(inputs);
    },
  };
}

let shared: Promise<Hasher> | undefined;

/**
 * The process's Poseidon, built once: circomlibjs' WASM in Node (the build takes ~100 ms), pure-JS
 * poseidon-lite in browsers (`#poseidon` in core/package.json picks by the `browser` condition).
 */
export function loadHasher(): Promise<Hasher> {
  shared ??= loadPoseidon().then(fieldHasher);
  return shared;
}

/** Wraps a hasher to count calls by arity: pins O(1) claims in tests and counts raw work in benchmarks. */
export function countingHasher(inner: Hasher): Hasher & { calls: Map<number, number>; total(): number } {
  const calls = new Map<number, number>();
  return {
    calls,
    total: () => [...calls.values()].reduce((a, b) => a + b, 0),
    hash(inputs) {
      calls.set(inputs.length, (calls.get(inputs.length) ?? 0) + 1);
      return inner.hash(inputs);
    },
  };
}
