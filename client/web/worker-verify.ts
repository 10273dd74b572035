/**
 * The prover worker's check of the game's ZK map proof (worker.ts calls it; Node tests call it directly). It runs
 * in the worker because `verifyMapProof` loads snarkjs' BN254 curve, which the page's main bundle never pulls in.
 * Whatever the check throws is a refusal of the proof: a MapProofError keeps its zone and reason, anything else
 * (a malformed point the curve rejects, a missing field) is a refusal of the whole proof (zone null), as the SDK's
 * `refusingUnverified` would make it. The page rebuilds the MapProofError from the reply (map-proof.ts).
 */
import { MapProofError, verifyMapProof } from '@shroud/sdk/mapproof.ts';
import type { VerifyMapProofReply, VerifyMapProofRequest } from './worker-protocol.ts';

/** What MapProofError's constructor put before the reason. */
const prefix = (zone: number | null) => (zone === null ? 'map proof: ' : `map proof, zone ${zone}: `);

/** The zone and the reason of a MapProofError (its message without the prefix the constructor adds). */
export function mapProofRefusal(e: unknown): { zone: number | null; reason: string } {
  if (e instanceof MapProofError) {
    const p = prefix(e.zone);
    return { zone: e.zone, reason: e.message.startsWith(p) ? e.message.slice(p.length) : e.message };
  }
  return { zone: null, reason: `does not verify (${(e as Error)?.message ?? String(e)})` };
}

/** Answers one VerifyMapProofRequest: `done` when the proof verifies under the request's keys, else `error`. */
export async function handleVerifyMapProof(
  req: VerifyMapProofRequest,
  verify: typeof verifyMapProof = verifyMapProof,
): Promise<VerifyMapProofReply> {
  const t0 = performance.now();
  try {
    await verify(req.claim, req.proof, req.vkeys);
    return { id: req.id, type: 'done', ms: performance.now() - t0 };
  } catch (e) {
    return { id: req.id, type: 'error', ...mapProofRefusal(e) };
  }
}
