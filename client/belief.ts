/**
 * Where each enemy unit may stand, as a probability per tile, from the intel log alone (a Bayes filter).
 * Units are the ruleset's spawn list, placed uniformly in their seat's start area at the spawn. Each later
 * enemy turn every mobile unit jumps within its speed (mostly its full speed or not at all: `MOVE_PROFILE`;
 * tiles this seat knows impassable weigh less); each unit stands where every zone it sees is in the enemy's
 * published mask; the turn's forced reveals are matched to units of their type: a watched zone holds exactly
 * the revealed units, a watched zone without a reveal of a type holds none of it. A fizzle empties its tile
 * until the enemy moves again (a structure's tile for good); a hit pins one unit of its type to the tile.
 */
import { type Board, gridDistance, tileIndex, tilesInRange, zoneOf } from '../core/geometry.ts';
import type { Ruleset } from '../core/ruleset/types.ts';
import { isPassable, type Terrain } from '../core/tile.ts';
import type { CombatIntel, EnemyTurnIntel, IntelEvent } from './intel.ts';

type Rules = Ruleset & { board: Board };

export interface UnitBelief {
  player: number;
  unitType: number;
  alive: boolean;
  /** Probability that the unit stands on each row-major tile now; sums to 1 while it is alive. */
  p: Float64Array;
}

export interface BeliefOptions {
  /** Prior weight of a move onto a tile known impassable (bots plan on land; the proof may not forbid it). */
  impassableWeight?: number;
}

/** Known terrain per row-major tile, −1 unknown (the observation's `terrain`). */
export type TerrainView = readonly number[];

const ballCache = new Map<string, Int32Array[]>();

/** For each tile, the row-major tiles within grid-metric radius `r` (the move and attack metric). */
export function balls(board: Board, r: number): Int32Array[] {
  const key = `${board.kind}:${board.width}x${board.height}:${r}`;
  let out = ballCache.get(key);
  if (!out) {
    const metric = board.kind === 'hex' ? 'hex' : 'chebyshev';
    out = [];
    for (let row = 0; row < board.height; row++)
      for (let col = 0; col < board.width; col++)
        out.push(Int32Array.from(tilesInRange(board, metric, { col, row }, r), (c) => tileIndex(board, c)));
    ballCache.set(key, out);
  }
  return out;
}

/** Zone of each row-major tile. */
export function zoneIndex(board: Board): Int32Array {
  const z = new Int32Array(board.width * board.height);
  for (let i = 0; i < z.length; i++)
    z[i] = zoneOf(board, { col: i % board.width, row: Math.floor(i / board.width) });
  return z;
}

const sum = (p: Float64Array) => p.reduce((a, b) => a + b, 0);

function normalise(p: Float64Array): boolean {
  const s = sum(p);
  if (!(s > 0)) return false;
  for (let i = 0; i < p.length; i++) p[i]! /= s;
  return true;
}

/**
 * How far a unit jumps in one turn: mostly its full speed or not at all (units head somewhere, or are stuck
 * or waiting), seldom in between. Shares of the move's probability by distance class.
 */
export const MOVE_PROFILE = { stay: 0.2, full: 0.7, between: 0.1 };

/** One enemy move: mass at x spreads over the tiles within `speed` by `MOVE_PROFILE`, then by prior weight. */
function predict(
  p: Float64Array,
  ball: Int32Array[],
  dist: (x: number, y: number) => number,
  speed: number,
  weight: Float64Array,
): Float64Array {
  const out = new Float64Array(p.length);
  const classOf = (d: number) => (d === 0 ? 'stay' : d >= speed ? 'full' : 'between');
  for (let x = 0; x < p.length; x++) {
    const m = p[x]!;
    if (m === 0) continue;
    const near = ball[x]!;
    const w = { stay: 0, full: 0, between: 0 };
    for (const y of near) w[classOf(dist(x, y))] += weight[y]!;
    // Classes with no tile (a unit boxed in) give their share to the others.
    let total = 0;
    for (const k of ['stay', 'full', 'between'] as const) if (w[k] > 0) total += MOVE_PROFILE[k];
    for (const y of near) {
      const k = classOf(dist(x, y));
      out[y]! += (m * weight[y]! * MOVE_PROFILE[k]) / w[k] / total;
    }
  }
  return out;
}

/** Distinct assignments of a multiset of labels to units, each with its count; null past `budget`. */
function assignments(labels: readonly number[], budget = 5040): number[][] | null {
  const counts = new Map<number, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  const out: number[][] = [];
  const cur: number[] = [];
  const walk = (): boolean => {
    if (cur.length === labels.length) {
      out.push([...cur]);
      return out.length <= budget;
    }
    for (const [l, c] of counts) {
      if (c === 0) continue;
      counts.set(l, c - 1);
      cur.push(l);
      const ok = walk();
      cur.pop();
      counts.set(l, c);
      if (!ok) return false;
    }
    return true;
  };
  return walk() ? out : null;
}

