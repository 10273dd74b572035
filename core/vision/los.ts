import { InputError } from '../errors.ts';
import {
  assertOnBoard,
  assertRadius,
  type Board,
  type Coord,
  onBoard,
  tileIndex,
  tilesInRange,
  toCube,
} from '../geometry.ts';
import type { VisionModel } from '../ruleset/types.ts';

/**
 * What the caller knows about a tile: `true` blocks sight, `false` does not, `undefined` means the
 * terrain is not revealed yet. A plain `(c) => boolean` predicate fits this type.
 */
export type Opacity = (c: Coord) => boolean | undefined;

/** How to treat tiles whose terrain is unknown; the default never lets sight through the unseen. */
export type UnknownTerrain = 'opaque' | 'transparent';

export type RadiusMetric = Exclude<VisionModel, 'litZones'>;

export interface FovOptions {
  /** Default `'opaque'`. */
  unknown?: UnknownTerrain;
  /** Radius metric; defaults to the grid's own (`hex`, or `chebyshev` on squares). */
  metric?: RadiusMetric;
}

/** Resolves unknown tiles and treats off-board positions as opaque (they never reach `blocks`). */
export function opacityOf(
  board: Board,
  blocks: Opacity,
  unknown: UnknownTerrain = 'opaque',
): (c: Coord) => boolean {
  if (unknown !== 'opaque' && unknown !== 'transparent') {
    throw new InputError('unknown', `must be "opaque" or "transparent", got ${String(unknown)}`);
  }
  return (c) => {
    if (!onBoard(board, c)) return true;
    return blocks(c) ?? unknown === 'opaque';
  };
}

/** The metric for `board`, refusing square metrics on hex grids and vice versa (as the ruleset does). */
export function fovMetric(board: Board, metric: RadiusMetric | undefined): RadiusMetric {
  const m = metric ?? (board.kind === 'hex' ? 'hex' : 'chebyshev');
  if (m !== 'hex' && m !== 'chebyshev' && m !== 'euclidean') {
    throw new InputError('metric', `must be "hex", "chebyshev" or "euclidean", got ${String(m)}`);
  }
  if ((board.kind === 'hex') !== (m === 'hex')) {
    throw new InputError('metric', `"${m}" does not fit a ${board.kind} grid`);
  }
  return m;
}

export { assertRadius };

/**
 * Bresenham's line from `from` to `to`, both included; 8-connected, one tile per step of the major
 * axis (x wins ties). Where the ideal line passes exactly halfway between two tiles, it takes the
 * one nearer `from` on the minor axis, so the reverse line may differ from this one.
 */
export function bresenhamLine(from: Coord, to: Coord): Coord[] {
  const dx = Math.abs(to.col - from.col);
  const dy = Math.abs(to.row - from.row);
  const sx = to.col >= from.col ? 1 : -1;
  const sy = to.row >= from.row ? 1 : -1;
  const xMajor = dx >= dy;
  const major = xMajor ? dx : dy;
  const minor = xMajor ? dy : dx;
  const out: Coord[] = [];
  let m = 0;
  // err = 2·major·(exact minor offset at the next step − m) − major: step when strictly past halfway.
  let err = 2 * minor - major;
  for (let i = 0; i <= major; i++) {
    out.push(
      xMajor
        ? { col: from.col + sx * i, row: from.row + sy * m }
        : { col: from.col + sx * m, row: from.row + sy * i },
    );
    if (err > 0) {
      m++;
      err -= 2 * major;
    }
    err += 2 * minor;
  }
  return out;
}

type Cube = readonly [number, number, number];

/** Epsilon nudge direction in cube space: sums to 0, and distinct magnitudes mean rounding never ties. */
const NUDGE: Cube = [1, 2, -3];

function floorDiv(a: number, b: number): number {
  const r = ((a % b) + b) % b;
  return (a - r) / b;
}

/**
 * Rounds the cube point `p / n + sign·NUDGE·ε` (ε infinitesimal) to a hex, exactly: integers only,
 * the nudge deciding the halfway cases that the usual floating-point 1e-6 nudge decides.
 */
function roundNudged(p: Cube, n: number, sign: 1 | -1): Cube {
  const r: number[] = [];
  // Rounding error |r − v| as (rational part · n, ε coefficient), compared lexicographically.
  const err: [number, number][] = [];
  for (let i = 0; i < 3; i++) {
    const k = sign * NUDGE[i]!;
    let ri = floorDiv(2 * p[i]! + n, 2 * n);
    const tie = (2 * p[i]! + n) % (2 * n) === 0;
    if (tie && k < 0) ri -= 1;
    const q = ri * n - p[i]!;
    const s = q !== 0 ? Math.sign(q) : Math.sign(-k);
    r.push(ri);
    err.push([Math.abs(q), s * -k]);
  }
  const gt = (a: [number, number], b: [number, number]) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
  const [ex, ey, ez] = err as [[number, number], [number, number], [number, number]];
  let [x, y, z] = r as [number, number, number];
  // `0 - …` rather than `-…`: never produce −0, which deep equality tells apart from 0.
  if (gt(ex, ey) && gt(ex, ez)) x = 0 - y - z;
  else if (gt(ey, ez)) y = 0 - x - z;
  else z = 0 - x - y;
  return [x, y, z];
}

