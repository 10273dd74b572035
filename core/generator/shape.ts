import { InputError } from '../errors.ts';
import type { Board } from '../geometry.ts';
import type { Area } from '../ruleset/types.ts';
import * as P from './params.ts';

/**
 * A board as the generator reads it: its shape and the start areas it guarantees land to (a ruleset's board
 * carries its first `players.max`; a bare board has none). Both are constants of the ruleset, so the zone
 * circuit takes the per-tile adjustments below as compile-time constants.
 */
export interface MapBoard extends Board {
  readonly startAreas?: readonly Area[];
}

/** The falloff width of a board: a fraction of its shorter side, 1 to FALLOFF_MAX_TILES. */
export function falloffTiles(width: number, height: number): number {
  return Math.min(P.FALLOFF_MAX_TILES, Math.max(1, Math.floor(Math.min(width, height) / P.FALLOFF_PER_TILE)));
}

/** Elevation lost at coordinate v of an axis of n tiles, for falloff width f: steep at the edge, gentle inland. */
export function falloff(v: number, n: number, f: number): number {
  const d = Math.min(v, n - 1 - v);
  return d >= f ? 0 : (P.FALLOFF_DROP * (f - d) * (f - d)) / (f * f);
}

/** Elevation lost at (x, y) of a board with falloff width f: the larger of the two axes' falloffs. */
export function edgeFalloff(b: Board, f: number, x: number, y: number): number {
  return Math.max(falloff(x, b.width, f), falloff(y, b.height, f));
}

/** Blend weight (0..ELEVATION_SCALE − 1) of the start areas at (x, y): the largest over the areas. */
export function startWeight(areas: readonly Area[], x: number, y: number): number {
  let w = 0;
  for (const a of areas) {
    const d = Math.max(a.col0 - x, 0, x - a.col1, a.row0 - y, 0, y - a.row1);
    if (d < P.START_WEIGHTS.length) w = Math.max(w, P.START_WEIGHTS[d]!);
  }
  return w;
}

/** The start areas of a map board, checked: at most MAX_START_AREAS, each non-empty and on the board. */
export function startAreasOf(b: MapBoard): readonly Area[] {
  const areas = b.startAreas ?? [];
  if (areas.length > P.MAX_START_AREAS) {
    throw new InputError('board.startAreas', `${areas.length} areas, at most ${P.MAX_START_AREAS}`);
  }
  areas.forEach((a, i) => {
    const ok = [a.col0, a.row0, a.col1, a.row1].every((v) => Number.isInteger(v) && v >= 0);
    if (!ok || a.col0 > a.col1 || a.row0 > a.row1 || a.col1 >= b.width || a.row1 >= b.height) {
      throw new InputError(
        `board.startAreas.${i}`,
        `(${a.col0},${a.row0})..(${a.col1},${a.row1}) is not on the board`,
      );
    }
  });
  return areas;
}

/**
 * The start areas as MapGen.sol takes them: area i at bits 40i (col0, row0, col1, row1; 10 bits each, low first),
 * the count at bits 240..242. 0 is a board without start areas.
 */
export function packStartAreas(b: MapBoard): bigint {
  const areas = startAreasOf(b);
  let v = BigInt(areas.length) << 240n;
  areas.forEach((a, i) => {
    [a.col0, a.row0, a.col1, a.row1].forEach((c, k) => {
      v |= BigInt(c) << BigInt(40 * i + 10 * k);
    });
  });
  return v;
}

/**
 * The inverse of `packStartAreas`: `board` with the start areas of a packed word (as the registry holds them for
 * MapGen), checked as MapGen checks them (count ≤ MAX_START_AREAS, no stray bits, every area on the board).
 */
export function withStartAreas(board: Board, packed: bigint): MapBoard {
  const n = Number(packed >> 240n);
  if (packed < 0n || n > P.MAX_START_AREAS || (packed & ((1n << 240n) - 1n)) >> BigInt(40 * n) !== 0n) {
    throw new InputError('startAreas', `not a packed list of start areas: ${packed}`);
  }
  const field = (i: number, k: number) => Number((packed >> BigInt(40 * i + 10 * k)) & 0x3ffn);
  const startAreas: Area[] = Array.from({ length: n }, (_, i) => ({
    col0: field(i, 0),
    row0: field(i, 1),
    col1: field(i, 2),
    row1: field(i, 3),
  }));
  const b: MapBoard = { ...board, startAreas };
  startAreasOf(b);
  return b;
}
