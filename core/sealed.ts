/**
 * Sealed reveal of seed shares (lifecycle step 3). A player encrypts its share `r_i` to the dealer's
 * secp256k1 key (`dealerEncKey` on-chain) with ECIES; the ciphertext is posted on-chain so the dealer
 * cannot claim it never arrived. If a ciphertext does not open to the preimage of `C_i`, the dealer
 * publishes the ECDH shared point with a Chaum–Pedersen DLEQ proof: anyone can then re-derive the key,
 * decrypt, and see the share is bad, and nobody can use that machinery to frame an honest share.
 *
 * Pure and browser-safe: noble primitives only, no `node:` imports.
 */
import { gcm } from '@noble/ciphers/aes.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { shareCommitment } from './commitments.ts';
import { InputError } from './errors.ts';
import { FIELD_MODULUS, toField } from './field.ts';
import type { Hasher } from './poseidon.ts';

const Point = secp256k1.Point;
type Point = InstanceType<typeof Point>;
/** secp256k1 group order. */
const N = Point.Fn.ORDER;

export const SEALED_VERSION = 1;
const POINT_BYTES = 33;
const NONCE_BYTES = 12;
const SHARE_BYTES = 32;
const TAG_BYTES = 16;
/** version | ephemeral pubkey | nonce | AES-256-GCM(share) | tag. */
export const SEALED_BYTES = 1 + POINT_BYTES + NONCE_BYTES + SHARE_BYTES + TAG_BYTES;

const KDF_INFO_TAG = utf8ToBytes('shroud/sealed-share/v1');
const DLEQ_TAG = utf8ToBytes('shroud/dleq/secp256k1/v1');

/** What a sealed share is bound to: replaying it into another game, seat or chain fails to decrypt. */
export interface SealContext {
  chainId: bigint;
  gameId: bigint;
  /** The player's address as an integer (uint160), as in `C_i = Poseidon(gameId, player, r_i)`. */
  player: bigint;
}

export interface DealerEncKeyPair {
  /** 32-byte secp256k1 secret scalar. */
  secretKey: Uint8Array;
  /** 33-byte compressed public key: `dealerEncKey`. */
  publicKey: Uint8Array;
}

export function generateDealerEncKey(): DealerEncKeyPair {
  const secretKey = secp256k1.utils.randomSecretKey();
  return { secretKey, publicKey: secp256k1.getPublicKey(secretKey, true) };
}

export function dealerEncPublicKey(secretKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(secretKey, true);
}

