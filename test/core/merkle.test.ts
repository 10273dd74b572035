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
  pathLength,
  rootFromPath,
  shippedRuleset,
  TREE_ARITY,
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

/** Independent tree: naive recursion over all 4^depth leaves, with circomlibjs' pure-JS reference Poseidon. */
function naiveRoot(hh: Hasher, leaves: readonly bigint[], depth: number, lo = 0): bigint {
  if (depth === 0) return leaves[lo] ?? 0n;
  const quarter = 4 ** (depth - 1);
  return hh.hash([0, 1, 2, 3].map((j) => naiveRoot(hh, leaves, depth - 1, lo + j * quarter)));
}

describe('merkle tree', () => {
  test('matches an independent implementation on the tiny map', () => {
    const r = shippedRuleset('tiny');
    const tiles = generateMap(h, r.board, 42n);
    const { tree, salts } = commitMap(h, r.board, tiles, 7n);
    assert.equal(TREE_ARITY, 4);
    assert.equal(tree.depth, 4, '4 zones: 3 levels per zone and one above');
    // Rebuild every leaf from scratch with the reference hasher, zone-major, zeros off the board.
    const leaves: bigint[] = [];
    for (let i = 0; i < 4 ** r.board.depth; i++) {
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
    const tree = buildTree(h, leaves, 3);
    for (let i = 0; i < 64; i++) {
      const path = merklePath(tree, i);
      assert.equal(path.length, pathLength(3));
      const leaf = leaves[i] ?? 0n;
      assert.ok(verifyPath(h, tree.root, i, leaf, path), `leaf ${i}`);
      assert.ok(!verifyPath(h, tree.root, i, leaf + 1n, path));
      // Every other slot among its siblings, with the same path: only a sibling of equal value may pass.
      for (let j = 1; j < 4; j++) {
        const other = (i & ~3) | ((i + j) & 3);
        assert.ok(!verifyPath(h, tree.root, other, leaf, path) || (leaves[other] ?? 0n) === leaf);
      }
      for (const k of [0, 4, 8]) {
        const bad = path.slice();
        bad[k] = bad[k]! + 1n;
        assert.ok(!verifyPath(h, tree.root, i, leaf, bad), `sibling ${k}`);
      }
    }
    assert.ok(!verifyPath(h, tree.root, 64, 0n, merklePath(tree, 0)), 'index beyond the tree');
    assert.ok(!verifyPath(h, tree.root, 0, leaves[0]!, merklePath(tree, 0).slice(1)), 'not whole levels');
  });

  test('empty subtrees use precomputed zero hashes: no hashing for absent zones', () => {
    const ch = countingHasher(h);
    zeroHashes(ch, 20);
    const before = ch.total();
    const t = buildTree(ch, [5n, 6n], 6);
    assert.equal(ch.total() - before, 6, 'one hash per level on the left spine');
    assert.equal(t.root, naiveRoot(h, [5n, 6n], 6));
  });

  test('rejects leaves that do not fit and out-of-range path indices', () => {
    assert.throws(() => buildTree(h, new Array(17).fill(0n), 2), /leaves/);
    const t = buildTree(h, [1n], 2);
    assert.throws(() => merklePath(t, 16), /leafIndex/);
    assert.throws(() => merklePath(t, -1), /leafIndex/);
  });

  test('rootFromPath puts the node at the slot its two index bits name, siblings around it in order', () => {
    const [n, a, b, c] = [11n, 22n, 33n, 44n];
    assert.equal(rootFromPath(h, 0, n, [a, b, c]), h.hash([n, a, b, c]));
    assert.equal(rootFromPath(h, 1, n, [a, b, c]), h.hash([a, n, b, c]));
    assert.equal(rootFromPath(h, 2, n, [a, b, c]), h.hash([a, b, n, c]));
    assert.equal(rootFromPath(h, 3, n, [a, b, c]), h.hash([a, b, c, n]));
    // Level 1 reads bits 2 and 3.
    const low = h.hash([a, b, n, c]);
    assert.equal(rootFromPath(h, 2 + 4 * 3, n, [a, b, c, a, b, c]), h.hash([a, b, c, low]));
    assert.throws(() => rootFromPath(h, 0, n, [a, b]), { name: 'InputError', message: /^path:/ });
  });
});
