import { randomBytes } from 'node:crypto';
import { FIELD_MODULUS } from '../core/index.ts';

/** Uniform in [1, p): 254 random bits, rejection-sampled (no modulo bias). */
export function randomFieldElement(): bigint {
  for (;;) {
    const b = randomBytes(32);
    b[0] = b[0]! & 0x3f;
    const v = BigInt(`0x${b.toString('hex')}`);
    if (v > 0n && v < FIELD_MODULUS) return v;
  }
}
