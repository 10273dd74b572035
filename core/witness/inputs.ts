/**
 * Witness builders: turn protocol objects into circuit inputs, and compute the public signals the
 * proof must carry (snarkjs order: outputs first, then public inputs, as in circuits/README.md).
 * They reject illegal states with an InputError naming the unit, the tile and the rule, before any
 * proving starts. Pure and I/O-free: the client and the tests share them.
 */

import { leafHash } from '../commitments.ts';
import { InputError } from '../errors.ts';
import { toField } from '../field.ts';
import { assertOnBoard, type Board, type Coord, gridDistance, leafIndex, onBoard } from '../geometry.ts';
import { pathLength, verifyPath } from '../merkle.ts';
import type { Hasher } from '../poseidon.ts';
import type { Ruleset } from '../ruleset/types.ts';
import {
  assertSlots,
  packReveals,
  packSlots,
  playCommitment,
  type Slots,
  stateCommitment,
  type Unit,
} from '../state.ts';
import { isPassable, type Tile } from '../tile.ts';
import { mapTop, mapTopLevels, mobileSlots } from './maptop.ts';
import { packCombatTarget, packPlay, packReport, packTarget } from './publics.ts';
import {
  coverageAssignment,
  forcedReveals,
  opponentUnion,
  resolveCombat,
  revealedLeaves,
  type ZoneReveal,
} from './reference.ts';
import { visionZones } from './zones.ts';

type R = Ruleset & { board: Board };

/** Circuit input: decimal strings, nested as the circuit's signal arrays. */
export type CircuitInput = Record<string, string | string[] | string[][]>;

export interface WitnessPlan {
  input: CircuitInput;
  /** Expected public signals, in snarkjs order. */
  publicSignals: bigint[];
}

const s = (v: bigint | number): string => v.toString();

function unitLabel(r: R, i: number, u: Unit): string {
  return `${r.unitTypes[u.type]?.name ?? `type ${u.type}`} in slot ${i} at (${u.col},${u.row})`;
}

/** Private inputs of the revealed-tile list: tiles, presence, one-hot coverage. */
function revealInputs(r: R, slots: Slots, tiles: readonly Coord[]): CircuitInput {
  if (tiles.length > r.maxRevealedTiles) {
    throw new InputError('revealed', `${tiles.length} tiles, at most ${r.maxRevealedTiles} per proof`);
  }
  const cover = coverageAssignment(r, slots, tiles);
  const R_ = r.maxRevealedTiles;
  const tileCol: string[] = [];
  const tileRow: string[] = [];
  const present: string[] = [];
  const coverBits: string[][] = [];
  for (let i = 0; i < R_; i++) {
    const t = tiles[i];
    tileCol.push(s(t?.col ?? 0));
    tileRow.push(s(t?.row ?? 0));
    present.push(t ? '1' : '0');
    coverBits.push(Array.from({ length: r.unitSlots }, (_, k) => (t && cover[i] === k ? '1' : '0')));
  }
  return { tileCol, tileRow, present, cover: coverBits };
}

export interface VisionOutputs {
  zoneMask: bigint;
  forced: ZoneReveal[];
  /**
   * The report part of the packed public words (zone bitmask and forced-reveal lanes, every context bit
   * 0; core/witness/publics.ts): what `spawn` and `playTurn` take.
   */
  report: bigint[];
  revealCommit: bigint;
}

function visionOutputs(
  r: R,
  h: Hasher,
  slots: Slots,
  tiles: readonly Coord[],
  revealBlinding: bigint,
  oppMasks: readonly bigint[],
): VisionOutputs {
  const forced = forcedReveals(r, slots, oppMasks);
  const zoneMask = visionZones(r, slots);
  const words = packReveals(revealedLeaves(r, tiles), r.maxRevealedTiles);
  return {
    zoneMask,
    forced,
    report: packReport(r, zoneMask, forced),
    revealCommit: h.hash([revealBlinding, ...words]),
  };
}

