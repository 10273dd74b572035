import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import {
  type Board,
  type Coord,
  chebyshevDistance,
  euclideanDistanceSquared,
  hexDistance,
  makeBoard,
  neighbours,
  tileCoord,
  tileIndex,
  tilesInRange,
} from '../../core/geometry.ts';
import type { VisionModel } from '../../core/ruleset/types.ts';
import { bresenhamLine, hexLine, lineOfSight, losFov, type Opacity } from '../../core/vision/los.ts';
import { isVisibleFrom, visibleTiles } from '../../core/vision/radius.ts';
import { fieldOfView, hexFov, shadowcast } from '../../core/vision/shadowcast.ts';

// ---------------------------------------------------------------- helpers

/** Deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface RandomMap {
  board: Board;
  walls: Set<number>;
  blocks: Opacity;
}

function randomMap(rand: () => number, kind: 'hex' | 'square', maxSide: number): RandomMap {
  const w = 1 + Math.floor(rand() * maxSide);
  const h = 1 + Math.floor(rand() * maxSide);
  const board = makeBoard(kind, w, h);
  const density = rand() * 0.5;
  const walls = new Set<number>();
  for (let i = 0; i < w * h; i++) if (rand() < density) walls.add(i);
  return { board, walls, blocks: (c) => walls.has(tileIndex(board, c)) };
}

const allCoords = (b: Board): Coord[] =>
  Array.from({ length: b.width * b.height }, (_, i) => tileCoord(b, i));
const sorted = (s: Iterable<number>): number[] => [...s].sort((x, y) => x - y);

/** An ASCII map: `#` wall, `.` floor, `@` the origin (a floor tile). */
function parseMap(rows: readonly string[]): { board: Board; origin: Coord; blocks: Opacity } {
  const board = makeBoard('square', rows[0]!.length, rows.length);
  let origin: Coord | undefined;
  rows.forEach((line, row) => {
    assert.equal(line.length, board.width, 'ragged map');
    [...line].forEach((ch, col) => {
      if (ch === '@') origin = { col, row };
    });
  });
  assert.ok(origin, 'map has no @');
  return { board, origin, blocks: (c) => rows[c.row]![c.col] === '#' };
}

/** The map with every tile the origin cannot see replaced by `?`. */
function renderFov(rows: readonly string[], radius = 99): string[] {
  const { board, origin, blocks } = parseMap(rows);
  const seen = shadowcast(board, origin, radius, blocks);
  return rows.map((line, row) =>
    [...line].map((ch, col) => (seen.has(tileIndex(board, { col, row })) ? ch : '?')).join(''),
  );
}

function throwsField(fn: () => unknown, field: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof InputError, `expected InputError, got ${String(e)}`);
    assert.equal(e.field, field);
    return true;
  });
}

// ---------------------------------------------------------------- Ford oracle

type V = readonly [number, number];
const cross = (a: V, b: V): number => a[0] * b[1] - a[1] * b[0];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1];
/** The diamond inscribed in the tile at offset w, in doubled coordinates (all integers). */
const diamond = (w: V): V[] => [
  [2 * w[0] - 1, 2 * w[1]],
  [2 * w[0] + 1, 2 * w[1]],
  [2 * w[0], 2 * w[1] - 1],
  [2 * w[0], 2 * w[1] + 1],
];
const ring = (w: V): number => Math.max(Math.abs(w[0]), Math.abs(w[1]));

/** Side of p from the ray `dir` rotated by an infinitesimal angle σ·ε (σ = 0: no rotation). */
function side(dir: V, sigma: number, p: V): number {
  const c = cross(dir, p);
  return c !== 0 ? Math.sign(c) : -sigma * Math.sign(dot(dir, p));
}

/** Does the (rotated) ray from the origin pass through the open diamond of the wall at offset w? */
function rayHits(dir: V, sigma: number, w: V): boolean {
  if (dot(dir, w) <= 0) return false;
  const s = diamond(w).map((p) => side(dir, sigma, p));
  return s.some((x) => x > 0) && s.some((x) => x < 0);
}

/**
 * Ford's definition restated geometrically, with no quadrants, rows or slopes: the origin is the
 * point at its tile's centre, walls are open diamonds inscribed in their tiles. A floor tile T is
 * visible iff the segment from the origin's centre to T's centre, turned by an infinitesimal angle
 * to one side or the other, crosses no wall diamond nearer (in rings) than T. A wall T is visible
 * iff some ray through the interior of T's diamond crosses no nearer wall diamond. Exact: integer
 * cross products, and candidate rays are sums of adjacent critical directions.
 */
