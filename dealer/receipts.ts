import { Signature } from 'ethers';

/** secp256k1 group order, and half of it: the contract refuses signatures with a higher s (EIP-2). */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;

/**
 * A 65-byte signature in the one form `ShroudDisputes.receiptSigner` accepts: `r ‖ s ‖ v` with v 27 or 28 and
 * s ≤ n/2, lowercase hex. A signature given with v 0/1 is rewritten to 27/28 (same signature); null for
 * anything else (wrong length, r or s out of range, a high s): the contract would refuse it, and a dealer that
 * answered a dispute with it would revert `BadReceipt` instead of keeping the deposit.
 */
export function canonicalSignature(signature: string): string | null {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return null;
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130), 16);
  if (r === 0n || r >= N || s === 0n || s > HALF_N) return null;
  if (v !== 0 && v !== 1 && v !== 27 && v !== 28) return null;
  try {
    return Signature.from(signature).serialized.toLowerCase();
  } catch {
    return null;
  }
}
