/**
 * Writes the per-ruleset main circuits: `component main {public [...]} = Turn(params...)`, with
 * every parameter taken from the ruleset (grid and metric, sizes, zones, unit slots, players,
 * max revealed tiles, unit type tables, start areas, spawn list).
 */
import { InputError } from '../../core/errors.ts';
import { MAX_BOARD_SIDE, MAX_ZONES } from '../../core/limits.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { mapTopLevels, mobileSlots } from '../../core/witness/maptop.ts';
import { visionThreshold, zoneSightTable } from '../../core/witness/zones.ts';
import { sortingNetwork } from './sortnet.ts';

/** The game's circuits, built by default. */
export const CIRCUITS = ['turn', 'spawn', 'attack', 'combat'] as const;
/** The ZK map proof (one chunk per zone, then the root): ~48k constraints, so built on request. */
export const MAP_CIRCUITS = ['mapchunk', 'maproot'] as const;
export const ALL_CIRCUITS = [...CIRCUITS, ...MAP_CIRCUITS] as const;
export type CircuitName = (typeof ALL_CIRCUITS)[number];

/** Bits needed to hold `v` (at least 1). */
function bitLen(v: number): number {
  let n = 1;
  while (2 ** n <= v) n++;
  return n;
}

const arr = (xs: readonly (number | string)[]): string => `[${xs.join(', ')}]`;

/** Metric codes shared with circuits/lib/distance.circom. */
export function gridMetric(r: ValidRuleset): number {
  return r.grid.kind === 'hex' ? 0 : 1;
}
export function visionMetric(r: ValidRuleset): number {
  return { hex: 0, chebyshev: 1, euclidean: 2, litZones: 3 }[r.vision.model];
}

export interface CircuitParams {
  N: number;
  T: number;
  K: number;
  R: number;
  Z: number;
}

export function circuitParams(r: ValidRuleset): CircuitParams {
  return {
    N: r.unitSlots,
    T: r.unitTypes.length,
    K: r.players.max - 1,
    R: r.maxRevealedTiles,
    Z: r.board.zoneCount,
  };
}

function checkLimits(r: ValidRuleset): void {
  const { N, T, R, Z } = circuitParams(r);
  // The board limits of core/limits.ts, which validateRuleset and the contract enforce too; checked again here
  // for a ruleset object that did not come through the validator.
  for (const side of ['width', 'height'] as const) {
    if (r.grid[side] > MAX_BOARD_SIDE)
      throw new InputError(
        `ruleset.grid.${side}`,
        `${r.grid[side]}: circuits take at most ${MAX_BOARD_SIDE} columns and rows (10-bit coordinates)`,
      );
  }
  if (Z > MAX_ZONES)
    throw new InputError(
      'ruleset.grid',
      `${Z} zones: circuits take at most ${MAX_ZONES} (a zone bitmask is one 253-bit public-signal word)`,
    );
  if (T > 16) throw new InputError('ruleset.unitTypes', `${T} types: the unit word holds 4 type bits (≤ 16)`);
  if (Math.ceil(N / 7) + 1 > 16)
    throw new InputError('ruleset.unitSlots', `${N} slots need more than 16 Poseidon inputs`);
  if (Math.ceil(R / 14) + 1 > 16)
    throw new InputError('ruleset.maxRevealedTiles', `${R} tiles need more than 16 Poseidon inputs`);
  if (r.players.max < 2)
    throw new InputError('ruleset.players.max', 'circuits need at least one opponent seat');
}

/** Shared VisionProof parameters, in template order after METRIC. */
function visionParams(r: ValidRuleset): string[] {
  const t = zoneSightTable(r);
  const model = r.vision.model;
  const vis = r.unitTypes.map((u) => visionThreshold(model, u.vision));
  const maxVis = Math.max(...vis);
  // Coverage slack: hex/Chebyshev check r ± d in [0, 2^VB) with 2r < 2^VB; Euclidean r² - d² < 2^VB.
  const VB = model === 'euclidean' ? bitLen(maxVis) : bitLen(2 * maxVis);
  let dirs = t.dirs;
  let md = t.md;
  // Lit zones see only their own zone: one dummy direction that no radius reaches keeps arrays non-empty.
  if (dirs.length === 0) {
    dirs = [{ dx: 0, dy: 0 }];
    md = [new Array(64).fill(maxVis + 1)];
  }
  const maxMd = Math.max(...md.flat(), maxVis);
  const RB = bitLen(maxMd + 1);
  return [
    arr(r.unitTypes.map((u) => u.vision)),
    String(VB),
    arr(vis),
    String(r.board.zonesX),
    String(r.board.zonesY),
    String(dirs.length),
    arr(dirs.map((d) => d.dx)),
    arr(dirs.map((d) => d.dy)),
    String(t.ky),
    `[${md.map((row) => arr(row)).join(', ')}]`,
    String(RB),
    ...sortParams(r.unitSlots),
  ];
}

