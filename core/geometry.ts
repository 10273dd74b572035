import { InputError } from './errors.ts';
import { MAX_BOARD_SIDE, MAX_ZONES } from './limits.ts';
import { levelsFor } from './merkle.ts';
import type { GridKind, VisionModel } from './ruleset/types.ts';

/** Storage coordinates: column and row. Hex grids use odd-r offset (odd rows shifted right). */
export interface Coord {
  col: number;
  row: number;
}

export const ZONE_SIZE = 8;
/** Leaves per zone subtree (8×8). */
export const ZONE_LEAVES = ZONE_SIZE * ZONE_SIZE;
/** Tree levels of a zone's subtree: 3, for 4-ary nodes (core/merkle.ts TREE_ARITY). */
export const ZONE_DEPTH = levelsFor(ZONE_LEAVES);

/** The board's shape and its zone layout, derived once from the grid. */
export interface Board {
  kind: GridKind;
  width: number;
  height: number;
  zonesX: number;
  zonesY: number;
  zoneCount: number;
  /** Merkle depth in 4-ary levels: ZONE_DEPTH + ceil(log4(zoneCount)). */
  depth: number;
}

/**
 * The board of a `width`×`height` grid. Refuses, naming the field, a side that is not a positive integer or is
 * above `MAX_BOARD_SIDE`, and a board of more than `MAX_ZONES` zones (core/limits.ts: the limits the circuit
 * generator and the contract enforce too).
 */
export function makeBoard(kind: GridKind, width: number, height: number): Board {
  for (const [name, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(v) || v < 1)
      throw new InputError(`grid.${name}`, `must be a positive integer, got ${v}`);
    if (v > MAX_BOARD_SIDE)
      throw new InputError(
        `grid.${name}`,
        `${v} is above the largest side, ${MAX_BOARD_SIDE} (10-bit coordinates)`,
      );
  }
  const zonesX = Math.ceil(width / ZONE_SIZE);
  const zonesY = Math.ceil(height / ZONE_SIZE);
  const zoneCount = zonesX * zonesY;
  if (zoneCount > MAX_ZONES) {
    throw new InputError(
      'grid',
      `${width}×${height} has ${zoneCount} zones (${zonesX}×${zonesY}), above the limit of ${MAX_ZONES} (a zone bitmask is one 253-bit word)`,
    );
  }
  const depth = ZONE_DEPTH + levelsFor(zoneCount);
  return { kind, width, height, zonesX, zonesY, zoneCount, depth };
}

export function onBoard(b: Board, c: Coord): boolean {
  return (
    Number.isInteger(c.col) &&
    Number.isInteger(c.row) &&
    c.col >= 0 &&
    c.row >= 0 &&
    c.col < b.width &&
    c.row < b.height
  );
}

/** Throws naming the field when `c` is not a tile of the board. Never clamps. */
export function assertOnBoard(b: Board, c: Coord, field = 'coord'): void {
  if (!onBoard(b, c)) {
    throw new InputError(field, `(${c.col},${c.row}) is off the ${b.width}×${b.height} board`);
  }
}

/** Row-major index, the order of the generator's output. Off-board coordinates throw, never wrap. */
export function tileIndex(b: Board, c: Coord): number {
  assertOnBoard(b, c);
  return c.row * b.width + c.col;
}

export function tileCoord(b: Board, index: number): Coord {
  if (!Number.isInteger(index) || index < 0 || index >= b.width * b.height) {
    throw new InputError('tileIndex', `${index} is not a tile index of the ${b.width}×${b.height} board`);
  }
  return { col: index % b.width, row: Math.floor(index / b.width) };
}

export function zoneOf(b: Board, c: Coord): number {
  assertOnBoard(b, c);
  return Math.floor(c.row / ZONE_SIZE) * b.zonesX + Math.floor(c.col / ZONE_SIZE);
}

/** Zone-major leaf index: zone * 64 + row-major index inside the 8×8 zone. */
export function leafIndex(b: Board, c: Coord): number {
  return zoneOf(b, c) * ZONE_LEAVES + (c.row % ZONE_SIZE) * ZONE_SIZE + (c.col % ZONE_SIZE);
}

/** Inverse of `leafIndex`; null for the off-board slots of edge zones and unused zones. */
export function leafCoord(b: Board, leaf: number): Coord | null {
  const zone = Math.floor(leaf / ZONE_LEAVES);
  if (!Number.isInteger(leaf) || leaf < 0 || zone >= b.zoneCount) return null;
  const local = leaf % ZONE_LEAVES;
  const c = {
    col: (zone % b.zonesX) * ZONE_SIZE + (local % ZONE_SIZE),
    row: Math.floor(zone / b.zonesX) * ZONE_SIZE + Math.floor(local / ZONE_SIZE),
  };
  return onBoard(b, c) ? c : null;
}

/** Hex odd-r offset → cube coordinates (x + y + z = 0). */
export function toCube(c: Coord): { x: number; y: number; z: number } {
  const x = c.col - (c.row - (c.row & 1)) / 2;
  const z = c.row;
  return { x, y: -x - z, z };
}

export function hexDistance(a: Coord, b: Coord): number {
  const p = toCube(a);
  const q = toCube(b);
  return Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y), Math.abs(p.z - q.z));
}

