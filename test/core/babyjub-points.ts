/** Test points on Baby Jubjub outside the prime subgroup (curve points from a Tonelli–Shanks square root). */
import { type BabyJub, buildBabyjub } from 'circomlibjs';
import { eqPoint, IDENTITY, mulPoint, type Point, SUBGROUP_ORDER } from '../../core/babyjub.ts';
import { FIELD_MODULUS as p } from '../../core/field.ts';

let bj: Promise<BabyJub> | undefined;
export const babyjub = (): Promise<BabyJub> => (bj ??= buildBabyjub());

const mod = (v: bigint): bigint => ((v % p) + p) % p;

function pow(b: bigint, e: bigint): bigint {
  let r = 1n;
  for (let x = mod(b); e > 0n; e >>= 1n, x = (x * x) % p) if (e & 1n) r = (r * x) % p;
  return r;
}

/** A square root mod p (Tonelli–Shanks), or undefined for a non-residue. */
export function sqrt(a: bigint): bigint | undefined {
  a = mod(a);
  if (a === 0n) return 0n;
  if (pow(a, (p - 1n) / 2n) !== 1n) return undefined;
  let q = p - 1n;
  let s = 0n;
  while ((q & 1n) === 0n) [q, s] = [q >> 1n, s + 1n];
  let z = 2n;
  while (pow(z, (p - 1n) / 2n) === 1n) z++;
  let [m, c, t, r] = [s, pow(z, q), pow(a, q), pow(a, (q + 1n) / 2n)];
  while (t !== 1n) {
    let i = 0n;
    for (let u = t; u !== 1n; u = (u * u) % p) i++;
    const b = pow(c, 1n << (m - i - 1n));
    [m, c, t, r] = [i, (b * b) % p, (t * b * b) % p, (r * b) % p];
  }
  return r;
}

/** A point of the full curve (order 8·l in general) with the given y, or undefined when there is none. */
export function curvePointAt(y: bigint): Point | undefined {
  const y2 = (y * y) % p;
  const x = sqrt((1n - y2) * pow(168700n - 168696n * y2, p - 2n));
  return x === undefined ? undefined : [x, mod(y)];
}

/** Order of a point of the 8-torsion (1, 2, 4 or 8). */
export function torsionOrder(T: Point): number {
  for (const n of [1, 2, 4, 8]) if (eqPoint(mulPoint(T, BigInt(n)), IDENTITY)) return n;
  throw new Error('not a torsion point');
}

/** A point of order exactly 8: l·Q for a curve point Q whose torsion part has order 8. */
export function order8Point(): Point {
  for (let y = 2n; ; y++) {
    const Q = curvePointAt(y);
    if (!Q) continue;
    const T = mulPoint(Q, SUBGROUP_ORDER);
    if (torsionOrder(T) === 8) return T;
  }
}
