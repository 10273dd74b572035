/**
 * Baby Jubjub in plain BigInt (no WASM, browser-safe), as circomlib and circomlibjs define it: the
 * twisted Edwards curve a·x² + y² = 1 + d·x²·y² over the BN254 scalar field, a = 168700, d = 168696,
 * cofactor 8, generator BASE8 of the prime subgroup of order l. Used by the sealed shares
 * (`core/sealed.ts`); `test/core/babyjub.test.ts` checks it against circomlibjs.
 */
import { FIELD_MODULUS as p } from './field.ts';

/** An affine point (x, y), coordinates in [0, p). */
export type Point = readonly [bigint, bigint];

const A = 168700n;
const D = 168696n;

/** Order of the prime subgroup that BASE8 generates (the curve order is 8·l). */
export const SUBGROUP_ORDER = 2736030358979909402780800718157159386076813972158567259200215660948447373041n;

/** circomlib's Base8: 8 × the curve generator, a generator of the prime subgroup. */
export const BASE8: Point = [
  5299619240641551281634865583518297030282874472190772894086521144482721001553n,
  16950150798460657717958625567821834550301663161624707787222815936182638968203n,
];

/** The neutral element (0, 1). */
export const IDENTITY: Point = [0n, 1n];

const mod = (v: bigint): bigint => ((v % p) + p) % p;

/** v⁻¹ mod p by the extended Euclidean algorithm (v ≠ 0 mod p). */
function inverse(v: bigint): bigint {
  let [r0, r1] = [mod(v), p];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new RangeError('not invertible mod p');
  return mod(s0);
}

/**
 * P + Q. The twisted Edwards addition law is complete on this curve (a is a square, d is not), so the
 * denominators never vanish for points on the curve, and doubling needs no special case.
 */
export function addPoint(P: Point, Q: Point): Point {
  const [x1, y1] = P;
  const [x2, y2] = Q;
  const t = mod(D * x1 * x2 * y1 * y2);
  const x = mod((x1 * y2 + y1 * x2) * inverse(1n + t));
  const y = mod((y1 * y2 - A * x1 * x2) * inverse(1n - t));
  return [x, y];
}

/** k·P by double-and-add, k ≥ 0 (not reduced mod l: k·P for a point outside the subgroup is well defined). */
export function mulPoint(P: Point, k: bigint): Point {
  if (k < 0n) throw new RangeError('mulPoint: negative scalar');
  let acc: Point = IDENTITY;
  let base = P;
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) acc = addPoint(acc, base);
    base = addPoint(base, base);
  }
  return acc;
}

/** Whether P has canonical coordinates (< p) and lies on the curve. */
export function inCurve(P: Point): boolean {
  const [x, y] = P;
  if (x < 0n || x >= p || y < 0n || y >= p) return false;
  const x2 = (x * x) % p;
  const y2 = (y * y) % p;
  return mod(A * x2 + y2 - 1n - D * x2 * y2) === 0n;
}

export const eqPoint = (P: Point, Q: Point): boolean => P[0] === Q[0] && P[1] === Q[1];

/** Whether P lies on the curve and in the prime subgroup (l·P = identity; true for the identity itself). */
export function inSubgroup(P: Point): boolean {
  return inCurve(P) && eqPoint(mulPoint(P, SUBGROUP_ORDER), IDENTITY);
}

/** A square root of v mod p (Tonelli–Shanks: p − 1 = 2^28 · odd), or null when v is not a square. */
export function sqrtMod(v: bigint): bigint | null {
  const n = mod(v);
  if (n === 0n) return 0n;
  const pow = (b: bigint, e: bigint): bigint => {
    let r = 1n;
    for (let x = mod(b), k = e; k > 0n; k >>= 1n, x = (x * x) % p) if (k & 1n) r = (r * x) % p;
    return r;
  };
  if (pow(n, (p - 1n) / 2n) !== 1n) return null;
  let q = p - 1n;
  let s = 0n;
  while ((q & 1n) === 0n) {
    q >>= 1n;
    s++;
  }
  let z = 2n;
  while (pow(z, (p - 1n) / 2n) !== p - 1n) z++;
  let [m, c, t, r] = [s, pow(z, q), pow(n, q), pow(n, (q + 1n) / 2n)];
  while (t !== 1n) {
    let i = 0n;
    for (let t2 = t; t2 !== 1n; t2 = (t2 * t2) % p) i++;
    const b = pow(c, 1n << (m - i - 1n));
    [m, c, t, r] = [i, (b * b) % p, (t * b * b) % p, (r * b) % p];
  }
  return r;
}

/** The curve points with this y: (x, y) and (−x, y), one when x = 0, none when y is on no point. */
export function pointsWithY(y: bigint): Point[] {
  if (y < 0n || y >= p) return [];
  const y2 = (y * y) % p;
  const den = mod(A - D * y2);
  if (den === 0n) return [];
  const x = sqrtMod(mod((1n - y2) * inverse(den)));
  if (x === null) return [];
  return x === 0n
    ? [[0n, y]]
    : [
        [x, y],
        [mod(-x), y],
      ];
}
