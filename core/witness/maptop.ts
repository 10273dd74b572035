/**
 * The shared top of the map tree in the passability proof (circuits/lib/passable.circom). The turn
 * circuit takes the real nodes at height depth − k ("top nodes") as a private input, hashes them
 * once to the map root, and each moving unit proves only depth − k levels from its leaf to the top
 * node its index selects. The top nodes follow from the public zone roots, so anyone can supply
 * them. Pure: the circuit generator and the witness builder share it.
 */

import { InputError } from '../errors.ts';
import { toField } from '../field.ts';
import { type Board, ZONE_DEPTH, ZONE_LEAVES } from '../geometry.ts';
import { parentLevel, treeLeaves, zeroHashes } from '../merkle.ts';
import type { Hasher } from '../poseidon.ts';

/**
 * The slots that may move under passability (circuits/turn_pass.circom MSLOT): spawn puts unit
 * `spawn[i]` in slot i and a slot's type never changes, so only the spawn slots of a type with
 * speed > 0 ever move; every other slot holds a structure or stays empty. Each carries one
 * destination opening in the turn proof; the circuit holds every other slot in place.
 */
export function mobileSlots(r: {
  spawn: readonly string[];
  unitTypes: readonly { name: string; speed: number }[];
}): number[] {
  const out: number[] = [];
  r.spawn.forEach((name, i) => {
    if ((r.unitTypes.find((u) => u.name === name)?.speed ?? 0) > 0) out.push(i);
  });
  return out;
}

/** Nodes at `height` that cover a real leaf (circuit `mapNodesAt`); later ones are zero subtrees. */
export function mapNodesAt(b: Board, height: number): number {
  return Math.ceil((b.zoneCount * ZONE_LEAVES) / treeLeaves(height));
}

/** Real nodes above height depth − k up to the root: MapTop's hashes and each slot's selects. */
function upperNodes(b: Board, k: number): number {
  let n = 0;
  for (let j = 1; j <= k; j++) n += mapNodesAt(b, b.depth - k + j);
  return n;
}

/** circomlib Poseidon(4), in constraints (--O2). */
const POSEIDON4 = 297;
/** A path level places the node among its siblings (lib/merkle.circom MerkleRoot): 7 constraints. */
const PLACE = 7;
/** Selecting one of 4 entries with two index bits (lib/passable.circom): 3 constraints per real parent. */
const SELECT = 3;

/**
 * Estimated passability constraints that depend on k: the shared hashes, then per slot the
 * depth − k path levels and the top-node multiplexer.
 */
export function mapTopCost(b: Board, slots: number, k: number): number {
  const up = upperNodes(b, k);
  return POSEIDON4 * up + slots * ((b.depth - k) * (POSEIDON4 + PLACE) + SELECT * up);
}

/**
 * The shared top height k (0 ≤ k ≤ zone bits) minimising `mapTopCost`; the smallest on ties. The
 * generator passes it to TurnPass as TK, and the witness builder cuts paths to depth − k.
 */
export function mapTopLevels(b: Board, slots: number): number {
  let best = 0;
  for (let k = 1; k <= b.depth - ZONE_DEPTH; k++) {
    if (mapTopCost(b, slots, k) < mapTopCost(b, slots, best)) best = k;
  }
  return best;
}

/**
 * The real nodes at height depth − k, and the root, from the zone roots (zero subtrees past the
 * last zone, as core/maptree.ts builds the tree). Throws an InputError naming `field` on a wrong
 * count or a non-field value.
 */
export function mapTop(
  h: Hasher,
  b: Board,
  zoneRoots: readonly bigint[],
  k: number,
  field = 'zoneRoots',
): { nodes: bigint[]; root: bigint } {
  if (zoneRoots.length !== b.zoneCount)
    throw new InputError(field, `${zoneRoots.length} zone roots, the board has ${b.zoneCount} zones`);
  if (!Number.isInteger(k) || k < 0 || k > b.depth - ZONE_DEPTH)
    throw new InputError('k', `${k} is not a top height for depth ${b.depth}`);
  const zeros = zeroHashes(h, b.depth);
  let level = zoneRoots.map((z, i) => toField(z, `${field}.${i}`));
  let nodes = b.depth - ZONE_DEPTH === k ? level : [];
  for (let height = ZONE_DEPTH; height < b.depth; height++) {
    level = parentLevel(h, level, zeros[height]!, zeros[height + 1]!);
    if (height + 1 === b.depth - k) nodes = level;
  }
  return { nodes, root: level[0] ?? zeros[b.depth]! };
}
