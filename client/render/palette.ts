import { Feature, Resource, Terrain } from '../../core/tile.ts';

/** Terrain fill colours (CSS), indexed by terrain id. */
export const TERRAIN_COLOURS: Readonly<Record<Terrain, string>> = {
  [Terrain.DEEP_WATER]: '#1d3f6e',
  [Terrain.SHALLOW_WATER]: '#3d74b0',
  [Terrain.GRASSLAND]: '#6aa84f',
  [Terrain.PLAINS]: '#b5c267',
  [Terrain.DESERT]: '#e3cf8a',
  [Terrain.HILLS]: '#9c8452',
  [Terrain.MOUNTAINS]: '#8d8d8d',
};

/** xterm-256 background codes approximating the same palette. */
export const TERRAIN_ANSI: Readonly<Record<Terrain, number>> = {
  [Terrain.DEEP_WATER]: 17,
  [Terrain.SHALLOW_WATER]: 25,
  [Terrain.GRASSLAND]: 70,
  [Terrain.PLAINS]: 143,
  [Terrain.DESERT]: 186,
  [Terrain.HILLS]: 101,
  [Terrain.MOUNTAINS]: 246,
};

export const TERRAIN_NAMES: Readonly<Record<Terrain, string>> = {
  [Terrain.DEEP_WATER]: 'deep water',
  [Terrain.SHALLOW_WATER]: 'shallow water',
  [Terrain.GRASSLAND]: 'grassland',
  [Terrain.PLAINS]: 'plains',
  [Terrain.DESERT]: 'desert',
  [Terrain.HILLS]: 'hills',
  [Terrain.MOUNTAINS]: 'mountains',
};

export const FEATURE_GLYPHS: Readonly<Record<Feature, string>> = {
  [Feature.NONE]: '',
  [Feature.FOREST]: '♣',
  [Feature.MARSH]: '≈',
};

export const RESOURCE_GLYPHS: Readonly<Record<Resource, string>> = {
  [Resource.NONE]: '',
  [Resource.FISH]: 'f',
  [Resource.WHEAT]: 'w',
  [Resource.OIL]: 'o',
  [Resource.IRON]: 'i',
  [Resource.GOLD]: 'g',
};

export const RIVER_COLOUR = '#4fa3ff';

export const FEATURE_NAMES: Readonly<Record<Feature, string>> = {
  [Feature.NONE]: 'none',
  [Feature.FOREST]: 'forest',
  [Feature.MARSH]: 'marsh',
};

export const RESOURCE_NAMES: Readonly<Record<Resource, string>> = {
  [Resource.NONE]: 'none',
  [Resource.FISH]: 'fish',
  [Resource.WHEAT]: 'wheat',
  [Resource.OIL]: 'oil',
  [Resource.IRON]: 'iron',
  [Resource.GOLD]: 'gold',
};

/** Colours of the marks drawn over the map (units, moves, sightings, attacks). */
export const MARK_COLOURS = {
  ownUnit: '#35c9ff',
  move: '#ffffff',
  enemy: '#ff3b3b',
  attackMade: '#ffd23f',
  attackReceived: '#ff5cf4',
} as const;
