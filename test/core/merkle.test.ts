import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildPoseidonReference } from 'circomlibjs';
import {
  buildTree,
  commitMap,
  countingHasher,
  generateMap,
  type Hasher,
  leafCoord,
  leafHash,
  loadHasher,
  merklePath,
  rootFromPath,
  shippedRuleset,
  tileSalt,
  verifyPath,
  zeroHashes,
} from '../../core/index.ts';

let h: Hasher;
let reference: Hasher;

before(async () => {
  h = await loadHasher();
  const p = await buildPoseidonReference();
  reference = { hash: (xs) => p.F.toObject(p(xs as bigint[])) as bigint };
});

/** Independent tree: naive recursion over all 2^depth leaves, with circomlibjs' pure-JS reference Poseidon. */
function naiveRoot(hh: Hasher, leaves: readonly bigint[], depth: number, lo = 0): bigint {
  if (depth === 0) return leaves[lo] ?? 0n;
  const half = 2 ** (depth - 1);
  return hh.hash([naiveRoot(hh, leaves, depth - 1, lo), naiveRoot(hh, leaves, depth - 1, lo + half)]);
}

describe('merkle tree', () => {
  test('matches an independent implementation on the tiny map', () => {
    const r = shippedRuleset('tiny');
    const tiles = generateMap(h, r.board, 42n);
    const { tree, salts } = commitMap(h, r.board, tiles, 7n);
    assert.equal(tree.depth, 8);
    // Rebuild every leaf from scratch with the reference hasher, zone-major, zeros off the board.
    const leaves: bigint[] = [];
    for (let i = 0; i < 2 ** r.board.depth; i++) {
      const c = leafCoord(r.board, i);
      if (c === null) {
        leaves.push(0n);
        continue;
      }
      const salt = tileSalt(reference, 7n, i);
      assert.equal(salts[i], salt, `salt ${i}`);
      leaves.push(leafHash(reference, tiles[c.row * r.board.width + c.col]!, salt));
    }
    assert.equal(tree.root, naiveRoot(reference, leaves, r.board.depth));
  });

  test('paths verify for every leaf, and fail for a wrong leaf, index or sibling', () => {
    const leaves = Array.from({ length: 37 }, (_, i) => BigInt(i * 1000 + 1));
    const tree = buildTree(h, leaves, 6);
    for (let i = 0; i < 64; i++) {
      const path = merklePath(tree, i);
      const leaf = leaves[i] ?? 0n;
      assert.ok(verifyPath(h, tree.root, i, leaf, path), `leaf ${i}`);
      assert.ok(!verifyPath(h, tree.root, i, leaf + 1n, path));
      assert.ok(!verifyPath(h, tree.root, i ^ 1, leaf, path) || (leaves[i ^ 1] ?? 0n) === leaf);
      const bad = path.slice();
      bad[3] = bad[3]! + 1n;
      assert.ok(!verifyPath(h, tree.root, i, leaf, bad));
    }
    assert.ok(!verifyPath(h, tree.root, 64, 0n, merklePath(tree, 0)), 'index beyond the tree');
  });

  test('empty subtrees use precomputed zero hashes: no hashing for absent zones', () => {
    const ch = countingHasher(h);
    zeroHashes(ch, 20);
    const before = ch.total();
    const t = buildTree(ch, [5n, 6n], 12);
    assert.equal(ch.total() - before, 12, 'one hash per level on the left spine');
    assert.equal(t.root, naiveRoot(h, [5n, 6n], 12));
  });

  test('rejects leaves that do not fit and out-of-range path indices', () => {
    assert.throws(() => buildTree(h, new Array(5).fill(0n), 2), /leaves/);
    const t = buildTree(h, [1n], 3);
    assert.throws(() => merklePath(t, 8), /leafIndex/);
    assert.throws(() => merklePath(t, -1), /leafIndex/);
  });

  test('rootFromPath orders children by the index bits', () => {
    const a = 11n;
    const b = 22n;
    assert.equal(rootFromPath(h, 0, a, [b]), h.hash([a, b]));
    assert.equal(rootFromPath(h, 1, a, [b]), h.hash([b, a]));
  });
});
