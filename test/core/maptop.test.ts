import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  type Board,
  buildTree,
  FIELD_MODULUS,
  type Hasher,
  InputError,
  loadHasher,
  mapNodesAt,
  mapTop,
  mapTopCost,
  mapTopLevels,
  mobileSlots,
  shippedRuleset,
  validateRuleset,
  ZONE_DEPTH,
} from '../../core/index.ts';

let h: Hasher;
before(async () => {
  h = await loadHasher();
});

const board = (name: string, patch: Record<string, unknown> = {}): Board => {
  const { board: _b, ...plain } = shippedRuleset(name);
  return validateRuleset({ ...structuredClone(plain), ...patch }).board;
};

describe('shared top of the map tree (passability)', () => {
  test('top height per shipped ruleset, minimising the estimate', () => {
    for (const [name, k] of [
      ['tiny', 1],
      ['duel', 2],
      ['standard', 2],
    ] as const) {
      const r = shippedRuleset(name);
      // One opening per mobile spawn slot (core/witness/maptop.ts mobileSlots).
      const n = mobileSlots(r).length;
      assert.equal(mapTopLevels(r.board, n), k, name);
      for (let j = 0; j <= r.board.depth - ZONE_DEPTH; j++)
        assert.ok(mapTopCost(r.board, n, k) <= mapTopCost(r.board, n, j), `${name} k=${j}`);
    }
    // One slot gains at most the root's level from a shared top (a Poseidon(4) shared or on its path costs the
    // same); k stays within the zone levels.
    assert.ok(mapTopLevels(board('standard'), 1) <= 1);
    assert.ok(mapTopLevels(board('standard'), 10_000) <= board('standard').depth - ZONE_DEPTH);
  });

  test('top nodes and root equal the full tree over the zone-major leaves, for every k', () => {
    const boards = [
      board('tiny'),
      board('tiny', { grid: { kind: 'hex', width: 24, height: 12, zoneSize: 8 } }),
      board('duel'),
    ];
    for (const b of boards) {
      const leaves = Array.from({ length: b.zoneCount * 64 }, (_, i) => BigInt(i * 7919 + 1));
      const tree = buildTree(h, leaves, b.depth);
      const zoneRoots = tree.levels[ZONE_DEPTH]!.slice(0, b.zoneCount);
      for (let k = 0; k <= b.depth - ZONE_DEPTH; k++) {
        const L = b.depth - k;
        const top = mapTop(h, b, zoneRoots, k);
        assert.equal(top.root, tree.root);
        assert.equal(top.nodes.length, mapNodesAt(b, L));
        assert.deepEqual(
          top.nodes,
          tree.levels[L]!.slice(0, top.nodes.length),
          `${b.zoneCount} zones, k=${k}`,
        );
        // Every later node at that height is an all-zero subtree.
        const rest = tree.levels[L]!.slice(top.nodes.length);
        assert.ok(rest.every((v) => v === tree.zeros[L]));
      }
    }
  });

  test('wrong zone roots fail with an InputError naming the field', () => {
    const b = board('tiny');
    const ok = [1n, 2n, 3n, 4n];
    const fails = (f: () => unknown, field: string) =>
      assert.throws(f, (e) => e instanceof InputError && e.field === field);
    fails(() => mapTop(h, b, ok.slice(1), 2, 'passability.zoneRoots'), 'passability.zoneRoots');
    fails(
      () => mapTop(h, b, [1n, FIELD_MODULUS, 3n, 4n], 1, 'passability.zoneRoots'),
      'passability.zoneRoots.1',
    );
    fails(() => mapTop(h, b, ok, 2), 'k');
  });
});
