import type { Hasher } from '../poseidon.ts';
import { CELL, DOMAIN_DETAIL, DOMAIN_LATTICE, type Octave, WEIGHTS } from './params.ts';

/** Hash key of a cell; cells start at −1 (the ring a zone circuit reads), hence the +1. */
export function cellKey(domain: bigint, cx: number, cy: number): bigint {
  return (domain << 40n) | (BigInt(cy + 1) << 20n) | BigInt(cx + 1);
}

/** `Poseidon(seed, key)`; the generator's only source of randomness. */
export function cellHash(h: Hasher, seed: bigint, domain: bigint, cx: number, cy: number): bigint {
  return h.hash([seed, cellKey(domain, cx, cy)]);
}

/** Memoized lattice cell hashes of one seed: O(1) hashes per tile, each computed once per map. */
export type CellSource = (cx: number, cy: number) => bigint;

export function cellSource(h: Hasher, seed: bigint, domain: bigint = DOMAIN_LATTICE): CellSource {
  const memo = new Map<number, bigint>();
  return (cx, cy) => {
    const k = (cy + 1) * 65536 + (cx + 1);
    let v = memo.get(k);
    if (v === undefined) memo.set(k, (v = cellHash(h, seed, domain, cx, cy)));
    return v;
  };
}

export function detailSource(h: Hasher, seed: bigint): CellSource {
  return cellSource(h, seed, DOMAIN_DETAIL);
}

function bitsAt(hash: bigint, offset: number, bits: number): number {
  return Number((hash >> BigInt(offset)) & ((1n << BigInt(bits)) - 1n));
}

/** Value of an octave's lattice point at absolute (px, py), both multiples of the spacing. */
function latticePoint(cells: CellSource, o: Octave, px: number, py: number): number {
  const cx = Math.floor(px / CELL);
  const cy = Math.floor(py / CELL);
  const per = CELL / o.spacing;
  const i = ((py - cy * CELL) / o.spacing) * per + (px - cx * CELL) / o.spacing;
  return bitsAt(cells(cx, cy), o.offset + i * o.bits, o.bits);
}

/** One octave at tile (x, y): constant-weight interpolation of its four lattice corners, times amplitude. */
export function octaveAt(cells: CellSource, o: Octave, x: number, y: number): number {
  const s = o.spacing;
  const fx = ((x % s) + s) % s;
  const fy = ((y % s) + s) % s;
  const { denominator: d, upper } = WEIGHTS[s];
  const ax = upper[fx]!;
  const ay = upper[fy]!;
  let sum = 0;
  for (let dy = 0; dy < 2; dy++) {
    const wy = dy ? ay : d - ay;
    for (let dx = 0; dx < 2; dx++) {
      const w = (dx ? ax : d - ax) * wy;
      // Zero-weight corners are skipped: a zone circuit never reads the cell two steps away.
      if (w !== 0) sum += w * latticePoint(cells, o, x - fx + dx * s, y - fy + dy * s);
    }
  }
  return o.amplitude * sum;
}

/**
 * Largest change of a field between two tiles one step apart along a row (or a column): each octave at its steepest
 * weight step, the lattice values on either side at opposite extremes. A diagonal step changes it by at most twice.
 */
export function maxStep(octaves: readonly Octave[]): number {
  return octaves.reduce((sum, o) => {
    const { denominator: d, upper } = WEIGHTS[o.spacing];
    const steps = upper.map((u, f) => (upper[f + 1] ?? d) - u);
    return sum + o.amplitude * Math.max(...steps) * d * (2 ** o.bits - 1);
  }, 0);
}

export function fieldAt(cells: CellSource, octaves: readonly Octave[], x: number, y: number): number {
  let v = 0;
  for (const o of octaves) v += octaveAt(cells, o, x, y);
  return v;
}

/** The tile's 3 detail bits from its zone's detail hash (row-major inside the zone). */
export function detailAt(details: CellSource, detailBits: number, x: number, y: number): number {
  const cx = Math.floor(x / CELL);
  const cy = Math.floor(y / CELL);
  const local = (y - cy * CELL) * CELL + (x - cx * CELL);
  return bitsAt(details(cx, cy), local * detailBits, detailBits);
}
