/**
 * Writes test/vectors/generator.json: single tiles of `Gen(seed)` from the TypeScript core, for the Solidity
 * (MapGen.sol) and Circom generators to match bit for bit. Run: node scripts/vectors.ts
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FIELD_MODULUS,
  GENERATOR_VERSION,
  generateMap,
  type Hasher,
  leafIndex,
  loadHasher,
  packStartAreas,
  seedFromShares,
  shippedRuleset,
  shippedRulesetNames,
  type Tile,
} from '../core/index.ts';
import { parseCli, runCli } from '../lib/cli.ts';

export interface GeneratorVector {
  ruleset: string;
  kind: 'hex' | 'square';
  width: number;
  height: number;
  /** The board's start areas as MapGen.sol takes them (`packStartAreas`), decimal string. */
  starts: string;
  /** Decimal string. */
  seed: string;
  col: number;
  row: number;
  leafIndex: number;
  terrain: number;
  feature: number;
  resource: number;
  rivers: number;
}

export interface GeneratorVectors {
  generatorVersion: number;
  vectors: GeneratorVector[];
}

/** The seeds of the vectors: two ceremony seeds and the largest field element. */
export function vectorSeeds(h: Hasher): bigint[] {
  return [seedFromShares(h, [1n, 2n]), seedFromShares(h, [0xdeadbeefn, 42n, 7n]), FIELD_MODULUS - 1n];
}

/**
 * Tiles worth checking on one map: the four corners and edge midpoints, then tiles with rivers, forests,
 * marshes, resources and every terrain class, then a stride through the rest; `perMap` at most.
 */
export function pickTiles(tiles: readonly Tile[], width: number, height: number, perMap: number): number[] {
  const picked = new Set<number>();
  const add = (i: number) => {
    if (picked.size < perMap && i >= 0 && i < tiles.length) picked.add(i);
  };
  for (const [c, r] of [
    [0, 0],
    [width - 1, 0],
    [0, height - 1],
    [width - 1, height - 1],
    [width >> 1, 0],
    [0, height >> 1],
  ] as const) {
    add(r * width + c);
  }
  const want: ((t: Tile) => boolean)[] = [
    (t) => t.rivers !== 0,
    (t) => t.feature === 1,
    (t) => t.feature === 2,
    (t) => t.resource !== 0,
    ...[0, 1, 2, 3, 4, 5, 6].map((k) => (t: Tile) => t.terrain === k),
  ];
  for (const pred of want) {
    let n = 0;
    for (let i = 0; i < tiles.length && n < (pred === want[0] ? 4 : 2); i += 7) {
      if (pred(tiles[i]!) && !picked.has(i)) {
        add(i);
        n++;
      }
    }
  }
  for (let i = 3; picked.size < perMap && i < tiles.length; i += 37) add(i);
  return [...picked].sort((a, b) => a - b);
}

/** One shipped ruleset per distinct board (kind, width, height, start areas): the generator depends on nothing else. */
export function distinctBoards(): string[] {
  const seen = new Set<string>();
  return shippedRulesetNames.filter((name) => {
    const b = shippedRuleset(name).board;
    const key = `${b.kind}:${b.width}:${b.height}:${packStartAreas(b)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function buildVectors(perMap = 24): Promise<GeneratorVectors> {
  const h = await loadHasher();
  const vectors: GeneratorVector[] = [];
  for (const seed of vectorSeeds(h)) {
    for (const name of distinctBoards()) {
      const { board } = shippedRuleset(name);
      const tiles = generateMap(h, board, seed);
      for (const i of pickTiles(tiles, board.width, board.height, perMap)) {
        const c = { col: i % board.width, row: Math.floor(i / board.width) };
        const t = tiles[i]!;
        vectors.push({
          ruleset: name,
          kind: board.kind,
          width: board.width,
          height: board.height,
          starts: packStartAreas(board).toString(),
          seed: seed.toString(),
          ...c,
          leafIndex: leafIndex(board, c),
          terrain: t.terrain,
          feature: t.feature,
          resource: t.resource,
          rivers: t.rivers,
        });
      }
    }
  }
  return { generatorVersion: GENERATOR_VERSION, vectors };
}

export const VECTORS_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'test',
  'vectors',
  'generator.json',
);

const USAGE = `usage: node scripts/vectors.ts

Writes test/vectors/generator.json: tiles of Gen(seed) from the TypeScript core on every distinct shipped board,
which the Solidity and Circom generators must match bit for bit. Run it after changing the generator or a
ruleset's board or start areas. No flags.`;

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCli('vectors', async () => {
    parseCli({ name: 'vectors', usage: USAGE, options: {} });
    await writeVectors();
  });
}

async function writeVectors(): Promise<void> {
  const v = await buildVectors();
  // One vector per line: readable diffs, small file.
  const lines = v.vectors.map((x) => `    ${JSON.stringify(x)}`).join(',\n');
  await writeFile(
    VECTORS_FILE,
    `{\n  "generatorVersion": ${v.generatorVersion},\n  "vectors": [\n${lines}\n  ]\n}\n`,
  );
  console.log(`wrote ${v.vectors.length} vectors to ${VECTORS_FILE}`);
}
