/** The legend: every colour and mark the map can show, each drawn with the very function the map uses. */
import type { Ruleset } from '../../core/ruleset/types.ts';
import type { Feature, Resource, Terrain } from '../../core/tile.ts';
import { attackMark, enemyMark, escapeXml, moveMark, unitMark, zoneMark } from '../render/marks.ts';
import {
  FEATURE_GLYPHS,
  FEATURE_NAMES,
  RESOURCE_GLYPHS,
  RESOURCE_NAMES,
  RIVER_COLOUR,
  TERRAIN_COLOURS,
  TERRAIN_NAMES,
} from '../render/palette.ts';

const S = 12;
const c = { x: S, y: S };
const swatch = (svg: string) =>
  `<svg width="${2 * S}" height="${2 * S}" viewBox="0 0 ${2 * S} ${2 * S}">${svg}</svg>`;
const box = (fill: string, extra = '') =>
  `<rect x="3" y="3" width="${2 * S - 6}" height="${2 * S - 6}" fill="${fill}" stroke="#555"${extra}/>`;
const glyph = (g: string) =>
  `${box('#b5c267')}<text x="${S}" y="${S + 4}" font-size="11" text-anchor="middle" fill="#123">${g}</text>`;
const item = (svg: string, text: string, kind: string) =>
  `<li data-legend="${kind}">${swatch(svg)}<span>${escapeXml(text)}</span></li>`;
const entries = <K extends number, V>(o: Readonly<Record<K, V>>) => Object.entries(o) as unknown as [K, V][];

export function legendHtml(r: Ruleset): string {
  const terrain = entries<Terrain, string>(TERRAIN_COLOURS).map(([t, fill]) =>
    item(box(fill), TERRAIN_NAMES[t], `terrain-${t}`),
  );
  const features = entries<Feature, string>(FEATURE_GLYPHS)
    .filter(([, g]) => g)
    .map(([f, g]) => item(glyph(g), FEATURE_NAMES[f], `feature-${f}`));
  const resources = entries<Resource, string>(RESOURCE_GLYPHS)
    .filter(([, g]) => g)
    .map(([k, g]) => item(glyph(g), `resource: ${RESOURCE_NAMES[k]}`, `resource-${k}`));
  const units = r.unitTypes.map((u, i) =>
    item(unitMark(c, S, u.name.slice(0, 1).toUpperCase(), u.name), `your ${u.name}`, `unit-${i}`),
  );
  const map = [
    item(box('#6aa84f', ' opacity="0.45"'), 'explored: served earlier, not in view now (dimmed)', 'explored'),
    item(box('#000'), 'fog: never served to you (nothing is known there)', 'fog'),
    item(
      `<line x1="3" y1="${S}" x2="${2 * S - 3}" y2="${S}" stroke="${RIVER_COLOUR}" stroke-width="3"/>`,
      'river',
      'river',
    ),
  ];
  const marks = [
    item(moveMark({ x: 2, y: S }, { x: 2 * S + 5, y: S }, S), 'your move this turn (from → to)', 'move'),
    item(
      zoneMark({ x: 3, y: 3, width: 2 * S - 6, height: 2 * S - 6 }),
      'zone where an enemy was sighted (label: seat, unit, turn)',
      'zone',
    ),
    item(enemyMark(c, S, 'enemy'), 'enemy at an exact tile (combat reveal)', 'enemy'),
    item(
      attackMark(c, S * 0.8, 'made', 'pending', false),
      'your attack, outcome pending',
      'attack-made-pending',
    ),
    item(attackMark(c, S * 0.8, 'made', 'hit', false), 'your attack hit', 'attack-made-hit'),
    item(
      attackMark(c, S * 0.8, 'made', 'fizzle', false),
      'your attack fizzled (nobody there)',
      'attack-made-fizzle',
    ),
    item(attackMark(c, S * 0.8, 'received', 'hit', false), 'attack on you that hit', 'attack-received-hit'),
    item(
      attackMark(c, S * 0.8, 'received', 'fizzle', false),
      'attack on you that fizzled',
      'attack-received-fizzle',
    ),
    item(
      attackMark(c, S * 0.8, 'made', 'hit', true),
      'filled ring: the unit hit was killed (a unit lost)',
      'attack-killed',
    ),
  ];
  const section = (title: string, items: string[]) => `<h3>${title}</h3><ul>${items.join('')}</ul>`;
  return [
    section('Map', [...terrain, ...map]),
    section('Features and resources', [...features, ...resources]),
    section('Units', units),
    section('Marks', marks),
  ].join('');
}
