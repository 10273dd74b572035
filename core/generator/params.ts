/**
 * Generator constants, shared bit for bit by TypeScript, Solidity (one tile) and Circom (one zone).
 * Changing any of them changes every map: bump GENERATOR_VERSION and the test vectors.
 */
export const GENERATOR_VERSION = 3;

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

/** Largest value of a field: every lattice value at its maximum (interpolation weights sum to spacing⁴). */
export function fieldMax(octaves: readonly Octave[]): number {
  return octaves.reduce((sum, o) => sum + o.amplitude * o.spacing ** 4 * (2 ** o.bits - 1), 0);
}

/** Cell-hash layout (174 of 254 bits). Points are stored row-major in the cell: index j * (8/s) + i. */
export const ELEVATION: readonly Octave[] = [
  { spacing: 8, offset: 0, bits: 8, amplitude: 1 },
  { spacing: 4, offset: 8, bits: 7, amplitude: 12 },
  { spacing: 2, offset: 36, bits: 5, amplitude: 320 },
];
export const MOISTURE: readonly Octave[] = [
  { spacing: 8, offset: 116, bits: 8, amplitude: 1 },
  { spacing: 4, offset: 124, bits: 6, amplitude: 40 },
];
/**
 * River noise: 1-bit coarse values (a river swings up to a lattice cell sideways between them) and a finer octave
 * for bends. Added to the river slope below, so its largest step between neighbours must stay under the slope.
 */
export const RIVER_NOISE: readonly Octave[] = [
  { spacing: 8, offset: 148, bits: 1, amplitude: 11 },
  { spacing: 4, offset: 149, bits: 3, amplitude: 3 },
];
/**
 * Ridge noise: mostly 1-bit coarse values, so it sits near its extremes and crosses its middle along thin lines
 * between them; the finer octave bends those lines. Mountain ranges run along them (RIDGE_AMPLITUDE below).
 */
export const RIDGE_NOISE: readonly Octave[] = [
  { spacing: 8, offset: 161, bits: 1, amplitude: 4 },
  { spacing: 4, offset: 162, bits: 3, amplitude: 4 },
];
export const CELL_HASH_BITS_USED = 174;

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
 * Ranges, not blobs: elevation gains RIDGE_AMPLITUDE · (RIDGE_MID − |ridge noise − RIDGE_MID|), highest along the
 * lines where the ridge noise crosses its middle. Where those lines cross high ground they rise into mountains
 * flanked by hills, long and narrow.
 */
export const RIDGE_MID = fieldMax(RIDGE_NOISE) / 2;
export const RIDGE_AMPLITUDE = 85;

/**
 * Rivers that cannot loop: the river field is RIVER_SLOPE · (x + 1) + river noise, and a river runs between two
 * flat-land tiles whose field differs in bit RIVER_BIT (they lie on either side of a level k · 2^RIVER_BIT). The
 * slope exceeds the noise's largest step between neighbours, so the field grows along every row and each level
 * crosses a row at most once; a closed loop would cross some row twice. Neighbours differ by less than
 * 2^RIVER_BIT, so levels never share a corner (tests check both premises). Rivers run north–south,
 * 2^RIVER_BIT / RIVER_SLOPE ≈ 13 columns apart, swinging up to fieldMax(RIVER_NOISE) / RIVER_SLOPE ≈ 5 sideways.
 * x + 1, not x: the ring of tiles a zone circuit reads starts at x = −1, and the field must stay non-negative.
 */
export const RIVER_SLOPE = 10_240;
export const RIVER_BIT = 17;

/**
 * Edge falloff: a tile d < F tiles from a board edge loses FALLOFF_DROP·(F − d)²/F² elevation (the larger of its two
 * axes' drops, so a corner loses no more than an edge and the drop can be deep within 24-bit elevations), F the
 * falloff width of the board (`falloffTiles`): min(FALLOFF_MAX_TILES, max(1, ⌊min(width, height) /
 * FALLOFF_PER_TILE⌋)), so small boards keep their land while the edge row stays sea. FALLOFF_DROP is divisible by
 * every F² (integers only).
 */
export const FALLOFF_MAX_TILES = 4;
export const FALLOFF_PER_TILE = 8;
export const FALLOFF_DROP = 1_080_000;
/** Added so elevation stays non-negative after the falloff; keeps the scaled elevation below 2^ELEVATION_BITS. */
export const ELEVATION_OFFSET = 1_440_000;

/**
 * Fair starts: near a start area the elevation is blended toward START_TARGET, with weight w/ELEVATION_SCALE
 * (w = START_WEIGHTS[d] at Chebyshev distance d from the area, 0 beyond): E = (SCALE − w)·e + w·TARGET. Every
 * elevation and its thresholds are therefore in units of 1/ELEVATION_SCALE. At full weight the whole noise range
 * lands between sea and mountains, so a start area is passable unless the edge falloff reaches it.
 */
export const ELEVATION_SCALE = 4;
export const START_WEIGHTS: readonly number[] = [3, 2, 1];
export const START_TARGET = ELEVATION_OFFSET + 1_460_000;
/** Start areas the generator reads: the first `players.max` ≤ 6 (10-bit coordinates, one 240-bit word on-chain). */
export const MAX_START_AREAS = 6;

const scaled = (e: number) => ELEVATION_SCALE * (ELEVATION_OFFSET + e);
/** Terrain thresholds on the scaled elevation (relative to the offset) and on moisture. */
export const T_DEEP = scaled(650_000);
export const T_SEA = scaled(965_000);
export const T_HILLS = scaled(1_685_000);
export const T_MOUNTAINS = scaled(1_870_000);
export const T_DRY = 540_000;
export const T_WET = 800_000;
export const T_FOREST = 860_000;
/** Lowland band above sea level where wet tiles are marsh. */
export const T_MARSH = scaled(1_025_000);
/** Bits of every elevation comparison input (the scaled elevation is below 2^24 by construction). */
export const ELEVATION_BITS = 24;

/** Detail: 3 random bits per tile from the zone's detail hash. */
export const DETAIL_BITS = 3;
/** A tile has a resource when its detail value equals this. */
export const RESOURCE_DETAIL = 7;
/** Forests need a detail value at least this (3 in 4 wet tiles). */
export const FOREST_DETAIL = 2;
