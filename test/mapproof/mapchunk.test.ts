import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fieldMax, RIDGE_NOISE, RIVER_BIT } from '../../core/generator/params.ts';
import {
  commitMap,
  generateMap,
  leafHash,
  leafIndex,
  loadHasher,
  tileWord,
  zoneTiles,
} from '../../core/index.ts';
import { generatorParamsCircom } from '../../core/mapproof/circom-params.ts';
import { mapChunkInput, seedHash, zoneRoots } from '../../core/mapproof/witness.ts';
import { MAP_PARAMS_FILE } from '../../scripts/circuits/map-params.ts';
import { load, P, rejects } from '../circuits/helpers.ts';

/** Each zone's chunk proof recomputes Gen(seed) in-circuit: its zone root must equal the core's. */
describe('mapchunk circuit', () => {
  for (const name of ['tiny', 'tiny-square']) {
    test(`${name}: every zone's root equals the protocol core's, over several seeds`, async () => {
      const c = await load(name, 'mapchunk');
      const b = c.ruleset.board;
      for (const seed of [0x5eedn, 123456789n, 2n ** 250n + 7n]) {
        const map = commitMap(c.h, b, generateMap(c.h, b, seed), seed + 1n);
        const roots = zoneRoots(map, b);
        for (let zone = 0; zone < b.zoneCount; zone++) {
          const w = await c.witness(mapChunkInput(c.h, b, seed, map, zone) as any);
          assert.deepEqual(
            c.publicOf(w),
            [roots[zone], BigInt(zone), seedHash(c.h, seed)],
            `${name} zone ${zone}`,
          );
        }
      }
    });
  }

  test('circuits/map/generator_params.circom is rendered from the current core/generator/params.ts', async () => {
    assert.equal(
      readFileSync(MAP_PARAMS_FILE, 'utf8'),
      generatorParamsCircom(await loadHasher()),
      'stale: run node scripts/circuits/map-params.ts',
    );
  });

  test('a tile changed in one zone cannot keep the zone root', async () => {
    const c = await load('tiny', 'mapchunk');
    const b = c.ruleset.board;
    const seed = 99n;
    const map = commitMap(c.h, b, generateMap(c.h, b, seed), 5n);
    const w = await c.witness(mapChunkInput(c.h, b, seed, map, 1) as any);
    assert.ok(c.satisfies(w));
    // Every wire is pinned: changing any of a spread sample of them breaks a constraint.
    const step = Math.floor(w.length / 16);
    for (let i = 1 + c.art.publicSignals; i < w.length; i += step) {
      const bad = w.slice();
      bad[i] = (bad[i]! + 1n) % P;
      assert.ok(!c.satisfies(bad), `wire ${i} is not constrained`);
    }
    // A different salt (or tile) gives another root: the proof is for the committed leaves only.
    const other = commitMap(c.h, b, generateMap(c.h, b, seed), 6n);
    assert.notEqual(zoneRoots(other, b)[1], zoneRoots(map, b)[1]);
  });

  test('the ridge sign and the river side are pinned: claiming the other side of either breaks the R1CS', async () => {
    const c = await load('tiny', 'mapchunk');
    const b = c.ruleset.board;
    const seed = 4242n;
    const map = commitMap(c.h, b, generateMap(c.h, b, seed), 5n);
    const w = await c.witness(mapChunkInput(c.h, b, seed, map, 0) as any);
    assert.ok(c.satisfies(w));
    const sym = readFileSync(path.join(c.art.dir, 'mapchunk.sym'), 'utf8').split('\n');
    const wireOf = (name: string) => {
      const line = sym.find((l) => l.endsWith(`,main.${name}`));
      const wire = Number(line?.split(',')[1]);
      assert.ok(wire > 0, `main.${name} is a wire`);
      return wire;
    };
    const edited = (edits: [number, bigint][]) => {
      const t = w.slice();
      for (const [i, v] of edits) t[i] = ((v % P) + P) % P;
      return c.satisfies(t);
    };
    // Top bit of the ridge comparator's decomposition of noise + 2^n − MID: set iff the noise is at least MID.
    const top = fieldMax(RIDGE_NOISE).toString(2).length;
    for (const [ty, tx] of [
      [1, 1],
      [4, 4],
      [8, 6],
    ]) {
      const sign = wireOf(`ridgeLow[${ty}][${tx}].n2b.out[${top}]`);
      const below = wireOf(`ridgeLow[${ty}][${tx}].n2b.out[${top - 1}]`);
      const s = w[sign]!;
      assert.equal(edited([[sign, 1n - s]]), false, `(${tx},${ty}): the other ridge sign`);
      // The same claim with the comparator's sum kept (the bit below moved by 2), so its decomposition still adds up.
      assert.equal(
        edited([
          [sign, 1n - s],
          [below, w[below]! + (s ? 2n : -2n)],
        ]),
        false,
        `(${tx},${ty}): the other ridge sign, sum kept`,
      );
      // The river side is bit RIVER_BIT of the field's decomposition; --O2 folds that bit into the field minus the
      // bits below, so moving the bit below by 2 claims the other side with the sum kept.
      const next = wireOf(`side[${ty}][${tx}].b.out[${RIVER_BIT - 1}]`);
      for (const d of [2n, -2n]) {
        assert.equal(edited([[next, w[next]! + d]]), false, `(${tx},${ty}): the other river side, sum kept`);
      }
    }
  });

  test("a leaf hashing another tile's word (the dealer's own witness) breaks the leaf's link to the generator", async () => {
    const c = await load('tiny', 'mapchunk');
    const b = c.ruleset.board;
    const seed = 31n;
    const tiles = generateMap(c.h, b, seed);
    const map = commitMap(c.h, b, tiles, 8n);
    const input = mapChunkInput(c.h, b, seed, map, 0);
    // Zone 0 is on the board: local tile t is leaf t. Tile u has another word than tile t.
    const tileAt = (t: number) => tiles[Math.floor(t / 8) * b.width + (t % 8)]!;
    const t = 9;
    const u = [...Array(64).keys()].find((i) => tileWord(tileAt(i)) !== tileWord(tileAt(t)))!;
    assert.equal(leafIndex(b, { col: t % 8, row: Math.floor(t / 8) }), t);
    // Leaf u's hash computed with t's salt: the hash of u's word as the dealer would put it at t.
    const honest = await c.witness(input as any);
    const salts = input.salts.slice();
    salts[u] = salts[t]!;
    const donor = await c.witness({ ...input, salts } as any);
    // Wires by name (.sym): tile t's leaf hash takes donor u's values, then tile t's leaf does.
    const wires = new Map<string, number>();
    for (const line of readFileSync(path.join(c.art.dir, 'mapchunk.sym'), 'utf8').split('\n')) {
      const [, wire, , name] = line.split(',');
      if (name && Number(wire) > 0) wires.set(name, Number(wire));
    }
    const forged = honest.slice();
    const own = new Set<number>();
    for (const [name, wire] of wires) {
      if (!name.startsWith(`main.leafHash[${t}].`)) continue;
      forged[wire] = donor[wires.get(name.replace(`[${t}]`, `[${u}]`))!]!;
      own.add(wire);
    }
    const leafT = wires.get(`main.leaf[${t}]`)!;
    forged[leafT] = leafHash(c.h, tileAt(u), BigInt(salts[t]!));
    assert.equal(forged[wires.get(`main.leafHash[${t}].out`)!], forged[leafT], 'a consistent Poseidon of u');
    // Caught where the hash reads tile t's fields, not only in the tree above the changed leaf.
    const tree = new Set([...wires].filter(([n]) => /^main\.(node|level)\[/.test(n)).map(([, w]) => w));
    const caught = c.violated(forged).filter((ws) => !ws.some((w) => tree.has(w)));
    assert.ok(caught.length > 0, 'no constraint outside the tree catches the forged leaf');
    assert.ok(
      caught.every((ws) => ws.some((w) => own.has(w))),
      'every constraint caught reads the forged hash',
    );
  });

  test('a swapped zone or a seed hash for another seed is refused', async () => {
    const c = await load('tiny', 'mapchunk');
    const b = c.ruleset.board;
    const seed = 7n;
    const map = commitMap(c.h, b, generateMap(c.h, b, seed), 5n);
    const input = mapChunkInput(c.h, b, seed, map, 2);
    assert.ok(await rejects(c, { ...input, zone: '1' } as any), 'zone index not matching its coordinates');
    assert.ok(
      (await rejects(c, { ...input, zx: '1', zy: '0', zone: '1' } as any)) === false,
      'zone 1 proves fine',
    );
    assert.ok(await rejects(c, { ...input, zx: '2', zone: '2', zy: '0' } as any), 'zx off the board');
    assert.ok(
      await rejects(c, { ...input, seedHash: String(seedHash(c.h, seed + 1n)) } as any),
      'seed hash of another seed',
    );
    assert.ok(zoneTiles(b, 2).length > 0);
  });
});

describe('maproot circuit', () => {
  test('ties the root to the ceremony; a share not matching its commitment is refused', async () => {
    const { mapRootInput } = await import('../../core/mapproof/witness.ts');
    const c = await load('tiny', 'maproot');
    const b = c.ruleset.board;
    const shares = [11n, 22n];
    const seed = c.h.hash(shares);
    const map = commitMap(c.h, b, generateMap(c.h, b, seed), 3n);
    const input = mapRootInput(c.h, {
      maxPlayers: 2,
      gameId: 9n,
      players: [0xaan, 0xbbn],
      shares,
      map,
      board: b,
    });
    const w = await c.witness(input as any);
    assert.ok(c.satisfies(w));
    assert.ok(
      await rejects(c, { ...input, shares: ['12', '22'] } as any),
      'share not opening its commitment',
    );
    assert.ok(await rejects(c, { ...input, root: String(BigInt(input.root) + 1n) } as any), 'another root');
    const swapped = [...input.zoneRoots];
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    assert.ok(await rejects(c, { ...input, zoneRoots: swapped } as any), 'swapped zones');
    assert.ok(
      await rejects(c, { ...input, seedHash: String(seedHash(c.h, seed + 1n)) } as any),
      'another seed',
    );
    assert.ok(await rejects(c, { ...input, nPlayers: '3' } as any), 'more players than seats');
  });
});
