/**
 * The terminal player's screen is a pure function of what the seat knows: hex rows offset and square rows
 * not, fog and known terrain, own units by slot, sighted enemy zones and tiles, the legal options.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlayerModel } from '../../client/sdk/player.ts';
import { type MapView, renderMap, renderOptions, renderUnits } from '../../client/terminal/render.ts';
import { shippedRuleset } from '../../core/index.ts';
import { Terrain } from '../../core/tile.ts';

const tiny = shippedRuleset('tiny');

/** A 10×3 board (two zones across): a few tiles seen, one own unit, an enemy sighted in zone 1. */
function view(kind: 'hex' | 'square'): MapView {
  const W = 10;
  const fog = new Array(30).fill(0);
  const terrain = new Array(30).fill(-1);
  const seen = (col: number, row: number, f: number, t: number) => {
    fog[row * W + col] = f;
    terrain[row * W + col] = t;
  };
  seen(0, 0, 1, Terrain.GRASSLAND);
  seen(1, 0, 1, Terrain.PLAINS);
  seen(2, 0, 2, Terrain.DEEP_WATER); // remembered, not visible: lower case
  seen(0, 1, 1, Terrain.MOUNTAINS);
  seen(1, 1, 1, -1); // the unit's own tile
  seen(2, 1, 1, -1); // seen, never served
  seen(0, 2, 2, Terrain.HILLS);
  seen(8, 1, 1, Terrain.GRASSLAND);
  return {
    kind,
    width: W,
    height: 3,
    fog,
    terrain,
    ownUnits: [null, { slot: 1, type: 0, hp: 7, col: 1, row: 1 }],
    lastSeen: [{ player: 1, zone: 1, unitType: 0, turn: 3, lost: false }],
  };
}

describe('terminal map', () => {
  it('hex: odd rows offset half a cell, fog ?, terrain letters, own unit by slot, sighted zone !', () => {
    assert.equal(
      renderMap(view('hex')),
      [
        '  0 1 2 3 4 5 6 7 8 9',
        '0 G P w ? ? ? ? ? ?!?!',
        '1  M 1 . ? ? ? ? ? G!?!',
        '2 h ? ? ? ? ? ? ? ?!?!',
      ].join('\n'),
    );
  });

  it('square: rows aligned; marked tiles (the start area) carry +', () => {
    assert.equal(
      renderMap(view('square'), { marked: new Set([0, 10]) }),
      [
        '  0 1 2 3 4 5 6 7 8 9',
        '0 G+P w ? ? ? ? ? ?!?!',
        '1 M+1 . ? ? ? ? ? G!?!',
        '2 h ? ? ? ? ? ? ? ?!?!',
      ].join('\n'),
    );
  });

  it('an exact enemy sighting is E on its tile; a lost sighting marks nothing', () => {
    const v = view('square');
    v.lastSeen = [
      { player: 1, zone: 0, unitType: 0, turn: 4, lost: false, col: 3, row: 2 },
      { player: 1, zone: 1, unitType: 1, turn: 2, lost: true },
    ];
    const rows = renderMap(v).split('\n');
    assert.equal(rows[3], '2 h!?!?!E!?!?!?!?!? ?');
    assert.equal(rows[2], '1 M!1!.!?!?!?!?!?!G ?', 'zone 1 unmarked: its sighting is lost');
  });

  it('wide boards get a tens row in the header; two-digit slots fill their cell', () => {
    const w = 12;
    const v: MapView = {
      kind: 'square',
      width: w,
      height: 1,
      fog: new Array(w).fill(0),
      terrain: new Array(w).fill(-1),
      ownUnits: [{ slot: 11, type: 0, hp: 1, col: 10, row: 0 }],
      lastSeen: [],
    };
    assert.equal(
      renderMap(v),
      [`${' '.repeat(22)}1 1`, '  0 1 2 3 4 5 6 7 8 9 0 1', '0 ? ? ? ? ? ? ? ? ? ? 11?'].join('\n'),
    );
  });
});

describe('terminal units and options', () => {
  const units = [
    { type: 2, hp: 40, col: 3, row: 4 },
    { type: 0, hp: 10, col: 4, row: 5 },
    { type: 1, hp: 6, col: 4, row: 6 },
    null,
  ];
  const model = new PlayerModel({ ruleset: tiny, seat: 0, units });
  model.applyTurn({ turn: 0, visibleTiles: model.visionOf(), tiles: [] });

  it('lists each living unit with hp, position and its planned move', () => {
    assert.equal(
      renderUnits(model.observe().ownUnits, tiny, [null, { col: 5, row: 5 }]),
      [
        'your units:',
        '  unit 0 hq hp 40/40 at 3,4',
        '  unit 1 infantry hp 10/10 at 4,5 → 5,5 (planned)',
        '  unit 2 scout hp 6/6 at 4,6',
      ].join('\n'),
    );
  });

  it('lists the move mask of each mobile unit; structures stay; no sighting, no attack', () => {
    const text = renderOptions(model.observe(), tiny);
    assert.match(text, /^ {2}unit 0 hq: a structure, stays$/m);
    // Infantry, speed 2 on a hex board: the 18 other tiles within 2 steps.
    const infantry = /^ {2}unit 1 infantry \(speed 2\): (.*)$/m.exec(text)![1]!.split(' ');
    assert.equal(infantry.length, 18);
    assert.ok(infantry.includes('6,5') && infantry.includes('5,3') && !infantry.includes('4,5'));
    assert.match(text, /^attacks: no enemy sighted$/m);
  });

  it('lists a sighted zone with its bounds and the targets in range', () => {
    const m = new PlayerModel({ ruleset: tiny, seat: 0, units });
    m.applyTurn({ turn: 0, visibleTiles: m.visionOf(), tiles: [] });
    m.recordSighting({ player: 1, zone: 0, unitType: 'infantry', turn: 0, source: 'zoneReveal' });
    const text = renderOptions(m.observe(), tiny);
    const line =
      /^ {2}attack 0: zone 0 \(cols 0-7, rows 0-7\): seat 1 infantry \(turn 0\); targets: (.*)$/m.exec(text);
    assert.ok(line, text);
    assert.match(line[1]!, /4,5 \(unit 1\/2\)/, 'the infantry’s own tile: in range of itself and the scout');
    assert.doesNotMatch(line[1]!, /\b7,5\b/, 'out of every range');
    assert.match(renderOptions(m.observe(), tiny, new Set([0, 1, 2])), /no tile of it visible and in range/);
  });
});
