import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { PARAMS_FILE, renderMapGenParams } from '../../contracts/scripts/mapgen-params.ts';
import {
  FIELD_MODULUS,
  GENERATOR_VERSION,
  generateMap,
  generateTile,
  makeBoard,
  packStartAreas,
  shippedRuleset,
} from '../../core/index.ts';
import {
  distinctBoards,
  type GeneratorVectors,
  pickTiles,
  VECTORS_FILE,
  vectorSeeds,
} from '../../scripts/vectors.ts';
import { type Env, expectRevert, setup, testRuleset } from './helpers.ts';

const KIND = { hex: 0, square: 1 } as const;

describe('MapGen.sol equals core/generator generateTile bit for bit', () => {
  let env: Env;
  before(async () => {
    env = await setup();
  });

  const onChain = async (
    seed: bigint,
    kind: number,
    w: number,
    h: number,
    starts: bigint,
    col: number,
    row: number,
  ) => {
    const r = await env.mapGen.getFunction('generateTile')(seed, kind, w, h, starts, col, row);
    return { terrain: Number(r[0]), feature: Number(r[1]), resource: Number(r[2]), rivers: Number(r[3]) };
  };

  it('matches the committed vectors file (test/vectors/generator.json)', async () => {
    const file = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as GeneratorVectors;
    assert.equal(file.generatorVersion, GENERATOR_VERSION);
    assert.equal(await env.mapGen.getFunction('GENERATOR_VERSION')(), BigInt(GENERATOR_VERSION));
    assert.ok(file.vectors.length >= 100);
    assert.ok(file.vectors.some((v) => v.rivers !== 0) && file.vectors.some((v) => v.kind === 'square'));
    for (const v of file.vectors) {
      const got = await onChain(
        BigInt(v.seed),
        KIND[v.kind],
        v.width,
        v.height,
        BigInt(v.starts),
        v.col,
        v.row,
      );
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
          const starts = packStartAreas(board);
          const got = await onChain(seed, KIND[board.kind], board.width, board.height, starts, c.col, c.row);
          assert.deepEqual(got, want, `${name} seed#${si} (${c.col},${c.row})`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 500, `checked ${checked}`);
  });

  it('a full small map (tiny hex and square, bare 8×8 and 17×9 boards) matches tile by tile', async () => {
    const seed = env.h.hash([31337n, 1n]);
    const boards = [
      ...['tiny', 'tiny-square'].map((name) => shippedRuleset(name).board),
      makeBoard('hex', 8, 8),
      { ...makeBoard('square', 17, 9), startAreas: [{ col0: 0, row0: 0, col1: 3, row1: 8 }] },
    ];
    for (const board of boards) {
      const map = generateMap(env.h, board, seed);
      const starts = packStartAreas(board);
      for (let i = 0; i < map.length; i++) {
        const c = { col: i % board.width, row: Math.floor(i / board.width) };
        const got = await onChain(seed, KIND[board.kind], board.width, board.height, starts, c.col, c.row);
        assert.deepEqual(got, map[i], `${board.width}×${board.height} (${c.col},${c.row})`);
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

  it('rejects off-board tiles, unknown kinds, seeds ≥ p and malformed start areas', async () => {
    const gen = env.mapGen.getFunction('generateTile');
    await expectRevert(gen(1n, 0, 16, 12, 0n, 16, 0), env.mapGen, 'OffBoard');
    await expectRevert(gen(1n, 0, 16, 12, 0n, 0, 12), env.mapGen, 'OffBoard');
    await expectRevert(gen(1n, 2, 16, 12, 0n, 0, 0), env.mapGen, 'OffBoard');
    await expectRevert(gen(FIELD_MODULUS, 0, 16, 12, 0n, 0, 0), env.mapGen, 'SeedNotInField');
    const area = (c0: number, r0: number, c1: number, r1: number) =>
      BigInt(c0) | (BigInt(r0) << 10n) | (BigInt(c1) << 20n) | (BigInt(r1) << 30n);
    const one = 1n << 240n;
    await expectRevert(gen(1n, 0, 16, 12, one | area(2, 3, 16, 8), 0, 0), env.mapGen, 'BadStartAreas');
    await expectRevert(gen(1n, 0, 16, 12, one | area(5, 3, 2, 8), 0, 0), env.mapGen, 'BadStartAreas');
    await expectRevert(gen(1n, 0, 16, 12, 7n << 240n, 0, 0), env.mapGen, 'BadStartAreas');
    // Bits past the counted areas are refused, not ignored.
    await expectRevert(
      gen(1n, 0, 16, 12, one | (area(1, 1, 2, 2) << 40n), 0, 0),
      env.mapGen,
      'BadStartAreas',
    );
    await gen(1n, 0, 16, 12, one | area(2, 3, 5, 8), 0, 0);
  });

  it('the registry holds the start areas of a ruleset: owner only, once, well-formed and on its board', async () => {
    const hash = await testRuleset(env, 0, 24, 16);
    const reg = env.registry.connect(env.deployer) as Contract;
    const tiny = packStartAreas(shippedRuleset('tiny').board); // 16×12 areas: on a 24×16 board too
    assert.equal(await env.registry.getFunction('startAreasOf')(hash), 0n);
    await expectRevert(
      (env.registry.connect(env.other) as Contract).getFunction('setStartAreas')(hash, tiny),
      env.registry,
      'NotOwner',
    );
    await expectRevert(
      reg.getFunction('setStartAreas')(`0x${'22'.repeat(32)}`, tiny),
      env.registry,
      'UnknownRuleset',
    );
    const offBoard = (1n << 240n) | (30n << 20n) | (3n << 30n);
    await expectRevert(reg.getFunction('setStartAreas')(hash, offBoard), env.registry, 'BadRuleset');
    await expectRevert(reg.getFunction('setStartAreas')(hash, 0n), env.registry, 'BadRuleset');
    await (await reg.getFunction('setStartAreas')(hash, tiny)).wait();
    assert.equal(await env.registry.getFunction('startAreasOf')(hash), tiny);
    await expectRevert(reg.getFunction('setStartAreas')(hash, tiny), env.registry, 'AlreadyRegistered');
  });
});