function fordOracle(board: Board, walls: ReadonlySet<number>, origin: Coord): Set<number> {
  const out = new Set<number>([tileIndex(board, origin)]);
  const wallOffsets: V[] = [...walls].map((i) => [
    (i % board.width) - origin.col,
    Math.floor(i / board.width) - origin.row,
  ]);
  for (const c of allCoords(board)) {
    const t: V = [c.col - origin.col, c.row - origin.row];
    if (t[0] === 0 && t[1] === 0) continue;
    const nearer = wallOffsets.filter((w) => ring(w) < ring(t));
    const clearRay = (dir: V, sigma: number): boolean => nearer.every((w) => !rayHits(dir, sigma, w));
    let visible = false;
    if (!walls.has(tileIndex(board, c))) {
      const dir: V = [2 * t[0], 2 * t[1]];
      visible = clearRay(dir, 1) || clearRay(dir, -1);
    } else {
      const byAngle = (u: V, v: V): number => -Math.sign(cross(u, v));
      const own = diamond(t).sort(byAngle);
      const lo = own[0]!;
      const hi = own[3]!;
      const critical: V[] = [...own];
      for (const w of nearer) {
        for (const p of diamond(w)) if (cross(lo, p) > 0 && cross(p, hi) > 0) critical.push(p);
      }
      critical.sort(byAngle);
      for (let i = 0; i + 1 < critical.length && !visible; i++) {
        const [u, v] = [critical[i]!, critical[i + 1]!];
        if (cross(u, v) !== 0 && clearRay([u[0] + v[0], u[1] + v[1]], 0)) visible = true;
      }
    }
    if (visible) out.add(tileIndex(board, c));
  }
  return out;
}

/** Does the closed segment from the origin to t meet the open segment p–q? Cramer's rule, in integers. */
function meetsOpen(t: V, p: V, q: V): boolean {
  const e: V = [q[0] - p[0], q[1] - p[1]];
  const den = cross(t, e);
  if (den === 0) {
    if (cross(p, t) !== 0) return false;
    const [a, b] = [dot(p, t), dot(q, t)];
    return Math.max(a, b) > 0 && Math.min(a, b) < dot(t, t);
  }
  // s·t = p + u·e with 0 ≤ s ≤ 1 (on the sight segment) and 0 < u < 1 (inside the join).
  const [s, u, d] = [cross(p, e) * Math.sign(den), cross(p, t) * Math.sign(den), Math.abs(den)];
  return s >= 0 && s <= d && u > 0 && u < d;
}

/**
 * The rule shadowcast implements, restated with no scan: Ford's visibility, minus every tile T whose
 * centre segment from the origin meets a join (the segment between the centres of two diagonally
 * touching walls) anywhere but at the join's ends. For a wall T, joins through T's own corners are
 * ignored. Offsets relative to the origin's centre, all integers.
 */
function exactOracle(board: Board, walls: ReadonlySet<number>, origin: Coord): Set<number> {
  const rel = (i: number): V => [(i % board.width) - origin.col, Math.floor(i / board.width) - origin.row];
  const joins: [V, V][] = [];
  for (const i of walls) {
    const [x, y] = rel(i);
    const c = i % board.width;
    const below = i + board.width;
    if (c > 0 && walls.has(below - 1))
      joins.push([
        [x, y],
        [x - 1, y + 1],
      ]);
    if (c + 1 < board.width && walls.has(below + 1))
      joins.push([
        [x, y],
        [x + 1, y + 1],
      ]);
  }
  const out = new Set<number>();
  for (const i of fordOracle(board, walls, origin)) {
    const t = rel(i);
    const ownCorner = ([p, q]: [V, V]): boolean =>
      Math.abs(p[0] + q[0] - 2 * t[0]) === 1 && Math.abs(p[1] + q[1] - 2 * t[1]) === 1;
    const hidden = joins.some((j) => !(walls.has(i) && ownCorner(j)) && meetsOpen(t, j[0], j[1]));
    if (!hidden) out.add(i);
  }
  return out;
}

/**
 * Tiles of the origin's floor region: steps to neighbouring floor (king moves on squares), except a
 * diagonal step squeezing between two walls that touch at the corner it crosses.
 */
function floorRegion(board: Board, walls: ReadonlySet<number>, origin: Coord): Set<number> {
  const wall = (col: number, row: number): boolean => walls.has(tileIndex(board, { col, row }));
  const seen = new Set([tileIndex(board, origin)]);
  const queue = [origin];
  for (let i = 0; i < queue.length; i++) {
    const p = queue[i]!;
    for (const n of neighbours(board, p)) {
      const k = tileIndex(board, n);
      if (walls.has(k) || seen.has(k)) continue;
      const diagonal = board.kind === 'square' && n.col !== p.col && n.row !== p.row;
      if (diagonal && wall(n.col, p.row) && wall(p.col, n.row)) continue;
      seen.add(k);
      queue.push(n);
    }
  }
  return seen;
}

// ---------------------------------------------------------------- shadowcasting

