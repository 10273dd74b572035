/**
 * Groth16 batch verification on BN254: many proofs, one multi-pairing. Pure: the curve (ffjavascript's, as
 * snarkjs builds it) is passed in, so the SDK index never loads it and any client (Node, a page, a worker) can.
 *
 * A proof (A, B, C) for public signals s verifies when e(A, B) = e(α, β) · e(vk_x, γ) · e(C, δ), with
 * vk_x = IC₀ + Σ sⱼ·ICⱼ. For proofs i with secret random 128-bit weights rᵢ, per verification key:
 *
 *   Πᵢ e(−rᵢ·Aᵢ, Bᵢ) · e((Σ rᵢ)·α, β) · e(Σ rᵢ·vk_xᵢ, γ) · e(Σ rᵢ·Cᵢ, δ) = 1
 *
 * (one Miller loop per proof plus three per key, one final exponentiation). If any proof is invalid the product
 * is 1 with probability at most 2⁻¹²⁸ over the weights, provided every point is in its prime-order group: so
 * points are checked first (canonical coordinates, on the curve, not at infinity, B in G2's subgroup) and
 * signals must be canonical decimals below r. Weights come from the platform CSPRNG: anyone who can predict
 * them can make invalid proofs whose errors cancel.
 */
import type { Curve } from 'ffjavascript';

/** A snarkjs verification key (`zkey export verificationkey`). */
export interface Groth16VerificationKey {
  protocol: string;
  curve: string;
  nPublic: number;
  vk_alpha_1: readonly string[];
  vk_beta_2: readonly (readonly string[])[];
  vk_gamma_2: readonly (readonly string[])[];
  vk_delta_2: readonly (readonly string[])[];
  IC: readonly (readonly string[])[];
}

/** One proof to check: snarkjs' JSON proof and public signals, with the key it must verify under. */
export interface Groth16Claim {
  vkey: Groth16VerificationKey;
  publicSignals: readonly unknown[];
  proof: { pi_a: unknown; pi_b: unknown; pi_c: unknown };
}

type Point = Uint8Array;

/** A claim whose points and signals passed every check: ready for the pairing equation. */
export interface ParsedClaim {
  key: ParsedKey;
  signals: bigint[];
  a: Point;
  b: Point;
  c: Point;
}

export interface ParsedKey {
  alpha: Point;
  beta: Point;
  gamma: Point;
  delta: Point;
  ic: Point[];
}

/** Why a claim cannot even be put in the equation (a malformed or out-of-group input). */
class Malformed extends Error {}

const DECIMAL = /^(0|[1-9][0-9]{0,77})$/;

function decimal(v: unknown, below: bigint, what: string): bigint {
  if (typeof v !== 'string' || !DECIMAL.test(v)) throw new Malformed(`${what} is not a decimal string`);
  const x = BigInt(v);
  if (x >= below) throw new Malformed(`${what} is not below the modulus`);
  return x;
}

/** A G1 point as snarkjs writes it, `[x, y, "1"]` (or `[x, y]`): canonical, on the curve, not infinity. */
function g1(curve: Curve, v: unknown, what: string): Point {
  if (!Array.isArray(v) || (v.length !== 3 && v.length !== 2) || (v.length === 3 && v[2] !== '1'))
    throw new Malformed(`${what} is not an affine G1 point [x, y, "1"]`);
  const p = curve.G1.fromObject([decimal(v[0], curve.q, `${what}.x`), decimal(v[1], curve.q, `${what}.y`)]);
  if (curve.G1.isZero(p) || !curve.G1.isValid(p)) throw new Malformed(`${what} is not on the curve`);
  return p;
}

/** A G2 point `[[x0, x1], [y0, y1], ["1", "0"]]`: canonical, on the twist, not infinity, in the r-torsion. */
function g2(curve: Curve, v: unknown, what: string): Point {
  const pair = (u: unknown, w: string) => {
    if (!Array.isArray(u) || u.length !== 2) throw new Malformed(`${what}.${w} is not an Fq2 pair`);
    return [decimal(u[0], curve.q, `${what}.${w}[0]`), decimal(u[1], curve.q, `${what}.${w}[1]`)];
  };
  if (!Array.isArray(v) || (v.length !== 3 && v.length !== 2))
    throw new Malformed(`${what} is not an affine G2 point`);
  if (v.length === 3) {
    const z = pair(v[2], 'z');
    if (z[0] !== 1n || z[1] !== 0n) throw new Malformed(`${what} is not affine (z ≠ 1)`);
  }
  const p = curve.G2.fromObject([pair(v[0], 'x'), pair(v[1], 'y')]);
  if (curve.G2.isZero(p) || !curve.G2.isValid(p)) throw new Malformed(`${what} is not on the curve`);
  // G2 has a large cofactor: a point outside the prime-order subgroup would void the batch's 2⁻¹²⁸ bound.
  if (!curve.G2.isZero(curve.G2.timesScalar(p, curve.r))) throw new Malformed(`${what} is not in G2`);
  return p;
}

const parsedKeys = new WeakMap<Groth16VerificationKey, ParsedKey>();