export interface TurnArgs {
  /** The player's address as a field element. */
  player: bigint;
  /** The player's seat (the packed words carry it; the contract supplies the mover's seat). */
  seat: number;
  turn: bigint;
  oldSlots: Slots;
  oldBlinding: bigint;
  /** The reveal commitment of the seat's previous spawn or turn: its stored play commitment binds it. */
  oldRevealCommit: bigint;
  newSlots: Slots;
  newBlinding: bigint;
  /** Tiles to reveal this turn (at most maxRevealedTiles), each seen by a new-position unit. */
  revealed: readonly Coord[];
  revealBlinding: bigint;
  /** Each opponent seat's stored zone bitmask (players.max − 1 of them; 0 for empty seats). */
  oppMasks: readonly bigint[];
  /**
   * The map root the seat's play commitment binds (core/state.ts playCommitment): the game's root at its
   * spawn, or the adopted open root once the seat has rebound. Not a public signal of the turn: the old
   * commitment pins it, and the new one keeps it.
   */
  mapRoot: bigint;
  /**
   * Required when the ruleset proves passability: the zone roots of `mapRoot` (public: posted on-chain
   * with the map proof and served with it), and per slot the destination tile's opening.
   */
  passability?: {
    zoneRoots: readonly bigint[];
    destinations: readonly (DestinationProof | null)[];
  };
}

/** An explored tile's opening: its data, salt and Merkle path (as served by the dealer). */
export interface DestinationProof {
  tile: Tile;
  salt: bigint;
  path: readonly bigint[];
}

/**
 * Passability inputs: the top nodes of the map tree (from the zone roots, which must hash to the
 * root), and every unit that moves names its destination's opening, which must verify against the
 * root and show passable terrain; the circuit takes its path up to the top nodes only. Units that
 * stay need nothing (zeros).
 */
function passabilityInputs(r: R, h: Hasher, a: TurnArgs, mapRoot: bigint): CircuitInput {
  const p = a.passability;
  if (!p)
    throw new InputError(
      'passability',
      `ruleset ${r.name} proves passability: zoneRoots and destinations are required`,
    );
  const depth = r.board.depth;
  const mobile = mobileSlots(r);
  const lane = new Map(mobile.map((slot, j) => [slot, j]));
  const k = mapTopLevels(r.board, mobile.length);
  if (!Array.isArray(p.zoneRoots))
    throw new InputError('passability.zoneRoots', `the ${r.board.zoneCount} zone roots are required`);
  const top = mapTop(h, r.board, p.zoneRoots, k, 'passability.zoneRoots');
  if (top.root !== mapRoot)
    throw new InputError('passability.zoneRoots', 'the zone roots do not hash to the map root');
  const cols: Record<string, string[]> = {
    destTerrain: [],
    destFeature: [],
    destResource: [],
    destRivers: [],
    destSalt: [],
  };
  const paths: string[][] = [];
  for (let i = 0; i < r.unitSlots; i++) {
    const from = a.oldSlots[i] ?? null;
    const to = a.newSlots[i] ?? null;
    const moved = from !== null && to !== null && (from.col !== to.col || from.row !== to.row);
    const d = p.destinations[i] ?? null;
    if (!lane.has(i)) {
      // Not a mobile spawn slot: the circuit holds it in place.
      if (moved)
        throw new InputError(
          `newSlots.${i}`,
          `${unitLabel(r, i, from)}: slot ${i} is not a mobile spawn slot (${mobile.join(', ')}) and may not move`,
        );
      continue;
    }
    if (!moved) {
      for (const c of Object.keys(cols)) cols[c]!.push('0');
      paths.push(new Array(pathLength(depth - k)).fill('0'));
      continue;
    }
    const where = `${unitLabel(r, i, from)} → (${to.col},${to.row})`;
    if (d === null)
      throw new InputError(
        `passability.destinations.${i}`,
        `${where}: the destination tile's opening is required`,
      );
    if (!isPassable(d.tile.terrain))
      throw new InputError(
        `passability.destinations.${i}`,
        `${where}: terrain ${d.tile.terrain} is not passable`,
      );
    if (d.path.length !== pathLength(depth))
      throw new InputError(
        `passability.destinations.${i}.path`,
        `${d.path.length} siblings, tree depth ${depth} takes ${pathLength(depth)}`,
      );
    const salt = toField(d.salt, `passability.destinations.${i}.salt`);
    const path = d.path.map((x, j) => toField(x, `passability.destinations.${i}.path.${j}`));
    if (!verifyPath(h, mapRoot, leafIndex(r.board, to), leafHash(h, d.tile, salt), path)) {
      throw new InputError(
        `passability.destinations.${i}`,
        `${where}: the tile opening does not verify against the map root`,
      );
    }
    cols.destTerrain!.push(s(d.tile.terrain));
    cols.destFeature!.push(s(d.tile.feature));
    cols.destResource!.push(s(d.tile.resource));
    cols.destRivers!.push(s(d.tile.rivers));
    cols.destSalt!.push(s(salt));
    // The levels above depth − k are the circuit's shared top (mapTop).
    paths.push(path.slice(0, pathLength(depth - k)).map(s));
  }
  return { ...cols, destPath: paths, mapTop: top.nodes.map(s) };
}