test('shadowcast equals the exact geometric oracle (Ford plus joins) on random maps, from every floor tile', () => {
  const rand = rng(1);
  let origins = 0;
  for (let m = 0; m < 250; m++) {
    const { board, walls, blocks } = randomMap(rand, 'square', 9);
    for (const o of allCoords(board)) {
      if (walls.has(tileIndex(board, o))) continue;
      origins++;
      const want = exactOracle(board, walls, o);
      assert.deepEqual(
        sorted(shadowcast(board, o, 99, blocks)),
        sorted(want),
        `map ${m} from (${o.col},${o.row})`,
      );
      for (const metric of ['chebyshev', 'euclidean'] as const) {
        const r = Math.floor(rand() * 6);
        const inRange = new Set(tilesInRange(board, metric, o, r).map((c) => tileIndex(board, c)));
        const got = shadowcast(board, o, r, blocks, { metric });
        assert.deepEqual(
          sorted(got),
          sorted([...want].filter((i) => inRange.has(i))),
          `map ${m} ${metric} r${r}`,
        );
      }
    }
  }
  assert.ok(origins > 3000, `only ${origins} origins checked`);
});

test('shadowcast is symmetric between floor tiles, with and without a radius', () => {
  const rand = rng(2);
  for (let m = 0; m < 150; m++) {
    const { board, walls, blocks } = randomMap(rand, 'square', 8);
    const metric = rand() < 0.5 ? 'chebyshev' : 'euclidean';
    const radius = rand() < 0.5 ? 99 : Math.floor(rand() * 5);
    const floors = allCoords(board).filter((c) => !walls.has(tileIndex(board, c)));
    const fov = new Map(
      floors.map((c) => [tileIndex(board, c), shadowcast(board, c, radius, blocks, { metric })]),
    );
    for (const [a, seenFromA] of fov) {
      for (const [b, seenFromB] of fov) {
        assert.equal(seenFromA.has(b), seenFromB.has(a), `map ${m}: ${a} and ${b} (${metric} r${radius})`);
      }
    }
  }
});

test('shadowcast never leaks: visible floor is reachable from the origin without squeezing between diagonal walls', () => {
  const rand = rng(3);
  for (let m = 0; m < 200; m++) {
    const { board, walls, blocks } = randomMap(rand, 'square', 10);
    for (const o of allCoords(board)) {
      if (walls.has(tileIndex(board, o))) continue;
      const region = floorRegion(board, walls, o);
      for (const i of shadowcast(board, o, 99, blocks)) {
        if (!walls.has(i)) {
          assert.ok(region.has(i), `map ${m}: floor ${i} seen from outside its region`);
        } else {
          const touching = neighbours(board, tileCoord(board, i)).some((n) =>
            region.has(tileIndex(board, n)),
          );
          assert.ok(touching, `map ${m}: wall ${i} seen but touches no floor of the origin's region`);
        }
      }
    }
  }
});

test('shadowcast treats a wall origin as floor', () => {
  const rand = rng(10);
  for (let m = 0; m < 100; m++) {
    const { board, walls, blocks } = randomMap(rand, 'square', 8);
    for (const i of walls) {
      const o = tileCoord(board, i);
      const asFloor: Opacity = (c) => tileIndex(board, c) !== i && blocks(c);
      assert.deepEqual(sorted(shadowcast(board, o, 99, blocks)), sorted(shadowcast(board, o, 99, asFloor)));
    }
  }
});

/**
 * A pinned case drawn side by side: the map (`#` wall, `.` floor, `@` origin) on the left, what the
 * origin sees on the right, with `?` for every tile it cannot see.
 */
function assertFov(sideBySide: string): void {
  const lines = sideBySide
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const split = lines.map((l) => l.split(/\s+/));
  assert.ok(
    split.every((parts) => parts.length === 2),
    'each line is "map  expected"',
  );
  const map = split.map(([m]) => m!);
  assert.deepEqual(
    renderFov(map),
    split.map(([, e]) => e!),
  );
}

test('expansive walls: from anywhere in a convex room, every tile of the room and its walls is visible', () => {
  const room = ['########', '#......#', '#......#', '#......#', '########'];
  for (let row = 1; row <= 3; row++) {
    for (let col = 1; col <= 6; col++) {
      const rows = room.map((line, r) => (r === row ? line.slice(0, col) + '@' + line.slice(col + 1) : line));
      assert.deepEqual(renderFov(rows), rows, `from (${col},${row})`);
    }
  }
});

/** Every two floor tiles of the map (`@` counts as floor) see each other both ways or neither. */
function assertSymmetric(rows: readonly string[]): void {
  const { board, blocks } = parseMap(rows);
  const floors = allCoords(board).filter((c) => !blocks(c));
  const fov = floors.map((c) => shadowcast(board, c, 99, blocks));
  floors.forEach((a, i) => {
    floors.forEach((b, j) => {
      assert.equal(fov[i]!.has(tileIndex(board, b)), fov[j]!.has(tileIndex(board, a)));
    });
  });
}