/** The label of tile x for one observation: its zone when watched, −1 (elsewhere) when not. */
const UNWATCHED = -1;

/**
 * Conditions the units of one type on a turn's reveals. The revealed zones (with multiplicity), padded with
 * "unwatched" for the rest, are assigned to the units every possible way; each way weighs the product of the
 * units' prior mass in their assigned regions, and each unit's new belief is its prior restricted to each
 * region, mixed by that region's posterior weight.
 */
function observeType(units: UnitBelief[], zones: readonly number[], label: (x: number) => number | null) {
  if (units.length === 0) return;
  const labels = [...zones.slice(0, units.length)];
  while (labels.length < units.length) labels.push(UNWATCHED);
  const distinct = [...new Set(labels)];
  // mass[i][k]: unit i's prior mass in region distinct[k].
  const regionMass = () =>
    units.map((u) => {
      const m = distinct.map(() => 0);
      u.p.forEach((v, x) => {
        const l = label(x);
        const k = l === null ? -1 : distinct.indexOf(l);
        if (k >= 0) m[k]! += v;
      });
      return m;
    });
  let mass = regionMass();
  const ways = assignments(labels);
  const posterior = (): number[][] | null => {
    const q = units.map(() => distinct.map(() => 0));
    let total = 0;
    if (ways) {
      for (const a of ways) {
        let w = 1;
        a.forEach((l, i) => {
          w *= mass[i]![distinct.indexOf(l)]!;
        });
        if (w === 0) continue;
        total += w;
        a.forEach((l, i) => {
          q[i]![distinct.indexOf(l)]! += w;
        });
      }
    } else {
      // Too many units of one type to enumerate: each unit independently, weighted by the label counts.
      units.forEach((_, i) => {
        distinct.forEach((l, k) => {
          q[i]![k] = mass[i]![k]! * labels.filter((x) => x === l).length;
        });
      });
      total = 1;
    }
    if (!(total > 0)) return null;
    return q.map((row) => {
      const s = row.reduce((a, b) => a + b, 0);
      return s > 0 ? row.map((v) => v / s) : row;
    });
  };
  let q = posterior();
  if (!q) {
    // The reveals contradict the prior (a move the model thought impossible): start these units afresh.
    for (const u of units) u.p.fill(1);
    mass = regionMass();
    q = posterior();
    if (!q) return;
  }
  units.forEach((u, i) => {
    const next = new Float64Array(u.p.length);
    u.p.forEach((v, x) => {
      const l = label(x);
      const k = l === null ? -1 : distinct.indexOf(l);
      if (k >= 0 && mass[i]![k]! > 0) next[x] = (v * q[i]![k]!) / mass[i]![k]!;
    });
    if (normalise(next)) u.p = next;
  });
}

const sightCache = new Map<string, Int32Array[]>();

/** For each tile, the zones a unit of vision `radius` standing there sees (the zones its turn proof marks). */
export function sightZones(r: Rules, radius: number): Int32Array[] {
  const b = r.board;
  const key = `${b.kind}:${b.width}x${b.height}:${r.vision.model}:${radius}`;
  let out = sightCache.get(key);
  if (!out) {
    const zones = zoneIndex(b);
    out = [];
    for (let x = 0; x < zones.length; x++) {
      const c = { col: x % b.width, row: Math.floor(x / b.width) };
      const seen =
        r.vision.model === 'litZones'
          ? [zones[x]!]
          : tilesInRange(b, r.vision.model, c, radius).map((t) => zones[tileIndex(b, t)]!);
      out.push(Int32Array.from(new Set(seen)));
    }
    sightCache.set(key, out);
  }
  return out;
}

/** Each unit stands where every zone it sees is in its player's published mask. */
function observeMask(r: Rules, units: UnitBelief[], mask: readonly number[]): void {
  const inMask = new Set(mask);
  for (const u of units) {
    if (!u.alive) continue;
    const sees = sightZones(r, r.unitTypes[u.unitType]!.vision);
    const next = u.p.map((v, x) => (v > 0 && sees[x]!.every((z) => inMask.has(z)) ? v : 0));
    // A mask no position explains means the model is off (never for honest proofs): keep the prior.
    if (normalise(next)) u.p = next;
  }
}

