import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import {
  assertOnBoard,
  type Board,
  type Coord,
  chebyshevDistance,
  edgeCount,
  edgeNeighbours,
  edgeOffset,
  euclideanDistanceSquared,
  gridDistance,
  hexDistance,
  leafCoord,
  leafIndex,
  makeBoard,
  neighbours,
  onBoard,
  oppositeEdge,
  tileCoord,
  tileIndex,
  tilesInRange,
  toCube,
  withinRadius,
  ZONE_LEAVES,
  ZONE_SIZE,
  zoneOf,
  zoneTiles,
} from '../../core/geometry.ts';
import { MAX_BOARD_SIDE, MAX_ZONES } from '../../core/limits.ts';
import type { GridKind } from '../../core/ruleset/types.ts';

const SIZES: readonly (readonly [number, number])[] = [
  [1, 1],
  [3, 5],
  [9, 7],
  [17, 10],
];
const KINDS: readonly GridKind[] = ['hex', 'square'];
const METRICS = ['hex', 'chebyshev', 'euclidean'] as const;
/** Largest board above: distance tables cover every pair on it. */
const MAX_W = 17;
const MAX_H = 10;

function allTiles(b: Board): Coord[] {
  const out: Coord[] = [];
  for (let row = 0; row < b.height; row++) for (let col = 0; col < b.width; col++) out.push({ col, row });
  return out;
}

const key = (c: Coord): string => `${c.col},${c.row}`;

/**
 * Grid distances for every pair of tiles in MAX_W×MAX_H, by breadth-first search over `neighbours`
 * on a board with a margin around it, so the border never forces a detour. The margin is even so
 * hex row parity (and thus the odd-r shift) is preserved.
 */
function bfsTable(kind: GridKind): number[][] {
  const margin = 6;
  const big = makeBoard(kind, MAX_W + 2 * margin, MAX_H + 2 * margin);
  const n = MAX_W * MAX_H;
  const table: number[][] = [];
  for (let s = 0; s < n; s++) {
    const src = { col: (s % MAX_W) + margin, row: Math.floor(s / MAX_W) + margin };
    const dist = new Map<string, number>([[key(src), 0]]);
    const queue: Coord[] = [src];
    for (let i = 0; i < queue.length; i++) {
      const c = queue[i]!;
      for (const nb of neighbours(big, c)) {
        if (!dist.has(key(nb))) {
          dist.set(key(nb), dist.get(key(c))! + 1);
          queue.push(nb);
        }
      }
    }
    const row: number[] = [];
    for (let t = 0; t < n; t++) {
      row.push(dist.get(`${(t % MAX_W) + margin},${Math.floor(t / MAX_W) + margin}`)!);
    }
    table.push(row);
  }
  return table;
}

const HEX_BFS = bfsTable('hex');
const KING_BFS = bfsTable('square');
const at = (table: number[][], a: Coord, b: Coord): number =>
  table[a.row * MAX_W + a.col]![b.row * MAX_W + b.col]!;

/** Brute-force distance predicate per metric, independent of `withinRadius`. */
function bruteWithin(model: (typeof METRICS)[number], a: Coord, b: Coord, radius: number): boolean {
  if (model === 'hex') return at(HEX_BFS, a, b) <= radius;
  if (model === 'chebyshev') return at(KING_BFS, a, b) <= radius;
  return (a.col - b.col) ** 2 + (a.row - b.row) ** 2 <= radius ** 2;
}

function forEachBoard(fn: (b: Board) => void): void {
  for (const kind of KINDS) for (const [w, h] of SIZES) fn(makeBoard(kind, w, h));
}

function throwsField(fn: () => unknown, field: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof InputError, `expected InputError, got ${String(e)}`);
    assert.equal(e.field, field);
    return true;
  });
}

test('the BFS tables are real distances (sanity of the oracle)', () => {
  const o = { col: 0, row: 0 };
  assert.equal(at(HEX_BFS, o, o), 0);
  assert.equal(at(HEX_BFS, o, { col: 16, row: 0 }), 16);
  assert.equal(at(KING_BFS, o, { col: 5, row: 9 }), 9);
  // Odd-r: from an even row, stepping down-right stays in the same column; down-left goes one left.
  assert.equal(at(HEX_BFS, { col: 3, row: 0 }, { col: 3, row: 1 }), 1);
  assert.equal(at(HEX_BFS, { col: 3, row: 0 }, { col: 2, row: 1 }), 1);
  assert.equal(at(HEX_BFS, { col: 3, row: 0 }, { col: 4, row: 1 }), 2);
  assert.equal(at(HEX_BFS, { col: 3, row: 1 }, { col: 4, row: 0 }), 1);
  assert.equal(at(HEX_BFS, { col: 3, row: 1 }, { col: 2, row: 0 }), 2);
});