function u256(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let x = v;
  for (let i = 31; i >= 0; i--, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
}

function toBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

function checkContext(ctx: SealContext): void {
  if (typeof ctx.chainId !== 'bigint' || ctx.chainId < 0n || ctx.chainId >= 1n << 256n) {
    throw new InputError('chainId', 'not a uint256');
  }
  toField(ctx.gameId, 'gameId');
  if (typeof ctx.player !== 'bigint' || ctx.player < 0n || ctx.player >= 1n << 160n) {
    throw new InputError('player', 'not an address (uint160)');
  }
}

function contextBytes(ctx: SealContext): Uint8Array {
  return concatBytes(u256(ctx.chainId), u256(ctx.gameId), u256(ctx.player));
}

function parsePoint(bytes: Uint8Array, field: string): Point {
  if (!(bytes instanceof Uint8Array) || bytes.length !== POINT_BYTES) {
    throw new InputError(field, `expected a ${POINT_BYTES}-byte compressed secp256k1 point`);
  }
  try {
    const p = Point.fromBytes(bytes);
    p.assertValidity();
    return p;
  } catch {
    throw new InputError(field, 'not a point on secp256k1');
  }
}

/** AES key from the ECDH point; salt binds the ephemeral and recipient keys, info binds the game. */
function deriveKey(
  shared: Point,
  ephemeral: Uint8Array,
  dealerKey: Uint8Array,
  ctx: SealContext,
): Uint8Array {
  return hkdf(
    sha256,
    shared.toBytes(true),
    concatBytes(ephemeral, dealerKey),
    concatBytes(KDF_INFO_TAG, contextBytes(ctx)),
    32,
  );
}

function associatedData(ephemeral: Uint8Array, ctx: SealContext): Uint8Array {
  return concatBytes(Uint8Array.of(SEALED_VERSION), ephemeral, contextBytes(ctx));
}

interface ParsedSealed {
  ephemeral: Uint8Array;
  E: Point;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
}

/** Splits a sealed blob; throws `InputError('sealed', …)` when it is not even well-formed. */
export function parseSealedShare(blob: Uint8Array): ParsedSealed {
  if (!(blob instanceof Uint8Array) || blob.length !== SEALED_BYTES) {
    throw new InputError('sealed', `expected ${SEALED_BYTES} bytes`);
  }
  if (blob[0] !== SEALED_VERSION) throw new InputError('sealed', `unknown version ${blob[0]}`);
  const ephemeral = blob.slice(1, 1 + POINT_BYTES);
  const E = parsePoint(ephemeral, 'sealed.ephemeral');
  const nonce = blob.slice(1 + POINT_BYTES, 1 + POINT_BYTES + NONCE_BYTES);
  return { ephemeral, E, nonce, ciphertext: blob.slice(1 + POINT_BYTES + NONCE_BYTES) };
}

/**
 * Seals a 252-bit (field) share to the dealer. `ephemeralSecret` and `nonce` are for test vectors only;
 * by default both are fresh randomness.
 */
export function sealShare(
  dealerKey: Uint8Array,
  share: bigint,
  ctx: SealContext,
  opts: { ephemeralSecret?: Uint8Array; nonce?: Uint8Array } = {},
): Uint8Array {
  checkContext(ctx);
  toField(share, 'share');
  const D = parsePoint(dealerKey, 'dealerEncKey');
  const e = opts.ephemeralSecret ?? secp256k1.utils.randomSecretKey();
  const ephemeral = secp256k1.getPublicKey(e, true);
  const shared = D.multiply(toBigInt(e));
  const nonce = opts.nonce ?? randomBytes(NONCE_BYTES);
  if (nonce.length !== NONCE_BYTES) throw new InputError('nonce', `expected ${NONCE_BYTES} bytes`);
  const key = deriveKey(shared, ephemeral, dealerKey, ctx);
  const ct = gcm(key, nonce, associatedData(ephemeral, ctx)).encrypt(u256(share));
  return concatBytes(Uint8Array.of(SEALED_VERSION), ephemeral, nonce, ct);
}

function secretScalar(secretKey: Uint8Array): bigint {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32) {
    throw new InputError('dealerSecretKey', 'expected 32 bytes');
  }
  const d = toBigInt(secretKey);
  if (d <= 0n || d >= N) throw new InputError('dealerSecretKey', 'not a secp256k1 scalar');
  return d;
}

/** Decrypts with a known shared point; null when authentication fails or the plaintext is not a field element. */
function decryptWithShared(
  p: ParsedSealed,
  shared: Point,
  dealerKey: Uint8Array,
  ctx: SealContext,
): bigint | null {
  const key = deriveKey(shared, p.ephemeral, dealerKey, ctx);
  let plain: Uint8Array;
  try {
    plain = gcm(key, p.nonce, associatedData(p.ephemeral, ctx)).decrypt(p.ciphertext);
  } catch {
    return null;
  }
  if (plain.length !== SHARE_BYTES) return null;
  const share = toBigInt(plain);
  return share < FIELD_MODULUS ? share : null;
}

export type OpenResult =
  | { ok: true; share: bigint }
  | { ok: false; reason: 'malformed' | 'decryption-failed' | 'commitment-mismatch' };

/**
 * The dealer opens a sealed share and checks it against `C_i`. Any failure is the player's fault and
 * is provable with `proveBadShare`.
 */
