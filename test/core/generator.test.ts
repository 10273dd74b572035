import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { riverEligible } from '../../core/generator/classify.ts';
import { type CellSource, fieldAt, maxStep } from '../../core/generator/lattice.ts';
import * as GP from '../../core/generator/params.ts';
import { falloffTiles, packStartAreas, withStartAreas } from '../../core/generator/shape.ts';
import {
  type Board,
  countingHasher,
  edgeCount,
  edgeOffset,
  FIELD_MODULUS,
  generateMap,
  generateTile,
  type Hasher,
  isWater,
  loadHasher,
  type MapBoard,
  makeBoard,
  mapFields,
  onBoard,
  oppositeEdge,
  shippedRuleset,
  shippedRulesetNames,
  Terrain,
  type Tile,
  validateRuleset,
} from '../../core/index.ts';
import { benchSeeds, mapStats } from '../../scripts/bench-maps.ts';

let h: Hasher;
before(async () => {
  h = await loadHasher();
});

const at = (b: Board, tiles: Tile[], col: number, row: number) => tiles[row * b.width + col]!;
const SEEDS = Array.from({ length: 12 }, (_, i) => BigInt(i + 1) * 0x9e3779b97f4a7c15n + 17n);

function digest(tiles: Tile[]): string {
  return createHash('sha256')
    .update(tiles.map((t) => `${t.terrain}${t.feature}${t.resource}.${t.rivers}`).join(','))
    .digest('hex');
}