test('hexDistance agrees with BFS over hex neighbours for every pair', () => {
  const b = makeBoard('hex', MAX_W, MAX_H);
  for (const p of allTiles(b)) {
    for (const q of allTiles(b)) assert.equal(hexDistance(p, q), at(HEX_BFS, p, q), `${key(p)} → ${key(q)}`);
  }
});

test('hexDistance agrees with BFS confined to the board itself (odd-r rectangles are geodesically convex)', () => {
  for (const [w, h] of SIZES) {
    const b = makeBoard('hex', w, h);
    for (const p of allTiles(b)) {
      const dist = new Map<string, number>([[key(p), 0]]);
      const queue = [p];
      for (let i = 0; i < queue.length; i++) {
        for (const nb of neighbours(b, queue[i]!)) {
          if (!dist.has(key(nb))) {
            dist.set(key(nb), dist.get(key(queue[i]!))! + 1);
            queue.push(nb);
          }
        }
      }
      for (const q of allTiles(b))
        assert.equal(dist.get(key(q)), hexDistance(p, q), `${w}×${h} ${key(p)} → ${key(q)}`);
    }
  }
});

test('chebyshevDistance agrees with BFS over king moves on squares', () => {
  const b = makeBoard('square', MAX_W, MAX_H);
  for (const p of allTiles(b)) {
    for (const q of allTiles(b))
      assert.equal(chebyshevDistance(p, q), at(KING_BFS, p, q), `${key(p)} → ${key(q)}`);
  }
});

test('gridDistance picks the grid metric', () => {
  const a = { col: 0, row: 0 };
  const b = { col: 3, row: 4 };
  assert.equal(gridDistance('hex', a, b), hexDistance(a, b));
  assert.equal(gridDistance('square', a, b), 4);
  assert.notEqual(hexDistance(a, b), 4);
});

test('euclideanDistanceSquared is the exact integer square of the straight-line distance', () => {
  const b = makeBoard('square', 9, 7);
  for (const p of allTiles(b)) {
    for (const q of allTiles(b)) {
      const d2 = euclideanDistanceSquared(p, q);
      assert.ok(Number.isInteger(d2));
      assert.equal(d2, Math.round(Math.hypot(p.col - q.col, p.row - q.row) ** 2));
    }
  }
  assert.equal(euclideanDistanceSquared({ col: 1, row: 2 }, { col: 4, row: 6 }), 25);
});

test('distances are symmetric, zero only on the diagonal, and obey the triangle inequality', () => {
  const b = makeBoard('square', 9, 7);
  const tiles = allTiles(b);
  const metrics: [string, (p: Coord, q: Coord) => number][] = [
    ['hex', hexDistance],
    ['chebyshev', chebyshevDistance],
    ['euclidean', (p, q) => Math.sqrt(euclideanDistanceSquared(p, q))],
  ];
  for (const [name, d] of metrics) {
    for (const p of tiles) {
      for (const q of tiles) {
        const pq = d(p, q);
        assert.equal(pq, d(q, p), `${name} symmetric ${key(p)} ${key(q)}`);
        assert.equal(pq === 0, p.col === q.col && p.row === q.row, `${name} zero ${key(p)} ${key(q)}`);
        for (const r of tiles) {
          if (d(p, r) > pq + d(q, r) + 1e-9) assert.fail(`${name} triangle ${key(p)} ${key(q)} ${key(r)}`);
        }
      }
    }
  }
});

test('tilesInRange is exactly the brute-force filter, row-major, for every source, radius 0..5 and metric', () => {
  forEachBoard((b) => {
    const tiles = allTiles(b);
    for (const model of METRICS) {
      for (const src of tiles) {
        for (let radius = 0; radius <= 5; radius++) {
          const got = tilesInRange(b, model, src, radius).map(key);
          const want = tiles.filter((t) => bruteWithin(model, src, t, radius)).map(key);
          assert.deepEqual(got, want, `${b.kind} ${b.width}×${b.height} ${model} ${key(src)} r${radius}`);
        }
      }
    }
  });
});

test('withinRadius matches the brute-force predicate', () => {
  const b = makeBoard('hex', 9, 7);
  for (const model of METRICS) {
    for (const p of allTiles(b)) {
      for (const q of allTiles(b)) {
        for (let r = 0; r <= 4; r++) assert.equal(withinRadius(model, p, q, r), bruteWithin(model, p, q, r));
      }
    }
  }
});

