import type { BadShareEvidence } from '../../core/sealed.ts';

/**
 * Byte encoding of bad-share evidence for `reportBadCiphertext` (the contract only stores it in the
 * `BadCiphertext` event; players and auditors decode it and run core `verifyBadShareEvidence`):
 *
 *   version 0x01 ‖ kind
 *   kind 0x00 malformed:     nothing more (the blob itself shows it)           →  2 bytes
 *   kind 0x01 shared-point:  S (33-byte compressed secp256k1 point)
 *                            ‖ challenge (32 bytes, big-endian) ‖ response (32 bytes, big-endian) → 99 bytes
 */
export const EVIDENCE_VERSION = 1;

const be32 = (v: bigint): Uint8Array => {
  const out = new Uint8Array(32);
  let x = v;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  if (x !== 0n) throw new Error('evidence: scalar exceeds 32 bytes');
  return out;
};

export function encodeEvidence(e: BadShareEvidence): Uint8Array {
  if (e.kind === 'malformed') return Uint8Array.of(EVIDENCE_VERSION, 0);
  if (e.sharedPoint.length !== 33) throw new Error('evidence: sharedPoint must be 33 bytes');
  const out = new Uint8Array(99);
  out.set([EVIDENCE_VERSION, 1]);
  out.set(e.sharedPoint, 2);
  out.set(be32(e.proof.challenge), 35);
  out.set(be32(e.proof.response), 67);
  return out;
}

export function decodeEvidence(b: Uint8Array): BadShareEvidence {
  if (b[0] !== EVIDENCE_VERSION) throw new Error('evidence: unknown version');
  if (b[1] === 0 && b.length === 2) return { kind: 'malformed' };
  if (b[1] !== 1 || b.length !== 99) throw new Error('evidence: bad kind or length');
  const big = (from: number) => BigInt(`0x${Buffer.from(b.subarray(from, from + 32)).toString('hex')}`);
  return {
    kind: 'shared-point',
    sharedPoint: b.slice(2, 35),
    proof: { challenge: big(35), response: big(67) },
  };
}
