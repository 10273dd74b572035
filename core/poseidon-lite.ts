import type { poseidon1 } from 'poseidon-lite';

/**
 * The browser's Poseidon: poseidon-lite, pure JS with circomlib's parameters (arities 1..16) and no Node
 * built-ins, so bundles need no shims. Chosen by the `browser` condition of core/package.json `imports`.
 * Loaded on first use: unpacking its round constants takes a moment. Raw: inputs are checked by
 * core/poseidon.ts.
 */
export async function loadPoseidon(): Promise<(inputs: readonly bigint[]) => bigint> {
  const lite = await import('poseidon-lite');
  const byArity: (typeof poseidon1)[] = [
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
  return (inputs) => byArity[inputs.length - 1]!(inputs as bigint[]);
}
