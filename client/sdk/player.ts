import { InputError } from '@shroud/core/errors.ts';
import { type FogSnapshot, FogState, type Sighting, type VisionChange } from '@shroud/core/fog.ts';
import { type Coord, tileIndex, zoneOf } from '@shroud/core/geometry.ts';
import type { ValidRuleset } from '@shroud/core/ruleset/validate.ts';
import { assertSlots, type Slots, type Unit } from '@shroud/core/state.ts';
import type { Tile } from '@shroud/core/tile.ts';
import { visibleTiles } from '@shroud/core/vision/radius.ts';
import { Emitter } from './emitter.ts';
import { buildObservation, type Observation, type ObservedSighting, zoneOfIndex } from './observation.ts';
import type { VerifiedTile } from './tiles.ts';

/** One of the player's own turns as the chain accepted it, plus the tiles the dealer served for it. */
export interface TurnUpdate {
  turn: number;
  /** Row-major indices visible after the turn (from own units: see `PlayerModel.visionOf`). */
  visibleTiles: Iterable<number>;
  /** Tiles already checked by `verifyRevealedTiles`; each must be visible this turn. */
  tiles: readonly VerifiedTile[];
}

/** A `ZoneReveal(zone, unitType)` an opponent's turn proof forced (P5). */
export interface ZoneRevealEvent {
  zone: number;
  /** Unit type name, as in the ruleset. */
  unitType: string;
}

/** An opponent's accepted turn: all of its forced zone reveals, so absences are meaningful too. */
export interface OpponentTurn {
  player: number;
  turn: number;
  zoneReveals: readonly ZoneRevealEvent[];
}

export interface PlayerEvents extends Record<string, unknown> {
  tilesRevealed: { turn: number; tiles: VerifiedTile[]; change: VisionChange };
  enemySighted: Sighting;
  /** A remembered enemy was not re-revealed although its zone was watched: it moved away or died. */
  enemyLost: { sighting: Sighting; turn: number };
}

export interface PlayerModelOptions {
  ruleset: ValidRuleset;
  /** This player's seat. */
  seat: number;
  /** Own unit slots after spawn. */
  units: Slots;
}

/** A PlayerModel as plain data (`snapshot()`), for `PlayerModel.restore` after a reload. */
export interface ModelSnapshot {
  fog: FogSnapshot;
  units: Slots;
  /** The verified tiles the model holds, one per tile. */
  tiles: VerifiedTile[];
  /** Memory slots of sightings marked lost (`enemyLost` already emitted). */
  lost: string[];
}

/** Same memory slot as FogState's: enemy player, unit type, exact tile else zone. */
function sightingKey(s: Sighting): string {
  const place = s.coord !== undefined ? `t${s.coord.col},${s.coord.row}` : `z${s.zone}`;
  return `${s.player}|${s.unitType}|${place}`;
}

/**
 * A player's local model of the game: own units, fog, verified tiles and enemy sightings. Pure and
 * browser-safe; it never talks to the chain or the dealer, so it can be driven by a CLI, a bot, a
 * browser, or a test. Every mutator validates first and then changes state, or throws and changes nothing.
 */
export class PlayerModel {
  readonly ruleset: ValidRuleset;
  readonly seat: number;
  readonly events = new Emitter<PlayerEvents>();
  #fog: FogState;
  readonly #tiles = new Map<number, VerifiedTile>();
  #units: (Unit | null)[];
  readonly #lost = new Set<string>();

  constructor(o: PlayerModelOptions) {
    if (!Number.isInteger(o.seat) || o.seat < 0 || o.seat >= o.ruleset.players.max) {
      throw new InputError('seat', `${o.seat} is not a seat of ${o.ruleset.name}`);
    }
    assertSlots(o.ruleset, o.units);
    this.ruleset = o.ruleset;
    this.seat = o.seat;
    this.#fog = new FogState(o.ruleset.board);
    this.#units = o.units.map((u) => (u ? { ...u } : null));
  }

  get board() {
    return this.ruleset.board;
  }

