/**
 * Generator constants, shared bit for bit by TypeScript, Solidity (one tile) and Circom (one zone).
 * Changing any of them changes every map: bump GENERATOR_VERSION and the test vectors.
 */
export const GENERATOR_VERSION = 2;

/** Lattice cells are 8×8 storage tiles, aligned with zones. */
export const CELL = 8;

/** Domain tags in the hash key, so lattice and detail hashes never collide. */
export const DOMAIN_LATTICE = 1n;
export const DOMAIN_DETAIL = 2n;

/** One octave of value noise: a lattice with `spacing`, values of `bits` bits at `offset` in the cell hash. */
export interface Octave {
  spacing: 2 | 4 | 8;
  /** Bit offset of the first lattice value in the cell hash. */
  offset: number;
  bits: number;
  /** Integer amplitude the interpolated value is multiplied by. */
  amplitude: number;
}

/** Cell-hash layout (184 of 254 bits). Points are stored row-major in the cell: index j * (8/s) + i. */
export const ELEVATION: readonly Octave[] = [
  { spacing: 8, offset: 0, bits: 8, amplitude: 1 },
  { spacing: 4, offset: 8, bits: 7, amplitude: 12 },
  { spacing: 2, offset: 36, bits: 5, amplitude: 320 },
];
export const MOISTURE: readonly Octave[] = [
  { spacing: 8, offset: 116, bits: 8, amplitude: 1 },
  { spacing: 4, offset: 124, bits: 6, amplitude: 40 },
];
export const RIVER_FIELD: readonly Octave[] = [
  { spacing: 8, offset: 148, bits: 8, amplitude: 1 },
  { spacing: 4, offset: 156, bits: 7, amplitude: 16 },
];
export const CELL_HASH_BITS_USED = 184;

/**
 * 1-D interpolation weights `a(f)` for offset f in [0, spacing): the upper point weighs a(f), the lower
 * D − a(f). Smoothstep rounded to integers, symmetric (a(f) + a(s − f) = D), so interpolation is a
 * constant linear combination in-circuit.
 */
export const WEIGHTS: Readonly<Record<2 | 4 | 8, { denominator: number; upper: readonly number[] }>> = {
  8: { denominator: 64, upper: [0, 3, 10, 20, 32, 44, 54, 61] },
  4: { denominator: 16, upper: [0, 3, 8, 13] },
  2: { denominator: 4, upper: [0, 2] },
};

/**
 * Edge falloff: a tile d < F tiles from a board edge loses FALLOFF_DROP·(F − d)²/F² elevation, F the falloff width
 * of the board (`falloffTiles`): min(FALLOFF_MAX_TILES, max(1, ⌊min(width, height) / FALLOFF_PER_TILE⌋)), so small
 * boards keep their land while the edge row stays sea. FALLOFF_DROP is divisible by every F² (integers only).
 */
export const FALLOFF_MAX_TILES = 4;
export const FALLOFF_PER_TILE = 8;
export const FALLOFF_DROP = 720_000;
/** Added so elevation stays non-negative after both falloffs. */
export const ELEVATION_OFFSET = 2 * FALLOFF_DROP;

/**
 * Fair starts: near a start area the elevation is blended toward START_TARGET, with weight w/ELEVATION_SCALE
 * (w = START_WEIGHTS[d] at Chebyshev distance d from the area, 0 beyond): E = (SCALE − w)·e + w·TARGET. Every
 * elevation and its thresholds are therefore in units of 1/ELEVATION_SCALE. At full weight the whole noise range
 * lands between sea and mountains, so a start area is passable unless the edge falloff reaches it.
 */
export const ELEVATION_SCALE = 4;
export const START_WEIGHTS: readonly number[] = [3, 2, 1];
export const START_TARGET = ELEVATION_OFFSET + 915_000;
/** Start areas the generator reads: the first `players.max` ≤ 6 (10-bit coordinates, one 240-bit word on-chain). */
export const MAX_START_AREAS = 6;

const scaled = (e: number) => ELEVATION_SCALE * (ELEVATION_OFFSET + e);
/** Terrain thresholds on the scaled elevation (relative to the offset) and on moisture. */
export const T_DEEP = scaled(310_000);
export const T_SEA = scaled(520_000);
export const T_HILLS = scaled(1_140_000);
export const T_MOUNTAINS = scaled(1_250_000);
export const T_DRY = 540_000;
export const T_WET = 800_000;
export const T_FOREST = 860_000;
/** Lowland band above sea level where wet tiles are marsh. */
export const T_MARSH = scaled(580_000);
/** River iso-line level of the river field. */
export const T_RIVER = 771_000;
/** Bits of every elevation comparison input (the scaled elevation is below 2^24 by construction). */
export const ELEVATION_BITS = 24;

/** Detail: 3 random bits per tile from the zone's detail hash. */
export const DETAIL_BITS = 3;
/** A tile has a resource when its detail value equals this. */
export const RESOURCE_DETAIL = 7;
/** Forests need a detail value at least this (3 in 4 wet tiles). */
export const FOREST_DETAIL = 2;