/**
 * A spawn or turn's commitments: `newCommit` is the play commitment the contract stores
 * (`Poseidon(stateCommit, revealCommit, mapRoot)`, core/state.ts playCommitment); `stateCommit` is the new
 * state's own commitment, which the player shows the dealer (and a dispute) to open `revealCommit`.
 */
export interface PlayCommits {
  newCommit: bigint;
  stateCommit: bigint;
}

export interface TurnPlan extends WitnessPlan, VisionOutputs, PlayCommits {
  /** The stored play commitment the turn starts from. */
  oldCommit: bigint;
}

/** Checks a turn's moves: dead stays dead, nobody vanishes, type and hp fixed, moves within speed. */
export function assertTurnMoves(r: R, oldSlots: Slots, newSlots: Slots): void {
  assertSlots(r, oldSlots);
  assertSlots(r, newSlots);
  for (let i = 0; i < r.unitSlots; i++) {
    const a = oldSlots[i] ?? null;
    const b = newSlots[i] ?? null;
    if (a === null && b !== null)
      throw new InputError(`newUnits.${i}`, `slot ${i} is empty or dead and stays so`);
    if (a === null || b === null) {
      if (a !== null) throw new InputError(`newUnits.${i}`, `${unitLabel(r, i, a)} cannot vanish in a turn`);
      continue;
    }
    if (a.type !== b.type)
      throw new InputError(`newUnits.${i}.type`, `${unitLabel(r, i, a)} cannot change type`);
    if (a.hp !== b.hp)
      throw new InputError(`newUnits.${i}.hp`, `${unitLabel(r, i, a)}: hp changes only in combat`);
    const t = r.unitTypes[a.type]!;
    const speed = t.structure ? 0 : t.speed;
    const d = gridDistance(r.board.kind, a, b);
    if (d > speed) {
      throw new InputError(
        `newUnits.${i}`,
        `${unitLabel(r, i, a)} moved ${d} tiles to (${b.col},${b.row}), speed ${speed}${t.structure ? ' (structure)' : ''}`,
      );
    }
  }
}

/** A player address as a field element: below 2^160. */
function assertAddress(player: bigint): void {
  if (player >= 1n << 160n) throw new InputError('player', `${player} is not a 160-bit address`);
}