/**
 * Hex line from `from` to `to` (odd-r coordinates), both included: the cube lerp sampled at
 * hexDistance + 1 points, nudged by ±ε·(1, 2, −3) so points on a hex edge fall on a fixed side.
 * The nudge is a translation, so the line from `to` to `from` is exactly this one reversed.
 */
export function hexLine(from: Coord, to: Coord, nudge: 1 | -1 = 1): Coord[] {
  const a = toCube(from);
  const b = toCube(to);
  const n = Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.z - b.z));
  if (n === 0) return [{ col: from.col, row: from.row }];
  const out: Coord[] = [];
  for (let i = 0; i <= n; i++) {
    const p: Cube = [a.x * (n - i) + b.x * i, a.y * (n - i) + b.y * i, a.z * (n - i) + b.z * i];
    const [x, , z] = roundNudged(p, n, nudge);
    out.push({ col: x + (z - (z & 1)) / 2, row: z });
  }
  return out;
}

function clear(line: readonly Coord[], opaque: (c: Coord) => boolean): boolean {
  for (let i = 1; i < line.length - 1; i++) if (opaque(line[i]!)) return false;
  return true;
}

/** A square line is also stopped where it steps diagonally between two walls that touch at a corner. */
function clearSquare(line: readonly Coord[], opaque: (c: Coord) => boolean): boolean {
  if (!clear(line, opaque)) return false;
  for (let i = 1; i < line.length; i++) {
    const p = line[i - 1]!;
    const q = line[i]!;
    if (
      p.col !== q.col &&
      p.row !== q.row &&
      opaque({ col: q.col, row: p.row }) &&
      opaque({ col: p.col, row: q.row })
    ) {
      return false;
    }
  }
  return true;
}

/** Line of sight under an already-resolved opacity; see `lineOfSight`. */
function lineOfSightWith(board: Board, from: Coord, to: Coord, opaque: (c: Coord) => boolean): boolean {
  if (board.kind === 'hex')
    return clear(hexLine(from, to, 1), opaque) || clear(hexLine(from, to, -1), opaque);
  return clearSquare(bresenhamLine(from, to), opaque) || clearSquare(bresenhamLine(to, from), opaque);
}

/**
 * Line of sight between two tiles: hex lines on hex grids, Bresenham on squares. The endpoints never
 * block; a tile between them blocks when `blocks` says so, when it is unknown and `unknown` is
 * `'opaque'` (the default), or when it is off the board.
 * Rule for symmetry: the sight line is clear when EITHER of its two tie-breaking variants is clear —
 * on hex the +ε and −ε nudged lines, on squares Bresenham drawn from each end (which break halfway
 * cases toward opposite ends). Both variants are the same from either end, so LOS(a, b) = LOS(b, a),
 * and a line running exactly along a hex edge, or halfway between two squares, is blocked only when
 * both sides are. On squares a diagonal step between two walls that touch at a corner blocks (no
 * diagonal leaks, as in shadowcasting); hexes have no such corners.
 */
export function lineOfSight(
  board: Board,
  from: Coord,
  to: Coord,
  blocks: Opacity,
  options: Pick<FovOptions, 'unknown'> = {},
): boolean {
  assertOnBoard(board, from, 'from');
  assertOnBoard(board, to, 'to');
  return lineOfSightWith(board, from, to, opacityOf(board, blocks, options.unknown));
}

/** Tiles within `radius` of `origin` that have line of sight to it, as row-major tile indices. */
export function losFov(
  board: Board,
  origin: Coord,
  radius: number,
  blocks: Opacity,
  options: FovOptions = {},
): Set<number> {
  assertOnBoard(board, origin, 'origin');
  assertRadius(radius);
  const metric = fovMetric(board, options.metric);
  const resolve = opacityOf(board, blocks, options.unknown);
  // Each tile is asked once: the caller's predicate may be costly.
  const memo = new Int8Array(board.width * board.height);
  const opaque = (c: Coord): boolean => {
    if (!onBoard(board, c)) return true;
    const i = tileIndex(board, c);
    if (memo[i] === 0) memo[i] = resolve(c) ? 2 : 1;
    return memo[i] === 2;
  };
  const out = new Set<number>();
  for (const t of tilesInRange(board, metric, origin, radius)) {
    if (lineOfSightWith(board, origin, t, opaque)) out.add(tileIndex(board, t));
  }
  return out;
}
