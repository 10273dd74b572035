/**
 * The terminal player's command language, parsed line by line. Syntax only: whether a move or an attack is
 * legal is `options.ts`'s business. Coordinates are the map's column and row (`5 6`, `5,6` or `(5,6)`).
 */
import type { Coord } from '../../core/geometry.ts';

export type Command =
  | { kind: 'move'; slot: number; to: Coord }
  | { kind: 'attack'; zone: number; target?: Coord }
  | { kind: 'spawn'; slot: number; at: Coord }
  | { kind: 'end' | 'pass' | 'map' | 'help' | 'quit' };

/** A command, or a one-line reason why the line is not one. */
export type Parsed = { ok: true; command: Command } | { ok: false; error: string };

const WORDS = ['move', 'attack', 'spawn', 'end', 'pass', 'map', 'help', 'quit'] as const;

const fail = (error: string): Parsed => ({ ok: false, error });

function nonNegative(s: string | undefined): number | null {
  return s !== undefined && /^\d{1,6}$/.test(s) ? Number(s) : null;
}

/** `<col> <row>`, `<col>,<row>` or `(<col>,<row>)` from the rest of the words; null when malformed. */
function coordOf(words: readonly string[]): Coord | null {
  const parts = words
    .join(' ')
    .replace(/[()]/g, ' ')
    .split(/[\s,]+/)
    .filter(Boolean);
  if (parts.length !== 2) return null;
  const [col, row] = parts.map(nonNegative);
  return col === null || row === null || col === undefined || row === undefined ? null : { col, row };
}

/** Parses one line. Blank lines give null (nothing to do); words are case-insensitive. */
export function parseCommand(line: string): Parsed | null {
  const words = line.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const [word, ...rest] = words as [string, ...string[]];
  switch (word) {
    case 'move':
    case 'spawn': {
      const usage = `usage: ${word} <unit> <col> <row>`;
      const slot = nonNegative(rest[0]);
      if (slot === null) return fail(`${usage} (unit is a slot number)`);
      const c = coordOf(rest.slice(1));
      if (!c) return fail(`${usage} (col and row are whole numbers)`);
      return word === 'move'
        ? { ok: true, command: { kind: 'move', slot, to: c } }
        : { ok: true, command: { kind: 'spawn', slot, at: c } };
    }
    case 'attack': {
      const usage = 'usage: attack <zone> [<col> <row>]';
      const zone = nonNegative(rest[0]);
      if (zone === null) return fail(`${usage} (zone is a number)`);
      if (rest.length === 1) return { ok: true, command: { kind: 'attack', zone } };
      const target = coordOf(rest.slice(1));
      if (!target) return fail(`${usage} (col and row are whole numbers)`);
      return { ok: true, command: { kind: 'attack', zone, target } };
    }
    case 'end':
    case 'pass':
    case 'map':
    case 'help':
    case 'quit':
      if (rest.length > 0) return fail(`${word} takes no argument`);
      return { ok: true, command: { kind: word } };
    default:
      return fail(`unknown command "${word}" (commands: ${WORDS.join(', ')}; help explains them)`);
  }
}
