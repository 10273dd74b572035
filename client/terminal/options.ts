/**
 * What a seat may do on its turn, from its observation alone: the moves the SDK's move masks allow (the
 * protocol's rules: a jump within the unit's speed, onto a verified passable tile when the ruleset proves
 * passability) and the attacks on sighted zones. Pure: the terminal player checks commands with it and
 * renders it.
 */
import {
  type Board,
  type Coord,
  gridDistance,
  onBoard,
  tileCoord,
  tileIndex,
  ZONE_SIZE,
} from '../../core/geometry.ts';
import type { Area, Ruleset } from '../../core/ruleset/types.ts';
import type { Observation } from '../sdk/observation.ts';
import { zoneOfIndex } from '../sdk/observation.ts';

export type Rules = Ruleset & { board: Board };

/** A sighted enemy zone and the tiles of it some unit may attack now. */
export interface AttackOption {
  zone: number;
  /** Seat, unit type name and turn of each live sighting in the zone. */
  seen: { player: number; unitType: string; turn: number; at?: Coord }[];
  /** Visible tiles of the zone within range of a unit that has not attacked this turn, with those units. */
  targets: { at: Coord; slots: number[] }[];
}

/** Per slot: the tiles its unit may move to this turn (its own tile left out: staying is no move). */
export function moveOptions(obs: Observation): Coord[][] {
  const w = obs.width;
  return obs.moveMask.map((mask, slot) => {
    const u = obs.ownUnits[slot];
    return mask
      .filter((i) => !u || i !== u.row * w + u.col)
      .map((i) => ({ col: i % w, row: Math.floor(i / w) }));
  });
}

/** Live (not lost) enemy sightings grouped by zone, with the tiles each could be attacked on. */
export function attackOptions(obs: Observation, rules: Rules, attacked: ReadonlySet<number>): AttackOption[] {
  const board = rules.board;
  const byZone = new Map<number, AttackOption>();
  for (const s of obs.lastSeen) {
    if (s.lost) continue;
    const o = byZone.get(s.zone) ?? { zone: s.zone, seen: [], targets: [] };
    const unitType = rules.unitTypes[s.unitType]?.name ?? `type ${s.unitType}`;
    o.seen.push({
      player: s.player,
      unitType,
      turn: s.turn,
      ...(s.col !== undefined && s.row !== undefined ? { at: { col: s.col, row: s.row } } : {}),
    });
    byZone.set(s.zone, o);
  }
  for (const i of obs.attackMask) {
    const o = byZone.get(zoneOfIndex(board, i));
    if (!o) continue;
    const at = tileCoord(board, i);
    const slots = obs.ownUnits.flatMap((u) =>
      u && !attacked.has(u.slot) && gridDistance(board.kind, u, at) <= rules.unitTypes[u.type]!.attackRange
        ? [u.slot]
        : [],
    );
    if (slots.length > 0) o.targets.push({ at, slots });
  }
  return [...byZone.values()].sort((a, c) => a.zone - c.zone);
}

/** The columns and rows a zone covers (clipped to the board), for humans. */
export function zoneBounds(board: Pick<Board, 'width' | 'height' | 'zonesX'>, zone: number): Area {
  const col0 = (zone % board.zonesX) * ZONE_SIZE;
  const row0 = Math.floor(zone / board.zonesX) * ZONE_SIZE;
  return {
    col0,
    row0,
    col1: Math.min(col0 + ZONE_SIZE, board.width) - 1,
    row1: Math.min(row0 + ZONE_SIZE, board.height) - 1,
  };
}

const at = (c: Coord) => `${c.col},${c.row}`;

/** Why `slot` may not move to `to` this turn, or null when it may. */
export function checkMove(obs: Observation, rules: Rules, slot: number, to: Coord): string | null {
  const u = obs.ownUnits[slot];
  if (slot >= obs.ownUnits.length || !u) return `no unit in slot ${slot}`;
  const type = rules.unitTypes[u.type]!;
  if (type.structure || type.speed === 0) return `unit ${slot} (${type.name}) is a structure: it never moves`;
  if (!onBoard(rules.board, to)) return `${at(to)} is off the ${obs.width}×${obs.height} board`;
  if (to.col === u.col && to.row === u.row) return null;
  if (obs.moveMask[slot]!.includes(tileIndex(rules.board, to))) return null;
  if (gridDistance(rules.board.kind, u, to) > type.speed)
    return `${at(to)} is ${gridDistance(rules.board.kind, u, to)} steps from unit ${slot}, its speed is ${type.speed}`;
  return `${at(to)} is not a verified passable tile (this ruleset proves every destination passable)`;
}

/**
 * The attack `attack <zone> [<col> <row>]` means: the given tile, else the exact sighting's tile when it is
 * in range, else the first tile of the zone in range that no own unit stands on; by the first unit in range
 * that has not attacked.
 */
export function pickAttack(
  obs: Observation,
  rules: Rules,
  attacked: ReadonlySet<number>,
  zone: number,
  target?: Coord,
): { slot: number; target: Coord } | { error: string } {
  const o = attackOptions(obs, rules, attacked).find((a) => a.zone === zone);
  if (!o) return { error: `no enemy sighted in zone ${zone}` };
  if (o.targets.length === 0)
    return { error: `no tile of zone ${zone} is visible and in range of a unit that may attack` };
  const same = (c: Coord) => (t: { at: Coord }) => t.at.col === c.col && t.at.row === c.row;
  if (target) {
    const t = o.targets.find(same(target));
    if (!t)
      return {
        error: `${at(target)} is not a visible tile of zone ${zone} in range of a unit that may attack`,
      };
    return { slot: t.slots[0]!, target: t.at };
  }
  const exact = o.seen.flatMap((s) => (s.at ? [o.targets.find(same(s.at))] : [])).find(Boolean);
  const own = new Set(obs.ownUnits.flatMap((u) => (u ? [`${u.col},${u.row}`] : [])));
  const t = exact ?? o.targets.find((x) => !own.has(at(x.at))) ?? o.targets[0]!;
  return { slot: t.slots[0]!, target: t.at };
}

/** Why `slot` may not be placed at `c` (start area, distinct tiles), or null when it may. */
export function checkSpawn(area: Area, positions: readonly Coord[], slot: number, c: Coord): string | null {
  if (!Number.isInteger(slot) || slot < 0 || slot >= positions.length)
    return `no unit ${slot} to place (units 0..${positions.length - 1})`;
  if (c.col < area.col0 || c.col > area.col1 || c.row < area.row0 || c.row > area.row1)
    return `${at(c)} is outside your start area (cols ${area.col0}-${area.col1}, rows ${area.row0}-${area.row1})`;
  const other = positions.findIndex((p, i) => i !== slot && p.col === c.col && p.row === c.row);
  if (other !== -1) return `unit ${other} is placed on ${at(c)} already`;
  return null;
}