test('pinned (a): no sight through the corner where two walls touch diagonally, from either side', () => {
  // Walls (2,2) and (3,3) touch at one corner, with floor on its other two sides. Ford's diamonds
  // alone leave the corner open: from (0,5) they show (3,2), (4,1) and the far wall (5,0).
  const leaky = ['.....#', '......', '..#...', '...#..', '......', '@.....'];
  const { board, origin, blocks } = parseMap(leaky);
  const walls = new Set(
    allCoords(board)
      .filter(blocks)
      .map((c) => tileIndex(board, c)),
  );
  const ford = fordOracle(board, walls, origin);
  for (const col of [3, 4, 5]) assert.ok(ford.has(tileIndex(board, { col, row: 5 - col })));
  assertFov(`
    .....#  ...???
    ......  ...???
    ..#...  ..#???
    ...#..  ...#..
    ......  ......
    @.....  @.....
  `);
  assertFov(`
    .....@  .....@
    ......  ......
    ..#...  ..#...
    ...#..  ???#..
    ......  ???...
    #.....  ???...
  `);
  // Standing on either floor tile at the corner, the other one is hidden.
  assertFov(`
    .....  .????
    .#...  .#???
    .@#..  .@#??
    .....  ....?
  `);
  assertFov(`
    .....  .....
    .#@..  ?#@..
    ..#..  ??#..
    .....  ???..
  `);
  assertSymmetric(leaky);
});

test('pinned (b): a diagonal line of walls blocks completely, at every angle', () => {
  assertFov(`
    #.....  #?????
    .#....  .#????
    ..#...  ..#???
    ...#..  ...#??
    @...#.  @...#?
  `);
  assertFov(`
    ......#.  ??????#.
    .....#..  ?????#..
    ....#...  ????#...
    ...#....  ???#....
    ..#..@..  ??#..@..
    .#......  ?#......
    #.......  #.......
  `);
});

test('pinned (b): the same diagonal made 4-connected (a staircase) seals too', () => {
  assertFov(`
    .....##  .....#?
    ....##.  ....#??
    ...##..  ...#???
    ..##...  ..#????
    @.#....  @.#????
  `);
});

test('pinned (c): a pillar casts a shadow that widens with distance', () => {
  assertFov(`
    ..........  ..........
    ..........  ......????
    .@.#......  .@.#??????
    ..........  ......????
    ..........  ..........
  `);
});

test('pinned (d): a corridor is seen end to end, walls included', () => {
  assertFov(`
    ############  ############
    .....@......  .....@......
    ############  ############
  `);
});

test('pinned (e): a door in a wall lets through a cone', () => {
  assertFov(`
    .........  .........
    .........  .........
    ....@....  ....@....
    ####.####  ####.####
    .........  ???...???
    .........  ???...???
    .........  ??.....??
  `);
});

test('pinned (f): standing in a room corner shows the whole room, corner walls included', () => {
  assertFov(`
    ########  ########
    #@.....#  #@.....#
    #......#  #......#
    #......#  #......#
    ########  ########
  `);
  // The join of (3,2) and (2,3) passes in front of the corner wall's centre; it runs through that
  // wall's own corner, so it does not hide it.
  assertFov(`
    .......  ???????
    .......  ???????
    ..#####  ??#####
    ..#@...  ??#@...
    ..#....  ??#....
    ..#....  ??#....
  `);
});

test('pinned (g): diagonally beside an outside corner, the viewer sees along both walls and is seen back', () => {
  assertFov(`
    .......  .......
    .@.....  .@.....
    ..#####  ..#####
    ..#....  ..#????
    ..#....  ..#????
    ..#....  ..#????
  `);
  assertFov(`
    .......  .......
    ......@  ......@
    ..#####  ??#####
    ..#....  ???????
    ..#....  ???????
    ..#....  ???????
  `);
  assertFov(`
    .......  ..?????
    .......  ..?????
    ..#####  ..#????
    ..#....  ..#????
    ..#....  ..#????
    .@#....  .@#????
  `);
  assertSymmetric(['.......', '.@.....', '..#####', '..#....', '..#....', '..#....']);
});

test('pinned (g): beside an outside corner, the far side of the wall stays hidden', () => {
  assertFov(`
    #........  ?........
    #........  ???......
    #####@...  ????#@...
    ....#....  ????#....
    ....#....  ????#....
  `);
});

test('shadowcast radius: chebyshev gives a square, euclidean a disc, and the origin always sees itself', () => {
  const board = makeBoard('square', 11, 11);
  const open: Opacity = () => false;
  const o = { col: 5, row: 5 };
  for (const r of [0, 1, 3, 5]) {
    const square = allCoords(board).filter((c) => chebyshevDistance(c, o) <= r);
    const disc = allCoords(board).filter((c) => euclideanDistanceSquared(c, o) <= r * r);
    assert.deepEqual(sorted(shadowcast(board, o, r, open)), sorted(square.map((c) => tileIndex(board, c))));
    assert.deepEqual(
      sorted(shadowcast(board, o, r, open, { metric: 'euclidean' })),
      sorted(disc.map((c) => tileIndex(board, c))),
    );
  }
  // From a corner, nothing off the board is reported.
  assert.deepEqual(sorted(shadowcast(board, { col: 0, row: 0 }, 1, open)), [0, 1, 11, 12]);
});

