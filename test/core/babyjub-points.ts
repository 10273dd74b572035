/** Test points on Baby Jubjub outside the prime subgroup. */
import { type BabyJub, buildBabyjub } from 'circomlibjs';
import { eqPoint, IDENTITY, mulPoint, type Point, pointsWithY, SUBGROUP_ORDER } from '../../core/babyjub.ts';

let bj: Promise<BabyJub> | undefined;
export const babyjub = (): Promise<BabyJub> => (bj ??= buildBabyjub());

/** A point of the full curve (order 8·l in general) with the given y, or undefined when there is none. */
export function curvePointAt(y: bigint): Point | undefined {
  return pointsWithY(y)[0];
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

/** Every point of order dividing 8 but the identity: the small-order points a seal key must not be. */
export function smallOrderPoints(): Point[] {
  const T = order8Point();
  const out: Point[] = [];
  for (let k = 1n; k < 8n; k++) out.push(mulPoint(T, k));
  return out;
}