export function turnWitness(r: R, h: Hasher, a: TurnArgs): TurnPlan {
  assertAddress(toField(a.player, 'player')); // carried by the caller's transaction, not the proof
  const turn = toField(a.turn, 'turn');
  const oldBlinding = toField(a.oldBlinding, 'oldBlinding');
  const newBlinding = toField(a.newBlinding, 'newBlinding');
  const revealBlinding = toField(a.revealBlinding, 'revealBlinding');
  const mapRoot = toField(a.mapRoot, 'mapRoot');
  assertTurnMoves(r, a.oldSlots, a.newSlots);
  opponentUnion(r, a.oppMasks);
  const reveals = revealInputs(r, a.newSlots, a.revealed);
  const v = visionOutputs(r, h, a.newSlots, a.revealed, revealBlinding, a.oppMasks);
  const oldRevealCommit = toField(a.oldRevealCommit, 'oldRevealCommit');
  const oldCommit = playCommitment(
    h,
    stateCommitment(h, a.oldSlots, r.unitSlots, oldBlinding),
    oldRevealCommit,
    mapRoot,
  );
  const stateCommit = stateCommitment(h, a.newSlots, r.unitSlots, newBlinding);
  const newCommit = playCommitment(h, stateCommit, v.revealCommit, mapRoot);
  const packed = packPlay(r, a.seat, turn, a.oppMasks, v.report);
  const input: CircuitInput = {
    packed: packed.map(s),
    oldCommit: s(oldCommit),
    newCommit: s(newCommit),
    oldBlinding: s(oldBlinding),
    oldWords: packSlots(a.oldSlots, r.unitSlots).map(s),
    oldRevealCommit: s(oldRevealCommit),
    newBlinding: s(newBlinding),
    newWords: packSlots(a.newSlots, r.unitSlots).map(s),
    revealBlinding: s(revealBlinding),
    mapRoot: s(mapRoot),
    ...reveals,
  };
  // No gameId and no map root: the stored oldCommit binds the game and the root (circuits/turn.circom).
  const publicSignals = [...packed, oldCommit, newCommit];
  if (r.provePassability) Object.assign(input, passabilityInputs(r, h, a, mapRoot));
  return { input, publicSignals, oldCommit, newCommit, stateCommit, ...v };
}

export interface SpawnArgs {
  gameId: bigint;
  player: bigint;
  /** Seat index 0..players.max − 1; picks ruleset.startAreas[seat]. */
  seat: number;
  slots: Slots;
  blinding: bigint;
  revealed: readonly Coord[];
  revealBlinding: bigint;
  oppMasks: readonly bigint[];
  /** The game's map root: the spawn binds it into the play commitment (its last public signal). */
  mapRoot: bigint;
}

export interface SpawnPlan extends WitnessPlan, VisionOutputs, PlayCommits {}

/** The spawn slots: slot i holds ruleset.spawn[i] at full hp on positions[i]; the rest empty. */
export function spawnSlots(r: R, positions: readonly Coord[]): (Unit | null)[] {
  if (positions.length !== r.spawn.length) {
    throw new InputError('positions', `${positions.length} positions for ${r.spawn.length} spawn units`);
  }
  const out: (Unit | null)[] = new Array(r.unitSlots).fill(null);
  r.spawn.forEach((name, i) => {
    const type = r.unitTypes.findIndex((t) => t.name === name);
    out[i] = { type, hp: r.unitTypes[type]!.hp, col: positions[i]!.col, row: positions[i]!.row };
  });
  return out;
}

export function assertSpawn(r: R, seat: number, slots: Slots): void {
  if (!Number.isInteger(seat) || seat < 0 || seat >= r.players.max) {
    throw new InputError('seat', `${seat} is not a seat (0..${r.players.max - 1})`);
  }
  assertSlots(r, slots);
  const area = r.startAreas[seat]!;
  for (let i = 0; i < r.unitSlots; i++) {
    const u = slots[i] ?? null;
    if (i >= r.spawn.length) {
      if (u !== null)
        throw new InputError(
          `units.${i}`,
          `slot ${i} must be empty at spawn (${r.spawn.length} spawn units)`,
        );
      continue;
    }
    const want = r.unitTypes.findIndex((t) => t.name === r.spawn[i]);
    if (u === null || u.type !== want)
      throw new InputError(`units.${i}`, `slot ${i} must hold a ${r.spawn[i]}`);
    if (u.hp !== r.unitTypes[want]!.hp)
      throw new InputError(`units.${i}.hp`, `${r.spawn[i]} spawns at full hp ${r.unitTypes[want]!.hp}`);
    if (u.col < area.col0 || u.col > area.col1 || u.row < area.row0 || u.row > area.row1) {
      throw new InputError(
        `units.${i}`,
        `${unitLabel(r, i, u)} is outside start area ${seat} (${area.col0},${area.row0})..(${area.col1},${area.row1})`,
      );
    }
  }
}

