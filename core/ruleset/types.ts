import type { Durations } from '../limits.ts';
/** Grid kinds. `hex` uses odd-r offset storage coordinates: odd rows sit half a tile to the right. */
export type GridKind = 'hex' | 'square';

/** Vision models that circuits can prove. `litZones`: a source sees its whole zone. */
export type VisionModel = 'hex' | 'chebyshev' | 'euclidean' | 'litZones';

export interface UnitType {
  /** Short name, unique in the ruleset. */
  name: string;
  /** Tiles per turn (under the grid's own metric); 0 for structures. */
  speed: number;
  /** Vision radius under the vision model (ignored by `litZones`, which sees the zone). */
  vision: number;
  /** Attack range under the grid's metric; 0 = cannot attack. */
  attackRange: number;
  /** Hit points at spawn, 1..255. */
  hp: number;
  /** Structures never move. */
  structure: boolean;
}

/** Inclusive rectangle in storage coordinates. */
export interface Area {
  col0: number;
  row0: number;
  col1: number;
  row1: number;
}

/** The phase durations a game of this ruleset is created with (within core/limits.ts's bounds). */
export type Deadlines = Durations;

/** One game's rules. Hashed into the game on-chain; circuits are compiled from it. */
export interface Ruleset {
  name: string;
  version: 1;
  grid: { kind: GridKind; width: number; height: number; zoneSize: 8 };
  vision: { model: VisionModel };
  unitTypes: UnitType[];
  /** Fixed number of unit slots per player, structures included. */
  unitSlots: number;
  players: { min: number; max: number };
  /** One start area per seat; at least `players.max` of them. */
  startAreas: Area[];
  /** Units each player places at spawn, by type name (the rest of the slots stay empty). */
  spawn: string[];
  /** Upper bound on tiles revealed by one spawn or turn proof. */
  maxRevealedTiles: number;
  /** When true, turn proofs show every destination tile is passable (Merkle path against the root). */
  provePassability: boolean;
  deadlines: Deadlines;
}