test('edgeNeighbours: across edge d of A lies B, and across the opposite edge of B lies A', () => {
  forEachBoard((b) => {
    const n = edgeCount(b.kind);
    for (const a of allTiles(b)) {
      const nbs = edgeNeighbours(b, a);
      assert.equal(nbs.length, n);
      for (let d = 0; d < n; d++) {
        const [dc, dr] = edgeOffset(b.kind, a.row, d);
        const expected = { col: a.col + dc, row: a.row + dr };
        const nb = nbs[d]!;
        if (!onBoard(b, expected)) {
          assert.equal(nb, null, `${key(a)} d${d} should be off-board`);
          continue;
        }
        assert.deepEqual(nb, expected);
        assert.deepEqual(edgeNeighbours(b, nb)[oppositeEdge(b.kind, d)], a, `${key(a)} d${d}`);
      }
    }
  });
});

test('hex edge directions are E, NE, NW, W, SW, SE in cube terms, for both row parities', () => {
  const cubeDirs = [
    [1, -1, 0],
    [1, 0, -1],
    [0, 1, -1],
    [-1, 1, 0],
    [-1, 0, 1],
    [0, -1, 1],
  ];
  for (const row of [4, 5]) {
    const a = { col: 4, row };
    const ca = toCube(a);
    for (let d = 0; d < 6; d++) {
      const [dc, dr] = edgeOffset('hex', row, d);
      const cb = toCube({ col: a.col + dc, row: a.row + dr });
      assert.deepEqual([cb.x - ca.x, cb.y - ca.y, cb.z - ca.z], cubeDirs[d], `row ${row} d${d}`);
    }
  }
  for (const c of [
    { col: 0, row: 0 },
    { col: 3, row: 7 },
  ]) {
    const q = toCube(c);
    assert.equal(q.x + q.y + q.z, 0);
  }
});

test('square edge directions are E, N, W, S, and opposite edges are d + n/2', () => {
  assert.deepEqual(
    [0, 1, 2, 3].map((d) => edgeOffset('square', 3, d)),
    [
      [1, 0],
      [0, -1],
      [-1, 0],
      [0, 1],
    ],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((d) => oppositeEdge('square', d)),
    [2, 3, 0, 1],
  );
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((d) => oppositeEdge('hex', d)),
    [3, 4, 5, 0, 1, 2],
  );
});

test('neighbours are exactly the on-board tiles at grid distance 1', () => {
  forEachBoard((b) => {
    for (const a of allTiles(b)) {
      const got = neighbours(b, a).map(key).sort();
      const want = allTiles(b)
        .filter((t) => gridDistance(b.kind, a, t) === 1)
        .map(key)
        .sort();
      assert.deepEqual(got, want, `${b.kind} ${key(a)}`);
      if (b.kind === 'hex') {
        const edges = edgeNeighbours(b, a)
          .filter((c): c is Coord => c !== null)
          .map(key)
          .sort();
        assert.deepEqual(edges, want, 'hex edge neighbours are the metric neighbours');
      }
    }
  });
});

test('tileIndex and tileCoord are inverse, row-major', () => {
  forEachBoard((b) => {
    allTiles(b).forEach((c, i) => {
      assert.equal(tileIndex(b, c), i);
      assert.deepEqual(tileCoord(b, i), c);
    });
  });
});

test('zoneOf, leafIndex and leafCoord round-trip; leafIndex is a bijection onto the on-board leaves', () => {
  for (const kind of KINDS) {
    for (const [w, h] of [...SIZES, [8, 8] as const, [20, 17] as const]) {
      const b = makeBoard(kind, w, h);
      assert.equal(b.zonesX, Math.ceil(w / ZONE_SIZE));
      assert.equal(b.zoneCount, b.zonesX * Math.ceil(h / ZONE_SIZE));
      const seen = new Map<number, string>();
      for (const c of allTiles(b)) {
        const leaf = leafIndex(b, c);
        assert.ok(Number.isInteger(leaf) && leaf >= 0 && leaf < b.zoneCount * ZONE_LEAVES);
        assert.equal(Math.floor(leaf / ZONE_LEAVES), zoneOf(b, c));
        assert.deepEqual(leafCoord(b, leaf), c);
        assert.equal(seen.has(leaf), false, `leaf ${leaf} reused`);
        seen.set(leaf, key(c));
      }
      let onBoardLeaves = 0;
      for (let leaf = 0; leaf < b.zoneCount * ZONE_LEAVES; leaf++) {
        const c = leafCoord(b, leaf);
        if (c === null) {
          assert.equal(seen.has(leaf), false, `leaf ${leaf} maps to a tile but leafCoord says null`);
          continue;
        }
        onBoardLeaves++;
        assert.ok(onBoard(b, c));
        assert.equal(leafIndex(b, c), leaf);
      }
      assert.equal(onBoardLeaves, w * h);
      for (const bad of [-1, b.zoneCount * ZONE_LEAVES, 0.5, Number.NaN])
        assert.equal(leafCoord(b, bad), null);
    }
  }
});