test('unknown terrain is opaque by default and transparent on request; it is itself reported like a wall', () => {
  const board = makeBoard('square', 5, 1);
  const unknownAt2: Opacity = (c) => (c.col === 2 ? undefined : false);
  const o = { col: 0, row: 0 };
  assert.deepEqual(sorted(shadowcast(board, o, 9, unknownAt2)), [0, 1, 2]);
  assert.deepEqual(sorted(shadowcast(board, o, 9, unknownAt2, { unknown: 'transparent' })), [0, 1, 2, 3, 4]);
  assert.equal(lineOfSight(board, o, { col: 4, row: 0 }, unknownAt2), false);
  assert.equal(lineOfSight(board, o, { col: 4, row: 0 }, unknownAt2, { unknown: 'transparent' }), true);
  const hex = makeBoard('hex', 5, 1);
  assert.deepEqual(sorted(hexFov(hex, o, 9, unknownAt2)), [0, 1, 2]);
  assert.deepEqual(sorted(hexFov(hex, o, 9, unknownAt2, { unknown: 'transparent' })), [0, 1, 2, 3, 4]);
});

test('field-of-view functions refuse bad input, naming the field', () => {
  const sq = makeBoard('square', 4, 4);
  const hex = makeBoard('hex', 4, 4);
  const open: Opacity = () => false;
  const o = { col: 1, row: 1 };
  throwsField(() => shadowcast(hex, o, 2, open), 'grid.kind');
  throwsField(() => hexFov(sq, o, 2, open), 'grid.kind');
  throwsField(() => shadowcast(sq, { col: 4, row: 0 }, 2, open), 'origin');
  throwsField(() => hexFov(hex, { col: 0, row: -1 }, 2, open), 'origin');
  for (const r of [-1, 0.5, Number.NaN]) {
    throwsField(() => shadowcast(sq, o, r, open), 'radius');
    throwsField(() => losFov(hex, o, r, open), 'radius');
  }
  throwsField(() => shadowcast(sq, o, 2, open, { metric: 'hex' }), 'metric');
  throwsField(() => hexFov(hex, o, 2, open, { metric: 'chebyshev' }), 'metric');
  throwsField(() => losFov(sq, o, 2, open, { unknown: 'maybe' as 'opaque' }), 'unknown');
  throwsField(() => lineOfSight(sq, o, { col: 9, row: 9 }, open), 'to');
  throwsField(() => lineOfSight(sq, { col: -1, row: 0 }, o, open), 'from');
});

test('fieldOfView dispatches on the grid: shadowcasting on squares, hex LOS on hexes', () => {
  const rand = rng(4);
  for (let m = 0; m < 20; m++) {
    for (const kind of ['hex', 'square'] as const) {
      const { board, blocks } = randomMap(rand, kind, 8);
      const o = { col: 0, row: 0 };
      const want = kind === 'hex' ? hexFov(board, o, 4, blocks) : shadowcast(board, o, 4, blocks);
      assert.deepEqual(sorted(fieldOfView(board, o, 4, blocks)), sorted(want));
    }
  }
});

// ---------------------------------------------------------------- Bresenham

/**
 * Independent Bresenham: on the major axis step i, the minor offset is i·minor/major rounded to
 * nearest, halves toward the start — computed directly, not incrementally.
 */
function referenceLine(a: Coord, b: Coord): Coord[] {
  const dx = b.col - a.col;
  const dy = b.row - a.row;
  const n = Math.max(Math.abs(dx), Math.abs(dy));
  const xMajor = Math.abs(dx) >= Math.abs(dy);
  const minor = Math.abs(xMajor ? dy : dx);
  const out: Coord[] = [];
  for (let i = 0; i <= n; i++) {
    const m = n === 0 ? 0 : Math.ceil((2 * i * minor - n) / (2 * n)); // round half down, exact
    const along = i * Math.sign(xMajor ? dx : dy);
    const across = m * Math.sign(xMajor ? dy : dx);
    out.push(
      xMajor ? { col: a.col + along, row: a.row + across } : { col: a.col + across, row: a.row + along },
    );
  }
  return out;
}

test('bresenhamLine equals an independent closed-form implementation for every pair in a 13×13 window', () => {
  for (let i = 0; i < 169; i++) {
    for (let j = 0; j < 169; j++) {
      const a = { col: i % 13, row: Math.floor(i / 13) };
      const b = { col: j % 13, row: Math.floor(j / 13) };
      assert.deepEqual(bresenhamLine(a, b), referenceLine(a, b), `(${a.col},${a.row}) → (${b.col},${b.row})`);
    }
  }
});

