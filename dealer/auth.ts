import { secp256k1 } from '@noble/curves/secp256k1.js';
import { computeAddress, Signature, SigningKey, type TypedDataDomain } from 'ethers';
import { type RevealRequestMessage, revealDigest } from '../core/reveal-request.ts';
import { DEFAULT_CACHE_LIMITS } from './cache-limits.ts';
import { Lru } from './lru.ts';

// The message, types, domain and digest are shared with the SDK (core/reveal-request.ts).
export {
  REVEAL_REQUEST_TYPES,
  type RevealRequestMessage,
  recoverRevealSigner,
  revealDigest,
  revealDomain,
  signRevealRequest,
} from '../core/reveal-request.ts';

const Point = secp256k1.Point;
type Point = InstanceType<typeof Point>;
const Fn = Point.Fn;
const HALF_N = Fn.ORDER >> 1n;

export type SignatureCheck = 'ok' | 'malformed' | 'not-signer';

/**
 * Checks that `signature` over a reveal request is by `claimed`. Equivalent to recovering the signer
 * and comparing addresses, but faster after the first request from a player: the player's public key
 * is recovered once, cached with precomputed multiples, and later requests run a plain ECDSA verify
 * against it (plus the recovery-id parity check, so exactly the same signatures pass). Signature
 * checking is the dominant cost of serving a reveal.
 *
 * A cached key with its tables weighs ~0.55 MB, so the cache holds the `maxKeys` most recently active
 * players (config `caches.signers`); an evicted player's next request recovers its key again.
 */
export class RevealSignatureVerifier {
  readonly #keys: Lru<string, Point>;

  constructor(maxKeys = DEFAULT_CACHE_LIMITS.signers) {
    this.#keys = new Lru({ max: maxKeys });
  }

  /** Public keys cached. */
  get size(): number {
    return this.#keys.size;
  }

  check(
    domain: TypedDataDomain,
    msg: RevealRequestMessage,
    signature: string,
    claimed: string,
  ): SignatureCheck {
    const who = claimed.toLowerCase();
    let sig: Signature;
    let r: bigint;
    let s: bigint;
    try {
      sig = Signature.from(signature);
      r = BigInt(sig.r);
      s = BigInt(sig.s); // throws on a high s (non-canonical)
    } catch {
      return 'malformed';
    }
    // EIP-2: low s only; r and s in [1, n).
    if (r === 0n || r >= Fn.ORDER || s === 0n || s > HALF_N) return 'malformed';
    const digest = revealDigest(domain, msg);
    const cached = this.#keys.get(who);
    if (cached) return ecdsaVerify(cached, BigInt(digest), r, s, sig.yParity) ? 'ok' : 'not-signer';
    let publicKey: string;
    try {
      publicKey = SigningKey.recoverPublicKey(digest, sig);
    } catch {
      return 'not-signer';
    }
    if (computeAddress(publicKey).toLowerCase() !== who) return 'not-signer';
    const Q = Point.fromBytes(Buffer.from(publicKey.slice(2), 'hex'));
    Q.precompute(8);
    this.#keys.set(who, Q);
    return 'ok';
  }
}

/** ECDSA verify with the recovery-id check: R = (z/s)·G + (r/s)·Q must have x = r and y parity = v. */
function ecdsaVerify(Q: Point, z: bigint, r: bigint, s: bigint, yParity: number): boolean {
  const w = Fn.inv(s);
  const R = Point.BASE.multiplyUnsafe(Fn.create(z * w)).add(Q.multiplyUnsafe(Fn.create(r * w)));
  if (R.is0()) return false;
  const { x, y } = R.toAffine();
  return x === r && Number(y & 1n) === yParity;
}
