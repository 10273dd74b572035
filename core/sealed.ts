/**
 * Sealed reveal of seed shares (lifecycle step 3): verifiable encryption to the dealer, MACI-style.
 *
 * The dealer's seal key is a Baby Jubjub key pair (d, P = d·BASE8). A player seals its share r to P:
 * ephemeral e, E = e·BASE8, S = e·P, c = r + Poseidon(S.x, S.y, gameId, player) mod p, and posts
 * (E.y, c) with a Groth16 proof (`circuits/seal.circom`) that c opens, under P and this game and player,
 * to the preimage of its commitment C_i = Poseidon(gameId, player, r). The contract verifies the proof
 * at sealedReveal, so every accepted share opens: there is no bad-share path, no evidence to file, and
 * the dealer never publishes anything derived from its key.
 *
 * Gas shapes the public signals (each costs a verifier ~6–7k): the game's id and key enter as one
 * `sealContext = Poseidon(gameId, P.x, P.y)` the contract stores at creation, and E as its y alone.
 * The dealer tries both points with that y (E and −E): only E opens C_i, and the proof says one does.
 *
 * That is why one key per dealer is safe: the dealer only ever computes d·E privately and checks the
 * result against C_i; it never answers or publishes anything computed from its key and an input
 * someone else chose (the old "bad ciphertext" DLEQ evidence did, which made it a decryption oracle).
 * Binding the pad to (gameId, player) means a sealed share replayed into another game or seat opens to
 * garbage, and the proof would not verify there anyway.
 *
 * Pure and browser-safe: BigInt curve arithmetic (`core/babyjub.ts`), randomness from
 * `globalThis.crypto`, no `node:` imports.
 */
import {
  BASE8,
  eqPoint,
  IDENTITY,
  inCurve,
  inSubgroup,
  mulPoint,
  type Point,
  pointsWithY,
  SUBGROUP_ORDER,
} from './babyjub.ts';
import { shareCommitment } from './commitments.ts';
import { InputError } from './errors.ts';
import { FIELD_MODULUS, toField } from './field.ts';
import type { Hasher } from './poseidon.ts';
import type { WitnessPlan } from './witness/inputs.ts';

/** What a sealed share is bound to (the chain is bound through the game id). */
export interface SealContext {
  gameId: bigint;
  /** The player's address as an integer (uint160), as in `C_i = Poseidon(gameId, player, r_i)`. */
  player: bigint;
}

/** What a player posts at sealedReveal (with the seal proof). */
export interface SealedShare {
  /** The y coordinate of E = e·BASE8 (the dealer tries both points with it). */
  ephemeralY: bigint;
  /** c = r + Poseidon(S.x, S.y, gameId, player) mod p, S = e·P. */
  ciphertext: bigint;
}

export interface SealKeyPair {
  /** d, 1 ≤ d < l. */
  secretKey: bigint;
  /** P = d·BASE8: the dealer's seal key, stored with each game. */
  publicKey: Point;
}

/** The opened value does not match the commitment: impossible for a share the contract accepted (a bug). */
export class SealedShareError extends Error {
  readonly gameId: bigint;
  readonly player: bigint;
  constructor(ctx: SealContext, message: string) {
    super(message);
    this.name = 'SealedShareError';
    this.gameId = ctx.gameId;
    this.player = ctx.player;
  }
}

const EPHEMERAL_BITS = 253n;

/** A uniformly random integer of `bits` bits (bits ≤ 256) from the platform's CSPRNG. */
function randomBits(bits: bigint): bigint {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v & ((1n << bits) - 1n);
}

function checkContext(ctx: SealContext): void {
  toField(ctx.gameId, 'gameId');
  if (typeof ctx.player !== 'bigint' || ctx.player < 0n || ctx.player >= 1n << 160n) {
    throw new InputError('player', 'not an address (uint160)');
  }
}

function checkSecretKey(d: bigint, field: string): bigint {
  if (typeof d !== 'bigint' || d < 1n || d >= SUBGROUP_ORDER) {
    throw new InputError(field, 'not a Baby Jubjub secret key (1 ≤ d < l)');
  }
  return d;
}

/** A fresh dealer seal key, d uniform in [1, l). */
export function generateSealKey(): SealKeyPair {
  for (;;) {
    const d = randomBits(252n); // l < 2^252: rejection sampling keeps d uniform
    if (d >= 1n && d < SUBGROUP_ORDER) return { secretKey: d, publicKey: mulPoint(BASE8, d) };
  }
}

/** Parses a seal secret key: 0x-hex, 32 big-endian bytes or a bigint; 1 ≤ d < l. */
export function sealSecretKey(input: string | Uint8Array | bigint): bigint {
  let d: bigint;
  if (typeof input === 'bigint') d = input;
  else if (input instanceof Uint8Array) {
    if (input.length !== 32) throw new InputError('sealKey', 'expected 32 bytes');
    d = 0n;
    for (const b of input) d = (d << 8n) | BigInt(b);
  } else if (typeof input === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(input.trim())) {
    d = BigInt(input.trim());
  } else {
    throw new InputError('sealKey', 'expected 0x-hex, 32 bytes or a bigint');
  }
  return checkSecretKey(d, 'sealKey');
}

