import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { InputError } from './errors.ts';

/**
 * The EIP-55 checksummed form of a 0x address. Refuses (InputError naming `field`) anything but 0x and 40
 * hex digits, and a mixed-case address whose case is not its checksum (a mistyped address); all-lower and
 * all-upper digits carry no checksum and are accepted, as ethers' `getAddress` does.
 */
export function checksumAddress(value: unknown, field = 'address'): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw new InputError(field, 'not an address (0x and 40 hex digits)');
  }
  const digits = value.slice(2);
  const lower = digits.toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    out += Number.parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  const mixed = digits !== lower && digits !== digits.toUpperCase();
  if (mixed && out !== value)
    throw new InputError(field, 'bad EIP-55 checksum (mixed case that is not the checksum)');
  return out;
}

/** The address of an uncompressed secp256k1 public key (65 bytes, 0x04 ‖ x ‖ y): keccak256(x ‖ y)[12..]. */
export function addressOfPublicKey(uncompressed: Uint8Array): string {
  if (uncompressed.length !== 65 || uncompressed[0] !== 4) {
    throw new InputError('publicKey', 'must be an uncompressed secp256k1 point (65 bytes, 0x04 prefix)');
  }
  return checksumAddress(`0x${bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12))}`);
}
