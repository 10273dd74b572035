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
