/**
 * The prover worker's check of the game's ZK map proof (worker.ts calls it; Node tests call it directly). It runs
 * in the worker because `verifyMapProof` loads snarkjs' BN254 curve, which the page's main bundle never pulls in.
 * What the check throws is sorted by the SDK's `refusingUnverified`: a refusal keeps its zone and reason, this
 * machine's failure stays unchecked. The page rebuilds the error from the reply (worker-prover.ts).
 */
import { type MapProofUncheckedError, refusingUnverified } from '@shroud/sdk/errors.ts';
import { MapProofError, verifyMapProof } from '@shroud/sdk/mapproof.ts';
import type { VerifyMapProofReply, VerifyMapProofRequest } from './worker-protocol.ts';

/**
 * Answers one VerifyMapProofRequest: `done` when the proof verifies under the request's keys, `error` with the
 * refusal's zone and reason (the SDK's `refusingUnverified` decides what is a refusal), `unchecked` when this worker
 * could not run the check (a local failure: no one's fault).
 */
export async function handleVerifyMapProof(
  req: VerifyMapProofRequest,
  verify: typeof verifyMapProof = verifyMapProof,
): Promise<VerifyMapProofReply> {
  const t0 = performance.now();
  try {
    await refusingUnverified(() => verify(req.claim, req.proof, req.vkeys));
    return { id: req.id, type: 'done', ms: performance.now() - t0 };
  } catch (e) {
    if (e instanceof MapProofError) return { id: req.id, type: 'error', zone: e.zone, reason: e.reason };
    return { id: req.id, type: 'unchecked', reason: (e as MapProofUncheckedError).reason };
  }
}
