/**
 * Poseidon for the page: poseidon-lite (pure JS, circomlib's parameters) behind the SDK's `Hasher`, so the
 * bundle needs neither circomlibjs nor its Node shims. Checked against circomlibjs by test/web/hasher.test.ts.
 */
import type { Hasher } from '@shroud/core/poseidon.ts';
import * as lite from 'poseidon-lite';

type Fn = (inputs: bigint[]) => bigint;

/** poseidon1 … poseidon16, by arity. */
const BY_ARITY: readonly Fn[] = [
  lite.poseidon1,
  lite.poseidon2,
  lite.poseidon3,
  lite.poseidon4,
  lite.poseidon5,
  lite.poseidon6,
  lite.poseidon7,
  lite.poseidon8,
  lite.poseidon9,
  lite.poseidon10,
  lite.poseidon11,
  lite.poseidon12,
  lite.poseidon13,
  lite.poseidon14,
  lite.poseidon15,
  lite.poseidon16,
];

export const liteHasher: Hasher = {
  hash(inputs: readonly bigint[]): bigint {
    const f = BY_ARITY[inputs.length - 1];
    if (!f) throw new RangeError(`Poseidon takes 1 to 16 inputs, not ${inputs.length}`);
    return f([...inputs]);
  },
};
