/** Messages between the page and the prover worker (client/web/worker.ts). Types only, and the proving stages. */
import type { MapProof } from '@shroud/core/mapproof/types.ts';
import type { CircuitKind } from '@shroud/sdk';
import type { MapProofClaim, MapProofKeys } from '@shroud/sdk/mapproof.ts';

/** Page → worker: one Groth16 proof. The bytes were checked against their on-chain SHA-256 by the page. */
export interface ProveRequest {
  id: number;
  type: 'prove';
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

/**
 * Page → worker: check the game's ZK map proof (`verifyMapProof`). The claim holds the chain's values (bigints
 * survive structured clone), the proof is the dealer's, the keys are the ones compiled into the page.
 */
export interface VerifyMapProofRequest {
  id: number;
  type: 'verify-map-proof';
  claim: MapProofClaim;
  proof: MapProof;
  vkeys: MapProofKeys;
}

export type WorkerRequest = ProveRequest | VerifyMapProofRequest;

/**
 * Worker → page, for a VerifyMapProofRequest: verified, or refused with the MapProofError's zone (null: the root
 * proof or the response as a whole) and its reason (the message without the "map proof[, zone N]: " prefix).
 */
export type VerifyMapProofReply =
  | { id: number; type: 'done'; ms: number }
  | { id: number; type: 'error'; zone: number | null; reason: string }
  /** The worker could not run the check (MapProofUncheckedError's reason): no one's fault, asked again later. */
  | { id: number; type: 'unchecked'; reason: string };