export function spawnWitness(r: R, h: Hasher, a: SpawnArgs): SpawnPlan {
  const gameId = toField(a.gameId, 'gameId');
  assertAddress(toField(a.player, 'player')); // carried by the caller's transaction, not the proof
  const blinding = toField(a.blinding, 'blinding');
  const revealBlinding = toField(a.revealBlinding, 'revealBlinding');
  const mapRoot = toField(a.mapRoot, 'mapRoot');
  assertSpawn(r, a.seat, a.slots);
  opponentUnion(r, a.oppMasks);
  const reveals = revealInputs(r, a.slots, a.revealed);
  const v = visionOutputs(r, h, a.slots, a.revealed, revealBlinding, a.oppMasks);
  const stateCommit = stateCommitment(h, a.slots, r.unitSlots, blinding);
  const newCommit = playCommitment(h, stateCommit, v.revealCommit, mapRoot);
  const packed = packPlay(r, a.seat, BigInt(a.seat), a.oppMasks, v.report);
  const input: CircuitInput = {
    packed: packed.map(s),
    gameId: s(gameId),
    newCommit: s(newCommit),
    newBlinding: s(blinding),
    newWords: packSlots(a.slots, r.unitSlots).map(s),
    revealBlinding: s(revealBlinding),
    mapRoot: s(mapRoot),
    ...reveals,
  };
  const publicSignals = [...packed, gameId, newCommit, mapRoot];
  return { input, publicSignals, newCommit, stateCommit, ...v };
}

export interface AttackArgs {
  gameId: bigint;
  player: bigint;
  turn: bigint;
  slots: Slots;
  blinding: bigint;
  /** The reveal commitment bound in the attacker's stored play commitment. */
  revealCommit: bigint;
  /** The map root bound in the attacker's stored play commitment. */
  mapRoot: bigint;
  /** The attacking unit's slot. */
  slot: number;
  target: Coord;
}

export interface AttackPlan extends WitnessPlan {
  /** The attacker's stored play commitment the proof opens. */
  commit: bigint;
  nullifier: bigint;
}

/** `Poseidon(stateBlinding, slot, turn)`: one attack per unit per turn. */
export function attackNullifier(h: Hasher, blinding: bigint, slot: number, turn: bigint): bigint {
  if (!Number.isSafeInteger(slot) || slot < 0) throw new InputError('slot', `not a unit slot: ${slot}`);
  return h.hash([toField(blinding, 'blinding'), BigInt(slot), toField(turn, 'turn')]);
}

export function attackWitness(r: R, h: Hasher, a: AttackArgs): AttackPlan {
  const gameId = toField(a.gameId, 'gameId');
  const player = toField(a.player, 'player');
  const turn = toField(a.turn, 'turn');
  const blinding = toField(a.blinding, 'blinding');
  assertSlots(r, a.slots);
  assertOnBoard(r.board, a.target, 'target');
  const u = a.slots[a.slot];
  if (!Number.isInteger(a.slot) || u === undefined || u === null) {
    throw new InputError('slot', `slot ${a.slot} holds no alive unit`);
  }
  const range = r.unitTypes[u.type]!.attackRange;
  if (range < 1) throw new InputError('slot', `${unitLabel(r, a.slot, u)} cannot attack (attack range 0)`);
  const d = gridDistance(r.board.kind, u, a.target);
  if (d > range) {
    throw new InputError(
      'target',
      `(${a.target.col},${a.target.row}) is ${d} from ${unitLabel(r, a.slot, u)}, range ${range}`,
    );
  }
  const revealCommit = toField(a.revealCommit, 'revealCommit');
  const mapRoot = toField(a.mapRoot, 'mapRoot');
  const commit = playCommitment(h, stateCommitment(h, a.slots, r.unitSlots, blinding), revealCommit, mapRoot);
  const nullifier = attackNullifier(h, blinding, a.slot, turn);
  const target = packTarget(player, turn, a.target);
  const input: CircuitInput = {
    gameId: s(gameId),
    target: s(target),
    commit: s(commit),
    blinding: s(blinding),
    words: packSlots(a.slots, r.unitSlots).map(s),
    revealCommit: s(revealCommit),
    mapRoot: s(mapRoot),
    sel: Array.from({ length: r.unitSlots }, (_, k) => (k === a.slot ? '1' : '0')),
  };
  const publicSignals = [nullifier, gameId, target, commit];
  return { input, publicSignals, commit, nullifier };
}

