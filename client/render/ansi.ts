import type { Board } from '../../core/geometry.ts';
import { Feature, type Tile } from '../../core/tile.ts';
import { TERRAIN_ANSI } from './palette.ts';
import type { TileView } from './svg.ts';

/** Terminal rendering: two cells per tile, odd hex rows indented by one, fogged tiles blank. */
export function renderAnsi(b: Board, tiles: readonly (Tile | null)[], view?: readonly TileView[]): string {
  const lines: string[] = [];
  for (let row = 0; row < b.height; row++) {
    let line = b.kind === 'hex' && row & 1 ? ' ' : '';
    for (let col = 0; col < b.width; col++) {
      const i = row * b.width + col;
      const t = tiles[i];
      const v = view?.[i] ?? 'visible';
      if (!t || v === 'undiscovered') {
        line += '\x1b[0m  ';
        continue;
      }
      const glyph = t.rivers
        ? '~'
        : t.feature === Feature.FOREST
          ? '♣'
          : t.feature === Feature.MARSH
            ? '≈'
            : ' ';
      const fg = t.rivers ? '38;5;39' : '38;5;22';
      const dim = v === 'explored' ? '2;' : '';
      line += `\x1b[${dim}${fg};48;5;${TERRAIN_ANSI[t.terrain]}m${glyph} `;
    }
    lines.push(`${line}\x1b[0m`);
  }
  return lines.join('\n');
}
