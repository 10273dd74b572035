/** The turn log: short lines saying what changed in a frame, written from the frame's own data only. */
import type { Ruleset } from '../../core/ruleset/types.ts';
import type { ReplayAttack, ReplaySighting, ReplayTurn } from './replay.ts';

const at = (c: { col: number; row: number }) => `(${c.col},${c.row})`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const where = (s: ReplaySighting) =>
  s.col === undefined ? `in zone ${s.zone}` : `at ${at({ col: s.col, row: s.row! })}`;
const key = (s: ReplaySighting) => `${s.player}|${s.unitType}|${s.zone}|${s.col ?? ''},${s.row ?? ''}`;

function attackLine(r: Ruleset, a: ReplayAttack): string {
  const type = a.unitType === undefined ? '' : (r.unitTypes[a.unitType]?.name ?? `type ${a.unitType}`);
  const hit = `hit ${a.side === 'made' ? 'a' : 'our'} ${type} (${a.hpBefore} hp before)${a.killed ? ', killed' : ''}`;
  const result = a.outcome === 'hit' ? hit : a.outcome === 'fizzle' ? 'fizzled (nobody there)' : 'pending';
  return a.side === 'made'
    ? `attack on ${at(a.target)} → seat ${a.opponent} (turn ${a.turn}): ${result}`
    : `seat ${a.opponent} attacked ${at(a.target)} (turn ${a.turn}): ${result}`;
}

export function turnLog(r: Ruleset, prev: ReplayTurn | null, f: ReplayTurn): string[] {
  const name = (type: number) => r.unitTypes[type]?.name ?? `type ${type}`;
  const out: string[] = [];
  if (!prev) out.push(`${plural(f.units.length, 'unit')} placed`);
  for (const m of f.moves) {
    const u = f.units.find((x) => x.slot === m.slot)!;
    out.push(`${name(u.type)} (slot ${m.slot}) moved ${at(m.from)} → ${at(m.to)}`);
  }
  const known = (t: ReplayTurn | null) => t?.tiles.filter((x) => x !== null).length ?? 0;
  const served = known(f) - known(prev);
  if (served > 0) out.push(`${plural(served, 'tile')} served and verified (${known(f)} known)`);
  for (const a of f.attacks) out.push(attackLine(r, a));
  const before = new Set(prev?.sightings.map(key));
  const now = new Set(f.sightings.map(key));
  for (const s of f.sightings)
    if (!before.has(key(s))) out.push(`sighted seat ${s.player} ${name(s.unitType)} ${where(s)}`);
  for (const s of prev?.sightings ?? [])
    if (!now.has(key(s))) out.push(`lost track of seat ${s.player} ${name(s.unitType)} ${where(s)}`);
  if (out.length === 0) out.push('nothing new');
  return out;
}
