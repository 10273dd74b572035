import { readFileSync, writeFileSync } from 'node:fs';
import { renderAnsi } from '../client/render/ansi.ts';
import { TERRAIN_NAMES } from '../client/render/palette.ts';
import { renderSvg, type TileView } from '../client/render/svg.ts';
import {
  assertOnBoard,
  type Coord,
  GENERATOR_VERSION,
  generateMap,
  InputError,
  loadHasher,
  shippedRuleset,
  shippedRulesetNames,
  type Tile,
  tileIndex,
  toField,
  type ValidRuleset,
  validateRuleset,
} from '../core/index.ts';
import { inputFile, outputFile, parseCli, runCli, UsageError } from '../lib/cli.ts';

const USAGE = `usage: npm run map -- --ruleset <name|file.json> --seed <hex> [--svg FILE] [--json FILE] [--revealed FILE] [--no-color]

Generates a map and prints it in colour with a summary.
  --ruleset    a shipped ruleset (${shippedRulesetNames.join(', ')}) or a ruleset JSON file
  --seed       hex (with or without 0x), below the BN254 field modulus
  --svg FILE   also write an SVG picture
  --json FILE  also write the tiles as JSON
  --revealed   a player's view: [[col,row],…] or {"visible": […], "explored": […]}; the rest is drawn black
  --no-color   skip the terminal picture`;

/** `--ruleset` is a shipped name or a path to a ruleset JSON file. */
function loadRuleset(arg: string): ValidRuleset {
  if (!arg.endsWith('.json')) return shippedRuleset(arg);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(inputFile('ruleset', arg), 'utf8'));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new InputError('ruleset', `cannot read ${arg}: ${(e as Error).message}`);
  }
  return validateRuleset(json);
}

/**
 * A player's view: `{"visible": [[col,row],…], "explored": [[col,row],…]}` or a plain list of
 * revealed `[col,row]` pairs (all visible). Everything else stays undiscovered.
 */
function loadView(r: ValidRuleset, file: string): TileView[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(inputFile('revealed', file), 'utf8'));
  } catch (e) {
    if (e instanceof SyntaxError) throw new InputError('revealed', `${file} is not JSON: ${e.message}`);
    throw e;
  }
  const spec = (Array.isArray(raw) ? { visible: raw } : raw) as { visible?: unknown; explored?: unknown };
  const view: TileView[] = new Array(r.board.width * r.board.height).fill('undiscovered');
  for (const key of ['explored', 'visible'] as const) {
    const list = spec[key] ?? [];
    if (!Array.isArray(list)) throw new InputError(`revealed.${key}`, 'must be a list of [col,row] pairs');
    list.forEach((p, i) => {
      if (!Array.isArray(p) || p.length !== 2)
        throw new InputError(`revealed.${key}.${i}`, 'must be [col,row]');
      const c: Coord = { col: p[0], row: p[1] };
      assertOnBoard(r.board, c, `revealed.${key}.${i}`);
      view[tileIndex(r.board, c)] = key;
    });
  }
  return view;
}

function summary(r: ValidRuleset, seed: bigint, tiles: Tile[]): string {
  const counts = new Map<number, number>();
  for (const t of tiles) counts.set(t.terrain, (counts.get(t.terrain) ?? 0) + 1);
  const histogram = [...counts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, n]) => `${TERRAIN_NAMES[t as Tile['terrain']]} ${((100 * n) / tiles.length).toFixed(0)}%`)
    .join(', ');
  const b = r.board;
  return [
    `ruleset ${r.name}: ${b.kind} ${b.width}×${b.height}, ${b.zoneCount} zones, tree depth ${b.depth}, generator v${GENERATOR_VERSION}`,
    `seed 0x${seed.toString(16)}`,
    histogram,
    `river tiles ${tiles.filter((t) => t.rivers).length}, resources ${tiles.filter((t) => t.resource).length}`,
  ].join('\n');
}

await runCli('map', async () => {
  const { values } = parseCli({
    name: 'map',
    usage: USAGE,
    options: {
      ruleset: { type: 'string' },
      seed: { type: 'string' },
      svg: { type: 'string' },
      json: { type: 'string' },
      revealed: { type: 'string' },
      'no-color': { type: 'boolean' },
    },
  });
  try {
    if (!values.ruleset) throw new UsageError('--ruleset is required (see --help)');
    if (!values.seed) throw new UsageError('--seed is required (see --help)');
    // Check the outputs before the work, so a typo costs nothing.
    if (values.svg) outputFile('svg', values.svg);
    if (values.json) outputFile('json', values.json);
    const r = loadRuleset(values.ruleset);
    const seed = toField(values.seed.startsWith('0x') ? values.seed : `0x${values.seed}`, 'seed');
    const h = await loadHasher();
    const tiles = generateMap(h, r.board, seed);
    const view = values.revealed ? loadView(r, values.revealed) : undefined;
    if (!values['no-color']) console.log(renderAnsi(r.board, tiles, view));
    console.log(summary(r, seed, tiles));
    if (values.svg) {
      writeFileSync(values.svg, renderSvg(r.board, tiles, { size: 12, view }));
      console.log(`wrote ${values.svg}`);
    }
    if (values.json) {
      const shown = view ? tiles.map((t, i) => (view[i] === 'undiscovered' ? null : t)) : tiles;
      const doc = {
        ruleset: r.name,
        seed: `0x${seed.toString(16)}`,
        width: r.board.width,
        height: r.board.height,
        tiles: shown,
      };
      writeFileSync(values.json, `${JSON.stringify(doc)}\n`);
      console.log(`wrote ${values.json}`);
    }
  } catch (e) {
    // Bad input (a ruleset field, the seed, a view entry) is a usage error naming what is wrong.
    if (e instanceof InputError) throw new UsageError(e.message);
    throw e;
  }
});
