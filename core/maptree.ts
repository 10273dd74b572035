import { leafHash, tileSalt } from './commitments.ts';
import { toField } from './field.ts';
import { type Board, leafIndex, ZONE_LEAVES } from './geometry.ts';
import { buildTree, type MerkleTree } from './merkle.ts';
import type { Hasher } from './poseidon.ts';
import type { Tile } from './tile.ts';

/** The dealer's committed map: salted leaves in zone-major order and their tree. */
export interface MapCommitment {
  tree: MerkleTree;
  /** Salt per zone-major leaf index; 0 for the off-board slots of edge zones. */
  salts: readonly bigint[];
}

/**
 * Salts and leaves for every on-board tile (given row-major), then the tree; off-board slots stay 0. A master
 * secret ≥ p or negative is refused (InputError `masterSecret`), never reduced.
 */
export function commitMap(h: Hasher, b: Board, tiles: readonly Tile[], masterSecret: bigint): MapCommitment {
  const secret = toField(masterSecret, 'masterSecret');
  return commitWithSalts(h, b, tiles, (i) => tileSalt(h, secret, i));
}

/**
 * The open map's tree (after force-open): `Gen(seed)` with every salt 0, which anyone can recompute from the
 * public seed. Passability proofs of a force-opened game open against its root (`ShroudGame.proposeOpenRoot`).
 */
export function commitOpenMap(h: Hasher, b: Board, tiles: readonly Tile[]): MapCommitment {
  return commitWithSalts(h, b, tiles, () => 0n);
}

function commitWithSalts(
  h: Hasher,
  b: Board,
  tiles: readonly Tile[],
  saltOf: (leaf: number) => bigint,
): MapCommitment {
  const n = b.zoneCount * ZONE_LEAVES;
  const leaves: bigint[] = new Array(n).fill(0n);
  const salts: bigint[] = new Array(n).fill(0n);
  for (let row = 0; row < b.height; row++) {
    for (let col = 0; col < b.width; col++) {
      const i = leafIndex(b, { col, row });
      const salt = saltOf(i);
      salts[i] = salt;
      leaves[i] = leafHash(h, tiles[row * b.width + col]!, salt);
    }
  }
  return { tree: buildTree(h, leaves, b.depth), salts };
}