function observeTurn(r: Rules, units: UnitBelief[], ev: EnemyTurnIntel, zones: Int32Array): void {
  if (ev.mask) observeMask(r, units, ev.mask);
  if (ev.watched.length === 0) return;
  const watched = new Set(ev.watched);
  // A tile's region: its zone if watched, else "unwatched".
  const label = (x: number): number => (watched.has(zones[x]!) ? zones[x]! : UNWATCHED);
  r.unitTypes.forEach((_, type) => {
    const ofType = units.filter((u) => u.alive && u.unitType === type);
    const revealed = ev.reveals.filter((z) => z.unitType === type).map((z) => z.zone);
    // Each unit of this type is in a revealed zone or unwatched; a watched zone without a reveal holds none.
    observeType(ofType, revealed, (x) => {
      const l = label(x);
      return l === UNWATCHED || revealed.includes(l) ? l : null;
    });
  });
}

function observeCombat(r: Rules, units: UnitBelief[], ev: CombatIntel): void {
  const x = tileIndex(r.board, { col: ev.col, row: ev.row });
  const mine = units.filter((u) => u.alive && u.player === ev.defender);
  const clear = (u: UnitBelief) => {
    u.p[x] = 0;
    if (!normalise(u.p)) {
      u.p.fill(1);
      u.p[x] = 0;
      normalise(u.p);
    }
  };
  if (!ev.hit) {
    for (const u of mine) clear(u);
    return;
  }
  const candidates = mine.filter((u) => u.unitType === ev.unitType);
  for (const u of mine) if (!candidates.includes(u)) clear(u);
  if (candidates.length === 0) return;
  // Which unit of the type stood there, by prior mass on the tile (uniform if the prior ruled all out).
  const at = candidates.map((u) => u.p[x]!);
  const total = at.reduce((a, c) => a + c, 0);
  const share = total > 0 ? at.map((v) => v / total) : at.map(() => 1 / at.length);
  // Units of one type are interchangeable labels: label j becomes the unit hit; every other label m keeps
  // its own belief off the tile, or, in the case that m was the one hit, takes j's.
  const j = share.indexOf(Math.max(...share));
  const off = (p: Float64Array) => {
    const q = p.slice();
    q[x] = 0;
    if (!normalise(q)) {
      q.fill(1);
      q[x] = 0;
      normalise(q);
    }
    return q;
  };
  const offJ = off(candidates[j]!.p);
  candidates.forEach((u, m) => {
    if (m === j) return;
    const own = off(u.p);
    u.p = own.map((v, y) => (1 - share[m]!) * v + share[m]! * offJ[y]!);
  });
  const hit = candidates[j]!;
  if (ev.killed) hit.alive = false;
  else {
    hit.p = new Float64Array(hit.p.length);
    hit.p[x] = 1;
  }
}

/** The enemy units' beliefs after every event of `log`, for the terrain this seat knows now. */
export function trackEnemies(
  r: Rules,
  terrain: TerrainView,
  log: readonly IntelEvent[],
  opts: BeliefOptions = {},
): UnitBelief[] {
  const b = r.board;
  const n = b.width * b.height;
  const zones = zoneIndex(b);
  const weight = Float64Array.from(terrain, (t) =>
    t === -1 || isPassable(t as Terrain) ? 1 : (opts.impassableWeight ?? 0.1),
  );
  const dist = (x: number, y: number) =>
    gridDistance(
      b.kind,
      { col: x % b.width, row: Math.floor(x / b.width) },
      { col: y % b.width, row: Math.floor(y / b.width) },
    );
  const units: UnitBelief[] = [];
  const spawned = new Set<number>();
  for (const ev of log) {
    if (ev.kind === 'combat') {
      observeCombat(r, units, ev);
      continue;
    }
    if (!spawned.has(ev.player)) {
      spawned.add(ev.player);
      const a = r.startAreas[ev.player];
      const start = new Float64Array(n);
      if (a) {
        for (let row = a.row0; row <= Math.min(a.row1, b.height - 1); row++)
          for (let col = a.col0; col <= Math.min(a.col1, b.width - 1); col++) start[row * b.width + col] = 1;
      }
      if (!normalise(start)) start.fill(1 / n);
      for (const name of r.spawn) {
        const unitType = r.unitTypes.findIndex((t) => t.name === name);
        units.push({ player: ev.player, unitType, alive: true, p: start.slice() });
      }
    } else {
      for (const u of units) {
        if (u.player !== ev.player || !u.alive) continue;
        const t = r.unitTypes[u.unitType]!;
        if (!t.structure && t.speed > 0) u.p = predict(u.p, balls(b, t.speed), dist, t.speed, weight);
      }
    }
    observeTurn(
      r,
      units.filter((u) => u.player === ev.player),
      ev,
      zones,
    );
  }
  return units;
}

/** Probability that some unit of `player` stands on each tile (units on distinct tiles, independently). */
export function occupancy(units: readonly UnitBelief[], player: number, n: number): Float64Array {
  const none = new Float64Array(n).fill(1);
  for (const u of units) {
    if (!u.alive || u.player !== player) continue;
    for (let x = 0; x < n; x++) none[x]! *= 1 - u.p[x]!;
  }
  return none.map((v) => 1 - v);
}
