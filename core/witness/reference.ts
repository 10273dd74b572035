/** Pure reference semantics of the circuits' public outputs; the tests hold the circuits to them. */
import { InputError } from '../errors.ts';
import {
  type Board,
  type Coord,
  gridDistance,
  leafIndex,
  onBoard,
  withinRadius,
  zoneOf,
} from '../geometry.ts';
import type { Ruleset } from '../ruleset/types.ts';
import type { Slots, Unit } from '../state.ts';

export { visionZones } from './zones.ts';

type R = Ruleset & { board: Board };

/** One forced zone reveal: an own alive unit stands in a zone some opponent saw. */
export interface ZoneReveal {
  slot: number;
  zone: number;
  unitType: number;
}

/** Union of the opponents' stored zone bitmasks; each must be a `zoneCount`-bit value. */
export function opponentUnion(r: R, oppMasks: readonly bigint[]): bigint {
  if (oppMasks.length !== r.players.max - 1) {
    throw new InputError(
      'oppMasks',
      `${oppMasks.length} masks, ruleset has ${r.players.max - 1} opponent seats`,
    );
  }
  let union = 0n;
  oppMasks.forEach((m, i) => {
    if (typeof m !== 'bigint' || m < 0n || m >= 1n << BigInt(r.board.zoneCount)) {
      throw new InputError(`oppMasks.${i}`, `${m} is not a ${r.board.zoneCount}-bit zone bitmask`);
    }
    union |= m;
  });
  return union;
}

/** Every own alive unit standing in a zone of any opponent's stored bitmask, in slot order. */
export function forcedReveals(r: R, slots: Slots, oppMasks: readonly bigint[]): ZoneReveal[] {
  const union = opponentUnion(r, oppMasks);
  const out: ZoneReveal[] = [];
  slots.forEach((u, slot) => {
    if (u === null) return;
    const zone = zoneOf(r.board, u);
    if ((union >> BigInt(zone)) & 1n) out.push({ slot, zone, unitType: u.type });
  });
  return out;
}

/** True when `unit` sees `tile` under the ruleset's vision model. */
export function unitSees(r: R, unit: Unit, tile: Coord): boolean {
  if (r.vision.model === 'litZones') return zoneOf(r.board, unit) === zoneOf(r.board, tile);
  return withinRadius(r.vision.model, unit, tile, r.unitTypes[unit.type]!.vision);
}

/**
 * Coverage assignment: for each revealed tile, the first own alive slot that sees it. Throws an
 * InputError naming the tile when none does (the circuit could not prove it).
 */
export function coverageAssignment(r: R, slots: Slots, tiles: readonly Coord[]): number[] {
  return tiles.map((t, i) => {
    if (!onBoard(r.board, t)) throw new InputError(`revealed.${i}`, `(${t.col},${t.row}) is off the board`);
    const slot = slots.findIndex((u) => u !== null && unitSees(r, u, t));
    if (slot < 0) {
      throw new InputError(
        `revealed.${i}`,
        `tile (${t.col},${t.row}) is not within ${r.vision.model} vision of any own alive unit`,
      );
    }
    return slot;
  });
}

/** Zone-major leaf indices of revealed tiles, the order `packReveals` commits to. */
export function revealedLeaves(r: R, tiles: readonly Coord[]): number[] {
  return tiles.map((t) => leafIndex(r.board, t));
}

/** Grid distance a unit may cover in one turn: its speed (structures: 0). */
export function moveAllowed(r: R, from: Unit, to: Coord): boolean {
  const t = r.unitTypes[from.type]!;
  return gridDistance(r.board.kind, from, to) <= (t.structure ? 0 : t.speed);
}

/**
 * Combat reference. A hit lands on the defender's lowest alive slot on the target tile (the
 * builder may name another slot on that tile): hp drops by `damage`, and a unit at hp ≤ damage
 * is killed (its slot emptied). No alive unit on the tile: absent, nothing changes.
 */
export interface CombatResult {
  present: boolean;
  slot: number;
  unitType: number;
  unitHp: number;
  after: (Unit | null)[];
}

export function resolveCombat(slots: Slots, target: Coord, damage: number, slot?: number): CombatResult {
  const here = (u: Unit | null): u is Unit => u !== null && u.col === target.col && u.row === target.row;
  const s = slot ?? slots.findIndex(here);
  if (s < 0) return { present: false, slot: -1, unitType: 0, unitHp: 0, after: slots.slice() };
  const u = slots[s];
  if (u === undefined || !here(u)) {
    throw new InputError('slot', `slot ${s} holds no alive unit on (${target.col},${target.row})`);
  }
  const after = slots.slice();
  after[s] = u.hp <= damage ? null : { ...u, hp: u.hp - damage };
  return { present: true, slot: s, unitType: u.type, unitHp: u.hp, after };
}
