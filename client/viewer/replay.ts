import type { Board } from '../../core/geometry.ts';
import type { Ruleset } from '../../core/ruleset/types.ts';
import type { Tile } from '../../core/tile.ts';
import type { TileView } from '../render/svg.ts';
import type { PlayerModel } from '../sdk/player.ts';

/** One frame of a player's view: what that player knew after a turn. Row-major arrays. */
export interface ReplayTurn {
  turn: number;
  view: TileView[];
  /** Verified tiles only; null where nothing was served. */
  tiles: (Tile | null)[];
  /** Zones of live enemy sightings, outlined. */
  markedZones: number[];
}

/** The viewer's input file. `omniscient` exists only after the audit published the secrets. */
export interface Replay {
  ruleset: Ruleset;
  board: Board;
  /** Seat whose view this is (display only). */
  seat?: number;
  turns: ReplayTurn[];
  omniscient?: { tiles: Tile[] };
}

const VIEWS: readonly TileView[] = ['undiscovered', 'visible', 'explored'];

/** Snapshot of a player's model as a replay frame (copies; only verified tile contents). */
export function frameOf(p: PlayerModel): ReplayTurn {
  const fog = p.fog();
  const tiles: (Tile | null)[] = fog.map(() => null);
  for (const [i, t] of p.revealedTiles()) {
    tiles[i] = { terrain: t.terrain, feature: t.feature, resource: t.resource, rivers: t.rivers };
  }
  const markedZones = [...new Set(p.lastSeen().flatMap((s) => (s.lost ? [] : [s.zone])))].sort(
    (a, b) => a - b,
  );
  return { turn: p.turn ?? 0, view: fog.map((f) => VIEWS[f]!), tiles, markedZones };
}

/** Checks a replay's shape and sizes before anything is drawn from it. */
export function assertReplay(r: Replay): void {
  const n = r.board.width * r.board.height;
  if (!Array.isArray(r.turns) || r.turns.length === 0)
    throw new TypeError('replay.turns: need at least one turn');
  r.turns.forEach((t, k) => {
    if (t.view.length !== n || t.tiles.length !== n)
      throw new TypeError(`replay.turns.${k}: need ${n} tiles`);
    t.view.forEach((v, i) => {
      if (!VIEWS.includes(v)) throw new TypeError(`replay.turns.${k}.view.${i}: ${v}`);
      if (v === 'undiscovered' && t.tiles[i] !== null) {
        throw new TypeError(`replay.turns.${k}.tiles.${i}: an undiscovered tile must carry no data`);
      }
    });
  });
  if (r.omniscient && r.omniscient.tiles.length !== n)
    throw new TypeError(`replay.omniscient: need ${n} tiles`);
}
