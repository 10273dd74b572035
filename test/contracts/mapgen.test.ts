import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { PARAMS_FILE, renderMapGenParams } from '../../contracts/scripts/mapgen-params.ts';
import {
  FIELD_MODULUS,
  GENERATOR_VERSION,
  generateMap,
  generateTile,
  shippedRuleset,
} from '../../core/index.ts';
import {
  distinctBoards,
  type GeneratorVectors,
  pickTiles,
  VECTORS_FILE,
  vectorSeeds,
} from '../../scripts/vectors.ts';
import { type Env, expectRevert, setup } from './helpers.ts';

const KIND = { hex: 0, square: 1 } as const;

describe('MapGen.sol equals core/generator generateTile bit for bit', () => {
  let env: Env;
  before(async () => {
    env = await setup();
  });

  const onChain = async (seed: bigint, kind: number, w: number, h: number, col: number, row: number) => {
    const r = await env.mapGen.getFunction('generateTile')(seed, kind, w, h, col, row);
    return { terrain: Number(r[0]), feature: Number(r[1]), resource: Number(r[2]), rivers: Number(r[3]) };
  };

  it('matches the committed vectors file (test/vectors/generator.json)', async () => {
    const file = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as GeneratorVectors;
    assert.equal(file.generatorVersion, GENERATOR_VERSION);
    assert.equal(await env.mapGen.getFunction('GENERATOR_VERSION')(), BigInt(GENERATOR_VERSION));
    assert.ok(file.vectors.length >= 100);
    assert.ok(file.vectors.some((v) => v.rivers !== 0) && file.vectors.some((v) => v.kind === 'square'));
    for (const v of file.vectors) {
      const got = await onChain(BigInt(v.seed), KIND[v.kind], v.width, v.height, v.col, v.row);
      const want = { terrain: v.terrain, feature: v.feature, resource: v.resource, rivers: v.rivers };
      assert.deepEqual(got, want, `${v.ruleset} seed ${v.seed.slice(0, 8)}… (${v.col},${v.row})`);
    }
  });

  it('matches the core directly on every shipped board (hex and square), several seeds, many tiles', async () => {
    const seeds = [...vectorSeeds(env.h), env.h.hash([99n, 98n, 97n, 96n]), 5n];
    let checked = 0;
    for (const [si, seed] of seeds.entries()) {
      for (const name of distinctBoards()) {
        const { board } = shippedRuleset(name);
        const map = generateMap(env.h, board, seed);
        // Different tiles than the vectors file: a larger pick, offset by the seed's position.
        const picks = pickTiles(map, board.width, board.height, 40).map((i) => (i + si) % map.length);
        for (const i of picks) {
          const c = { col: i % board.width, row: Math.floor(i / board.width) };
          const want = generateTile(env.h, board, seed, c);
          assert.deepEqual(want, map[i], 'core generateTile agrees with generateMap');
          const got = await onChain(seed, KIND[board.kind], board.width, board.height, c.col, c.row);
          assert.deepEqual(got, want, `${name} seed#${si} (${c.col},${c.row})`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 500, `checked ${checked}`);
  });

  it('a full small map (tiny, hex and square) matches tile by tile', async () => {
    const seed = env.h.hash([31337n, 1n]);
    for (const name of ['tiny', 'tiny-square']) {
      const { board } = shippedRuleset(name);
      const map = generateMap(env.h, board, seed);
      for (let i = 0; i < map.length; i++) {
        const c = { col: i % board.width, row: Math.floor(i / board.width) };
        const got = await onChain(seed, KIND[board.kind], board.width, board.height, c.col, c.row);
        assert.deepEqual(got, map[i], `${name} (${c.col},${c.row})`);
      }
    }
  });

  it('contracts/MapGenParams.sol is rendered from the current core/generator/params.ts', () => {
    assert.equal(
      readFileSync(PARAMS_FILE, 'utf8'),
      renderMapGenParams(),
      'stale: run node contracts/scripts/mapgen-params.ts',
    );
  });

  it('rejects off-board tiles, unknown kinds and seeds ≥ p', async () => {
    await expectRevert(env.mapGen.getFunction('generateTile')(1n, 0, 16, 12, 16, 0), env.mapGen, 'OffBoard');
    await expectRevert(env.mapGen.getFunction('generateTile')(1n, 0, 16, 12, 0, 12), env.mapGen, 'OffBoard');
    await expectRevert(env.mapGen.getFunction('generateTile')(1n, 2, 16, 12, 0, 0), env.mapGen, 'OffBoard');
    await expectRevert(
      env.mapGen.getFunction('generateTile')(FIELD_MODULUS, 0, 16, 12, 0, 0),
      env.mapGen,
      'SeedNotInField',
    );
  });
});