export interface CombatArgs {
  gameId: bigint;
  player: bigint;
  turn: bigint;
  slots: Slots;
  blinding: bigint;
  /** The reveal commitment bound in the defender's stored play commitment (kept by the answer). */
  revealCommit: bigint;
  /** The map root bound in the defender's stored play commitment (kept by the answer). */
  mapRoot: bigint;
  target: Coord;
  /** Damage dealt, 0..255 (the contract's rule decides it). */
  damage: number;
  /** Which of several own units on the tile takes the hit (default: the lowest slot). */
  slot?: number;
}

export interface CombatPlan extends WitnessPlan, PlayCommits {
  oldCommit: bigint;
  present: boolean;
  unitType: number;
  unitHp: number;
  after: (Unit | null)[];
}

export function combatWitness(r: R, h: Hasher, a: CombatArgs): CombatPlan {
  const gameId = toField(a.gameId, 'gameId');
  const player = toField(a.player, 'player');
  const turn = toField(a.turn, 'turn');
  const blinding = toField(a.blinding, 'blinding');
  assertSlots(r, a.slots);
  if (!onBoard(r.board, a.target))
    throw new InputError('target', `(${a.target.col},${a.target.row}) is off the board`);
  if (!Number.isInteger(a.damage) || a.damage < 0 || a.damage > 255) {
    throw new InputError('damage', `${a.damage} is outside 0..255`);
  }
  const res = resolveCombat(a.slots, a.target, a.damage, a.slot);
  const revealCommit = toField(a.revealCommit, 'revealCommit');
  const mapRoot = toField(a.mapRoot, 'mapRoot');
  const oldCommit = playCommitment(
    h,
    stateCommitment(h, a.slots, r.unitSlots, blinding),
    revealCommit,
    mapRoot,
  );
  const stateCommit = stateCommitment(h, res.after, r.unitSlots, blinding);
  const newCommit = playCommitment(h, stateCommit, revealCommit, mapRoot);
  const target = packCombatTarget(player, turn, a.target, a.damage, res.present, res.unitType, res.unitHp);
  const input: CircuitInput = {
    gameId: s(gameId),
    target: s(target),
    oldCommit: s(oldCommit),
    blinding: s(blinding),
    words: packSlots(a.slots, r.unitSlots).map(s),
    revealCommit: s(revealCommit),
    mapRoot: s(mapRoot),
    sel: Array.from({ length: r.unitSlots }, (_, k) => (res.present && k === res.slot ? '1' : '0')),
  };
  const publicSignals = [newCommit, gameId, target, oldCommit];
  return {
    input,
    publicSignals,
    oldCommit,
    newCommit,
    stateCommit,
    present: res.present,
    unitType: res.unitType,
    unitHp: res.unitHp,
    after: res.after,
  };
}

/**
 * Witness-level guard: every circuit input must be a canonical field element. circom's witness
 * calculator silently reduces values mod p, so p + x would alias x; the prover calls this first.
 */
export function assertCanonicalInput(input: CircuitInput): void {
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string') {
      toField(v, k);
      continue;
    }
    for (let i = 0; i < v.length; i++) {
      const x = v[i]!;
      if (typeof x === 'string') toField(x, `${k}.${i}`);
      else for (let j = 0; j < x.length; j++) toField(x[j]!, `${k}.${i}.${j}`);
    }
  }
}
