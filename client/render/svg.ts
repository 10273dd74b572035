import { type Board, edgeCount } from '../../core/geometry.ts';
import type { Tile } from '../../core/tile.ts';
import { type Layout, layoutFor, zoneBox } from './layout.ts';
import { zoneMark } from './marks.ts';
import { FEATURE_GLYPHS, RESOURCE_GLYPHS, RIVER_COLOUR, TERRAIN_COLOURS } from './palette.ts';

/** How a viewer shows a tile: unknown tiles are never drawn, remembered ones are dimmed. */
export type TileView = 'undiscovered' | 'explored' | 'visible';

export interface SvgOptions {
  /** Hex radius or square side in pixels. */
  size?: number;
  /** Per-tile view, row-major; omitted means everything visible (the omniscient map). */
  view?: readonly TileView[];
  /** Zones to outline as last-seen enemy positions. */
  markedZones?: readonly number[];
  /** Marks drawn over everything (units, moves, attacks): never tile data, so fog stays exact. */
  overlay?: (layout: Layout) => string;
}

const fmt = (n: number) => n.toFixed(1);

/**
 * Renders a map as standalone SVG. `tiles[i]` may be null where the viewer has no data; such tiles,
 * and every undiscovered tile, are painted black without their contents, so fog never leaks.
 */
export function renderSvg(b: Board, tiles: readonly (Tile | null)[], opts: SvgOptions = {}): string {
  const size = opts.size ?? 10;
  const L = layoutFor(b, size);
  const cells: string[] = [];
  const rivers: string[] = [];
  const marks: string[] = [];
  for (let row = 0; row < b.height; row++) {
    for (let col = 0; col < b.width; col++) {
      const i = row * b.width + col;
      const c = { col, row };
      const view = opts.view?.[i] ?? 'visible';
      const t = tiles[i];
      const points = L.corners(c)
        .map((p) => `${fmt(p.x)},${fmt(p.y)}`)
        .join(' ');
      if (view === 'undiscovered' || !t) {
        cells.push(
          `<polygon class="fog" data-col="${col}" data-row="${row}" points="${points}" fill="#000"/>`,
        );
        continue;
      }
      const dim = view === 'explored' ? ' opacity="0.45"' : '';
      cells.push(
        `<polygon class="tile ${view}" data-col="${col}" data-row="${row}" data-terrain="${t.terrain}" points="${points}" fill="${TERRAIN_COLOURS[t.terrain]}"${dim}/>`,
      );
      const glyph = FEATURE_GLYPHS[t.feature] + RESOURCE_GLYPHS[t.resource];
      if (glyph && size >= 6) {
        const o = L.centre(c);
        cells.push(
          `<text x="${fmt(o.x)}" y="${fmt(o.y + size * 0.3)}" font-size="${fmt(size * 0.8)}" text-anchor="middle" fill="#123"${dim}>${glyph}</text>`,
        );
      }
      for (let d = 0; d < edgeCount(b.kind); d++) {
        if (!((t.rivers >> d) & 1)) continue;
        const [p, q] = L.edge(c, d);
        rivers.push(`<line x1="${fmt(p.x)}" y1="${fmt(p.y)}" x2="${fmt(q.x)}" y2="${fmt(q.y)}"${dim}/>`);
      }
    }
  }
  for (const z of opts.markedZones ?? []) marks.push(zoneMark(zoneBox(b, L, z), { zone: z }));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(L.width)}" height="${Math.ceil(L.height)}" viewBox="0 0 ${fmt(L.width)} ${fmt(L.height)}">`,
    `<rect width="100%" height="100%" fill="#000"/>`,
    `<g class="cells" stroke="#00000022" stroke-width="0.5">${cells.join('')}</g>`,
    `<g class="rivers" stroke="${RIVER_COLOUR}" stroke-width="${fmt(Math.max(1.5, size / 4))}" stroke-linecap="round">${rivers.join('')}</g>`,
    `<g class="zones">${marks.join('')}</g>`,
    `<g class="overlay">${opts.overlay?.(L) ?? ''}</g>`,
    '</svg>',
  ].join('\n');
}