export function openSealedShare(
  h: Hasher,
  dealerSecretKey: Uint8Array,
  blob: Uint8Array,
  ctx: SealContext,
  commitment: bigint,
): OpenResult {
  checkContext(ctx);
  const d = secretScalar(dealerSecretKey);
  let parsed: ParsedSealed;
  try {
    parsed = parseSealedShare(blob);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const dealerKey = secp256k1.getPublicKey(dealerSecretKey, true);
  const share = decryptWithShared(parsed, parsed.E.multiply(d), dealerKey, ctx);
  if (share === null) return { ok: false, reason: 'decryption-failed' };
  if (shareCommitment(h, ctx.gameId, ctx.player, share) !== commitment)
    return { ok: false, reason: 'commitment-mismatch' };
  return { ok: true, share };
}

/** Chaum–Pedersen proof that log_G(D) = log_E(S), non-interactive by Fiat–Shamir over SHA-256. */
export interface DleqProof {
  challenge: bigint;
  response: bigint;
}

export type BadShareEvidence =
  /** The blob does not parse (length, version or ephemeral point): visible to anyone, no secret needed. */
  | { kind: 'malformed' }
  /** `S = d·E` with its DLEQ proof: anyone re-derives the key and sees decryption or the commitment fail. */
  | { kind: 'shared-point'; sharedPoint: Uint8Array; proof: DleqProof };

function dleqChallenge(D: Point, E: Point, S: Point, A1: Point, A2: Point): bigint {
  const bytes = concatBytes(DLEQ_TAG, ...[Point.BASE, D, E, S, A1, A2].map((p) => p.toBytes(true)));
  return toBigInt(sha256(bytes)) % N;
}

export function proveDleq(dealerSecretKey: Uint8Array, E: Point): { S: Point; proof: DleqProof } {
  const d = secretScalar(dealerSecretKey);
  const D = Point.BASE.multiply(d);
  const S = E.multiply(d);
  const k = toBigInt(secp256k1.utils.randomSecretKey());
  const challenge = dleqChallenge(D, E, S, Point.BASE.multiply(k), E.multiply(k));
  return { S, proof: { challenge, response: (k + challenge * d) % N } };
}

export function verifyDleq(D: Point, E: Point, S: Point, proof: DleqProof): boolean {
  const { challenge: c, response: s } = proof;
  if (typeof c !== 'bigint' || typeof s !== 'bigint' || c < 0n || c >= N || s < 0n || s >= N) return false;
  // A1 = s·G − c·D and A2 = s·E − c·S; an honest proof reproduces k·G and k·E.
  const A1 = Point.BASE.multiplyUnsafe(s).subtract(D.multiplyUnsafe(c));
  const A2 = E.multiplyUnsafe(s).subtract(S.multiplyUnsafe(c));
  if (A1.is0() || A2.is0()) return false;
  return dleqChallenge(D, E, S, A1, A2) === c;
}

/** Evidence that a sealed share is bad; throws if the share is actually good (the dealer must not file). */
export function proveBadShare(
  h: Hasher,
  dealerSecretKey: Uint8Array,
  blob: Uint8Array,
  ctx: SealContext,
  commitment: bigint,
): BadShareEvidence {
  const opened = openSealedShare(h, dealerSecretKey, blob, ctx, commitment);
  if (opened.ok)
    throw new InputError('sealed', 'the share opens its commitment: there is no evidence to give');
  if (opened.reason === 'malformed') return { kind: 'malformed' };
  const { S, proof } = proveDleq(dealerSecretKey, parseSealedShare(blob).E);
  return { kind: 'shared-point', sharedPoint: S.toBytes(true), proof };
}

/**
 * Anyone's check of the dealer's claim. True only if the evidence is sound AND it shows that the
 * ciphertext does not open to the preimage of `commitment`; an honest share can never be framed.
 */
export function verifyBadShareEvidence(
  h: Hasher,
  dealerKey: Uint8Array,
  blob: Uint8Array,
  ctx: SealContext,
  commitment: bigint,
  evidence: BadShareEvidence,
): boolean {
  checkContext(ctx);
  const D = parsePoint(dealerKey, 'dealerEncKey');
  let parsed: ParsedSealed;
  try {
    parsed = parseSealedShare(blob);
  } catch {
    return true; // a blob that does not parse is bad whatever the evidence says
  }
  if (evidence.kind !== 'shared-point') return false;
  let S: Point;
  try {
    S = parsePoint(evidence.sharedPoint, 'evidence.sharedPoint');
  } catch {
    return false;
  }
  if (!verifyDleq(D, parsed.E, S, evidence.proof)) return false;
  const share = decryptWithShared(parsed, S, D.toBytes(true), ctx);
  return share === null || shareCommitment(h, ctx.gameId, ctx.player, share) !== commitment;
}

/** Address (0x + 40 hex) → uint160, the form `C_i` and `SealContext` use. */
export function addressToField(address: string): bigint {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new InputError('player', `not an address: "${address}"`);
  return BigInt(address);
}
