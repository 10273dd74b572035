import { InputError } from './errors.ts';
import { FIELD_MODULUS, toField } from './field.ts';
import type { Hasher } from './poseidon.ts';

/**
 * Children per node of the map tree (Solidity `ShroudTiles.ARITY`, circuits/lib/merkle.circom `treeArity`).
 * Poseidon(4) costs the zone circuit 300 full-width wires against 243 for Poseidon(2), but a zone's 64 leaves
 * take 21 of them instead of 63 (and a path climbs half the levels); proving time follows the full-width wires.
 */
export const TREE_ARITY = 4;
/** Siblings per level of a Merkle path. */
export const LEVEL_SIBLINGS = TREE_ARITY - 1;

/** Words of a Merkle path through `depth` levels: the siblings of each level, lowest level first. */
export const pathLength = (depth: number): number => depth * LEVEL_SIBLINGS;

/** Leaf slots of a tree of `depth` levels. */
export const treeLeaves = (depth: number): number => TREE_ARITY ** depth;

/** Levels of the smallest tree with at least `n` leaves (or nodes at its bottom). */
export function levelsFor(n: number): number {
  let d = 0;
  while (treeLeaves(d) < n) d++;
  return d;
}

/** `TREE_ARITY`-ary Poseidon tree, `levels[0]` the leaves and `levels[depth]` the root; absent nodes are zero hashes. */
export interface MerkleTree {
  readonly depth: number;
  readonly levels: readonly (readonly bigint[])[];
  readonly zeros: readonly bigint[];
  readonly root: bigint;
}

const zeroCache = new WeakMap<Hasher, bigint[]>();

/** `zeros[0] = 0`, `zeros[k+1] = H(zeros[k], …, zeros[k])`: the root of an empty subtree of height k. */
export function zeroHashes(h: Hasher, depth: number): readonly bigint[] {
  let z = zeroCache.get(h);
  if (!z) zeroCache.set(h, (z = [0n]));
  while (z.length <= depth) z.push(h.hash(new Array(TREE_ARITY).fill(z[z.length - 1]!)));
  return z;
}

/**
 * The parent level over `below` (padded on the right with `zero`, the empty subtree one level down): one hash per
 * `TREE_ARITY` children, or `zeroAbove` when every child is empty.
 */
export function parentLevel(h: Hasher, below: readonly bigint[], zero: bigint, zeroAbove: bigint): bigint[] {
  const above: bigint[] = new Array(Math.ceil(below.length / TREE_ARITY));
  for (let i = 0; i < above.length; i++) {
    const children = Array.from({ length: TREE_ARITY }, (_, j) => below[TREE_ARITY * i + j] ?? zero);
    above[i] = children.every((c) => c === zero) ? zeroAbove : h.hash(children);
  }
  return above;
}

/**
 * Builds the tree over `leaves` (padded on the right with zeros to TREE_ARITY^depth). Groups of empty subtrees
 * take their precomputed zero hash, so only real nodes cost a hash. A leaf ≥ p or negative is refused
 * (InputError `leaves.<i>`), never reduced.
 */
export function buildTree(h: Hasher, leaves: readonly bigint[], depth: number): MerkleTree {
  if (leaves.length > treeLeaves(depth))
    throw new InputError('leaves', `${leaves.length} leaves do not fit depth ${depth}`);
  const zeros = zeroHashes(h, depth);
  const levels: bigint[][] = [leaves.map((l, i) => toField(l, `leaves.${i}`))];
  for (let k = 0; k < depth; k++) levels.push(parentLevel(h, levels[k]!, zeros[k]!, zeros[k + 1]!));
  const top = levels[depth]!;
  return { depth, levels, zeros, root: top.length > 0 ? top[0]! : zeros[depth]! };
}

/** A node's position among its siblings at level `k` (0 = the leaves' level). */
const positionAt = (index: number, k: number): number => Math.floor(index / TREE_ARITY ** k) % TREE_ARITY;

/** The siblings of each level from the leaf up to just below the root, in child order (the node's own slot skipped). */
export function merklePath(tree: MerkleTree, index: number): bigint[] {
  if (!Number.isInteger(index) || index < 0 || index >= treeLeaves(tree.depth)) {
    throw new InputError('leafIndex', `${index} is outside a depth-${tree.depth} tree`);
  }
  const path: bigint[] = [];
  for (let k = 0; k < tree.depth; k++) {
    const node = Math.floor(index / TREE_ARITY ** k);
    const first = node - positionAt(index, k);
    const level = tree.levels[k]!;
    for (let j = first; j < first + TREE_ARITY; j++) {
      if (j !== node) path.push(j < level.length ? level[j]! : tree.zeros[k]!);
    }
  }
  return path;
}

/**
 * Recomputes the root from a leaf and its path; the index's base-TREE_ARITY digits place the node among its
 * siblings at each level. A leaf or sibling ≥ p or negative is refused (InputError `leaf` or `path.<k>`): reduced,
 * it would hash like another; so is a path that is not whole levels (InputError `path`).
 */
export function rootFromPath(h: Hasher, index: number, leaf: bigint, path: readonly bigint[]): bigint {
  if (path.length % LEVEL_SIBLINGS !== 0)
    throw new InputError(
      'path',
      `${path.length} siblings is not a whole number of ${LEVEL_SIBLINGS}-sibling levels`,
    );
  let node = toField(leaf, 'leaf');
  for (let k = 0; k < path.length / LEVEL_SIBLINGS; k++) {
    const siblings = path
      .slice(k * LEVEL_SIBLINGS, (k + 1) * LEVEL_SIBLINGS)
      .map((s, j) => toField(s, `path.${k * LEVEL_SIBLINGS + j}`));
    siblings.splice(positionAt(index, k), 0, node);
    node = h.hash(siblings);
  }
  return node;
}

const inField = (v: bigint): boolean => typeof v === 'bigint' && v >= 0n && v < FIELD_MODULUS;

/**
 * Whether `leaf` sits at `index` under `root`. False, never a throw, for an index outside the path's tree, a path
 * that is not whole levels, and any word (root, leaf, sibling) outside the field: the contract refuses such an
 * opening (`NotInField`) even when its values reduced mod p would hash to the root.
 */
export function verifyPath(
  h: Hasher,
  root: bigint,
  index: number,
  leaf: bigint,
  path: readonly bigint[],
): boolean {
  if (path.length % LEVEL_SIBLINGS !== 0) return false;
  const levels = path.length / LEVEL_SIBLINGS;
  if (!Number.isInteger(index) || index < 0 || index >= treeLeaves(levels)) return false;
  if (!inField(root) || !inField(leaf) || !path.every(inField)) return false;
  return rootFromPath(h, index, leaf, path) === root;
}
