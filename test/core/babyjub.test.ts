import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { BabyJub } from 'circomlibjs';
import {
  addPoint,
  BASE8,
  IDENTITY,
  inCurve,
  inSubgroup,
  mulPoint,
  type Point,
  pointsWithY,
  SUBGROUP_ORDER,
  sqrtMod,
} from '../../core/babyjub.ts';
import { FIELD_MODULUS } from '../../core/field.ts';
import { babyjub, curvePointAt, order8Point, torsionOrder } from './babyjub-points.ts';

let bj: BabyJub;
before(async () => {
  bj = await babyjub();
});

const toPoint = (q: [Uint8Array, Uint8Array]): Point => [bj.F.toObject(q[0]), bj.F.toObject(q[1])];
const fromPoint = (q: Point): [Uint8Array, Uint8Array] => [bj.F.e(q[0]), bj.F.e(q[1])];

function randomScalar(bits: number): bigint {
  const bytes = new Uint8Array(Math.ceil(bits / 8));
  globalThis.crypto.getRandomValues(bytes);
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v & ((1n << BigInt(bits)) - 1n);
}

describe('Baby Jubjub (BigInt) against circomlibjs', () => {
  it('BASE8 and the subgroup order are circomlibjs Base8 and subOrder', () => {
    assert.deepEqual(BASE8, toPoint(bj.Base8));
    assert.equal(SUBGROUP_ORDER, BigInt(bj.subOrder));
    assert.ok(inCurve(BASE8) && inSubgroup(BASE8));
    assert.deepEqual(mulPoint(BASE8, SUBGROUP_ORDER), IDENTITY);
    assert.deepEqual(mulPoint(BASE8, 0n), IDENTITY);
    assert.deepEqual(mulPoint(BASE8, 1n), BASE8);
  });

  it('mulPoint and addPoint equal mulPointEscalar and addPoint on random scalars', () => {
    for (let i = 0; i < 20; i++) {
      const k = randomScalar(i % 2 ? 253 : 64);
      const j = randomScalar(253);
      const P = mulPoint(BASE8, k);
      const Q = mulPoint(BASE8, j);
      assert.deepEqual(P, toPoint(bj.mulPointEscalar(bj.Base8, k)), `k = ${k}`);
      assert.deepEqual(addPoint(P, Q), toPoint(bj.addPoint(fromPoint(P), fromPoint(Q))));
      assert.deepEqual(addPoint(P, P), mulPoint(BASE8, 2n * k));
      // Scalars are not reduced, but k and k + l give the same point in the subgroup.
      assert.deepEqual(mulPoint(BASE8, k + SUBGROUP_ORDER), P);
      assert.deepEqual(addPoint(P, IDENTITY), P);
    }
  });

  it('inCurve and inSubgroup agree with circomlibjs, on and off the prime subgroup', () => {
    const T = order8Point();
    assert.equal(torsionOrder(T), 8);
    const points: Point[] = [BASE8, IDENTITY, [0n, FIELD_MODULUS - 1n], T, addPoint(BASE8, T), [1n, 2n]];
    for (let y = 2n; points.length < 16; y++) {
      const Q = curvePointAt(y);
      if (Q) points.push(Q, mulPoint(Q, 8n));
    }
    for (const Q of points) {
      assert.equal(inCurve(Q), bj.inCurve(fromPoint(Q)), `inCurve ${Q}`);
      assert.equal(inSubgroup(Q), bj.inSubgroup(fromPoint(Q)), `inSubgroup ${Q}`);
    }
    assert.equal(inSubgroup(addPoint(BASE8, T)), false);
    assert.equal(inSubgroup(T), false);
    assert.equal(inSubgroup(IDENTITY), true);
    // Non-canonical coordinates are not on the curve (circomlibjs would reduce them).
    assert.equal(inCurve([BASE8[0] + FIELD_MODULUS, BASE8[1]]), false);
    assert.throws(() => mulPoint(BASE8, -1n), RangeError);
  });

  it('pointsWithY: both points with a y, and square roots mod p', () => {
    for (const k of [1n, 2n, 12345n, SUBGROUP_ORDER - 1n]) {
      const P = mulPoint(BASE8, k);
      const both = pointsWithY(P[1]);
      assert.equal(both.length, 2);
      assert.ok(both.some((Q) => Q[0] === P[0]) && both.every((Q) => inCurve(Q) && Q[1] === P[1]));
      const r = sqrtMod(P[0] * P[0]);
      assert.ok(r === P[0] || r === FIELD_MODULUS - P[0]);
    }
    assert.deepEqual(pointsWithY(1n), [[0n, 1n]], 'the identity: x = 0');
    assert.equal(sqrtMod(5n), null, '5 generates the multiplicative group: not a square');
    assert.deepEqual(pointsWithY(FIELD_MODULUS), []);
  });
});
