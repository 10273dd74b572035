/**
 * SVG marks drawn over a map: own units, moves, enemy sightings and attacks. Each takes pixel positions
 * and the tile size, so the map and its legend draw the very same shapes. Marks never carry tile data.
 */
import { MARK_COLOURS } from './palette.ts';

export interface Point {
  x: number;
  y: number;
}

export type AttackSide = 'made' | 'received';
export type AttackOutcome = 'hit' | 'fizzle' | 'pending';

const fmt = (n: number) => n.toFixed(1);

/** Text for SVG content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `data-*` attributes, values escaped. */
const data = (d: Record<string, string | number>) =>
  Object.entries(d)
    .map(([k, v]) => ` data-${k}="${escapeXml(String(v))}"`)
    .join('');

/** An own unit: a disc with its type's initial; `title` shows on hover. */
export function unitMark(
  o: Point,
  size: number,
  initial: string,
  title: string,
  d: Record<string, string | number> = {},
): string {
  return (
    `<g class="unit"${data(d)}><title>${escapeXml(title)}</title>` +
    `<circle cx="${fmt(o.x)}" cy="${fmt(o.y)}" r="${fmt(size * 0.55)}" fill="${MARK_COLOURS.ownUnit}" stroke="#000" stroke-width="1"/>` +
    `<text x="${fmt(o.x)}" y="${fmt(o.y + size * 0.25)}" font-size="${fmt(size * 0.7)}" text-anchor="middle" fill="#000">${escapeXml(initial)}</text></g>`
  );
}

/** A move: a line from `p` stopping short of `q`, with an arrowhead pointing at `q`. */
export function moveMark(p: Point, q: Point, size: number, d: Record<string, string | number> = {}): string {
  const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  const [ux, uy] = [(q.x - p.x) / len, (q.y - p.y) / len];
  const head = size * 0.5;
  const tip = { x: q.x - ux * size * 0.6, y: q.y - uy * size * 0.6 };
  const base = { x: tip.x - ux * head, y: tip.y - uy * head };
  const wing = (s: number) => `${fmt(base.x - uy * head * 0.6 * s)},${fmt(base.y + ux * head * 0.6 * s)}`;
  const c = MARK_COLOURS.move;
  return (
    `<g class="move"${data(d)}>` +
    `<line x1="${fmt(p.x)}" y1="${fmt(p.y)}" x2="${fmt(base.x)}" y2="${fmt(base.y)}" stroke="${c}" stroke-width="${fmt(Math.max(1.5, size / 6))}"/>` +
    `<polygon points="${fmt(tip.x)},${fmt(tip.y)} ${wing(1)} ${wing(-1)}" fill="${c}"/></g>`
  );
}

/** An enemy unit known at an exact tile (a combat reveal): a red diamond. */
export function enemyMark(
  o: Point,
  size: number,
  title: string,
  d: Record<string, string | number> = {},
): string {
  const r = size * 0.5;
  return (
    `<g class="enemy"${data(d)}><title>${escapeXml(title)}</title>` +
    `<polygon points="${fmt(o.x)},${fmt(o.y - r)} ${fmt(o.x + r)},${fmt(o.y)} ${fmt(o.x)},${fmt(o.y + r)} ${fmt(o.x - r)},${fmt(o.y)}" fill="${MARK_COLOURS.enemy}" stroke="#000" stroke-width="1"/></g>`
  );
}

/** A sighted enemy zone: a dashed red outline. */
export function zoneMark(
  box: { x: number; y: number; width: number; height: number },
  d: Record<string, string | number> = {},
): string {
  return `<rect class="enemy-zone"${data(d)} x="${fmt(box.x)}" y="${fmt(box.y)}" width="${fmt(box.width)}" height="${fmt(box.height)}" fill="none" stroke="${MARK_COLOURS.enemy}" stroke-width="2" stroke-dasharray="4 3"/>`;
}

const DASH: Readonly<Record<AttackOutcome, string>> = {
  hit: '',
  fizzle: ' stroke-dasharray="3 2"',
  pending: ' stroke-dasharray="1 2"',
};

/**
 * An attack on a tile: a ring coloured by side (made: gold, received: magenta), solid with a cross on a
 * hit, dashed on a fizzle, dotted while pending; filled when the unit hit was killed.
 */
export function attackMark(
  o: Point,
  size: number,
  side: AttackSide,
  outcome: AttackOutcome,
  killed: boolean,
  d: Record<string, string | number> = {},
): string {
  const c = side === 'made' ? MARK_COLOURS.attackMade : MARK_COLOURS.attackReceived;
  const r = size * 0.8;
  const w = fmt(Math.max(1.5, size / 6));
  const k = r * 0.55;
  const cross =
    outcome === 'hit'
      ? `<path d="M${fmt(o.x - k)} ${fmt(o.y - k)}L${fmt(o.x + k)} ${fmt(o.y + k)}M${fmt(o.x + k)} ${fmt(o.y - k)}L${fmt(o.x - k)} ${fmt(o.y + k)}" stroke="${c}" stroke-width="${w}"/>`
      : '';
  const fill = killed ? `${c}88` : 'none';
  return (
    `<g class="attack ${side} ${outcome}${killed ? ' killed' : ''}"${data(d)}>` +
    `<circle cx="${fmt(o.x)}" cy="${fmt(o.y)}" r="${fmt(r)}" fill="${fill}" stroke="${c}" stroke-width="${w}"${DASH[outcome]}/>${cross}</g>`
  );
}
