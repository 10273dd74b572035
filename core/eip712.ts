import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { checksumAddress } from './address.ts';
import { bytesFromHex, hexFromBytes } from './bytes.ts';
import { InputError } from './errors.ts';

/**
 * EIP-712 typed-data hashing without ethers, so the core runs in a browser as is. It covers what the
 * protocol's messages use: one flat struct per message whose fields are uintN / intN, bool, address,
 * bytesN, bytes, string or dynamic arrays of those. Anything else (struct references, fixed-size arrays,
 * unknown names) is refused when the encoder is built, so a message type the core cannot hash exactly
 * as a wallet would fails at once instead of producing digests nobody can sign. Digests equal ethers'
 * `TypedDataEncoder.hash` (test/core/eip712.test.ts).
 */

/** One field of a struct type. */
export interface TypedDataField {
  name: string;
  type: string;
}

/** Struct name → fields, as wallets' `signTypedData` takes them. */
export type TypedDataTypes = Record<string, TypedDataField[]>;

/** The EIP-712 domain; the same shape as ethers' `TypedDataDomain`, so either passes where the other is expected. */
export interface TypedDataDomain {
  name?: string | null;
  version?: string | null;
  chainId?: bigint | number | string | null;
  verifyingContract?: string | null;
  salt?: string | Uint8Array | null;
}

/**
 * What the core needs of a wallet to sign: an ethers `Signer` (or `Wallet`) satisfies it, and so can any
 * browser wallet adapter. The core never holds keys.
 */
export interface TypedDataSigner {
  signTypedData(domain: TypedDataDomain, types: TypedDataTypes, value: object): Promise<string>;
}

/** Encodes one value as its 32-byte EIP-712 word; `field` names it in errors. */
type WordEncoder = (value: unknown, field: string) => Uint8Array;

const keccak = (b: Uint8Array): Uint8Array => keccak_256(b);

function integerOf(value: unknown, field: string, type: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^(?:0x[0-9a-fA-F]+|-?[0-9]+)$/.test(value)) return BigInt(value);
  throw new InputError(field, `${type} needs an integer (bigint, safe integer or decimal/0x string)`);
}

function word(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let x = BigInt.asUintN(256, v);
  for (let i = 31; i >= 0 && x > 0n; i--, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
}

function integerEncoder(type: string, signed: boolean, bits: number): WordEncoder {
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  return (value, field) => {
    const v = integerOf(value, field, type);
    if (v < min || v > max) throw new InputError(field, `out of range for ${type}`);
    return word(v);
  };
}

function bytesOf(value: unknown, field: string, length?: number): Uint8Array {
  if (value instanceof Uint8Array) {
    if (length !== undefined && value.length !== length) {
      throw new InputError(field, `must be ${length} bytes, got ${value.length}`);
    }
    return value;
  }
  return bytesFromHex(value, field, length);
}

/** The encoder of an atomic or dynamic type (EIP-712 `encodeData` per member), or a clear error. */
function encoderFor(type: string, where: string): WordEncoder {
  if (type.endsWith('[]')) {
    const element = encoderFor(type.slice(0, -2), where);
    return (value, field) => {
      if (!Array.isArray(value)) throw new InputError(field, `${type} needs an array`);
      return keccak(concatBytes(...value.map((v, i) => element(v, `${field}[${i}]`))));
    };
  }
  const int = /^(u?)int(\d{1,3})$/.exec(type);
  if (int) {
    const bits = Number(int[2]);
    if (bits >= 8 && bits <= 256 && bits % 8 === 0) return integerEncoder(type, int[1] === '', bits);
  }
  const fixed = /^bytes(\d{1,2})$/.exec(type);
  if (fixed) {
    const n = Number(fixed[1]);
    if (n >= 1 && n <= 32) {
      return (value, field) => {
        const out = new Uint8Array(32);
        out.set(bytesOf(value, field, n));
        return out;
      };
    }
  }
  switch (type) {
    case 'address':
      return (value, field) => word(BigInt(checksumAddress(value, field)));
    case 'bool':
      return (value, field) => {
        if (typeof value !== 'boolean') throw new InputError(field, 'bool needs true or false');
        return word(value ? 1n : 0n);
      };
    case 'string':
      return (value, field) => {
        if (typeof value !== 'string') throw new InputError(field, 'string needs a string');
        return keccak(utf8ToBytes(value));
      };
    case 'bytes':
      return (value, field) => keccak(bytesOf(value, field));
  }
  throw new InputError(
    where,
    `EIP-712 type "${type}" is not supported here (structs, fixed arrays and unknown names are refused)`,
  );
}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A struct's EIP-712 encoder, built once per types record. */
export interface StructEncoder {
  readonly primaryType: string;
  /** e.g. `Join(bytes32 lobbyId,address player,…)`. */
  readonly encodeType: string;
  /** keccak256(typeHash ‖ encodeData(value)) as 0x-hex: EIP-712 `hashStruct`. */
  hashStruct(value: object): string;
}

function buildStructEncoder(primaryType: string, fields: readonly TypedDataField[]): StructEncoder {
  if (!NAME.test(primaryType)) throw new InputError('types', `bad struct name "${primaryType}"`);
  const seen = new Set<string>();
  const members = fields.map((f, i) => {
    const where = `types.${primaryType}[${i}]`;
    if (typeof f?.name !== 'string' || !NAME.test(f.name)) throw new InputError(where, 'bad field name');
    if (seen.has(f.name)) throw new InputError(where, `duplicate field "${f.name}"`);
    seen.add(f.name);
    return { name: f.name, encode: encoderFor(String(f.type), where) };
  });
  const encodeType = `${primaryType}(${fields.map((f) => `${f.type} ${f.name}`).join(',')})`;
  const typeHash = keccak(utf8ToBytes(encodeType));
  return {
    primaryType,
    encodeType,
    hashStruct(value) {
      if (value === null || typeof value !== 'object')
        throw new InputError('value', `${primaryType} needs an object`);
      const record = value as Record<string, unknown>;
      const words = members.map((m) => {
        const v = record[m.name];
        if (v === undefined || v === null) throw new InputError(m.name, `missing (${primaryType} needs it)`);
        return m.encode(v, m.name);
      });
      return hexFromBytes(keccak(concatBytes(typeHash, ...words)));
    },
  };
}

const structEncoders = new WeakMap<TypedDataTypes, StructEncoder>();

/**
 * The encoder of the one struct in `types` (the core's messages are flat: a record with exactly one
 * struct and no `EIP712Domain`). Cached per record object, so passing the same constant is free.
 */
export function structEncoder(types: TypedDataTypes): StructEncoder {
  let e = structEncoders.get(types);
  if (!e) {
    const names = Object.keys(types);
    if (names.length !== 1) {
      throw new InputError(
        'types',
        `exactly one struct type is supported, got ${names.length} (${names.join(', ')})`,
      );
    }
    const name = names[0]!;
    if (name === 'EIP712Domain')
      throw new InputError('types', 'EIP712Domain is implied by the domain, not a message type');
    e = buildStructEncoder(name, types[name]!);
    structEncoders.set(types, e);
  }
  return e;
}

/** EIP-712's domain fields in their canonical order. */
const DOMAIN_FIELDS: readonly TypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
];
const DOMAIN_KEYS = new Set(DOMAIN_FIELDS.map((f) => f.name));