test('bresenhamLine: endpoints, one tile per major step, king-connected, ties toward the start', () => {
  const line = bresenhamLine({ col: 0, row: 0 }, { col: 2, row: 1 });
  assert.deepEqual(line, [
    { col: 0, row: 0 },
    { col: 1, row: 0 },
    { col: 2, row: 1 },
  ]);
  assert.deepEqual(bresenhamLine({ col: 2, row: 1 }, { col: 0, row: 0 }), [
    { col: 2, row: 1 },
    { col: 1, row: 1 },
    { col: 0, row: 0 },
  ]);
  assert.deepEqual(bresenhamLine({ col: 3, row: 3 }, { col: 3, row: 3 }), [{ col: 3, row: 3 }]);
  const rand = rng(5);
  for (let k = 0; k < 500; k++) {
    const a = { col: Math.floor(rand() * 40) - 20, row: Math.floor(rand() * 40) - 20 };
    const b = { col: Math.floor(rand() * 40) - 20, row: Math.floor(rand() * 40) - 20 };
    const l = bresenhamLine(a, b);
    assert.equal(l.length, chebyshevDistance(a, b) + 1);
    assert.deepEqual(l[0], a);
    assert.deepEqual(l.at(-1), b);
    for (let i = 1; i < l.length; i++) assert.equal(chebyshevDistance(l[i - 1]!, l[i]!), 1);
  }
});

test('square line of sight: clear if the Bresenham line from either end is clear', () => {
  const board = makeBoard('square', 3, 2);
  const a = { col: 0, row: 0 };
  const b = { col: 2, row: 1 };
  const wallsAt =
    (...cs: Coord[]): Opacity =>
    (c) =>
      cs.some((w) => w.col === c.col && w.row === c.row);
  assert.equal(lineOfSight(board, a, b, wallsAt({ col: 1, row: 0 })), true);
  assert.equal(lineOfSight(board, a, b, wallsAt({ col: 1, row: 1 })), true);
  assert.equal(lineOfSight(board, a, b, wallsAt({ col: 1, row: 0 }, { col: 1, row: 1 })), false);
  // Endpoints never block, even when they are walls.
  assert.equal(lineOfSight(board, a, b, wallsAt(a, b)), true);
  assert.equal(
    lineOfSight(board, a, { col: 1, row: 0 }, () => true),
    true,
  );
});

test('square line of sight and losFov are symmetric and losFov matches pairwise line of sight', () => {
  const rand = rng(6);
  for (let m = 0; m < 60; m++) {
    const { board, blocks } = randomMap(rand, 'square', 8);
    const metric = rand() < 0.5 ? 'chebyshev' : 'euclidean';
    const tiles = allCoords(board);
    for (const p of tiles) {
      const fov = losFov(board, p, 4, blocks, { metric });
      for (const q of tiles) {
        const los = lineOfSight(board, p, q, blocks);
        assert.equal(los, lineOfSight(board, q, p, blocks));
        const inRange =
          metric === 'chebyshev' ? chebyshevDistance(p, q) <= 4 : euclideanDistanceSquared(p, q) <= 16;
        assert.equal(fov.has(tileIndex(board, q)), los && inRange);
      }
    }
  }
});

test('losFov asks the opacity predicate at most once per tile', () => {
  const board = makeBoard('hex', 9, 9);
  const calls = new Map<number, number>();
  const blocks: Opacity = (c) => {
    const i = tileIndex(board, c);
    calls.set(i, (calls.get(i) ?? 0) + 1);
    return c.col === 5;
  };
  losFov(board, { col: 4, row: 4 }, 4, blocks);
  assert.ok(calls.size > 0);
  for (const [i, n] of calls) assert.equal(n, 1, `tile ${i} asked ${n} times`);
});

// ---------------------------------------------------------------- hex lines

/** The textbook floating-point hex line: lerp between nudged cube endpoints, cube_round each sample. */
function floatHexLine(a: Coord, b: Coord, sign: 1 | -1): Coord[] {
  const cube = (c: Coord) => {
    const x = c.col - (c.row - (c.row & 1)) / 2;
    return [x, -x - c.row, c.row] as const;
  };
  const eps = [1e-6 * sign, 2e-6 * sign, -3e-6 * sign];
  const p = cube(a).map((v, i) => v + eps[i]!);
  const q = cube(b).map((v, i) => v + eps[i]!);
  const n = hexDistance(a, b);
  const out: Coord[] = [];
  for (let i = 0; i <= n; i++) {
    const t = n === 0 ? 0 : i / n;
    const f = p.map((v, k) => v + (q[k]! - v) * t);
    const r = f.map(Math.round);
    const d = f.map((v, k) => Math.abs(r[k]! - v));
    if (d[0]! > d[1]! && d[0]! > d[2]!) r[0] = -r[1]! - r[2]!;
    else if (d[1]! > d[2]!) r[1] = -r[0]! - r[2]!;
    else r[2] = -r[0]! - r[1]!;
    out.push({ col: r[0]! + (r[2]! - (r[2]! & 1)) / 2 + 0, row: r[2]! + 0 }); // + 0: −0 → 0
  }
  return out;
}

