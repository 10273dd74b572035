/**
 * The terminal player's screen as pure functions of what the seat knows (plain text, no colour, so it reads
 * the same in a log and a pipe): the fogged map, the units, the legal options, the help.
 *
 * Map cells are two characters, a glyph and a mark; hex boards shift odd rows half a cell right (odd-r, as
 * the storage coordinates). Glyphs: `?` undiscovered, `.` seen but its terrain never served, a terrain letter
 * (upper case: visible now, lower case: remembered), a slot number for an own unit, `E` an enemy seen on that
 * exact tile. Marks: `!` a zone where an enemy was sighted, `+` a marked tile (the start area at spawn).
 */
import { type Coord, makeBoard, zoneOf } from '../../core/geometry.ts';
import { Terrain } from '../../core/tile.ts';
import type { Observation } from '../sdk/observation.ts';
import { type AttackOption, attackOptions, moveOptions, type Rules, zoneBounds } from './options.ts';

/** What the map shows: an observation, or the blank one a seat has before its spawn. */
export type MapView = Pick<
  Observation,
  'kind' | 'width' | 'height' | 'fog' | 'terrain' | 'ownUnits' | 'lastSeen'
>;

export interface MapOptions {
  /** Row-major tiles to mark with `+` (e.g. the start area while placing units). */
  marked?: ReadonlySet<number>;
}

/** Terrain letters by terrain id (upper case; lower case when only remembered). */
export const TERRAIN_LETTERS: Readonly<Record<Terrain, string>> = {
  [Terrain.DEEP_WATER]: 'W',
  [Terrain.SHALLOW_WATER]: 'S',
  [Terrain.GRASSLAND]: 'G',
  [Terrain.PLAINS]: 'P',
  [Terrain.DESERT]: 'D',
  [Terrain.HILLS]: 'H',
  [Terrain.MOUNTAINS]: 'M',
};

const FOG_VISIBLE = 1;
const FOG_UNDISCOVERED = 0;

const coord = (c: Coord) => `${c.col},${c.row}`;

/** The column header: tens digits (when the board is wider than 10) over units digits, aligned to even rows. */
function header(width: number, indent: string): string[] {
  const digits = (f: (c: number) => string) =>
    `${indent}${Array.from({ length: width }, (_, c) => `${f(c)} `).join('')}`.trimEnd();
  const lines = [digits((c) => String(c % 10))];
  if (width > 10) lines.unshift(digits((c) => (c >= 10 ? String(Math.floor(c / 10) % 10) : ' ')));
  return lines;
}

/** The fogged map, one text line per board row under a column header; rows are labelled on the left. */
export function renderMap(view: MapView, opts: MapOptions = {}): string {
  const { width, height } = view;
  const board = makeBoard(view.kind, width, height);
  const units = new Map<number, number>();
  for (const u of view.ownUnits) {
    const i = u ? u.row * width + u.col : -1;
    if (u && !units.has(i)) units.set(i, u.slot);
  }
  const enemyTiles = new Set<number>();
  const enemyZones = new Set<number>();
  for (const s of view.lastSeen) {
    if (s.lost) continue;
    if (s.col !== undefined && s.row !== undefined) enemyTiles.add(s.row * width + s.col);
    enemyZones.add(s.zone);
  }
  const label = String(height - 1).length;
  const indent = ' '.repeat(label + 1);
  const lines = header(width, indent);
  for (let row = 0; row < height; row++) {
    let line = `${String(row).padStart(label)} ${view.kind === 'hex' && row & 1 ? ' ' : ''}`;
    for (let col = 0; col < width; col++) {
      const i = row * width + col;
      const slot = units.get(i);
      let glyph: string;
      if (slot !== undefined) glyph = String(slot);
      else if (enemyTiles.has(i)) glyph = 'E';
      else if (view.fog[i] === FOG_UNDISCOVERED) glyph = '?';
      else if (view.terrain[i] === -1) glyph = '.';
      else {
        const letter = TERRAIN_LETTERS[view.terrain[i] as Terrain] ?? '#';
        glyph = view.fog[i] === FOG_VISIBLE ? letter : letter.toLowerCase();
      }
      // A two-digit slot fills the whole cell; otherwise the mark says what the glyph cannot.
      if (glyph.length === 1) {
        if (opts.marked?.has(i)) glyph += '+';
        else if (enemyZones.has(zoneOf(board, { col, row }))) glyph += '!';
        else glyph += ' ';
      }
      line += glyph;
    }
    lines.push(line.trimEnd());
  }
  return lines.join('\n');
}

