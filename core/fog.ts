import { InputError } from './errors.ts';
import { assertOnBoard, type Board, type Coord, tileIndex, zoneOf } from './geometry.ts';

/** What a client knows of a tile. EXPLORED: seen before, not now; it never returns to UNDISCOVERED. */
export const Fog = { UNDISCOVERED: 0, VISIBLE: 1, EXPLORED: 2 } as const;
export type Fog = (typeof Fog)[keyof typeof Fog];

export type SightingSource = 'zoneReveal' | 'combat';

/** An enemy unit seen at some turn: by zone (a zone reveal) and/or by exact tile. */
export interface Sighting {
  /** Seat of the enemy player. */
  player: number;
  zone?: number;
  coord?: Coord;
  unitType: string;
  turn: number;
  source: SightingSource;
}

/** Tiles that changed in one `applyVision`, ascending tile indices, for clients to turn into events. */
export interface VisionChange {
  turn: number;
  becameVisible: number[];
  /** The part of `becameVisible` that had never been seen. */
  discovered: number[];
  becameExplored: number[];
}

/** Plain-data form of a FogState (JSON-safe). */
export interface FogSnapshot {
  width: number;
  height: number;
  /** Last turn passed to `applyVision`, or null before the first. */
  turn: number | null;
  /** Row-major Fog values. */
  tiles: number[];
  sightings: Sighting[];
}

const SOURCES: readonly SightingSource[] = ['zoneReveal', 'combat'];

function nonNegativeInteger(v: unknown, field: string): void {
  if (!Number.isInteger(v) || (v as number) < 0) {
    throw new InputError(field, `must be a non-negative integer, got ${String(v)}`);
  }
}

function checkSighting(board: Board, s: Sighting, field: string): void {
  if (typeof s !== 'object' || s === null) throw new InputError(field, 'must be an object');
  nonNegativeInteger(s.player, `${field}.player`);
  nonNegativeInteger(s.turn, `${field}.turn`);
  if (typeof s.unitType !== 'string' || s.unitType === '') {
    throw new InputError(`${field}.unitType`, 'must be a non-empty string');
  }
  if (!SOURCES.includes(s.source))
    throw new InputError(`${field}.source`, `must be one of ${SOURCES.join(', ')}`);
  if (s.zone === undefined && s.coord === undefined) throw new InputError(field, 'needs a zone or a coord');
  if (s.coord !== undefined) assertOnBoard(board, s.coord, `${field}.coord`);
  if (s.zone !== undefined) {
    if (!Number.isInteger(s.zone) || s.zone < 0 || s.zone >= board.zoneCount) {
      throw new InputError(
        `${field}.zone`,
        `${s.zone} is not a zone of this board (0..${board.zoneCount - 1})`,
      );
    }
    if (s.coord !== undefined && zoneOf(board, s.coord) !== s.zone) {
      throw new InputError(`${field}.zone`, `${s.zone} does not contain (${s.coord.col},${s.coord.row})`);
    }
  }
}

/** One memory slot per enemy player, unit type and place (exact tile, else zone). */
function sightingKey(s: Sighting): string {
  const place = s.coord !== undefined ? `t${s.coord.col},${s.coord.row}` : `z${s.zone}`;
  return `${s.player}|${s.unitType}|${place}`;
}

function copySighting(s: Sighting): Sighting {
  const out: Sighting = { player: s.player, unitType: s.unitType, turn: s.turn, source: s.source };
  if (s.zone !== undefined) out.zone = s.zone;
  if (s.coord !== undefined) out.coord = { col: s.coord.col, row: s.coord.row };
  return out;
}

/** A client's fog of war over one board: per-tile knowledge plus the last sightings of enemies. */
export class FogState {
  readonly board: Board;
  #tiles: Uint8Array;
  #turn: number | null = null;
  #sightings = new Map<string, Sighting>();

  constructor(board: Board) {
    this.board = board;
    this.#tiles = new Uint8Array(board.width * board.height);
  }

  get turn(): number | null {
    return this.#turn;
  }

  /** Throws naming `field` when `c` is off the board. */
  stateAt(c: Coord, field = 'coord'): Fog {
    assertOnBoard(this.board, c, field);
    return this.#tiles[tileIndex(this.board, c)] as Fog;
  }

