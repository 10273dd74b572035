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
  type Tile,
  tileIndex,
  toField,
  type ValidRuleset,
  validateRuleset,
} from '../core/index.ts';
import { cliArgs, die } from './lib/args.ts';

const USAGE =
  'npm run map -- --ruleset <name|file.json> --seed <hex> [--svg FILE] [--json FILE] [--revealed FILE] [--no-color]';

/** `--ruleset` is a shipped name or a path to a ruleset JSON file. */
function loadRuleset(arg: string): ValidRuleset {
  if (!arg.endsWith('.json')) return shippedRuleset(arg);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(arg, 'utf8'));
  } catch (e) {
    throw new InputError('ruleset', `cannot read ${arg}: ${(e as Error).message}`);
  }
  return validateRuleset(json);
}

/**
 * A player's view: `{"visible": [[col,row],…], "explored": [[col,row],…]}` or a plain list of
 * revealed `[col,row]` pairs (all visible). Everything else stays undiscovered.
 */
function loadView(r: ValidRuleset, file: string): TileView[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
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

const { values } = cliArgs(USAGE, {
  ruleset: { type: 'string' },
  seed: { type: 'string' },
  svg: { type: 'string' },
  json: { type: 'string' },
  revealed: { type: 'string' },
  'no-color': { type: 'boolean' },
});
try {
  if (!values.ruleset) throw new InputError('ruleset', `required; ${USAGE}`);
  if (!values.seed) throw new InputError('seed', `required; ${USAGE}`);
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
  if (e instanceof InputError || e instanceof SyntaxError) die(e.message);
  throw e;
}
