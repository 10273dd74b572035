import { InputError } from './errors.ts';
import { FIELD_MODULUS, toField } from './field.ts';
import type { Hasher } from './poseidon.ts';

/** Binary Poseidon tree, `levels[0]` the leaves and `levels[depth]` the root; absent nodes are zero hashes. */
export interface MerkleTree {
  readonly depth: number;
  readonly levels: readonly (readonly bigint[])[];
  readonly zeros: readonly bigint[];
  readonly root: bigint;
}

const zeroCache = new WeakMap<Hasher, bigint[]>();

/** `zeros[0] = 0`, `zeros[k+1] = H(zeros[k], zeros[k])`: the root of an empty subtree of height k. */
export function zeroHashes(h: Hasher, depth: number): readonly bigint[] {
  let z = zeroCache.get(h);
  if (!z) zeroCache.set(h, (z = [0n]));
  while (z.length <= depth) z.push(h.hash([z[z.length - 1]!, z[z.length - 1]!]));
  return z;
}

/**
 * Builds the tree over `leaves` (padded on the right with zeros to 2^depth). Pairs of empty
 * subtrees take their precomputed zero hash, so only real nodes cost a hash. A leaf ≥ p or negative
 * is refused (InputError `leaves.<i>`), never reduced.
 */
export function buildTree(h: Hasher, leaves: readonly bigint[], depth: number): MerkleTree {
  if (leaves.length > 2 ** depth)
    throw new InputError('leaves', `${leaves.length} leaves do not fit depth ${depth}`);
  const zeros = zeroHashes(h, depth);
  const levels: bigint[][] = [leaves.map((l, i) => toField(l, `leaves.${i}`))];
  for (let k = 0; k < depth; k++) {
    const below = levels[k]!;
    const zk = zeros[k]!;
    const above: bigint[] = new Array(Math.ceil(below.length / 2));
    for (let i = 0; i < above.length; i++) {
      const l = below[2 * i]!;
      const r = 2 * i + 1 < below.length ? below[2 * i + 1]! : zk;
      above[i] = l === zk && r === zk ? zeros[k + 1]! : h.hash([l, r]);
    }
    levels.push(above);
  }
  const top = levels[depth]!;
  return { depth, levels, zeros, root: top.length > 0 ? top[0]! : zeros[depth]! };
}

/** Sibling hashes from the leaf up to just below the root. */
export function merklePath(tree: MerkleTree, index: number): bigint[] {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** tree.depth) {
    throw new InputError('leafIndex', `${index} is outside a depth-${tree.depth} tree`);
  }
  const path: bigint[] = [];
  for (let k = 0; k < tree.depth; k++) {
    const sib = (index >> k) ^ 1;
    const level = tree.levels[k]!;
    path.push(sib < level.length ? level[sib]! : tree.zeros[k]!);
  }
  return path;
}

/**
 * Recomputes the root from a leaf and its path; the index bits choose left or right at each level. A leaf or
 * sibling ≥ p or negative is refused (InputError `leaf` or `path.<k>`): reduced, it would hash like another.
 */
export function rootFromPath(h: Hasher, index: number, leaf: bigint, path: readonly bigint[]): bigint {
  let node = toField(leaf, 'leaf');
  for (let k = 0; k < path.length; k++) {
    const sib = toField(path[k]!, `path.${k}`);
    node = (index >> k) & 1 ? h.hash([sib, node]) : h.hash([node, sib]);
  }
  return node;
}

const inField = (v: bigint): boolean => typeof v === 'bigint' && v >= 0n && v < FIELD_MODULUS;

/**
 * Whether `leaf` sits at `index` under `root`. False, never a throw, for an index outside the path's tree and
 * for any word (root, leaf, sibling) outside the field: the contract refuses such an opening (`NotInField`)
 * even when its values reduced mod p would hash to the root.
 */
export function verifyPath(
  h: Hasher,
  root: bigint,
  index: number,
  leaf: bigint,
  path: readonly bigint[],
): boolean {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** path.length) return false;
  if (!inField(root) || !inField(leaf) || !path.every(inField)) return false;
  return rootFromPath(h, index, leaf, path) === root;
}