  /**
   * Makes exactly `visible` (row-major tile indices) VISIBLE; what was VISIBLE and is not in it
   * becomes EXPLORED. Turns may repeat but not go back. Validates everything before changing anything.
   */
  applyVision(visible: Iterable<number>, turn: number): VisionChange {
    nonNegativeInteger(turn, 'turn');
    if (this.#turn !== null && turn < this.#turn) {
      throw new InputError('turn', `${turn} is before the last applied turn ${this.#turn}`);
    }
    const n = this.#tiles.length;
    const seen = new Uint8Array(n);
    for (const i of visible) {
      if (!Number.isInteger(i) || i < 0 || i >= n) {
        throw new InputError(
          'visible',
          `${i} is not a tile index of the ${this.board.width}×${this.board.height} board`,
        );
      }
      seen[i] = 1;
    }
    const change: VisionChange = { turn, becameVisible: [], discovered: [], becameExplored: [] };
    for (let i = 0; i < n; i++) {
      const was = this.#tiles[i];
      if (seen[i] === 1) {
        if (was === Fog.VISIBLE) continue;
        change.becameVisible.push(i);
        if (was === Fog.UNDISCOVERED) change.discovered.push(i);
        this.#tiles[i] = Fog.VISIBLE;
      } else if (was === Fog.VISIBLE) {
        change.becameExplored.push(i);
        this.#tiles[i] = Fog.EXPLORED;
      }
    }
    this.#turn = turn;
    return change;
  }

  /**
   * Remembers an enemy sighting; a slot keeps its latest turn (a later record on the same turn
   * replaces it). Returns false when an already-stored sighting is newer.
   */
  recordSighting(sighting: Sighting): boolean {
    checkSighting(this.board, sighting, 'sighting');
    const key = sightingKey(sighting);
    const old = this.#sightings.get(key);
    if (old !== undefined && old.turn > sighting.turn) return false;
    this.#sightings.set(key, copySighting(sighting));
    return true;
  }

  /** Remembered sightings, newest first; equal turns in a fixed order (by memory slot key). */
  lastSeen(): Sighting[] {
    return [...this.#sightings.entries()]
      .sort(([ka, a], [kb, b]) => b.turn - a.turn || (ka < kb ? -1 : ka > kb ? 1 : 0))
      .map(([, s]) => copySighting(s));
  }

  /** Only tiles seen right now may be targeted; throws on an off-board coordinate. */
  canTarget(target: Coord): boolean {
    return this.stateAt(target, 'target') === Fog.VISIBLE;
  }

  /** Refuses a target this player cannot see, naming `field`. */
  assertTargetable(target: Coord, field = 'target'): void {
    const s = this.stateAt(target, field);
    if (s !== Fog.VISIBLE) {
      const why = s === Fog.EXPLORED ? 'explored but not visible now' : 'never seen';
      throw new InputError(field, `(${target.col},${target.row}) is not visible: ${why}`);
    }
  }

  snapshot(): FogSnapshot {
    return {
      width: this.board.width,
      height: this.board.height,
      turn: this.#turn,
      tiles: Array.from(this.#tiles),
      sightings: this.lastSeen(),
    };
  }

  /** Rebuilds a FogState from `snapshot()` output (or untrusted JSON of that shape), validating it. */
  static fromSnapshot(board: Board, snap: FogSnapshot): FogState {
    if (typeof snap !== 'object' || snap === null) throw new InputError('snapshot', 'must be an object');
    if (snap.width !== board.width)
      throw new InputError('snapshot.width', `${snap.width} ≠ board ${board.width}`);
    if (snap.height !== board.height)
      throw new InputError('snapshot.height', `${snap.height} ≠ board ${board.height}`);
    if (snap.turn !== null) nonNegativeInteger(snap.turn, 'snapshot.turn');
    const n = board.width * board.height;
    if (!Array.isArray(snap.tiles) || snap.tiles.length !== n) {
      throw new InputError('snapshot.tiles', `must be an array of ${n} fog states`);
    }
    const fog = new FogState(board);
    snap.tiles.forEach((v, i) => {
      if (v !== Fog.UNDISCOVERED && v !== Fog.VISIBLE && v !== Fog.EXPLORED) {
        throw new InputError(`snapshot.tiles.${i}`, `${String(v)} is not a fog state`);
      }
      if (v !== Fog.UNDISCOVERED && snap.turn === null) {
        throw new InputError('snapshot.turn', 'tiles have been seen but no turn is recorded');
      }
      fog.#tiles[i] = v;
    });
    fog.#turn = snap.turn;
    if (!Array.isArray(snap.sightings)) throw new InputError('snapshot.sightings', 'must be an array');
    snap.sightings.forEach((s, i) => {
      checkSighting(board, s, `snapshot.sightings.${i}`);
      const key = sightingKey(s);
      if (fog.#sightings.has(key))
        throw new InputError(`snapshot.sightings.${i}`, 'duplicates an earlier sighting');
      fog.#sightings.set(key, copySighting(s));
    });
    return fog;
  }

  clone(): FogState {
    return FogState.fromSnapshot(this.board, this.snapshot());
  }
}