/** SC, SP: the comparator pairs that sort the forced-reveal lanes (a placeholder pair when there are none). */
function sortParams(n: number): string[] {
  const pairs = sortingNetwork(n);
  return [String(pairs.length), `[${(pairs.length ? pairs : [[0, 0]]).map((p) => arr(p)).join(', ')}]`];
}

/** The main source of one circuit for one ruleset; includes resolve against `circuits/`. */
export function mainSource(name: CircuitName, r: ValidRuleset): string {
  checkLimits(r);
  const { N, T, K, R } = circuitParams(r);
  const W = r.grid.width;
  const H = r.grid.height;
  let include: string;
  let main: string;
  switch (name) {
    case 'turn': {
      const speeds = r.unitTypes.map((u) => u.speed);
      const SB = bitLen(2 * Math.max(...speeds));
      const vp = visionParams(r);
      // VIS (coverage radius) is the vision threshold, i.e. r² under Euclidean.
      vp[0] = vp[2]!;
      const pass = r.provePassability;
      include = pass ? 'turn_pass.circom' : 'turn.circom';
      const params = [W, H, N, T, K, R, gridMetric(r), arr(speeds), SB, visionMetric(r), ...vp];
      // Passability: tree depth, the shared top height, then the mobile slots that carry a
      // destination opening (core/witness/maptop.ts).
      if (pass) {
        // The destination check is the path check only for one-tile moves (validateRuleset refuses more too).
        if (speeds.some((v) => v > 1))
          throw new InputError('ruleset.unitTypes', 'provePassability needs every speed at most 1 (no hop)');
        const ms = mobileSlots(r);
        if (ms.length === 0)
          throw new InputError('ruleset.spawn', 'provePassability needs a spawned unit with speed > 0');
        params.push(r.board.depth, mapTopLevels(r.board, ms.length), ms.length, arr(ms));
      }
      main = `component main {public [packed, oldCommit, newCommit]} = ${pass ? 'TurnPass' : 'Turn'}(${params.join(', ')});`;
      break;
    }
    case 'spawn': {
      const vp = visionParams(r);
      vp[0] = vp[2]!;
      const P = r.players.max;
      const areas = r.startAreas.slice(0, P).map((a) => arr([a.col0, a.row0, a.col1, a.row1]));
      const spawn = r.spawn.map((n) => r.unitTypes.findIndex((u) => u.name === n));
      include = 'spawn.circom';
      main = `component main {public [packed, gameId, newCommit, mapRoot]} = Spawn(${[
        W,
        H,
        N,
        T,
        K,
        R,
        P,
        `[${areas.join(', ')}]`,
        spawn.length,
        arr(spawn.length > 0 ? spawn : [0]),
        arr(r.unitTypes.map((u) => u.hp)),
        visionMetric(r),
        ...vp,
      ].join(', ')});`;
      break;
    }
    case 'attack': {
      const atk = r.unitTypes.map((u) => u.attackRange);
      const AB = bitLen(2 * Math.max(1, ...atk));
      include = 'attack.circom';
      main = `component main {public [gameId, target, commit]} = Attack(${[
        W,
        H,
        N,
        T,
        gridMetric(r),
        arr(atk),
        AB,
      ].join(', ')});`;
      break;
    }
    case 'combat':
      include = 'combat.circom';
      main = `component main {public [gameId, target, oldCommit]} = Combat(${W}, ${H}, ${N});`;
      break;
    case 'mapchunk': {
      include = 'map/mapchunk.circom';
      // The start areas the generator blends toward land (the board's: the first players.max).
      const areas = (r.board.startAreas ?? []).map((a) => arr([a.col0, a.row0, a.col1, a.row1]));
      main = `component main {public [zone, seedHash]} = MapChunk(${gridMetric(r)}, ${W}, ${H}, ${areas.length}, [${areas.length ? areas.join(', ') : arr([0, 0, 0, 0])}]);`;
      break;
    }
    case 'maproot':
      include = 'map/maproot.circom';
      main = `component main {public [gameId, players, shareCommits, nPlayers, seedHash, root, zoneRoots]} = MapRoot(${r.players.max}, ${r.board.zoneCount}, ${r.board.depth});`;
      break;
  }
  return `// Generated by scripts/circuits/generate.ts for ruleset "${r.name}". Do not edit.\npragma circom 2.1.0;\n\ninclude "circuits/${include}";\n\n${main}\n`;
}
