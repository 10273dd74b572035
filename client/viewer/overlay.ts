/** The marks of one replay frame over its map: sighting labels, moves, attacks, enemies, own units. */
import type { Layout } from '../render/layout.ts';
import { zoneBox } from '../render/layout.ts';
import { attackMark, enemyMark, escapeXml, moveMark, unitMark } from '../render/marks.ts';
import type { Replay, ReplayTurn } from './replay.ts';

/**
 * Sightings grouped by zone: the zones to outline, each with a one-line label of who was seen there
 * (each seat's unit type once, with its latest turn: a zone and a combat reveal may name the same unit).
 */
export function sightedZones(r: Replay, f: ReplayTurn): Map<number, string> {
  const byZone = new Map<number, Map<string, number>>();
  const name = (t: number) => r.ruleset.unitTypes[t]?.name ?? `type ${t}`;
  for (const s of f.sightings) {
    const seen = byZone.get(s.zone) ?? new Map<string, number>();
    const who = `seat ${s.player} ${name(s.unitType)}`;
    seen.set(who, Math.max(s.turn, seen.get(who) ?? 0));
    byZone.set(s.zone, seen);
  }
  return new Map(
    [...byZone].map(([zone, seen]) => [
      zone,
      [...seen].map(([who, turn]) => `${who} (turn ${turn})`).join(', '),
    ]),
  );
}

export function frameOverlay(r: Replay, f: ReplayTurn, size: number): (L: Layout) => string {
  const name = (t: number) => r.ruleset.unitTypes[t]?.name ?? `type ${t}`;
  return (L) => {
    const out: string[] = [];
    for (const [zone, label] of sightedZones(r, f)) {
      const box = zoneBox(r.board, L, zone);
      out.push(
        `<text class="sighting" data-zone="${zone}" x="${(box.x + 3).toFixed(1)}" y="${(box.y + 12).toFixed(1)}" font-size="11" fill="#ff8a8a" stroke="#000" stroke-width="3" paint-order="stroke">${escapeXml(label)}</text>`,
      );
    }
    for (const m of f.moves) out.push(moveMark(L.centre(m.from), L.centre(m.to), size, { slot: m.slot }));
    for (const s of f.sightings) {
      if (s.col === undefined || s.row === undefined) continue;
      const c = { col: s.col, row: s.row };
      out.push(enemyMark(L.centre(c), size, `seat ${s.player} ${name(s.unitType)} (turn ${s.turn})`, c));
    }
    for (const a of f.attacks) {
      const d = { col: a.target.col, row: a.target.row, turn: a.turn };
      out.push(attackMark(L.centre(a.target), size, a.side, a.outcome, a.killed === true, d));
    }
    for (const u of f.units) {
      const type = name(u.type);
      const title = `${type} (slot ${u.slot}) ${u.hp}/${r.ruleset.unitTypes[u.type]?.hp} hp at (${u.col},${u.row})`;
      out.push(
        unitMark(L.centre(u), size, type.slice(0, 1).toUpperCase(), title, {
          slot: u.slot,
          col: u.col,
          row: u.row,
        }),
      );
    }
    return out.join('');
  };
}