/** P = d·BASE8. */
export function sealPublicKey(secretKey: bigint): Point {
  return mulPoint(BASE8, checkSecretKey(secretKey, 'sealKey'));
}

/**
 * Refuses a seal public key unless its coordinates are below p, it is on the curve, not the identity
 * and in the prime subgroup. The SDK runs this before committing to a game: the seal circuit's
 * EscalarMulAny is only sound for such keys.
 */
export function checkSealPublicKey(P: Point, field = 'sealKey'): void {
  if (!Array.isArray(P) || P.length !== 2 || typeof P[0] !== 'bigint' || typeof P[1] !== 'bigint') {
    throw new InputError(field, 'expected a point [x, y] of bigints');
  }
  if (P[0] < 0n || P[0] >= FIELD_MODULUS || P[1] < 0n || P[1] >= FIELD_MODULUS) {
    throw new InputError(field, 'coordinates must be below the BN254 field modulus');
  }
  if (!inCurve(P)) throw new InputError(field, 'not on Baby Jubjub');
  if (eqPoint(P, IDENTITY)) throw new InputError(field, 'the identity point');
  if (!inSubgroup(P)) throw new InputError(field, 'not in the prime-order subgroup');
}

const s = (v: bigint): string => v.toString();

/** `Poseidon(gameId, P.x, P.y)`: the game and the dealer's key as the seal proof's one context signal. */
export function sealContext(h: Hasher, gameId: bigint, dealerKey: Point): bigint {
  return h.hash([
    toField(gameId, 'gameId'),
    toField(dealerKey?.[0], 'dealerKey.x'),
    toField(dealerKey?.[1], 'dealerKey.y'),
  ]);
}

/**
 * Seals a share to the dealer's key and returns the seal proof's witness plan. Public signals, in
 * order: sealContext, player, commitment, ephemeralY, ciphertext. `ephemeralSecret` (1 ≤ e < 2^253)
 * is for test vectors only; by default it is fresh.
 */
export function sealShare(
  h: Hasher,
  dealerKey: Point,
  share: bigint,
  ctx: SealContext,
  opts: { ephemeralSecret?: bigint } = {},
): { sealed: SealedShare; plan: WitnessPlan } {
  checkContext(ctx);
  toField(share, 'share');
  checkSealPublicKey(dealerKey, 'dealerKey');
  let e = opts.ephemeralSecret;
  if (e === undefined) {
    do e = randomBits(EPHEMERAL_BITS);
    while (e === 0n);
  } else if (typeof e !== 'bigint' || e < 1n || e >= 1n << EPHEMERAL_BITS) {
    throw new InputError('ephemeralSecret', 'must be in [1, 2^253)');
  }
  const { gameId, player } = ctx;
  const E = mulPoint(BASE8, e);
  const S = mulPoint(dealerKey, e);
  const ciphertext = (share + h.hash([S[0], S[1], gameId, player])) % FIELD_MODULUS;
  const commitment = shareCommitment(h, gameId, player, share);
  const context = sealContext(h, gameId, dealerKey);
  const publicSignals = [context, player, commitment, E[1], ciphertext];
  return {
    sealed: { ephemeralY: E[1], ciphertext },
    plan: {
      input: {
        sealContext: s(context),
        player: s(player),
        commitment: s(commitment),
        ephemeralY: s(E[1]),
        ciphertext: s(ciphertext),
        gameId: s(gameId),
        dealerKey: [s(dealerKey[0]), s(dealerKey[1])],
        share: s(share),
        ephemeralSecret: s(e),
      },
      publicSignals,
    },
  };
}

/**
 * The dealer opens a sealed share: for each point E with the posted y (E and −E), S = d·E,
 * r = c − Poseidon(S.x, S.y, gameId, player) mod p; the r that opens `commitment` is the share. Throws
 * `SealedShareError` when none does (never for a share the contract accepted with its proof),
 * `InputError` for malformed input.
 */
export function openSealedShare(
  h: Hasher,
  secretKey: bigint,
  sealed: SealedShare,
  ctx: SealContext,
  commitment: bigint,
): bigint {
  checkContext(ctx);
  const d = checkSecretKey(secretKey, 'sealKey');
  const y = toField(sealed?.ephemeralY, 'sealed.ephemeralY');
  const c = toField(sealed.ciphertext, 'sealed.ciphertext');
  toField(commitment, 'commitment');
  const candidates = pointsWithY(y);
  if (candidates.length === 0) throw new InputError('sealed.ephemeralY', 'no Baby Jubjub point has this y');
  for (const E of candidates) {
    const S = mulPoint(E, d);
    const share = (c - h.hash([S[0], S[1], ctx.gameId, ctx.player]) + FIELD_MODULUS) % FIELD_MODULUS;
    if (shareCommitment(h, ctx.gameId, ctx.player, share) === commitment) return share;
  }
  throw new SealedShareError(
    ctx,
    `sealed share of player 0x${ctx.player.toString(16).padStart(40, '0')} in game ${ctx.gameId} does not open its commitment`,
  );
}

/** Address (0x + 40 hex) → uint160, the form `C_i` and `SealContext` use. */
export function addressToField(address: string): bigint {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new InputError('player', `not an address: "${address}"`);
  return BigInt(address);
}
