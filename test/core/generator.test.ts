import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { riverEligible } from '../../core/generator/classify.ts';
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
    // duel's board with its start areas (they shape the land): moving them changes this digest too.
    const b = shippedRuleset('duel').board;
    assert.equal(
      digest(generateMap(h, b, 0x5eedn)),
      'b74b15b4442b7cfa54cf4a88552a77e643836a5febfb6ea3d0be8f5f0174dfba',
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

  test('maps look like maps: sea ring, coherent continents, ranges of hills, forests', () => {
    const b = shippedRuleset('duel').board;
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
    }
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
        assert.equal(s.riverDeadEndsInland, 0, `${name}: a river ends inland`);
      }
    }
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
