import { buildPoseidon } from 'circomlibjs';

/**
 * Node's Poseidon: circomlibjs' WASM build, ~3× faster than pure JS. circomlibjs needs Node's `events`
 * and `assert`, so browsers get core/poseidon-lite.ts instead (core/package.json `imports`, condition
 * `browser`). Raw: inputs are checked by core/poseidon.ts.
 */
export async function loadPoseidon(): Promise<(inputs: readonly bigint[]) => bigint> {
  const poseidon = await buildPoseidon();
  const F = poseidon.F;
  return (inputs) => F.toObject(poseidon(inputs as bigint[])) as bigint;
}