/** The key's points, checked once per key object (a bad key is the caller's bug: it throws). */
export function parseKey(curve: Curve, vk: Groth16VerificationKey): ParsedKey {
  const known = parsedKeys.get(vk);
  if (known) return known;
  if (vk.protocol !== 'groth16' || !/^bn(128|254)$/i.test(vk.curve))
    throw new Error(`verification key: ${vk.protocol} on ${vk.curve}, expected groth16 on bn128`);
  if (!Array.isArray(vk.IC) || vk.IC.length !== vk.nPublic + 1)
    throw new Error(`verification key: ${vk.IC?.length} IC points for ${vk.nPublic} public signals`);
  try {
    const key: ParsedKey = {
      alpha: g1(curve, vk.vk_alpha_1, 'vk_alpha_1'),
      beta: g2(curve, vk.vk_beta_2, 'vk_beta_2'),
      gamma: g2(curve, vk.vk_gamma_2, 'vk_gamma_2'),
      delta: g2(curve, vk.vk_delta_2, 'vk_delta_2'),
      ic: vk.IC.map((p, j) => g1(curve, p, `IC[${j}]`)),
    };
    parsedKeys.set(vk, key);
    return key;
  } catch (e) {
    throw new Error(`verification key: ${(e as Error).message}`);
  }
}

/** The claim's points and signals, or the reason they cannot be verified at all. */
export function parseClaim(curve: Curve, c: Groth16Claim): ParsedClaim | string {
  const key = parseKey(curve, c.vkey);
  try {
    if (!Array.isArray(c.publicSignals) || c.publicSignals.length !== c.vkey.nPublic)
      throw new Malformed(`${c.publicSignals?.length} public signals, the key takes ${c.vkey.nPublic}`);
    const signals = c.publicSignals.map((s, j) => decimal(s, curve.r, `publicSignals[${j}]`));
    const p = c.proof;
    if (typeof p !== 'object' || p === null) throw new Malformed('no proof');
    return {
      key,
      signals,
      a: g1(curve, p.pi_a, 'pi_a'),
      b: g2(curve, p.pi_b, 'pi_b'),
      c: g1(curve, p.pi_c, 'pi_c'),
    };
  } catch (e) {
    if (e instanceof Malformed) return e.message;
    throw e;
  }
}

/** `n` independent uniform weights in [1, 2¹²⁸) from the platform CSPRNG (Web Crypto, in browsers and Node). */
export function randomScalars(n: number): bigint[] {
  const out: bigint[] = [];
  while (out.length < n) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    let v = 0n;
    for (const b of bytes) v = (v << 8n) | BigInt(b);
    if (v !== 0n) out.push(v);
  }
  return out;
}

/**
 * The batch equation for parsed claims with the given weights. Sound only with secret uniformly random weights
 * (`randomScalars`): `invalidGroth16` is the entry point; this is exported for tests that show why.
 */
export async function batchEquation(
  curve: Curve,
  claims: readonly ParsedClaim[],
  weights: readonly bigint[],
): Promise<boolean> {
  const { G1, r } = curve;
  const pairs: Point[] = [];
  const byKey = new Map<ParsedKey, { sum: bigint; coeffs: bigint[]; c: Point }>();
  claims.forEach((cl, i) => {
    const w = weights[i]!;
    pairs.push(G1.neg(G1.timesScalar(cl.a, w)), cl.b);
    let k = byKey.get(cl.key);
    if (!k) {
      k = { sum: 0n, coeffs: cl.signals.map(() => 0n), c: G1.zero };
      byKey.set(cl.key, k);
    }
    k.sum = (k.sum + w) % r;
    // Σ wᵢ·vk_xᵢ = (Σ wᵢ)·IC₀ + Σⱼ (Σᵢ wᵢ·sᵢⱼ)·ICⱼ: one scalar per IC point, not per proof.
    cl.signals.forEach((s, j) => {
      k.coeffs[j] = (k.coeffs[j]! + w * s) % r;
    });
    k.c = G1.add(k.c, G1.timesScalar(cl.c, w));
  });
  for (const [key, k] of byKey) {
    let vkx = G1.timesScalar(key.ic[0]!, k.sum);
    k.coeffs.forEach((s, j) => {
      if (s !== 0n) vkx = G1.add(vkx, G1.timesScalar(key.ic[j + 1]!, s));
    });
    pairs.push(G1.timesScalar(key.alpha, k.sum), key.beta, vkx, key.gamma, k.c, key.delta);
  }
  return curve.pairingEq(...pairs);
}

/** A claim that failed: its index, and why when its input is malformed (null: the pairing check failed). */
export interface InvalidClaim {
  index: number;
  malformed: string | null;
}

/**
 * The claims that do not verify, in index order; empty when all do. One multi-pairing for the whole batch; only
 * when it fails is each claim checked alone (with a fresh weight), to name the bad ones. A claim with a malformed
 * proof or signals is invalid without entering the batch.
 */
export async function invalidGroth16(curve: Curve, claims: readonly Groth16Claim[]): Promise<InvalidClaim[]> {
  const parsed = claims.map((c) => parseClaim(curve, c));
  const bad: InvalidClaim[] = [];
  const good: { p: ParsedClaim; index: number }[] = [];
  parsed.forEach((p, index) => {
    if (typeof p === 'string') bad.push({ index, malformed: p });
    else good.push({ p, index });
  });
  if (good.length === 0) return bad;
  if (
    await batchEquation(
      curve,
      good.map((g) => g.p),
      randomScalars(good.length),
    )
  )
    return bad;
  for (const g of good)
    if (!(await batchEquation(curve, [g.p], randomScalars(1)))) bad.push({ index: g.index, malformed: null });
  return bad.sort((x, y) => x.index - y.index);
}