describe('generator', () => {
  test('is deterministic and depends on the seed', () => {
    const b = shippedRuleset('duel').board;
    assert.equal(digest(generateMap(h, b, 5n)), digest(generateMap(h, b, 5n)));
    assert.notEqual(digest(generateMap(h, b, 5n)), digest(generateMap(h, b, 6n)));
  });

  test('pinned output: a change to any generator constant must update the vectors', () => {
    const b = shippedRuleset('duel').board;
    assert.equal(
      digest(generateMap(h, b, 0x5eedn)),
      'bdea29479adf582128898ba17d33a3769653beddc4d6a7a18a1035f16599ba19',
    );
  });

  test('is local: each tile from ≤ 10 hashes equals the whole-map generator', () => {
    for (const name of ['tiny', 'tiny-square', 'duel']) {
      const b = shippedRuleset(name).board;
      for (const seed of SEEDS.slice(0, name === 'duel' ? 1 : 3)) {
        const tiles = generateMap(h, b, seed);
        for (let row = 0; row < b.height; row++) {
          for (let col = 0; col < b.width; col++) {
            const ch = countingHasher(h);
            assert.deepEqual(
              generateTile(ch, b, seed, { col, row }),
              at(b, tiles, col, row),
              `${name} (${col},${row})`,
            );
            assert.ok(ch.total() <= 10, `${ch.total()} hashes for one tile`);
          }
        }
      }
    }
  });

  test('rivers run along edges: both sides agree, and they connect at every inland vertex', () => {
    for (const name of ['duel', 'skirmish']) {
      const b = shippedRuleset(name).board;
      let riverEdges = 0;
      for (const seed of SEEDS) {
        const tiles = generateMap(h, b, seed);
        const n = edgeCount(b.kind);
        for (let row = 0; row < b.height; row++) {
          for (let col = 0; col < b.width; col++) {
            const t = at(b, tiles, col, row);
            for (let d = 0; d < n; d++) {
              const [dc, dr] = edgeOffset(b.kind, row, d);
              const o = { col: col + dc, row: row + dr };
              const bit = (t.rivers >> d) & 1;
              if (!onBoard(b, o)) {
                assert.equal(bit, 0, 'no river along the board edge');
                continue;
              }
              const other = at(b, tiles, o.col, o.row);
              assert.equal(bit, (other.rivers >> oppositeEdge(b.kind, d)) & 1, 'both sides of an edge agree');
              if (bit) assert.ok(riverEligible(t.terrain) && riverEligible(other.terrain));
              riverEdges += bit;
            }
            // A vertex: this tile and the tiles across edges d and d+1 (hex), or the 2×2 block (square).
            const corners =
              b.kind === 'hex'
                ? [0, 1].map((k) => {
                    const [dc, dr] = edgeOffset(b.kind, row, k);
                    return { col: col + dc, row: row + dr };
                  })
                : [
                    { col: col + 1, row },
                    { col: col + 1, row: row + 1 },
                    { col, row: row + 1 },
                  ];
            const ring = [{ col, row }, ...corners];
            if (!ring.every((c) => onBoard(b, c) && riverEligible(at(b, tiles, c.col, c.row).terrain)))
              continue;
            let degree = 0;
            for (let i = 0; i < ring.length; i++) {
              const a = ring[i]!;
              const c = ring[(i + 1) % ring.length]!;
              for (let d = 0; d < n; d++) {
                const [dc, dr] = edgeOffset(b.kind, a.row, d);
                if (a.col + dc === c.col && a.row + dr === c.row)
                  degree += (at(b, tiles, a.col, a.row).rivers >> d) & 1;
              }
            }
            assert.equal(degree % 2, 0, `river ends inland at the vertex of (${col},${row}) in ${name}`);
          }
        }
      }
      assert.ok(riverEdges > 100, `${name}: only ${riverEdges} river edge ends over ${SEEDS.length} seeds`);
    }
  });

  test('maps look like maps: sea ring, coherent continents, long mountain ranges, rivers from high ground', () => {
    const b = shippedRuleset('duel').board;
    const elongations: number[] = [];
    let rivers = 0;
    let fromHighGround = 0;
    for (const seed of SEEDS) {
      const tiles = generateMap(h, b, seed);
      const land = tiles.filter((t) => !isWater(t.terrain)).length / tiles.length;
      // Playable boards (≥ 40% passable on every seed) are land-rich, but never all land.
      assert.ok(land > 0.2 && land < 0.85, `land fraction ${land.toFixed(2)}`);
      const border = tiles.filter((_, i) => {
        const c = i % b.width;
        const r = Math.floor(i / b.width);
        return c === 0 || r === 0 || c === b.width - 1 || r === b.height - 1;
      });
      assert.ok(border.filter((t) => isWater(t.terrain)).length / border.length > 0.85, 'the edge is sea');
      // Largest land mass holds most land: continents, not noise.
      const seen = new Uint8Array(tiles.length);
      let largest = 0;
      let total = 0;
      for (let i = 0; i < tiles.length; i++) {
        if (seen[i] || isWater(tiles[i]!.terrain)) continue;
        let size = 0;
        const stack = [i];
        seen[i] = 1;
        while (stack.length) {
          const j = stack.pop()!;
          size++;
          const c = j % b.width;
          const r = Math.floor(j / b.width);
          for (let d = 0; d < 6; d++) {
            const [dc, dr] = edgeOffset(b.kind, r, d);
            const o = { col: c + dc, row: r + dr };
            const k = o.row * b.width + o.col;
            if (onBoard(b, o) && !seen[k] && !isWater(tiles[k]!.terrain)) {
              seen[k] = 1;
              stack.push(k);
            }
          }
        }
        largest = Math.max(largest, size);
        total += size;
      }
      assert.ok(largest / total > 0.3, `largest land mass is ${(largest / total).toFixed(2)} of the land`);
      // Mountains come in ranges: most have a hill or mountain neighbour.
      const mountains = tiles.flatMap((t, i) => (t.terrain === Terrain.MOUNTAINS ? [i] : []));
      const ranged = mountains.filter((i) => {
        const c = i % b.width;
        const r = Math.floor(i / b.width);
        return [0, 1, 2, 3, 4, 5].some((d) => {
          const [dc, dr] = edgeOffset(b.kind, r, d);
          const o = { col: c + dc, row: r + dr };
          const t = onBoard(b, o) ? at(b, tiles, o.col, o.row).terrain : -1;
          return t === Terrain.MOUNTAINS || t === Terrain.HILLS;
        });
      });
      assert.ok(mountains.length === 0 || ranged.length / mountains.length > 0.9, 'isolated mountain peaks');
      const s = mapStats(b, tiles);
      elongations.push(...s.rangeElongations);
      rivers += s.rivers;
      fromHighGround += s.riversHighToSea;
    }
    // Ranges, not blobs: generator v2's round mountains measured a median of 1.6 (npm run bench -- maps).
    elongations.sort((x, y) => x - y);
    assert.ok(elongations.length >= SEEDS.length, `${elongations.length} ranges in ${SEEDS.length} maps`);
    assert.ok(elongations[elongations.length >> 1]! >= 2, `median range elongation ${elongations}`);
    // Most rivers run from hills or mountains to water (v2: about 1 in 9).
    assert.ok(
      fromHighGround / rivers > 0.4,
      `${fromHighGround} of ${rivers} rivers from high ground to the sea`,
    );
  });

  test('fair starts and playable boards: every start area ≥ 60% passable, every map ≥ 40%, on every ruleset', () => {
    const seeds = benchSeeds(h, 24);
    for (const name of shippedRulesetNames) {
      const b = shippedRuleset(name).board;
      assert.ok(b.startAreas && b.startAreas.length >= 2, `${name} carries its start areas`);
      for (const seed of seeds) {
        const s = mapStats(b, generateMap(h, b, seed));
        assert.ok(Math.min(...s.startPassable) >= 0.6, `${name}: start areas ${s.startPassable}`);
        assert.ok(s.passable >= 0.4, `${name}: ${s.passable.toFixed(2)} passable`);
      }
    }
  });

  test('mapStats: a straight range is long and a blob round; a river from hills to the sea counts as one', () => {
    const b = makeBoard('hex', 12, 9);
    const land = (): Tile[] =>
      Array.from({ length: b.width * b.height }, () => ({
        terrain: Terrain.GRASSLAND,
        feature: 0,
        resource: 0,
        rivers: 0,
      }));
    const set = (tiles: Tile[], c: { col: number; row: number }, t: Partial<Tile>) =>
      Object.assign(tiles[c.row * b.width + c.col]!, t);
    const line = land();
    for (let col = 3; col < 8; col++) set(line, { col, row: 4 }, { terrain: Terrain.MOUNTAINS });
    const blob = land();
    const centre = { col: 5, row: 4 };
    set(blob, centre, { terrain: Terrain.MOUNTAINS });
    for (let d = 0; d < 6; d++) {
      const [dc, dr] = edgeOffset('hex', centre.row, d);
      set(blob, { col: centre.col + dc, row: centre.row + dr }, { terrain: Terrain.MOUNTAINS });
    }
    assert.ok(
      Math.abs(mapStats(b, line).rangeElongations[0]! - 5) < 1e-9,
      'five in a row: 5 long for 1 wide',
    );
    assert.ok(mapStats(b, blob).rangeElongations[0]! < 1.1, 'a hexagon of seven is round');
    // One river edge (east of c): its ends are the corners shared with the tiles across SE and NE.
    const river = land();
    const c = { col: 5, row: 4 };
    const across = (d: number) => {
      const [dc, dr] = edgeOffset('hex', c.row, d);
      return { col: c.col + dc, row: c.row + dr };
    };
    set(river, c, { rivers: 1 });
    set(river, across(0), { rivers: 1 << oppositeEdge('hex', 0) });
    set(river, across(5), { terrain: Terrain.SHALLOW_WATER });
    set(river, across(1), { terrain: Terrain.HILLS });
    const s = mapStats(b, river);
    assert.deepEqual([s.rivers, s.riversHighToSea, s.riverLoops], [1, 1, 0]);
    set(river, across(1), { terrain: Terrain.SHALLOW_WATER });
    assert.equal(mapStats(b, river).riversHighToSea, 0, 'sea to sea');
  });

  test('rivers never loop and never end inland: 36 seeds on every shipped ruleset and on bare boards', () => {
    const seeds = benchSeeds(h, 36);
    const boards: [string, MapBoard][] = [
      ...shippedRulesetNames.map((n): [string, MapBoard] => [n, shippedRuleset(n).board]),
      ['bare hex 17×9', makeBoard('hex', 17, 9)],
      ['bare square 30×20', makeBoard('square', 30, 20)],
    ];
    for (const [name, b] of boards) {
      let rivers = 0;
      for (const seed of seeds) {
        const s = mapStats(b, generateMap(h, b, seed));
        assert.equal(s.riverLoops, 0, `${name} seed ${seed}: a river loop`);
        assert.equal(s.riverDeadEndsInland, 0, `${name} seed ${seed}: a river ends inland`);
        rivers += s.rivers;
      }
      // Not vacuous: the boards of 16 columns or more have rivers (one every ~13 columns).
      if (b.width >= 16)
        assert.ok(rivers >= seeds.length, `${name}: ${rivers} rivers in ${seeds.length} maps`);
    }
  });

  test('the river field grows along every row and changes by less than 2^RIVER_BIT between neighbours', () => {
    // The premises of the no-loop argument (params.ts), from the constants: the slope beats the noise's
    // steepest step, and a step across a row, a column or a diagonal stays under the period.
    const step = maxStep(GP.RIVER_NOISE);
    assert.ok(GP.RIVER_SLOPE > step, `slope ${GP.RIVER_SLOPE} ≤ noise step ${step}`);
    assert.ok(GP.RIVER_SLOPE + 2 * step < 2 ** GP.RIVER_BIT, 'a diagonal step could skip a level');
    // And on real maps (hex and square, several seeds): every neighbour pair, diagonals of squares included.
    for (const name of ['duel', 'skirmish', 'standard']) {
      const b = shippedRuleset(name).board;
      for (const seed of SEEDS.slice(0, 4)) {
        const f = mapFields(h, b, seed).map((t) => t.river);
        const at = (col: number, row: number) => f[row * b.width + col]!;
        for (let row = 0; row < b.height; row++) {
          for (let col = 0; col < b.width; col++) {
            if (col + 1 < b.width) assert.ok(at(col + 1, row) > at(col, row), `${name} (${col},${row}) east`);
            for (const [dc, dr] of [
              [-1, 1],
              [0, 1],
              [1, 1],
              [1, 0],
            ]) {
              const [c, r] = [col + dc!, row + dr!];
              if (c < 0 || c >= b.width || r >= b.height) continue;
              assert.ok(Math.abs(at(c, r) - at(col, row)) < 2 ** GP.RIVER_BIT, `${name} (${col},${row})`);
            }
          }
        }
      }
    }
  });

  test("maxStep bounds a field's step between neighbours, and lattice values at opposite extremes reach it", () => {
    // Random lattices (a seeded PRNG per cell): no row or column step exceeds the bound.
    let state = 12345;
    const rand = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return BigInt(state);
    };
    const randomCells = (): CellSource => {
      const memo = new Map<string, bigint>();
      return (cx, cy) => {
        const k = `${cx},${cy}`;
        if (!memo.has(k))
          memo.set(
            k,
            Array.from({ length: 8 }, rand).reduce((a, v) => (a << 32n) | v, 0n),
          );
        return memo.get(k)!;
      };
    };
    for (const octaves of [GP.RIVER_NOISE, GP.RIDGE_NOISE, GP.ELEVATION, GP.MOISTURE]) {
      const bound = maxStep(octaves);
      let steepest = 0;
      for (let k = 0; k < 20; k++) {
        const cells = randomCells();
        for (let y = 0; y < 24; y++) {
          for (let x = 0; x < 24; x++) {
            const v = fieldAt(cells, octaves, x, y);
            steepest = Math.max(
              steepest,
              Math.abs(fieldAt(cells, octaves, x + 1, y) - v),
              Math.abs(fieldAt(cells, octaves, x, y + 1) - v),
            );
          }
        }
      }
      assert.ok(steepest <= bound && steepest > bound / 3, `steepest ${steepest}, bound ${bound}`);
    }
    // One octave, all bits set in odd cell columns and clear in even ones: the step at mid-cell is the bound.
    const o = GP.RIVER_NOISE[0]!;
    const stripes: CellSource = (cx) => (cx % 2 ? (1n << 253n) - 1n : 0n);
    const steps = Array.from(
      { length: 16 },
      (_, x) => fieldAt(stripes, [o], x + 1, 3) - fieldAt(stripes, [o], x, 3),
    );
    assert.equal(Math.max(...steps), maxStep([o]));
  });

  test("elevations stay in [0, 2^ELEVATION_BITS), and a start area's whole range lies between sea and mountains", () => {
    const most = GP.fieldMax(GP.ELEVATION) + GP.RIDGE_AMPLITUDE * GP.RIDGE_MID;
    assert.ok(GP.ELEVATION_OFFSET >= GP.FALLOFF_DROP, 'the falloff can make an elevation negative');
    assert.ok(
      GP.ELEVATION_SCALE * (GP.ELEVATION_OFFSET + most) < 2 ** GP.ELEVATION_BITS,
      'elevation overflows',
    );
    assert.ok(GP.START_TARGET < 2 ** GP.ELEVATION_BITS / GP.ELEVATION_SCALE);
    // Full start weight w = SCALE − 1, no falloff: E = e + w·TARGET for e in [OFFSET, OFFSET + most].
    const w = GP.ELEVATION_SCALE - 1;
    assert.ok(GP.ELEVATION_OFFSET + w * GP.START_TARGET >= GP.T_SEA, 'a start area can be sea');
    assert.ok(
      GP.ELEVATION_OFFSET + most + w * GP.START_TARGET < GP.T_MOUNTAINS,
      'a start area can be mountains',
    );
    assert.ok(
      Number.isInteger(GP.RIDGE_MID),
      'the ridge middle is an integer constant of all three generators',
    );
  });

  test('the falloff scales with the board, and an 8×8 board has land', () => {
    assert.deepEqual(
      [8, 12, 16, 24, 26, 32, 54, 1024].map((n) => falloffTiles(n, n)),
      [1, 1, 2, 3, 3, 4, 4, 4],
    );
    assert.equal(falloffTiles(40, 9), 1, 'the shorter side decides');
    // A ruleset on an 8×8 board: its start areas are land whatever the seed; the board is not all sea.
    const tiny = shippedRuleset('tiny');
    const small = validateRuleset({
      ...JSON.parse(JSON.stringify({ ...tiny, board: undefined })),
      grid: { ...tiny.grid, width: 8, height: 8 },
      startAreas: [
        { col0: 1, row0: 1, col1: 3, row1: 3 },
        { col0: 4, row0: 4, col1: 6, row1: 6 },
      ],
    });
    for (const seed of benchSeeds(h, 40)) {
      const s = mapStats(small.board, generateMap(h, small.board, seed));
      assert.ok(Math.min(...s.startPassable) >= 0.6 && s.passable > 0.2, `8×8: ${s.passable}`);
    }
    // A bare board (no start areas) has land in most seeds too: the falloff leaves its interior alone.
    const bare = makeBoard('hex', 8, 8);
    const withLand = benchSeeds(h, 40).filter((seed) =>
      generateMap(h, bare, seed).some((t) => !isWater(t.terrain)),
    );
    assert.ok(withLand.length >= 38, `${withLand.length} of 40 bare 8×8 maps have land`);
  });

  test('start areas: blended the same for every seat, packed for MapGen.sol, refused when malformed', () => {
    const b = shippedRuleset('duel').board;
    const [a, c] = b.startAreas!;
    const packed = packStartAreas(b);
    assert.equal(packed >> 240n, 2n);
    assert.equal(packed & 0x3ffn, BigInt(a!.col0));
    assert.equal((packed >> 70n) & 0x3ffn, BigInt(c!.row1));
    assert.equal(packStartAreas(makeBoard('hex', 8, 8)), 0n);
    // Unpacked (as the audit reads the registry), every shipped board comes back whole; stray bits are refused.
    for (const name of shippedRulesetNames) {
      const rb = shippedRuleset(name).board;
      const geometry = makeBoard(rb.kind, rb.width, rb.height);
      assert.deepEqual(withStartAreas(geometry, packStartAreas(rb)).startAreas, rb.startAreas, name);
    }
    assert.deepEqual(withStartAreas(makeBoard('hex', 8, 8), 0n).startAreas, []);
    assert.throws(() => withStartAreas(b, packed | (1n << 239n)), {
      name: 'InputError',
      message: /^startAreas:/,
    });
    assert.throws(() => withStartAreas(makeBoard('hex', 8, 8), packed), { name: 'InputError' });
    const bad: MapBoard = {
      ...makeBoard('hex', 16, 12),
      startAreas: [{ col0: 3, row0: 0, col1: 16, row1: 2 }],
    };
    assert.throws(() => generateMap(h, bad, 1n), { name: 'InputError', message: /^board\.startAreas\.0:/ });
    const seven: MapBoard = {
      ...makeBoard('hex', 16, 12),
      startAreas: Array(7).fill({ col0: 0, row0: 0, col1: 1, row1: 1 }),
    };
    assert.throws(() => packStartAreas(seven), { name: 'InputError', message: /^board\.startAreas:/ });
  });

  test('a tile has thousands of possible contents (P2: salts hide about 5K values)', () => {
    const seen = new Set<string>();
    const b = shippedRuleset('standard').board;
    for (const seed of SEEDS.slice(0, 4)) {
      for (const t of generateMap(h, b, seed))
        seen.add(`${t.terrain}/${t.feature}/${t.resource}/${t.rivers}`);
    }
    assert.ok(seen.size > 150, `only ${seen.size} distinct contents seen`);
  });

  test('rejects seeds outside the field and tiles off the board, naming the field', () => {
    const b = shippedRuleset('tiny').board;
    assert.throws(() => generateMap(h, b, FIELD_MODULUS), { name: 'InputError', message: /^seed:/ });
    assert.throws(() => generateMap(h, b, -1n), { name: 'InputError', message: /^seed:/ });
    assert.throws(() => generateTile(h, b, 1n, { col: 16, row: 0 }), {
      name: 'InputError',
      message: /^coord:.*off/,
    });
    assert.throws(() => generateTile(h, b, 1n, { col: 0.5, row: 0 }), { name: 'InputError' });
  });
});
