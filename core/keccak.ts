import { keccak_256 } from '@noble/hashes/sha3.js';
import { hexFromBytes } from './bytes.ts';

/** Ethereum's keccak256 (not SHA3-256) of raw bytes, as lowercase 0x-hex (ethers' `keccak256`). */
export function keccak256(data: Uint8Array): string {
  return hexFromBytes(keccak_256(data));
}