export function legend(kind: MapView['kind']): string {
  return [
    `? undiscovered  . seen, terrain not served  W deep water  S shallow water  G grassland  P plains`,
    `D desert  H hills  M mountains (upper case: visible now, lower case: remembered)  0-9 your units`,
    `E enemy seen on that tile  ! zone with a sighted enemy  + your start area${kind === 'hex' ? '  (hex: odd rows sit half a tile right)' : ''}`,
  ].join('\n');
}

/** One line per living unit: slot, type, hp, position, and the move planned this turn. */
export function renderUnits(
  units: MapView['ownUnits'],
  rules: Rules,
  planned: readonly (Coord | null)[] = [],
): string {
  const lines = units.flatMap((u) => {
    if (!u) return [];
    const t = rules.unitTypes[u.type]!;
    const to = planned[u.slot];
    const move = to && (to.col !== u.col || to.row !== u.row) ? ` → ${coord(to)} (planned)` : '';
    return [`  unit ${u.slot} ${t.name} hp ${u.hp}/${t.hp} at ${coord(u)}${move}`];
  });
  return lines.length > 0 ? `your units:\n${lines.join('\n')}` : 'your units: none left';
}

function attackLine(board: Rules['board'], o: AttackOption): string {
  const b = zoneBounds(board, o.zone);
  const seen = o.seen
    .map((s) => `seat ${s.player} ${s.unitType}${s.at ? ` at ${coord(s.at)}` : ''} (turn ${s.turn})`)
    .join(', ');
  const targets =
    o.targets.length > 0
      ? `targets: ${o.targets.map((t) => `${coord(t.at)} (unit ${t.slots.join('/')})`).join(' ')}`
      : 'no tile of it visible and in range';
  return `  attack ${o.zone}: zone ${o.zone} (cols ${b.col0}-${b.col1}, rows ${b.row0}-${b.row1}): ${seen}; ${targets}`;
}

/** The legal options this turn: each unit's destinations, and each sighted zone's attack targets. */
export function renderOptions(
  obs: Observation,
  rules: Rules,
  attacked: ReadonlySet<number> = new Set(),
): string {
  const moves = moveOptions(obs);
  const lines = ['moves (move <unit> <col> <row>):'];
  for (const u of obs.ownUnits) {
    if (!u) continue;
    const t = rules.unitTypes[u.type]!;
    const to = moves[u.slot]!;
    if (t.structure || t.speed === 0) lines.push(`  unit ${u.slot} ${t.name}: a structure, stays`);
    else if (to.length === 0) lines.push(`  unit ${u.slot} ${t.name}: no legal destination, stays`);
    else lines.push(`  unit ${u.slot} ${t.name} (speed ${t.speed}): ${to.map(coord).join(' ')}`);
  }
  const attacks = attackOptions(obs, rules, attacked);
  if (attacks.length === 0) lines.push('attacks: no enemy sighted');
  else
    lines.push('attacks (attack <zone> [<col> <row>]):', ...attacks.map((o) => attackLine(rules.board, o)));
  return lines.join('\n');
}

export const TURN_HELP = `commands:
  move <unit> <col> <row>     plan a move (also <col>,<row>); the last one for a unit counts
  attack <zone> [<col> <row>] attack a sighted zone now (the turn goes on after the combat)
  end                         play the turn with the planned moves
  pass                        play the turn without moving
  map                         show the map, units and options again
  help                        this list
  quit                        leave the game (your seat will run out of time)`;

export const SPAWN_HELP = `commands:
  spawn <unit> <col> <row>    place a unit on a tile of your start area (also <col>,<row>)
  end                         spawn with the placement shown (pass does the same)
  map                         show the map and the placement again
  help                        this list
  quit                        leave the game`;
