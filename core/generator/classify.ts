import { Feature, Resource, Terrain } from '../tile.ts';
import * as P from './params.ts';

/** The three continuous fields of one tile, before thresholds. */
export interface TileFields {
  elevation: number;
  moisture: number;
  /** Grows along every row (params.ts RIVER_SLOPE): rivers follow its levels. */
  river: number;
}

export function terrainOf(f: TileFields): Terrain {
  const e = f.elevation;
  if (e < P.T_DEEP) return Terrain.DEEP_WATER;
  if (e < P.T_SEA) return Terrain.SHALLOW_WATER;
  if (e >= P.T_MOUNTAINS) return Terrain.MOUNTAINS;
  if (e >= P.T_HILLS) return Terrain.HILLS;
  if (f.moisture >= P.T_WET) return Terrain.GRASSLAND;
  if (f.moisture >= P.T_DRY) return Terrain.PLAINS;
  return Terrain.DESERT;
}

function isFlatLand(t: Terrain): boolean {
  return t === Terrain.GRASSLAND || t === Terrain.PLAINS || t === Terrain.DESERT;
}

/** Marsh on wet lowland; forest on moist land below the mountains, thinned by detail. */
export function featureOf(t: Terrain, f: TileFields, detail: number): Feature {
  if (isFlatLand(t) && f.elevation < P.T_MARSH && f.moisture >= P.T_WET) return Feature.MARSH;
  if ((isFlatLand(t) || t === Terrain.HILLS) && f.moisture >= P.T_FOREST && detail >= P.FOREST_DETAIL) {
    return Feature.FOREST;
  }
  return Feature.NONE;
}

/** Which resource a terrain yields, when the tile's detail selects one. */
export const RESOURCE_BY_TERRAIN: Readonly<Record<Terrain, Resource>> = {
  [Terrain.DEEP_WATER]: Resource.NONE,
  [Terrain.SHALLOW_WATER]: Resource.FISH,
  [Terrain.GRASSLAND]: Resource.WHEAT,
  [Terrain.PLAINS]: Resource.WHEAT,
  [Terrain.DESERT]: Resource.OIL,
  [Terrain.HILLS]: Resource.IRON,
  [Terrain.MOUNTAINS]: Resource.GOLD,
};

export function resourceOf(t: Terrain, detail: number): Resource {
  return detail === P.RESOURCE_DETAIL ? RESOURCE_BY_TERRAIN[t] : Resource.NONE;
}

/**
 * Rivers run between two flat-land tiles: they rise at hills or mountains and end at water or the board edge,
 * never inside the land (where every tile at a corner is eligible, an even number of river edges meet).
 */
export function riverEligible(t: Terrain): boolean {
  return isFlatLand(t);
}

/** Which side of the river levels a tile lies on: bit RIVER_BIT of its river field (see params.ts). */
export function riverSide(f: TileFields): boolean {
  return Math.floor(f.river / 2 ** P.RIVER_BIT) % 2 === 1;
}
