/**
 * The bot's combat decisions, pure: which visible tile to attack with which unit (the tile most likely to hold
 * an enemy by `belief.ts`, attacked only when that is well above a uniform guess over the revealed zone),
 * the odds a uniform guess would have had (for the benchmark's baseline), and where to go to find a target.
 */
import { type Board, type Coord, tileCoord, zoneOf, zoneTiles } from '../core/geometry.ts';
import type { Ruleset } from '../core/ruleset/types.ts';
import { balls, occupancy, type UnitBelief } from './belief.ts';
import type { IntelEvent } from './intel.ts';
import type { Observation } from './sdk/observation.ts';

type Rules = Ruleset & { board: Board };

export interface AttackChoice {
  slot: number;
  target: Coord;
  defender: number;
  /** The tracker's probability that an enemy unit stands on the target. */
  p: number;
  /** A uniform guess's odds: revealed enemy units in the target's zone over the zone's tiles. */
  uniform: number;
}

export interface AttackPolicy {
  /** Attack only when p ≥ minRatio × the uniform odds of the zone (default 3)… */
  minRatio: number;
  /** …and p ≥ minP (default 0.1): an attack tells the enemy roughly where the attacker stands. */
  minP: number;
}

export const DEFAULT_POLICY: AttackPolicy = { minRatio: 3, minP: 0.1 };

/**
 * The odds of a uniform guess over zone `zone`'s tiles against `defender` now: the units its latest turn
 * revealed there (less those killed since), over the zone's on-board tiles. 0 when none were revealed.
 */
export function uniformOdds(
  board: Board,
  log: readonly IntelEvent[],
  defender: number,
  zone: number,
): number {
  let units = 0;
  for (const ev of log) {
    if (ev.kind === 'turn' && ev.player === defender)
      units = ev.reveals.filter((z) => z.zone === zone).length;
    else if (ev.kind === 'combat' && ev.defender === defender && ev.killed && zoneOf(board, ev) === zone)
      units = Math.max(0, units - 1);
  }
  return Math.min(1, units / zoneTiles(board, zone).length);
}

/** Enemy seats the log has seen play. */
export function enemies(log: readonly IntelEvent[]): number[] {
  return [...new Set(log.flatMap((e) => (e.kind === 'turn' ? [e.player] : [])))].sort((a, b) => a - b);
}

/**
 * The best attack this turn: over own units that may still attack (not in `attacked`, range ≥ 1) and the
 * visible tiles in their range, the (unit, tile) whose tile most likely holds an enemy; ties go to `rnd`.
 * Null when no tile is likely enough under `policy`.
 */
export function chooseAttack(
  r: Rules,
  obs: Observation,
  beliefs: readonly UnitBelief[],
  log: readonly IntelEvent[],
  o: { attacked?: ReadonlySet<number>; policy?: AttackPolicy; rnd?: () => number } = {},
): AttackChoice | null {
  const b = r.board;
  const n = b.width * b.height;
  const policy = o.policy ?? DEFAULT_POLICY;
  const visible = new Set(obs.attackMask);
  let best: AttackChoice[] = [];
  for (const defender of enemies(log)) {
    const occ = occupancy(beliefs, defender, n);
    for (const u of obs.ownUnits) {
      if (!u || o.attacked?.has(u.slot)) continue;
      const range = r.unitTypes[u.type]!.attackRange;
      if (range < 1) continue;
      for (const x of balls(b, range)[u.row * b.width + u.col]!) {
        const p = occ[x]!;
        if (!visible.has(x) || p <= 0) continue;
        if (best.length > 0 && p < best[0]!.p) continue;
        const target = tileCoord(b, x);
        const choice = { slot: u.slot, target, defender, p, uniform: 0 };
        if (best.length > 0 && p === best[0]!.p) best.push(choice);
        else best = [choice];
      }
    }
  }
  const pick = best[Math.floor((o.rnd?.() ?? 0) * best.length)];
  if (!pick) return null;
  pick.uniform = uniformOdds(b, log, pick.defender, zoneOf(b, pick.target));
  if (pick.p < policy.minP || pick.p < policy.minRatio * pick.uniform) return null;
  return pick;
}

/**
 * Where hunters should head: per tile, the chance that an enemy unit stands within `range` of it after the
 * enemy's next move (structures stay; mobile units are spread as the tracker spreads them), summed over units.
 * The bot walks toward the tile where this is highest.
 */
export function threat(r: Rules, beliefs: readonly UnitBelief[], range: number): Float64Array {
  const b = r.board;
  const n = b.width * b.height;
  const mass = new Float64Array(n);
  for (const u of beliefs) {
    if (!u.alive) continue;
    const t = r.unitTypes[u.unitType]!;
    const reach = balls(b, (t.structure ? 0 : t.speed) + range);
    // Smearing a unit over its next move and our range in one step: mass within speed + range.
    u.p.forEach((v, x) => {
      if (v === 0) return;
      const near = reach[x]!;
      for (const y of near) mass[y]! += v / near.length;
    });
  }
  return mass;
}
