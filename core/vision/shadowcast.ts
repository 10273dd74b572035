import { InputError } from '../errors.ts';
import { assertOnBoard, type Board, type Coord, onBoard, tileIndex, withinRadius } from '../geometry.ts';
import { assertRadius, type FovOptions, fovMetric, losFov, type Opacity, opacityOf } from './los.ts';

/** An exact slope n / d (d > 0): column offset per row of depth, inside one quadrant. */
interface Slope {
  n: number;
  d: number;
}

/** Floor division on integers without leaving integer arithmetic. */
function floorDiv(a: number, b: number): number {
  const r = ((a % b) + b) % b;
  return (a - r) / b;
}

/** Slope through the left edge midpoint of a tile: (2·col − 1) / (2·depth). */
const edgeSlope = (depth: number, col: number): Slope => ({ n: 2 * col - 1, d: 2 * depth });

/** round(depth · s), halves rounded up. */
const roundTiesUp = (depth: number, s: Slope): number => floorDiv(2 * depth * s.n + s.d, 2 * s.d);

/** round(depth · s), halves rounded down. */
const roundTiesDown = (depth: number, s: Slope): number => -floorDiv(-(2 * depth * s.n - s.d), 2 * s.d);

/** A floor tile is seen only when its centre lies inside the sector (this is what makes it symmetric). */
const centreInSector = (depth: number, col: number, start: Slope, end: Slope): boolean =>
  col * start.d >= depth * start.n && col * end.d <= depth * end.n;

/** Quadrant `q` (N, E, S, W) maps (depth, col) to board offsets from the origin. */
const QUADRANTS: readonly ((depth: number, col: number) => readonly [number, number])[] = [
  (depth, col) => [col, -depth],
  (depth, col) => [depth, col],
  (depth, col) => [col, depth],
  (depth, col) => [-depth, col],
];

/**
 * Symmetric shadowcasting (Albert Ford, 2021) on a square grid, in exact rational arithmetic.
 * Floor tiles are points at their centres, walls are diamonds inscribed in their tiles, and the
 * origin is a point treated as floor. A floor tile is visible iff its centre lies in an unshadowed
 * sector, so floor-to-floor visibility is symmetric; walls are visible when any part of their
 * diamond is ("expansive walls"). Diamonds leave the corner between two diagonal walls open, so sight
 * passes between diagonally touching walls; only orthogonally joined walls seal.
 * Off-board tiles are opaque and never reported. Returns row-major tile indices within `radius`
 * under `options.metric` (`chebyshev` by default, or `euclidean`).
 */
export function shadowcast(
  board: Board,
  origin: Coord,
  radius: number,
  blocks: Opacity,
  options: FovOptions = {},
): Set<number> {
  if (board.kind !== 'square')
    throw new InputError('grid.kind', 'shadowcasting needs a square grid; use hexFov');
  assertOnBoard(board, origin, 'origin');
  assertRadius(radius);
  const metric = fovMetric(board, options.metric);
  const opaque = opacityOf(board, blocks, options.unknown);
  const out = new Set<number>([tileIndex(board, origin)]);

  for (const toOffset of QUADRANTS) {
    const at = (depth: number, col: number): Coord => {
      const [dc, dr] = toOffset(depth, col);
      return { col: origin.col + dc, row: origin.row + dr };
    };
    const reveal = (c: Coord): void => {
      if (onBoard(board, c) && withinRadius(metric, origin, c, radius)) out.add(tileIndex(board, c));
    };
    // Every tile at depth > radius is beyond the radius under both metrics, so the scan stops there.
    const scan = (depth: number, start: Slope, end: Slope): void => {
      if (depth > radius) return;
      let prevWall: boolean | undefined;
      const last = roundTiesDown(depth, end);
      for (let col = roundTiesUp(depth, start); col <= last; col++) {
        const c = at(depth, col);
        const wall = opaque(c);
        if (wall || centreInSector(depth, col, start, end)) reveal(c);
        if (prevWall === true && !wall) start = edgeSlope(depth, col);
        if (prevWall === false && wall) scan(depth + 1, start, edgeSlope(depth, col));
        prevWall = wall;
      }
      if (prevWall === false) scan(depth + 1, start, end);
    };
    scan(1, { n: -1, d: 1 }, { n: 1, d: 1 });
  }
  return out;
}

/** Field of view on a hex grid: every tile within `radius` (hex metric) with hex line of sight. */
export function hexFov(
  board: Board,
  origin: Coord,
  radius: number,
  blocks: Opacity,
  options: FovOptions = {},
): Set<number> {
  if (board.kind !== 'hex') throw new InputError('grid.kind', 'hexFov needs a hex grid; use shadowcast');
  return losFov(board, origin, radius, blocks, options);
}

/** The grid's field of view: shadowcasting on squares, hex line of sight on hexes. */
export function fieldOfView(
  board: Board,
  origin: Coord,
  radius: number,
  blocks: Opacity,
  options: FovOptions = {},
): Set<number> {
  return board.kind === 'hex'
    ? hexFov(board, origin, radius, blocks, options)
    : shadowcast(board, origin, radius, blocks, options);
}