test('hexLine equals the textbook floating-point line for both nudges, every pair in a 12×12 window', () => {
  for (let i = 0; i < 144; i++) {
    for (let j = 0; j < 144; j++) {
      const a = { col: i % 12, row: Math.floor(i / 12) };
      const b = { col: j % 12, row: Math.floor(j / 12) };
      for (const s of [1, -1] as const) {
        assert.deepEqual(
          hexLine(a, b, s),
          floatHexLine(a, b, s),
          `(${a.col},${a.row}) → (${b.col},${b.row}) ${s}`,
        );
      }
    }
  }
});

test('hexLine: endpoints, adjacent steps, exact reverse, and the two nudges split on hex edges', () => {
  const rand = rng(7);
  for (let k = 0; k < 500; k++) {
    const a = { col: Math.floor(rand() * 30), row: Math.floor(rand() * 30) };
    const b = { col: Math.floor(rand() * 30), row: Math.floor(rand() * 30) };
    for (const s of [1, -1] as const) {
      const l = hexLine(a, b, s);
      assert.equal(l.length, hexDistance(a, b) + 1);
      assert.deepEqual(l[0], a);
      assert.deepEqual(l.at(-1), b);
      for (let i = 1; i < l.length; i++) assert.equal(hexDistance(l[i - 1]!, l[i]!), 1);
      assert.deepEqual(hexLine(b, a, s), [...l].reverse());
    }
  }
  // (2,2) → (2,0) runs along the edge between (1,1) and (2,1): each nudge takes one side.
  const plus = hexLine({ col: 2, row: 2 }, { col: 2, row: 0 }, 1)[1]!;
  const minus = hexLine({ col: 2, row: 2 }, { col: 2, row: 0 }, -1)[1]!;
  assert.deepEqual([plus, minus].map((c) => `${c.col},${c.row}`).sort(), ['1,1', '2,1']);
});

test('hex line of sight is blocked only when both sides of an edge-running line are', () => {
  const board = makeBoard('hex', 5, 5);
  const a = { col: 2, row: 2 };
  const b = { col: 2, row: 0 };
  const at =
    (...cs: string[]): Opacity =>
    (c) =>
      cs.includes(`${c.col},${c.row}`);
  assert.equal(lineOfSight(board, a, b, at()), true);
  assert.equal(lineOfSight(board, a, b, at('1,1')), true);
  assert.equal(lineOfSight(board, a, b, at('2,1')), true);
  assert.equal(lineOfSight(board, a, b, at('1,1', '2,1')), false);
  // On the left edge one side of (0,0) → (0,2) is off the board, which counts as opaque.
  assert.equal(lineOfSight(board, { col: 0, row: 0 }, { col: 0, row: 2 }, at()), true);
  assert.equal(lineOfSight(board, { col: 0, row: 0 }, { col: 0, row: 2 }, at('0,1')), false);
});

test('hexFov is symmetric, equals the radius disc in the open, and never sees past a closed ring', () => {
  const rand = rng(8);
  for (let m = 0; m < 60; m++) {
    const { board, blocks } = randomMap(rand, 'hex', 8);
    const radius = 1 + Math.floor(rand() * 5);
    const tiles = allCoords(board);
    const fov = tiles.map((c) => hexFov(board, c, radius, blocks));
    for (let i = 0; i < tiles.length; i++) {
      for (let j = 0; j < tiles.length; j++)
        assert.equal(fov[i]!.has(j), fov[j]!.has(i), `map ${m}: ${i}, ${j}`);
    }
  }
  const board = makeBoard('hex', 13, 13);
  const o = { col: 6, row: 6 };
  for (const r of [0, 1, 4, 6]) {
    const disc = tilesInRange(board, 'hex', o, r).map((c) => tileIndex(board, c));
    assert.deepEqual(sorted(hexFov(board, o, r, () => false)), sorted(disc));
  }
  const ringWall: Opacity = (c) => hexDistance(c, o) === 2;
  const seen = hexFov(board, o, 6, ringWall);
  assert.deepEqual(sorted(seen), sorted(tilesInRange(board, 'hex', o, 2).map((c) => tileIndex(board, c))));
});

test('hexFov has no corner leaks: every floor hex it sees is reachable from the origin through floor', () => {
  const rand = rng(11);
  for (let m = 0; m < 100; m++) {
    const { board, walls, blocks } = randomMap(rand, 'hex', 9);
    for (const o of allCoords(board)) {
      if (walls.has(tileIndex(board, o))) continue;
      const region = floorRegion(board, walls, o);
      for (const i of hexFov(board, o, 99, blocks))
        assert.ok(walls.has(i) || region.has(i), `map ${m}: floor ${i} seen from outside its region`);
    }
  }
});

