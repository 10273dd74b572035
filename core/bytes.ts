import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { InputError } from './errors.ts';

/** True for a 0x-prefixed hex string of exactly `length` bytes (any length when omitted). */
export function isHexBytes(value: unknown, length?: number): value is string {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) return false;
  return length === undefined || value.length === 2 + 2 * length;
}

/** The bytes of a 0x-hex string; an InputError naming `field` unless it is whole bytes (of `length`, if given). */
export function bytesFromHex(value: unknown, field: string, length?: number): Uint8Array {
  if (!isHexBytes(value)) throw new InputError(field, 'must be a 0x-prefixed hex string of whole bytes');
  if (length !== undefined && value.length !== 2 + 2 * length) {
    throw new InputError(field, `must be ${length} bytes, got ${(value.length - 2) / 2}`);
  }
  return hexToBytes(value.slice(2));
}

/** Lowercase 0x-hex. */
export function hexFromBytes(bytes: Uint8Array): string {
  return `0x${bytesToHex(bytes)}`;
}