  snapshot(): ModelSnapshot {
    return {
      fog: this.#fog.snapshot(),
      units: this.units,
      tiles: [...this.#tiles.values()],
      lost: [...this.#lost],
    };
  }

  /**
   * Rebuilds a model from `snapshot()` (a reload): fog and sightings, units, tiles and lost marks are checked
   * against the ruleset, each error naming its field under `model.`; no event is emitted.
   */
  static restore(o: Omit<PlayerModelOptions, 'units'>, s: ModelSnapshot): PlayerModel {
    const inModel = <T>(f: () => T): T => {
      try {
        return f();
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        throw new InputError(`model.${e.field}`, e.message.slice(e.field.length + 2));
      }
    };
    const m = inModel(() => new PlayerModel({ ...o, units: s.units }));
    m.#fog = inModel(() => FogState.fromSnapshot(o.ruleset.board, s.fog));
    s.tiles.forEach((t, i) => {
      const onBoard = t.col >= 0 && t.col < m.board.width && t.row >= 0 && t.row < m.board.height;
      if (!onBoard || t.index !== tileIndex(m.board, t) || m.#tiles.has(t.index))
        throw new InputError(
          `model.tiles.${i}`,
          `tile ${t.index} at (${t.col},${t.row}): misplaced or repeated`,
        );
      m.#tiles.set(t.index, t);
    });
    const slots = new Set(m.#fog.lastSeen().map(sightingKey));
    s.lost.forEach((k, i) => {
      if (!slots.has(k)) throw new InputError(`model.lost.${i}`, `"${k}" is not a remembered sighting`);
      m.#lost.add(k);
    });
    return m;
  }

  get turn(): number | null {
    return this.#fog.turn;
  }

  get units(): Slots {
    return this.#units.map((u) => (u ? { ...u } : null));
  }

  /** Replaces own slots after a proven move or combat loss; the slot list is checked against the ruleset. */
  setUnits(slots: Slots): void {
    assertSlots(this.ruleset, slots);
    this.#units = slots.map((u) => (u ? { ...u } : null));
  }

  /** Row-major tiles `slots` see under the ruleset's proven vision model (what a turn proof covers). */
  visionOf(slots: Slots = this.#units): Set<number> {
    const sources = slots.flatMap((u) =>
      u ? [{ coord: { col: u.col, row: u.row }, radius: this.ruleset.unitTypes[u.type]!.vision }] : [],
    );
    return visibleTiles(this.board, this.ruleset.vision.model, sources);
  }

  /** Applies an own turn atomically: new vision and the verified tiles served for it. */
  applyTurn(u: TurnUpdate): VisionChange {
    const visible = new Set<number>(u.visibleTiles);
    const b = this.board;
    u.tiles.forEach((t, i) => {
      const index = tileIndex(b, { col: t.col, row: t.row });
      if (t.index !== index) throw new InputError(`tiles.${i}.index`, `${t.index} ≠ (${t.col},${t.row})`);
      // The dealer serves only tiles in vision (P4); one outside means the caller mixed up turns.
      if (!visible.has(index))
        throw new InputError(`tiles.${i}`, `(${t.col},${t.row}) is not visible this turn`);
    });
    const change = this.#fog.applyVision(visible, u.turn);
    for (const t of u.tiles) this.#tiles.set(t.index, t);
    if (u.tiles.length > 0) this.events.emit('tilesRevealed', { turn: u.turn, tiles: [...u.tiles], change });
    return change;
  }

  /**
   * Adds the verified tiles of an earlier turn of this player that arrived late (a dispute's on-chain answer):
   * their contents only, since the fog already counted that turn's vision.
   */
  addLateTiles(turn: number, tiles: readonly VerifiedTile[]): void {
    for (const t of tiles) this.#tiles.set(t.index, t);
    if (tiles.length > 0) {
      const change = { turn, becameVisible: [], discovered: [], becameExplored: [] };
      this.events.emit('tilesRevealed', { turn, tiles: [...tiles], change });
    }
  }

  /** Remembers a zone or combat reveal; emits `enemySighted` when it is news. */
  recordSighting(s: Sighting): boolean {
    if (!this.ruleset.unitTypes.some((t) => t.name === s.unitType)) {
      throw new InputError('sighting.unitType', `"${s.unitType}" is not a unit type of ${this.ruleset.name}`);
    }
    if (s.player === this.seat) throw new InputError('sighting.player', 'is this player');
    if (!this.#fog.recordSighting(s)) return false;
    this.#lost.delete(sightingKey(s));
    this.events.emit('enemySighted', { ...s });
    return true;
  }

  /**
   * Applies an opponent's turn. Its proof had to reveal every unit standing in a zone this player
   * saw, so a remembered unit in a watched zone that is not revealed again has left it.
   */
  applyOpponentTurn(o: OpponentTurn): void {
    const watched = this.watchedZones();
    const sightings = o.zoneReveals.map(
      (r): Sighting => ({
        player: o.player,
        zone: r.zone,
        unitType: r.unitType,
        turn: o.turn,
        source: 'zoneReveal',
      }),
    );
    // Validate all before recording any, so a bad event list changes nothing.
    for (const s of sightings) {
      if (!watched.has(s.zone!))
        throw new InputError('zoneReveals', `zone ${s.zone} was not watched by this player`);
    }
    for (const s of sightings) this.recordSighting(s);
    const refreshed = new Set(sightings.map((s) => `${s.unitType}|${s.zone}`));
    for (const s of this.#fog.lastSeen()) {
      const key = sightingKey(s);
      if (s.player !== o.player || s.turn >= o.turn || this.#lost.has(key)) continue;
      const zone = s.zone ?? zoneOf(this.board, s.coord!);
      if (!watched.has(zone) || refreshed.has(`${s.unitType}|${zone}`)) continue;
      this.#lost.add(key);
      this.events.emit('enemyLost', { sighting: s, turn: o.turn });
    }
  }

  /** Zones this player sees now: the zone bitmask its last turn proof published. */
  watchedZones(): Set<number> {
    const out = new Set<number>();
    this.#fog.snapshot().tiles.forEach((f, i) => {
      if (f === 1) out.add(zoneOfIndex(this.board, i));
    });
    return out;
  }

  /** Whether `c` may be attacked: only tiles visible now (throws on off-board coordinates). */
  targetable(c: Coord): boolean {
    return this.#fog.canTarget(c);
  }

  assertTargetable(c: Coord): void {
    this.#fog.assertTargetable(c);
  }

  /** The verified tile at `c`, or null if none was served to this player. */
  tileAt(c: Coord): VerifiedTile | null {
    return this.#tiles.get(tileIndex(this.board, c)) ?? null;
  }

  /** Every verified tile, by row-major index (kept for the post-game audit and fraud proofs). */
  revealedTiles(): ReadonlyMap<number, VerifiedTile> {
    return this.#tiles;
  }

  fog(): number[] {
    return this.#fog.snapshot().tiles;
  }

  lastSeen(): ObservedSighting[] {
    return this.#fog.lastSeen().map((s) => {
      const out: ObservedSighting = {
        player: s.player,
        zone: s.zone ?? zoneOf(this.board, s.coord!),
        unitType: this.ruleset.unitTypes.findIndex((t) => t.name === s.unitType),
        turn: s.turn,
        lost: this.#lost.has(sightingKey(s)),
      };
      if (s.coord) {
        out.col = s.coord.col;
        out.row = s.coord.row;
      }
      return out;
    });
  }

  /** The agent-facing view: plain arrays, nothing the protocol did not reveal. */
  observe(): Observation {
    const tiles = new Map<number, Tile>();
    for (const [i, t] of this.#tiles) tiles.set(i, t);
    return buildObservation({
      ruleset: this.ruleset,
      turn: this.turn,
      fog: this.fog(),
      tiles,
      units: this.#units,
      lastSeen: this.lastSeen(),
    });
  }
}