// ---------------------------------------------------------------- radius vision

/** Brute force: every tile, tested against each source with the model's distance. */
function bruteVisible(
  board: Board,
  model: VisionModel,
  sources: { coord: Coord; radius: number }[],
): number[] {
  const sees = (s: { coord: Coord; radius: number }, t: Coord): boolean => {
    switch (model) {
      case 'litZones':
        return (
          Math.floor(s.coord.col / 8) === Math.floor(t.col / 8) &&
          Math.floor(s.coord.row / 8) === Math.floor(t.row / 8)
        );
      case 'hex':
        return hexDistance(s.coord, t) <= s.radius;
      case 'chebyshev':
        return chebyshevDistance(s.coord, t) <= s.radius;
      case 'euclidean':
        return euclideanDistanceSquared(s.coord, t) <= s.radius * s.radius;
    }
  };
  return allCoords(board)
    .filter((t) => sources.some((s) => sees(s, t)))
    .map((t) => tileIndex(board, t));
}

test('visibleTiles and isVisibleFrom match brute force for every model', () => {
  const rand = rng(9);
  const cases: [Board, VisionModel][] = [];
  for (const [w, h] of [
    [1, 1],
    [9, 7],
    [17, 10],
    [20, 17],
  ] as const) {
    cases.push([makeBoard('hex', w, h), 'hex'], [makeBoard('hex', w, h), 'litZones']);
    for (const m of ['chebyshev', 'euclidean', 'litZones'] as const)
      cases.push([makeBoard('square', w, h), m]);
  }
  for (const [board, model] of cases) {
    for (let k = 0; k < 25; k++) {
      const sources = Array.from({ length: Math.floor(rand() * 4) }, () => ({
        coord: { col: Math.floor(rand() * board.width), row: Math.floor(rand() * board.height) },
        radius: Math.floor(rand() * 6),
      }));
      const got = visibleTiles(board, model, sources);
      assert.deepEqual(sorted(got), bruteVisible(board, model, sources), `${board.kind} ${model}`);
      for (const t of allCoords(board))
        assert.equal(isVisibleFrom(board, model, sources, t), got.has(tileIndex(board, t)));
    }
  }
});

test('litZones: a source sees its whole zone whatever its radius, and nothing of the next', () => {
  const board = makeBoard('square', 12, 9);
  const seen = visibleTiles(board, 'litZones', [{ coord: { col: 9, row: 2 }, radius: 0 }]);
  assert.equal(seen.size, 4 * 8); // zone 1 is clipped to 4 columns by the board edge
  assert.ok(seen.has(tileIndex(board, { col: 8, row: 0 })));
  assert.ok(seen.has(tileIndex(board, { col: 11, row: 7 })));
  assert.ok(!seen.has(tileIndex(board, { col: 7, row: 2 })));
  assert.ok(!seen.has(tileIndex(board, { col: 9, row: 8 })));
  assert.equal(visibleTiles(board, 'chebyshev', []).size, 0);
});

test('radius vision refuses bad input, naming the field', () => {
  const hex = makeBoard('hex', 9, 9);
  const sq = makeBoard('square', 9, 9);
  const ok = { coord: { col: 1, row: 1 }, radius: 2 };
  throwsField(() => visibleTiles(hex, 'chebyshev', [ok]), 'model');
  throwsField(() => visibleTiles(sq, 'hex', [ok]), 'model');
  throwsField(() => visibleTiles(sq, 'xray' as VisionModel, [ok]), 'model');
  throwsField(
    () => visibleTiles(hex, 'hex', [ok, { coord: { col: 9, row: 0 }, radius: 1 }]),
    'sources.1.coord',
  );
  throwsField(
    () => visibleTiles(hex, 'hex', [{ coord: { col: 0, row: 0 }, radius: -1 }]),
    'sources.0.radius',
  );
  throwsField(
    () => visibleTiles(hex, 'litZones', [{ coord: { col: 0, row: 0 }, radius: 1.5 }]),
    'sources.0.radius',
  );
  throwsField(() => isVisibleFrom(hex, 'hex', [ok], { col: 0, row: 9 }), 'target');
});

test('Bresenham line of sight does not squeeze between walls touching at a corner', () => {
  const gap = parseMap(['@#..', '#...', '....']);
  assert.equal(lineOfSight(gap.board, { col: 0, row: 0 }, { col: 1, row: 1 }, gap.blocks), false);
  assert.equal(lineOfSight(gap.board, { col: 1, row: 1 }, { col: 0, row: 0 }, gap.blocks), false);
  assert.equal(lineOfSight(gap.board, { col: 0, row: 0 }, { col: 2, row: 2 }, gap.blocks), false);
  const open = parseMap(['@#..', '....', '....']);
  assert.equal(
    lineOfSight(open.board, { col: 0, row: 0 }, { col: 2, row: 2 }, open.blocks),
    true,
    'one wall is not a gap',
  );
});
