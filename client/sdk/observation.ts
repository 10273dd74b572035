import { Fog } from '@shroud/core/fog.ts';
import type { Board, Coord } from '@shroud/core/geometry.ts';
import { gridDistance, tileIndex, tilesInRange, zoneOf } from '@shroud/core/geometry.ts';
import type { Ruleset } from '@shroud/core/ruleset/types.ts';
import type { Slots } from '@shroud/core/state.ts';
import { isPassable, type Tile } from '@shroud/core/tile.ts';

/** One remembered enemy sighting, flattened for agents. */
export interface ObservedSighting {
  /** Seat of the enemy player. */
  player: number;
  zone: number;
  /** Index into `ruleset.unitTypes`. */
  unitType: number;
  /** Turn it was last seen. */
  turn: number;
  /** Present for exact-tile sightings (combat reveals). */
  col?: number;
  row?: number;
  /** True once a later opponent turn showed the unit is no longer where it was seen. */
  lost: boolean;
}

export interface ObservedUnit {
  slot: number;
  type: number;
  hp: number;
  col: number;
  row: number;
}

/**
 * Everything an agent may know, as plain JSON-safe arrays, built only from what the protocol
 * revealed to this player. Tile arrays are row-major (`index = row * width + col`).
 */
export interface Observation {
  kind: Board['kind'];
  width: number;
  height: number;
  turn: number | null;
  /** Fog per tile: 0 undiscovered, 1 visible, 2 explored. */
  fog: number[];
  /** Terrain id per tile, −1 where no verified tile was served. Never set on an undiscovered tile. */
  terrain: number[];
  lastSeen: ObservedSighting[];
  /** Per slot, null for empty or dead slots. */
  ownUnits: (ObservedUnit | null)[];
  /** Per slot: tile indices the unit may move to this turn (its own tile included), ascending. */
  moveMask: number[][];
  /** Tile indices some own unit could attack now: visible and within an attack range, ascending. */
  attackMask: number[];
}

/** Inputs to `buildObservation`: the player's private knowledge, nothing else. */
export interface Knowledge {
  ruleset: Ruleset & { board: Board };
  turn: number | null;
  fog: Uint8Array | readonly number[];
  tiles: ReadonlyMap<number, Tile>;
  units: Slots;
  lastSeen: ObservedSighting[];
}

/** Grid-metric ball (the movement and attack metric), on the board. */
function ball(board: Board, c: Coord, r: number): Coord[] {
  return tilesInRange(board, board.kind === 'hex' ? 'hex' : 'chebyshev', c, r);
}

/**
 * Moves are jumps checked by distance in the turn proof, not paths. When the ruleset proves
 * passability, the destination's Merkle path is a witness, so only tiles with verified passable
 * terrain qualify (the unit's own tile always does: staying put is no move).
 */
export function moveTargets(k: Knowledge, slot: number): number[] {
  const u = k.units[slot];
  if (!u) return [];
  const b = k.ruleset.board;
  const here = tileIndex(b, u);
  const speed = k.ruleset.unitTypes[u.type]!.speed;
  const out: number[] = [];
  for (const c of ball(b, u, speed)) {
    const i = tileIndex(b, c);
    if (i !== here && k.ruleset.provePassability) {
      const t = k.tiles.get(i);
      if (!t || !isPassable(t.terrain)) continue;
    }
    out.push(i);
  }
  return out.sort((a, c) => a - c);
}

/** Visible tiles within some living unit's attack range (P8: only visible targets are legal). */
export function attackTargets(k: Knowledge): number[] {
  const b = k.ruleset.board;
  const out = new Set<number>();
  for (const u of k.units) {
    if (!u) continue;
    const range = k.ruleset.unitTypes[u.type]!.attackRange;
    if (range === 0) continue;
    for (const c of ball(b, u, range)) {
      const i = tileIndex(b, c);
      if (k.fog[i] === Fog.VISIBLE && gridDistance(b.kind, u, c) <= range) out.add(i);
    }
  }
  return [...out].sort((a, c) => a - c);
}

export function buildObservation(k: Knowledge): Observation {
  const b = k.ruleset.board;
  const n = b.width * b.height;
  const fog = Array.from(k.fog);
  const terrain = new Array<number>(n).fill(-1);
  for (const [i, t] of k.tiles) {
    // Defence in depth: even if a tile were stored for an undiscovered index, it is not shown.
    if (fog[i] !== Fog.UNDISCOVERED) terrain[i] = t.terrain;
  }
  return {
    kind: b.kind,
    width: b.width,
    height: b.height,
    turn: k.turn,
    fog,
    terrain,
    lastSeen: k.lastSeen.map((s) => ({ ...s })),
    ownUnits: k.units.map((u, slot) => (u ? { slot, type: u.type, hp: u.hp, col: u.col, row: u.row } : null)),
    moveMask: k.units.map((_, slot) => moveTargets(k, slot)),
    attackMask: attackTargets(k),
  };
}

/** Zone of a row-major tile index. */
export function zoneOfIndex(board: Board, index: number): number {
  return zoneOf(board, { col: index % board.width, row: Math.floor(index / board.width) });
}
