import { toField } from '../field.ts';
import { assertOnBoard, type Coord, edgeCount, edgeOffset, onBoard, tileIndex } from '../geometry.ts';
import type { Hasher } from '../poseidon.ts';
import type { Area } from '../ruleset/types.ts';
import type { Tile } from '../tile.ts';
import { featureOf, resourceOf, riverEligible, riverSide, type TileFields, terrainOf } from './classify.ts';
import { type CellSource, cellSource, detailAt, detailSource, fieldAt } from './lattice.ts';
import * as P from './params.ts';
import { edgeFalloff, falloffTiles, type MapBoard, startAreasOf, startWeight } from './shape.ts';

interface Sources {
  cells: CellSource;
  details: CellSource;
  /** Falloff width and start areas: constants of the board. */
  fall: number;
  starts: readonly Area[];
}

function sources(h: Hasher, b: MapBoard, seed: bigint): Sources {
  return {
    cells: cellSource(h, seed),
    details: detailSource(h, seed),
    fall: falloffTiles(b.width, b.height),
    starts: startAreasOf(b),
  };
}

/** Ridged relief: highest where the ridge noise crosses its middle, so its crests are long lines. */
function ridgeAt(s: Sources, x: number, y: number): number {
  const n = fieldAt(s.cells, P.RIDGE_NOISE, x, y);
  return P.RIDGE_AMPLITUDE * (P.RIDGE_MID - Math.abs(n - P.RIDGE_MID));
}

/** Scaled elevation: noise and ridges ringed by sea (edge falloff), blended toward land near the start areas. */
function elevationAt(b: MapBoard, s: Sources, x: number, y: number): number {
  const e =
    fieldAt(s.cells, P.ELEVATION, x, y) +
    ridgeAt(s, x, y) +
    P.ELEVATION_OFFSET -
    edgeFalloff(b, s.fall, x, y);
  const w = startWeight(s.starts, x, y);
  return (P.ELEVATION_SCALE - w) * e + w * P.START_TARGET;
}

export function fieldsAt(b: MapBoard, s: Sources, x: number, y: number): TileFields {
  return {
    elevation: elevationAt(b, s, x, y),
    moisture: fieldAt(s.cells, P.MOISTURE, x, y),
    river: P.RIVER_SLOPE * (x + 1) + fieldAt(s.cells, P.RIVER_NOISE, x, y),
  };
}

function riverMask(b: MapBoard, c: Coord, self: TileFields, fieldsOf: (c: Coord) => TileFields): number {
  const t = terrainOf(self);
  if (!riverEligible(t)) return 0;
  let mask = 0;
  for (let d = 0; d < edgeCount(b.kind); d++) {
    const [dc, dr] = edgeOffset(b.kind, c.row, d);
    const n = { col: c.col + dc, row: c.row + dr };
    if (!onBoard(b, n)) continue;
    const other = fieldsOf(n);
    if (riverEligible(terrainOf(other)) && riverSide(self) !== riverSide(other)) mask |= 1 << d;
  }
  return mask;
}

function tileFrom(f: TileFields, detail: number, rivers: number): Tile {
  const terrain = terrainOf(f);
  return { terrain, feature: featureOf(terrain, f, detail), resource: resourceOf(terrain, detail), rivers };
}

function boardFields(b: MapBoard, s: Sources): TileFields[] {
  const fields: TileFields[] = new Array(b.width * b.height);
  for (let row = 0; row < b.height; row++) {
    for (let col = 0; col < b.width; col++) fields[row * b.width + col] = fieldsAt(b, s, col, row);
  }
  return fields;
}

/** The fields of every tile, row-major, before thresholds: what `generateMap` classifies. */
export function mapFields(h: Hasher, b: MapBoard, seed: bigint): TileFields[] {
  return boardFields(b, sources(h, b, toField(seed, 'seed')));
}

/** `Gen(seed)`: every tile of the board, row-major. Deterministic, integers only. */
export function generateMap(h: Hasher, b: MapBoard, seed: bigint): Tile[] {
  const s = sources(h, b, toField(seed, 'seed'));
  const fields = boardFields(b, s);
  const at = (c: Coord) => fields[tileIndex(b, c)]!;
  return fields.map((f, i) => {
    const c = { col: i % b.width, row: Math.floor(i / b.width) };
    return tileFrom(f, detailAt(s.details, P.DETAIL_BITS, c.col, c.row), riverMask(b, c, f, at));
  });
}

/**
 * One tile of `Gen(seed)` from O(1) hashes: the tile and its edge neighbours read at most 3×3 lattice
 * cells, plus the tile's own detail hash (≤ 10 Poseidon calls). This is what a fraud proof recomputes.
 */
export function generateTile(h: Hasher, b: MapBoard, seed: bigint, c: Coord): Tile {
  assertOnBoard(b, c);
  const s = sources(h, b, toField(seed, 'seed'));
  const self = fieldsAt(b, s, c.col, c.row);
  const detail = detailAt(s.details, P.DETAIL_BITS, c.col, c.row);
  return tileFrom(
    self,
    detail,
    riverMask(b, c, self, (n) => fieldsAt(b, s, n.col, n.row)),
  );
}

export type { TileFields } from './classify.ts';
export { GENERATOR_VERSION } from './params.ts';
export { falloffTiles, type MapBoard, packStartAreas, startWeight, withStartAreas } from './shape.ts';
