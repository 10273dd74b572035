import { InputError } from '../errors.ts';
import { assertOnBoard, type Board, type Coord, tileCoord, tileIndex, withinRadius } from '../geometry.ts';
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

/** Quadrants N, E, S, W: (depth, col) is at board offset depth·(dx, dy) + col·(cx, cy) from the origin. */
const QUADRANTS: readonly (readonly [dx: number, dy: number, cx: number, cy: number])[] = [
  [0, -1, 1, 0],
  [1, 0, 0, 1],
  [0, 1, 1, 0],
  [-1, 0, 0, 1],
];

/** A point (depth, col) in quadrant coordinates, the origin at (0, 0). */
type Vec = readonly [number, number];

/** Positive when v's slope (col per depth) from the origin exceeds u's; both at depth ≥ 0. */
const cross = (u: Vec, v: Vec): number => u[0] * v[1] - u[1] * v[0];

/** A join: its two wall centres ordered by direction, and its cell (near depth k, lower column j). */
interface Join {
  lo: Vec;
  hi: Vec;
  k: number;
  j: number;
}

/**
 * The sight line to v (depth ≥ k + 1) separates the join's ends strictly. It then meets the join
 * between depths k and k + 1, so on the sight segment; a join on the line itself joins wall
 * centres that Ford's rule already blocks behind.
 */
const crosses = (jn: Join, v: Vec): boolean => cross(jn.lo, v) > 0 && cross(v, jn.hi) > 0;

/**
 * Symmetric shadowcasting (Albert Ford, 2021) on a square grid, in exact integer arithmetic, with
 * diagonal gaps sealed. Tile centres are integer points; the origin is a point treated as floor.
 * Ford's rule: walls are diamonds inscribed in their tiles; a floor tile is visible iff its centre
 * lies in an unshadowed sector, a wall iff any part of its diamond does ("expansive walls").
 * Joins: two walls that touch diagonally are joined by the opaque segment between their centres.
 * A floor tile T is visible iff Ford's rule sees it AND the segment from the origin's centre to T's
 * centre meets no join except at the join's ends (no proper crossing, no touching inside a join).
 * A wall T likewise, except that joins through T's own corners do not count: the join of the two
 * walls flanking a corner of T passes in front of T's centre, and would hide room corners.
 * The join test depends only on the undirected segment, so floor-to-floor visibility stays symmetric.
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
  const resolve = opacityOf(board, blocks, options.unknown);
  // Join discovery reads tiles next to the scanned ones too; ask the caller once per tile.
  const memo = new Int8Array(board.width * board.height);
  const out = new Set<number>([tileIndex(board, origin)]);

  for (const [dx, dy, cx, cy] of QUADRANTS) {
    /** Row-major index of (depth, col), or −1 off the board. */
    const indexAt = (depth: number, col: number): number => {
      const x = origin.col + depth * dx + col * cx;
      const y = origin.row + depth * dy + col * cy;
      return x < 0 || y < 0 || x >= board.width || y >= board.height ? -1 : y * board.width + x;
    };
    const opaque = (i: number): boolean => {
      if (i < 0) return true;
      if (memo[i] === 0) memo[i] = resolve(tileCoord(board, i)) ? 2 : 1;
      return memo[i] === 2;
    };
    const wallAt = (depth: number, col: number): boolean =>
      (depth !== 0 || col !== 0) && opaque(indexAt(depth, col));
    // Every tile at depth > radius is beyond the radius under both metrics, so the scan stops there.
    const scan = (depth: number, start: Slope, end: Slope, inherited: readonly Join[]): void => {
      if (depth > radius) return;
      // Directions of every centre this call and its descendants test: a wall's centre may lie
      // half a tile outside the sector. Only joins crossing these directions can hide anything.
      const from: Vec = [2 * depth * start.d, 2 * depth * start.n - start.d];
      const to: Vec = [2 * depth * end.d, 2 * depth * end.n + end.d];
      const relevant = (jn: Join): boolean => cross(jn.lo, to) > 0 && cross(from, jn.hi) > 0;
      const joins = inherited.filter(relevant);
      // New joins lie in the strip between depth − 1 and depth, in the cells those directions cross.
      const k = depth - 1;
      const first = Math.min(floorDiv(k * from[1], from[0]), floorDiv(depth * from[1], from[0]));
      const stop = -Math.min(floorDiv(-k * to[1], to[0]), floorDiv(-depth * to[1], to[0]));
      const join = (p: Vec, q: Vec, j: number): void => {
        const jn = cross(p, q) > 0 ? { lo: p, hi: q, k, j } : { lo: q, hi: p, k, j };
        if (relevant(jn)) joins.push(jn);
      };
      for (let j = first; j < stop; j++) {
        if (wallAt(k, j) && wallAt(depth, j + 1)) join([k, j], [depth, j + 1], j);
        if (wallAt(k, j + 1) && wallAt(depth, j)) join([k, j + 1], [depth, j], j);
      }
      const hidden = (col: number, wall: boolean): boolean =>
        joins.some(
          (jn) => crosses(jn, [depth, col]) && !(wall && jn.k === k && (jn.j === col || jn.j === col - 1)),
        );

      let prevWall: boolean | undefined;
      const last = roundTiesDown(depth, end);
      for (let col = roundTiesUp(depth, start); col <= last; col++) {
        const i = indexAt(depth, col);
        const wall = opaque(i);
        if (
          i >= 0 &&
          (wall || centreInSector(depth, col, start, end)) &&
          withinRadius(metric, origin, tileCoord(board, i), radius) &&
          (joins.length === 0 || !hidden(col, wall))
        )
          out.add(i);
        if (prevWall === true && !wall) start = edgeSlope(depth, col);
        if (prevWall === false && wall) scan(depth + 1, start, edgeSlope(depth, col), joins);
        prevWall = wall;
      }
      if (prevWall === false) scan(depth + 1, start, end, joins);
    };
    scan(1, { n: -1, d: 1 }, { n: 1, d: 1 }, []);
  }
  return out;
}

/**
 * Field of view on a hex grid: every tile within `radius` (hex metric) with hex line of sight.
 * Needs no joins: three hexes meet at every vertex, so two walls that touch share an edge, and a hex
 * line, a chain of edge-adjacent hexes, cannot pass between them.
 */
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
