/** Messages between the page and the prover worker (client/web/worker.ts). Types only. */
import type { CircuitKind } from '@shroud/sdk';

/** Page → worker: one Groth16 proof. The bytes were checked against their on-chain SHA-256 by the page. */
export interface ProveRequest {
  id: number;
  circuit: CircuitKind;
  /** The witness plan's input, bigints as decimal strings (structured clone keeps bigints, snarkjs wants strings). */
  input: Record<string, unknown>;
  wasm: Uint8Array;
  zkey: Uint8Array;
}

/** The proving steps, in order: the witness, then the stages snarkjs' Groth16 prover logs. */
export const PROVE_STAGES = [
  'witness',
  'Reading Wtns',
  'Reading Coeffs',
  'Building ABC',
  'Join ABC',
  'Reading A Points',
  'Reading B1 Points',
  'Reading B2 Points',
  'Reading C Points',
  'Reading H Points',
] as const;

export type WorkerReply =
  | { id: number; type: 'progress'; stage: number; of: number; label: string }
  | { id: number; type: 'done'; proof: unknown; publicSignals: string[]; ms: number }
  | { id: number; type: 'error'; message: string };