export function chebyshevDistance(a: Coord, b: Coord): number {
  return Math.max(Math.abs(a.col - b.col), Math.abs(a.row - b.row));
}

export function euclideanDistanceSquared(a: Coord, b: Coord): number {
  const dc = a.col - b.col;
  const dr = a.row - b.row;
  return dc * dc + dr * dr;
}

/** The grid's own movement metric: hex steps, or king moves on squares. */
export function gridDistance(kind: GridKind, a: Coord, b: Coord): number {
  return kind === 'hex' ? hexDistance(a, b) : chebyshevDistance(a, b);
}

/**
 * Edge directions. Hex: E, NE, NW, W, SW, SE (counter-clockwise, north is row − 1).
 * Square: E, N, W, S. Bit d of a river bitmask is the edge in direction d; opposite is d + n/2.
 */
const HEX_EVEN: readonly (readonly [number, number])[] = [
  [1, 0],
  [0, -1],
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
];
const HEX_ODD: readonly (readonly [number, number])[] = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [0, 1],
  [1, 1],
];
const SQUARE_EDGES: readonly (readonly [number, number])[] = [
  [1, 0],
  [0, -1],
  [-1, 0],
  [0, 1],
];
const SQUARE_KING: readonly (readonly [number, number])[] = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
  [1, 1],
];

export function edgeCount(kind: GridKind): number {
  return kind === 'hex' ? 6 : 4;
}

export function oppositeEdge(kind: GridKind, d: number): number {
  const n = edgeCount(kind);
  return (d + n / 2) % n;
}

/** Offset of the tile across edge `d`; pure, so it also works for tiles beyond the board. */
export function edgeOffset(kind: GridKind, row: number, d: number): readonly [number, number] {
  const table = kind === 'hex' ? ((row & 1) === 0 ? HEX_EVEN : HEX_ODD) : SQUARE_EDGES;
  return table[d]!;
}

/** Tiles sharing an edge with `c`, in edge-direction order; `null` where it would be off the board. */
export function edgeNeighbours(b: Board, c: Coord): (Coord | null)[] {
  const out: (Coord | null)[] = [];
  for (let d = 0; d < edgeCount(b.kind); d++) {
    const [dc, dr] = edgeOffset(b.kind, c.row, d);
    const n = { col: c.col + dc, row: c.row + dr };
    out.push(onBoard(b, n) ? n : null);
  }
  return out;
}

/** Tiles one step away under the grid metric (6 on hex, 8 on squares), on the board only. */
export function neighbours(b: Board, c: Coord): Coord[] {
  const table = b.kind === 'hex' ? ((c.row & 1) === 0 ? HEX_EVEN : HEX_ODD) : SQUARE_KING;
  const out: Coord[] = [];
  for (const [dc, dr] of table) {
    const n = { col: c.col + dc, row: c.row + dr };
    if (onBoard(b, n)) out.push(n);
  }
  return out;
}

export function assertRadius(radius: number, field = 'radius'): void {
  if (!Number.isInteger(radius) || radius < 0)
    throw new InputError(field, `must be a non-negative integer, got ${radius}`);
}

/** True when `target` is within `radius` of `source` under a radius vision model. */
export function withinRadius(
  model: Exclude<VisionModel, 'litZones'>,
  source: Coord,
  target: Coord,
  radius: number,
): boolean {
  assertRadius(radius);
  switch (model) {
    case 'hex':
      return hexDistance(source, target) <= radius;
    case 'chebyshev':
      return chebyshevDistance(source, target) <= radius;
    case 'euclidean':
      return euclideanDistanceSquared(source, target) <= radius * radius;
  }
}

/** On-board tiles within `radius` of `source`, scanning only the bounding box (row-major order). */
export function tilesInRange(
  b: Board,
  model: Exclude<VisionModel, 'litZones'>,
  source: Coord,
  radius: number,
): Coord[] {
  assertOnBoard(b, source, 'source');
  assertRadius(radius);
  const out: Coord[] = [];
  const r0 = Math.max(0, source.row - radius);
  const r1 = Math.min(b.height - 1, source.row + radius);
  // A hex row offset shifts columns by at most half a step per row, so radius + 1 bounds the box.
  const span = radius + 1;
  const c0 = Math.max(0, source.col - span);
  const c1 = Math.min(b.width - 1, source.col + span);
  for (let row = r0; row <= r1; row++) {
    for (let col = c0; col <= c1; col++) {
      const t = { col, row };
      if (withinRadius(model, source, t, radius)) out.push(t);
    }
  }
  return out;
}

/** Every on-board tile of a zone, row-major. */
export function zoneTiles(b: Board, zone: number): Coord[] {
  if (!Number.isInteger(zone) || zone < 0 || zone >= b.zoneCount) {
    throw new InputError('zone', `${zone} is not a zone of this board (0..${b.zoneCount - 1})`);
  }
  const col0 = (zone % b.zonesX) * ZONE_SIZE;
  const row0 = Math.floor(zone / b.zonesX) * ZONE_SIZE;
  const out: Coord[] = [];
  for (let row = row0; row < Math.min(row0 + ZONE_SIZE, b.height); row++) {
    for (let col = col0; col < Math.min(col0 + ZONE_SIZE, b.width); col++) out.push({ col, row });
  }
  return out;
}