const domainSeparators = new Map<string, string>();
const MAX_CACHED_DOMAINS = 256;

/** Distinct for distinct domains (JSON escapes every value; types tagged so 1n and "1" differ). */
function domainKey(domain: TypedDataDomain): string {
  return JSON.stringify(
    DOMAIN_FIELDS.map(({ name }) => {
      const v = domain[name as keyof TypedDataDomain];
      return v instanceof Uint8Array ? ['bytes', hexFromBytes(v)] : [typeof v, String(v)];
    }),
  );
}

/**
 * The domain separator, `hashStruct(EIP712Domain)` over the fields present (null or undefined ones left
 * out, as ethers does), as 0x-hex. Unknown domain keys are refused. Cached: a dealer hashes the same few
 * domains for every request.
 */
export function hashDomain(domain: TypedDataDomain): string {
  if (domain === null || typeof domain !== 'object') throw new InputError('domain', 'needs an object');
  for (const key of Object.keys(domain)) {
    if (!DOMAIN_KEYS.has(key)) throw new InputError(`domain.${key}`, 'not an EIP-712 domain field');
  }
  const key = domainKey(domain);
  let separator = domainSeparators.get(key);
  if (separator === undefined) {
    const present = DOMAIN_FIELDS.filter(({ name }) => domain[name as keyof TypedDataDomain] != null);
    separator = buildStructEncoder('EIP712Domain', present).hashStruct(domain);
    if (domainSeparators.size >= MAX_CACHED_DOMAINS) domainSeparators.clear();
    domainSeparators.set(key, separator);
  }
  return separator;
}

/** keccak256(0x1901 ‖ domainSeparator ‖ structHash): the digest a wallet signs. */
export function typedDataDigest(domainSeparator: string, structHash: string): string {
  return hexFromBytes(
    keccak(
      concatBytes(
        Uint8Array.of(0x19, 0x01),
        bytesFromHex(domainSeparator, 'domainSeparator', 32),
        bytesFromHex(structHash, 'structHash', 32),
      ),
    ),
  );
}

/** The EIP-712 digest of `value` (ethers' `TypedDataEncoder.hash(domain, types, value)`). */
export function hashTypedData(domain: TypedDataDomain, types: TypedDataTypes, value: object): string {
  return typedDataDigest(hashDomain(domain), structEncoder(types).hashStruct(value));
}
