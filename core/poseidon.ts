import { buildPoseidon } from 'circomlibjs';

/** Poseidon over BN254 (circomlib parameters), 1 to 16 inputs. The one hash of the protocol core. */
export interface Hasher {
  hash(inputs: readonly bigint[]): bigint;
}

let shared: Promise<Hasher> | undefined;

/** circomlibjs' WASM Poseidon behind `Hasher`; built once per process (the build takes ~100 ms). */
export function loadHasher(): Promise<Hasher> {
  shared ??= buildPoseidon().then((poseidon) => {
    const F = poseidon.F;
    return {
      hash: (inputs: readonly bigint[]): bigint => F.toObject(poseidon(inputs as bigint[])) as bigint,
    };
  });
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
