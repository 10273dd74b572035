/** Terrain classes: water below sea level, then flat land by moisture, then hills and mountains. */
export const Terrain = {
  DEEP_WATER: 0,
  SHALLOW_WATER: 1,
  GRASSLAND: 2,
  PLAINS: 3,
  DESERT: 4,
  HILLS: 5,
  MOUNTAINS: 6,
} as const;
export type Terrain = (typeof Terrain)[keyof typeof Terrain];

export const Feature = { NONE: 0, FOREST: 1, MARSH: 2 } as const;
export type Feature = (typeof Feature)[keyof typeof Feature];

export const Resource = { NONE: 0, FISH: 1, WHEAT: 2, OIL: 3, IRON: 4, GOLD: 5 } as const;
export type Resource = (typeof Resource)[keyof typeof Resource];

/** One tile's public contents: what a leaf commits to, besides its salt. */
export interface Tile {
  terrain: Terrain;
  feature: Feature;
  resource: Resource;
  /** Bit d set: a river runs along edge d (geometry's edge order). */
  rivers: number;
}

export function isWater(t: Terrain): boolean {
  return t === Terrain.DEEP_WATER || t === Terrain.SHALLOW_WATER;
}

/** Units may stand on any land but mountains (used when a ruleset proves passability). */
export function isPassable(t: Terrain): boolean {
  return !isWater(t) && t !== Terrain.MOUNTAINS;
}
