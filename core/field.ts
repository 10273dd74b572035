import { InputError } from './errors.ts';

/** BN254 scalar field modulus: every Poseidon input and output lives below it. */
export const FIELD_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** Parses a decimal or 0x-hex string (or bigint) into a field element; rejects values ≥ p, never reduces. */
export function toField(value: bigint | string | number, field: string): bigint {
  let v: bigint;
  if (typeof value === 'bigint') v = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new InputError(field, `not a safe integer: ${value}`);
    v = BigInt(value);
  } else {
    const s = value.trim();
    if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(s))
      throw new InputError(field, `not a decimal or 0x-hex integer: "${value}"`);
    v = BigInt(s);
  }
  if (v < 0n) throw new InputError(field, 'negative');
  if (v >= FIELD_MODULUS) throw new InputError(field, 'not below the BN254 field modulus');
  return v;
}

/** Lowercase 0x-hex, zero-padded to 32 bytes. */
export function fieldToHex(v: bigint): string {
  return `0x${v.toString(16).padStart(64, '0')}`;
}
