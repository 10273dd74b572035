/**
 * The map: the fogged SVG of client/render/svg.ts (an undiscovered or unserved tile is black, whatever the page
 * holds) with the page's overlays on top — the start area, the selected unit's reachable tiles, attack targets,
 * queued moves — and own units last. Every clickable thing carries a stable data-testid.
 */

import type { Board, Coord } from '@shroud/core/geometry.ts';
import type { Area } from '@shroud/core/ruleset/types.ts';
import type { Tile } from '@shroud/core/tile.ts';
import { layoutFor } from '../render/layout.ts';
import { renderSvg, type TileView } from '../render/svg.ts';

export interface MapUnit extends Coord {
  slot: number;
  name: string;
  hp: number;
}

export interface MapPicture {
  board: Board;
  view: readonly TileView[];
  tiles: readonly (Tile | null)[];
  markedZones: readonly number[];
  units: readonly MapUnit[];
  moves: readonly (Coord | null)[];
  selected: number | null;
  reach: readonly Coord[];
  targets: readonly Coord[];
  area: Area | null;
  size: number;
}

const fmt = (n: number) => n.toFixed(1);
const key = (c: Coord) => `${c.col}-${c.row}`;

export function mapSvg(p: MapPicture): string {
  const L = layoutFor(p.board, p.size);
  const poly = (c: Coord) =>
    L.corners(c)
      .map((q) => `${fmt(q.x)},${fmt(q.y)}`)
      .join(' ');
  const over: string[] = [];
  if (p.area) {
    for (let row = p.area.row0; row <= p.area.row1; row++)
      for (let col = p.area.col0; col <= p.area.col1; col++)
        over.push(
          `<polygon class="area" data-testid="area-${col}-${row}" data-col="${col}" data-row="${row}" points="${poly({ col, row })}"/>`,
        );
  }
  for (const c of p.reach)
    over.push(
      `<polygon class="reach" data-testid="reach-${key(c)}" data-col="${c.col}" data-row="${c.row}" points="${poly(c)}"/>`,
    );
  for (const c of p.targets)
    over.push(
      `<polygon class="target" data-testid="target-${key(c)}" data-col="${c.col}" data-row="${c.row}" points="${poly(c)}"/>`,
    );
  for (const u of p.units) {
    const to = p.moves[u.slot];
    if (!to) continue;
    const a = L.centre(u);
    const b = L.centre(to);
    over.push(
      `<line class="queued" data-testid="queued-${u.slot}" x1="${fmt(a.x)}" y1="${fmt(a.y)}" x2="${fmt(b.x)}" y2="${fmt(b.y)}"/>`,
    );
  }
  for (const u of p.units) {
    const o = L.centre(u);
    const sel = p.selected === u.slot ? ' selected' : '';
    over.push(
      `<g class="unit${sel}" data-testid="unit-${u.slot}" data-slot="${u.slot}" data-col="${u.col}" data-row="${u.row}">` +
        `<circle cx="${fmt(o.x)}" cy="${fmt(o.y)}" r="${fmt(p.size * 0.55)}"/>` +
        `<text x="${fmt(o.x)}" y="${fmt(o.y + p.size * 0.25)}" font-size="${fmt(p.size * 0.7)}" text-anchor="middle">${u.name[0]!.toUpperCase()}</text></g>`,
    );
  }
  const base = renderSvg(p.board, p.tiles, { view: p.view, markedZones: p.markedZones, size: p.size });
  return base.replace(/<\/svg>$/, `<g class="overlay">${over.join('')}</g></svg>`);
}

/** What a click on the map hit: an own unit, or a tile (overlay or map cell). */
export type MapHit = { kind: 'unit'; slot: number } | { kind: 'tile'; at: Coord } | null;

export function mapHit(target: EventTarget | null): MapHit {
  const el = (target as Element | null)?.closest?.('[data-slot], [data-col]');
  if (!el) return null;
  const slot = el.getAttribute('data-slot');
  if (slot !== null) return { kind: 'unit', slot: Number(slot) };
  return {
    kind: 'tile',
    at: { col: Number(el.getAttribute('data-col')), row: Number(el.getAttribute('data-row')) },
  };
}
