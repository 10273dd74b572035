import {
  type Board,
  type Coord,
  gridDistance,
  leafIndex,
  neighbours,
  tileCoord,
  tileIndex,
  tilesInRange,
} from '../core/geometry.ts';
import type { Ruleset, UnitType } from '../core/ruleset/types.ts';
import { isPassable, type Terrain } from '../core/tile.ts';
import { visibleTiles } from '../core/vision/radius.ts';
import { trackEnemies } from './belief.ts';
import type { IntelEvent } from './intel.ts';
import { type Observation, zoneOfIndex } from './sdk/observation.ts';
import { type AttackPolicy, chooseAttack, threat } from './targeting.ts';

/**
 * One turn's plan. `moves[slot]` is the destination, or null to stay (empty slots, structures).
 * `reveal` is the revealed-tile list for the turn proof (zone-major leaf indices), within the vision
 * after the moves. `attack` names an attacker slot and a tile it can target from where it stands now.
 */
export interface BotPlan {
  moves: (Coord | null)[];
  reveal: number[];
  /** `p`: the tracker's odds that the target holds an enemy; `uniform`: a uniform guess's over its zone. */
  attack?: { slot: number; target: Coord; p: number; uniform: number };
}

type Rules = Ruleset & { board: Board };

/** FNV-1a to 32 bits, then mulberry32: a tiny deterministic PRNG seeded by (seed, turn). */
function rngFor(seed: bigint | number | string, turn: number): () => number {
  let h = 0x811c9dc5;
  for (const ch of `${seed}:${turn}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(xs: readonly T[], rnd: () => number): T | undefined => xs[Math.floor(rnd() * xs.length)];

/** Unknown terrain may be crossed; known water and mountains may not (the bot plans on land). */
function walkable(obs: Observation, i: number): boolean {
  const t = obs.terrain[i]!;
  return t === -1 || isPassable(t as Terrain);
}

/** Grid-metric BFS distances from `from` over walkable tiles (the start always counts); −1 = unreachable. */
function bfs(board: Board, obs: Observation, from: readonly number[]): Int32Array {
  const dist = new Int32Array(board.width * board.height).fill(-1);
  const queue = [...from];
  for (const i of from) dist[i] = 0;
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q]!;
    for (const n of neighbours(board, tileCoord(board, i))) {
      const j = tileIndex(board, n);
      if (dist[j] !== -1 || !walkable(obs, j)) continue;
      dist[j] = dist[i]! + 1;
      queue.push(j);
    }
  }
  return dist;
}

/** Scouts: the fastest mobile type, when some mobile type is slower. */
function isScout(types: readonly UnitType[], t: UnitType): boolean {
  const speeds = types.filter((u) => !u.structure).map((u) => u.speed);
  return !t.structure && t.speed === Math.max(...speeds) && Math.min(...speeds) < t.speed;
}

/** Undiscovered tiles next to something seen: where exploring pays. Everything unseen before the first turn. */
function frontier(board: Board, obs: Observation): number[] {
  const out: number[] = [];
  obs.fog.forEach((f, i) => {
    if (f !== 0) return;
    if (neighbours(board, tileCoord(board, i)).some((n) => obs.fog[tileIndex(board, n)] !== 0)) out.push(i);
  });
  return out.length > 0 ? out : obs.fog.flatMap((f, i) => (f === 0 ? [i] : []));
}

/** A scout's goal: the reachable frontier tile farthest from home (structures, else the unit itself). */
function scoutGoal(
  board: Board,
  obs: Observation,
  home: Coord,
  dist: Int32Array,
  rnd: () => number,
): number | null {
  let best: number[] = [];
  let bestScore = -1;
  for (const i of frontier(board, obs)) {
    if (dist[i] === -1) continue;
    const score = gridDistance(board.kind, home, tileCoord(board, i));
    if (score > bestScore) [best, bestScore] = [[i], score];
    else if (score === bestScore) best.push(i);
  }
  return pick(best, rnd) ?? null;
}

/** Any other unit's goal: the nearest undiscovered tile by walking distance. */
function nearestGoal(
  obs: Observation,
  dist: Int32Array,
  claimed: Set<number>,
  rnd: () => number,
): number | null {
  let best: number[] = [];
  let bestD = Number.POSITIVE_INFINITY;
  obs.fog.forEach((f, i) => {
    const d = dist[i]!;
    if (f !== 0 || d === -1 || claimed.has(i)) return;
    if (d < bestD) [best, bestD] = [[i], d];
    else if (d === bestD) best.push(i);
  });
  return pick(best, rnd) ?? null;
}

/** The destination in the move mask nearest the goal; null when staying is as good. */
function stepToward(
  board: Board,
  obs: Observation,
  slot: number,
  goal: number,
  taken: Set<number>,
  rnd: () => number,
) {
  const u = obs.ownUnits[slot]!;
  const here = tileIndex(board, u);
  const toGoal = bfs(board, obs, [goal]);
  const score = (i: number) => (toGoal[i] === -1 ? Number.POSITIVE_INFINITY : toGoal[i]!);
  let best: number[] = [];
  let bestScore = score(here);
  for (const i of obs.moveMask[slot]!) {
    if (i === here || taken.has(i) || !walkable(obs, i)) continue;
    const s = score(i);
    if (s < bestScore) [best, bestScore] = [[i], s];
    else if (s === bestScore && best.length > 0) best.push(i);
  }
  return pick(best, rnd) ?? null;
}

/**
 * The revealed-tile list: undiscovered tiles first, then seen tiles whose terrain was never served. When
 * the ruleset proves passability, a unit may only move onto tiles it holds the opening of, so unserved
 * tiles within a mobile unit's reach from its new position come first: next turn's destinations.
 */
function chooseReveal(
  board: Board,
  rules: Rules,
  obs: Observation,
  moves: (Coord | null)[],
  rnd: () => number,
) {
  const sources = obs.ownUnits.flatMap((u, slot) =>
    u ? [{ coord: moves[slot] ?? { col: u.col, row: u.row }, radius: rules.unitTypes[u.type]!.vision }] : [],
  );
  const vision = [...visibleTiles(board, rules.vision.model, sources)].sort((a, b) => a - b);
  const shuffled = vision.map((i) => ({ i, r: rnd() })).sort((a, b) => a.r - b.r);
  const reach = new Set<number>();
  if (rules.provePassability) {
    obs.ownUnits.forEach((u, slot) => {
      const speed = u ? rules.unitTypes[u.type]!.speed : 0;
      if (!u || speed === 0) return;
      const at = moves[slot] ?? { col: u.col, row: u.row };
      for (const c of tilesInRange(board, board.kind === 'hex' ? 'hex' : 'chebyshev', at, speed))
        reach.add(tileIndex(board, c));
    });
  }
  const tier = (i: number) => {
    if (obs.terrain[i] !== -1) return 3; // served already
    if (reach.has(i)) return 0;
    return obs.fog[i] === 0 ? 1 : 2;
  };
  return shuffled
    .filter(({ i }) => tier(i) < 3)
    .sort((a, b) => tier(a.i) - tier(b.i))
    .slice(0, rules.maxRevealedTiles)
    .map(({ i }) => leafIndex(board, tileCoord(board, i)));
}

/**
 * The bot's revealed-tile list for moves chosen elsewhere (a human's): the same choice `planTurn` makes,
 * seeded by (seed, turn).
 */
export function revealFor(
  obs: Observation,
  rules: Rules,
  moves: (Coord | null)[],
  seed: bigint | number | string,
): number[] {
  return chooseReveal(rules.board, rules, obs, moves, rngFor(`${seed}:reveal`, obs.turn ?? -1));
}

/** What the bot may know beyond the observation, and how it fights. */
export interface BotOptions {
  /** The enemy intel log (`intel.ts`); without it the bot tracks only the observation's live sightings. */
  intel?: readonly IntelEvent[];
  /** Slots that already attacked this turn. */
  attacked?: ReadonlySet<number>;
  policy?: AttackPolicy;
  /**
   * Which mobile units that can attack walk toward the enemy instead of exploring, once the log knows an enemy
   * (its spawn): 'all' (default: contact comes within the demo's turns), 'infantry' (all but scouts), 'none'.
   */
  hunters?: 'none' | 'infantry' | 'all';
}

/**
 * The intel an observation alone gives: per enemy with live sightings, one turn whose watched zones are the
 * zones visible now and whose reveals are its live zone sightings, then its live exact sightings as hits.
 * Counts and fizzles are not in an observation; `BotPlayer` keeps the full log.
 */
export function intelFromObservation(obs: Observation, rules: Rules): IntelEvent[] {
  const board = rules.board;
  const live = obs.lastSeen.filter((s) => !s.lost);
  const watched = [...new Set(obs.fog.flatMap((f, i) => (f === 1 ? [zoneOfIndex(board, i)] : [])))].sort(
    (a, b) => a - b,
  );
  const out: IntelEvent[] = [];
  for (const player of [...new Set(live.map((s) => s.player))].sort((a, b) => a - b)) {
    const mine = live.filter((s) => s.player === player);
    const zoned = mine.filter((s) => s.col === undefined && watched.includes(s.zone));
    out.push({
      kind: 'turn',
      player,
      turn: 0,
      watched,
      reveals: zoned.map((s) => ({ zone: s.zone, unitType: s.unitType })),
    });
    for (const s of mine)
      if (s.col !== undefined && s.row !== undefined)
        out.push({
          kind: 'combat',
          defender: player,
          col: s.col,
          row: s.row,
          hit: true,
          unitType: s.unitType,
        });
  }
  return out;
}

/** The reachable tile with the most enemy mass within a move and `range` of it (ties to `rnd`), or null. */
function huntGoal(threat: Float64Array, dist: Int32Array, rnd: () => number): number | null {
  let best: number[] = [];
  let top = 0;
  threat.forEach((v, i) => {
    if (dist[i] === -1 || v <= 0) return;
    if (v > top * (1 + 1e-9)) [best, top] = [[i], v];
    else if (v >= top * (1 - 1e-9)) best.push(i);
  });
  return pick(best, rnd) ?? null;
}

/**
 * The bot: a pure function of what the player observed, the ruleset, a seed and the enemy intel. It attacks
 * the visible tile the tracker finds most likely occupied when that beats a uniform guess over the revealed
 * zone by the policy's margin (`targeting.ts`); hunters walk toward where enemies are likely to be, scouts run
 * for the farthest frontier, other units for the nearest unexplored land, structures stay.
 */
export function planTurn(
  obs: Observation,
  rules: Rules,
  seed: bigint | number | string,
  o: BotOptions = {},
): BotPlan {
  const board = rules.board;
  if (obs.width !== board.width || obs.height !== board.height || obs.kind !== board.kind) {
    throw new TypeError('observation does not match the ruleset board');
  }
  const rnd = rngFor(seed, obs.turn ?? -1);
  const log = o.intel ?? intelFromObservation(obs, rules);
  const beliefs = trackEnemies(rules, obs.terrain, log);
  const choice = chooseAttack(rules, obs, beliefs, log, {
    ...(o.attacked ? { attacked: o.attacked } : {}),
    ...(o.policy ? { policy: o.policy } : {}),
    rnd,
  });
  const units = obs.ownUnits.flatMap((u) => (u ? [u] : []));
  const structures = units.filter((u) => rules.unitTypes[u.type]!.structure);
  const moves: (Coord | null)[] = obs.ownUnits.map(() => null);
  // Destinations already chosen, and tiles units stand on; goals spread units over the frontier.
  const taken = new Set(units.map((u) => tileIndex(board, u)));
  const claimed = new Set<number>();
  const hunters = o.hunters ?? 'all';
  const threats = new Map<number, Float64Array>();
  const threatFor = (range: number) => {
    let t = threats.get(range);
    if (!t) threats.set(range, (t = threat(rules, beliefs, range)));
    return t;
  };
  for (const u of units) {
    const type = rules.unitTypes[u.type]!;
    if (type.structure || type.speed === 0) continue;
    const here = tileIndex(board, u);
    const dist = bfs(board, obs, [here]);
    const home = structures[0] ?? u;
    const scout = isScout(rules.unitTypes, type);
    const hunts =
      beliefs.length > 0 && type.attackRange > 0 && (hunters === 'all' || (hunters === 'infantry' && !scout));
    const goal = hunts
      ? huntGoal(threatFor(type.attackRange), dist, rnd)
      : scout
        ? scoutGoal(board, obs, home, dist, rnd)
        : nearestGoal(obs, dist, claimed, rnd);
    if (goal === null) continue;
    claimed.add(goal);
    const dest = stepToward(board, obs, u.slot, goal, taken, rnd);
    if (dest === null) continue;
    taken.delete(here);
    taken.add(dest);
    moves[u.slot] = tileCoord(board, dest);
  }
  const plan: BotPlan = { moves, reveal: chooseReveal(board, rules, obs, moves, rnd) };
  if (choice)
    plan.attack = { slot: choice.slot, target: choice.target, p: choice.p, uniform: choice.uniform };
  return plan;
}