test('leafIndex is zone-major with a row-major 8×8 layout inside the zone', () => {
  const b = makeBoard('hex', 20, 17);
  assert.equal(leafIndex(b, { col: 0, row: 0 }), 0);
  assert.equal(leafIndex(b, { col: 7, row: 0 }), 7);
  assert.equal(leafIndex(b, { col: 0, row: 1 }), 8);
  assert.equal(leafIndex(b, { col: 8, row: 0 }), 64);
  assert.equal(leafIndex(b, { col: 19, row: 16 }), (2 * 3 + 2) * 64 + 0 * 8 + 3);
});

test('zoneTiles partitions the board, row-major, each zone inside its own 8×8 block', () => {
  for (const kind of KINDS) {
    for (const [w, h] of [...SIZES, [20, 17] as const]) {
      const b = makeBoard(kind, w, h);
      const owner = new Map<string, number>();
      for (let z = 0; z < b.zoneCount; z++) {
        const tiles = zoneTiles(b, z);
        assert.ok(tiles.length > 0, `zone ${z} is empty`);
        const col0 = (z % b.zonesX) * ZONE_SIZE;
        const row0 = Math.floor(z / b.zonesX) * ZONE_SIZE;
        const width = Math.min(ZONE_SIZE, w - col0);
        const height = Math.min(ZONE_SIZE, h - row0);
        assert.equal(tiles.length, width * height);
        tiles.forEach((c, i) => {
          assert.deepEqual(c, { col: col0 + (i % width), row: row0 + Math.floor(i / width) });
          assert.equal(zoneOf(b, c), z);
          assert.equal(owner.has(key(c)), false, `${key(c)} in two zones`);
          owner.set(key(c), z);
        });
      }
      assert.equal(owner.size, w * h);
    }
  }
});

test('makeBoard derives the Merkle depth and refuses bad sizes, naming the field', () => {
  // 4-ary levels: 3 per zone, then ceil(log4(zones)).
  assert.equal(makeBoard('hex', 8, 8).depth, 3);
  assert.equal(makeBoard('hex', 9, 8).depth, 4);
  assert.equal(makeBoard('hex', 33, 8).depth, 5, '5 zones');
  assert.equal(makeBoard('hex', 17, 10).depth, 5);
  // The limits of core/limits.ts: at most MAX_ZONES zones, sides at most MAX_BOARD_SIDE.
  const max = makeBoard('hex', 128, 112);
  assert.deepEqual([max.zonesX, max.zonesY, max.zoneCount, max.depth], [16, 14, MAX_ZONES, 7]);
  throwsField(() => makeBoard('hex', 120, 120), 'grid'); // 15 × 15 = 225 zones
  throwsField(() => makeBoard('square', 256, 256), 'grid');
  assert.equal(makeBoard('square', MAX_BOARD_SIDE, 8).zoneCount, 128);
  assert.equal(makeBoard('hex', 8, MAX_BOARD_SIDE).zoneCount, 128);
  throwsField(() => makeBoard('square', MAX_BOARD_SIDE + 1, 8), 'grid.width');
  throwsField(() => makeBoard('square', 8, MAX_BOARD_SIDE + 1), 'grid.height');
  throwsField(() => makeBoard('hex', 0, 5), 'grid.width');
  throwsField(() => makeBoard('hex', 5, 1.5), 'grid.height');
  throwsField(() => makeBoard('hex', Number.NaN, 5), 'grid.width');
});

test('off-board coordinates and bad radii are refused with the field named', () => {
  const b = makeBoard('hex', 3, 5);
  for (const c of [
    { col: -1, row: 0 },
    { col: 3, row: 0 },
    { col: 0, row: 5 },
    { col: 0.5, row: 1 },
    { col: 0, row: Number.NaN },
  ]) {
    assert.equal(onBoard(b, c), false);
    throwsField(() => assertOnBoard(b, c), 'coord');
    throwsField(() => assertOnBoard(b, c, 'units.2.coord'), 'units.2.coord');
    throwsField(() => tilesInRange(b, 'hex', c, 1), 'source');
  }
  assert.doesNotThrow(() => assertOnBoard(b, { col: 2, row: 4 }));
  for (const r of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    throwsField(() => tilesInRange(b, 'hex', { col: 0, row: 0 }, r), 'radius');
  }
  for (const i of [-1, 15, 2.5]) throwsField(() => tileCoord(b, i), 'tileIndex');
  for (const z of [-1, 1, 0.5]) throwsField(() => zoneTiles(b, z), 'zone');
});
