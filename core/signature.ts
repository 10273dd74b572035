import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { addressOfPublicKey } from './address.ts';
import { bytesFromHex } from './bytes.ts';
import { InputError } from './errors.ts';

const N = secp256k1.Point.Fn.ORDER;
const HALF_N = N >> 1n;

/** A secp256k1 signature as recovery needs it. */
export interface RecoverableSignature {
  r: bigint;
  s: bigint;
  yParity: 0 | 1;
}

/**
 * Parses a wallet's signature the way ethers' `Signature.from` does for the encodings wallets produce:
 * 65 bytes r ‖ s ‖ v with v 27/28 (or 0/1), or 64 bytes EIP-2098 (the top bit of s carries yParity).
 * Refuses, with an InputError naming `signature`, other lengths and v values (EIP-155 v ≥ 35 belongs to
 * transactions, not typed data), r or s outside [1, n), and a high s (> n/2): a signature's high-s twin
 * (r, n − s, ¬v) recovers the same address, so accepting both would make every signature malleable (EIP-2).
 * ethers refuses s ≥ 2^255 and the contract (ShroudDisputes) s > n/2; both refuse every twin of a
 * wallet's low-s signature except with probability ~2^-128, and this is the contract's rule.
 */
export function parseSignature(signature: unknown): RecoverableSignature {
  const raw = bytesFromHex(signature, 'signature');
  let yParity: 0 | 1;
  const sBytes = raw.slice(32, 64);
  if (raw.length === 65) {
    const v = raw[64]!;
    if (v === 27 || v === 0) yParity = 0;
    else if (v === 28 || v === 1) yParity = 1;
    else throw new InputError('signature', `v must be 27 or 28 (or 0/1), got ${v}`);
  } else if (raw.length === 64) {
    yParity = sBytes[0]! & 0x80 ? 1 : 0;
    sBytes[0] = sBytes[0]! & 0x7f;
  } else {
    throw new InputError('signature', `must be 65 bytes (r, s, v) or 64 (EIP-2098), got ${raw.length}`);
  }
  const r = bytesToNumberBE(raw.subarray(0, 32));
  const s = bytesToNumberBE(sBytes);
  if (r === 0n || r >= N) throw new InputError('signature', 'r is not in [1, n)');
  if (s === 0n || s >= N) throw new InputError('signature', 's is not in [1, n)');
  if (s > HALF_N) throw new InputError('signature', 'high s (non-canonical, EIP-2): use the low-s form');
  return { r, s, yParity };
}

/**
 * The checksummed address whose key signed the 32-byte `digest` (0x-hex), as ethers' `recoverAddress`.
 * Throws an InputError for a malformed signature or one that recovers no key; a well-formed signature by
 * someone else recovers that someone else, so callers compare the result with the claimed signer.
 */
export function recoverAddress(digest: string, signature: unknown): string {
  const hash = bytesFromHex(digest, 'digest', 32);
  const { r, s, yParity } = parseSignature(signature);
  let publicKey: Uint8Array;
  try {
    publicKey = new secp256k1.Signature(r, s, yParity).recoverPublicKey(hash).toBytes(false);
  } catch {
    throw new InputError('signature', 'recovers no public key for this digest');
  }
  return addressOfPublicKey(publicKey);
}
