import * as snarkjs from 'snarkjs';
import type { Groth16Proof } from '../../core/mapproof/types.ts';
import type { ChunkJob } from './chunk-prover.ts';

/** A chunk proof from another machine that the dealer will not use; the message says why. */
export class ChunkProofRejected extends Error {
  override name = 'ChunkProofRejected';
}

const DECIMAL = /^[0-9]{1,78}$/;
const decimals = (v: unknown, n: number): v is string[] =>
  Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'string' && DECIMAL.test(x));

/**
 * The proof a prover stored for `job`, accepted only if it is well formed, proves this very zone of
 * this seed with the dealer's own zone root (mapchunk signals: zoneRoot, zone, seedHash), and verifies
 * under the dealer's key. Returns a clean copy (nothing but the proof's fields gets stored).
 */
export async function checkChunkProof(vkey: object, job: ChunkJob, output: unknown): Promise<Groth16Proof> {
  const o = output as { proof?: Record<string, unknown>; publicSignals?: unknown } | null;
  const p = o?.proof;
  if (
    !p ||
    !decimals(o.publicSignals, 3) ||
    !decimals(p.pi_a, 3) ||
    !decimals(p.pi_c, 3) ||
    !Array.isArray(p.pi_b) ||
    p.pi_b.length !== 3 ||
    !p.pi_b.every((xy) => decimals(xy, 2))
  ) {
    throw new ChunkProofRejected(`zone ${job.zone}: the stored result is not a Groth16 proof`);
  }
  const proof: Groth16Proof = {
    proof: {
      pi_a: [...(p.pi_a as string[])],
      pi_b: (p.pi_b as string[][]).map((xy) => [...xy]),
      pi_c: [...(p.pi_c as string[])],
      protocol: 'groth16',
      curve: 'bn128',
    },
    publicSignals: [...o.publicSignals],
  };
  const want = [String(job.zoneRoot), String(job.zone), job.input.seedHash];
  if (proof.publicSignals.some((s, i) => s !== want[i])) {
    throw new ChunkProofRejected(`zone ${job.zone}: the proof is for another zone, seed or map`);
  }
  // Points off the curve may make snarkjs throw rather than answer false: refused the same way.
  const valid = await snarkjs.groth16.verify(vkey, proof.publicSignals, proof.proof).catch(() => false);
  if (!valid) {
    throw new ChunkProofRejected(
      `zone ${job.zone}: the proof does not verify (does the prover have other mapchunk keys than the dealer?)`,
    );
  }
  return proof;
}
