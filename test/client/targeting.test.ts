/**
 * The bot's enemy tracking (`belief.ts`) and target choice (`targeting.ts`) on hand-built intel: what a
 * reveal, an absence, a published mask, a fizzle and a hit each do to where the bot will strike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { occupancy, sightZones, trackEnemies } from '../../client/belief.ts';
import type { EnemyTurnIntel, IntelEvent } from '../../client/intel.ts';
import { intelFromEvents } from '../../client/intel.ts';
import type { GameEvent } from '../../client/sdk/chain.ts';
import type { Observation } from '../../client/sdk/observation.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import { chooseAttack, uniformOdds } from '../../client/targeting.ts';
import { type Coord, tileIndex, zoneOf, zoneTiles } from '../../core/geometry.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import type { Unit } from '../../core/state.ts';

const r = shippedRuleset('duel');
const b = r.board;
const n = b.width * b.height;
const type = (name: string) => r.unitTypes.findIndex((t) => t.name === name);
const INF = type('infantry');
const HQ = type('hq');
const ANY = { minRatio: 0, minP: 0 };

/** This seat (0) with `units` at their tiles, after a turn: its observation and its watched zones. */
function seat0(units: Coord[]): { obs: Observation; watched: number[] } {
  const slots: (Unit | null)[] = new Array(r.unitSlots).fill(null);
  units.forEach((c, i) => {
    slots[i] = { type: INF, hp: r.unitTypes[INF]!.hp, ...c };
  });
  const m = new PlayerModel({ ruleset: r, seat: 0, units: slots });
  m.applyTurn({ turn: 0, visibleTiles: m.visionOf(), tiles: [] });
  return { obs: m.observe(), watched: [...m.watchedZones()].sort((a, c) => a - c) };
}

const turn = (
  t: number,
  watched: number[],
  reveals: { zone: number; unitType: number }[] = [],
): EnemyTurnIntel => ({
  kind: 'turn',
  player: 1,
  turn: t,
  watched,
  reveals,
});

/** Seat 1's spawn, then `quiet` turns nobody watched: its mobile units may be anywhere near by now. */
const approach = (quiet: number): IntelEvent[] =>
  Array.from({ length: quiet + 1 }, (_, k) => turn(2 * k + 1, []));

const idx = (c: Coord) => tileIndex(b, c);

describe('enemy tracking', () => {
  it('starts every unit of the spawn list uniformly in its start area', () => {
    const beliefs = trackEnemies(r, new Array(n).fill(-1), [turn(1, [])]);
    assert.equal(beliefs.length, r.spawn.length);
    const a = r.startAreas[1]!;
    const area = (a.col1 - a.col0 + 1) * (a.row1 - a.row0 + 1);
    for (const u of beliefs) {
      assert.ok(Math.abs(u.p[idx({ col: a.col0, row: a.row0 })]! - 1 / area) < 1e-12);
      assert.equal(u.p[idx({ col: 0, row: 0 })], 0);
    }
  });

  it('puts revealed units in their zone (two reveals, two units) and none in a watched zone without one', () => {
    const { watched } = seat0([{ col: 20, row: 12 }]);
    const zone = zoneOf(b, { col: 20, row: 12 });
    const log = [
      ...approach(6),
      turn(15, watched, [
        { zone, unitType: INF },
        { zone, unitType: INF },
      ]),
    ];
    const occ = occupancy(trackEnemies(r, new Array(n).fill(-1), log), 1, n);
    const inZone = zoneTiles(b, zone).reduce((s, c) => s + occ[idx(c)]!, 0);
    assert.ok(inZone > 1.9 && inZone <= 2, `expected ≈2 units in zone ${zone}, got ${inZone}`);
    const empty = trackEnemies(r, new Array(n).fill(-1), [...approach(6), turn(15, watched)]);
    for (const u of empty.filter((v) => !r.unitTypes[v.unitType]!.structure))
      for (const c of zoneTiles(b, zone)) assert.equal(u.p[idx(c)], 0);
  });

  it('keeps each unit where every zone it sees is in its published mask', () => {
    // The zones seat 1's start area spans; a unit that sees beyond them is not where it could.
    const a = r.startAreas[1]!;
    const mask = [
      ...new Set([a.row0, a.row1].flatMap((row) => [a.col0, a.col1].map((col) => zoneOf(b, { col, row })))),
    ];
    assert.equal(mask.length, 4, 'the area straddles two zone columns and two zone rows');
    const spawn = trackEnemies(r, new Array(n).fill(-1), [turn(1, [])]);
    const masked = trackEnemies(r, new Array(n).fill(-1), [{ ...turn(1, []), mask }]);
    masked.forEach((u, k) => {
      const sees = sightZones(r, r.unitTypes[u.unitType]!.vision);
      u.p.forEach((v, x) => {
        if (v > 0)
          assert.ok(
            sees[x]!.every((z) => mask.includes(z)),
            `${x} sees outside the mask`,
          );
      });
      const kept = u.p.filter((v) => v > 0).length;
      const before = spawn[k]!.p.filter((v) => v > 0).length;
      assert.ok(
        kept > 0 && kept < before,
        `${r.unitTypes[u.unitType]!.name}: ${kept} of ${before} tiles kept`,
      );
    });
  });
});

describe('target choice', () => {
  const me = { col: 20, row: 12 };
  const { obs, watched } = seat0([me]);
  const zone = zoneOf(b, me);
  const sighted = [...approach(6), turn(15, watched, [{ zone, unitType: INF }])];
  const terrain = obs.terrain;

  it('a fizzled tile is never guessed again for the same sighting; a new enemy turn reopens it', () => {
    const log = [...sighted];
    const guessed: number[] = [];
    for (;;) {
      const c = chooseAttack(r, obs, trackEnemies(r, terrain, log), log, { policy: ANY });
      if (!c) break;
      const x = idx(c.target);
      assert.ok(!guessed.includes(x), `(${c.target.col},${c.target.row}) guessed twice`);
      assert.equal(zoneOf(b, c.target), zone);
      guessed.push(x);
      log.push({ kind: 'combat', defender: 1, ...c.target, hit: false });
    }
    assert.equal(guessed.length, 7, 'every tile in range was tried once (range 1: 7 tiles)');
    // The enemy moved since: the same tiles may hold it again.
    log.push(turn(17, watched, [{ zone, unitType: INF }]));
    assert.ok(chooseAttack(r, obs, trackEnemies(r, terrain, log), log, { policy: ANY }));
  });

  it('a structure never moves: its fizzled tiles stay empty after later turns', () => {
    // Inside seat 1's start area, where its hq stands.
    const near = { col: r.startAreas[1]!.col0 + 1, row: 12 };
    const home = seat0([near]);
    const z = zoneOf(b, near);
    const log: IntelEvent[] = [turn(1, home.watched, [{ zone: z, unitType: HQ }])];
    const tried = new Set<number>();
    for (let k = 0; k < 3; k++) {
      const c = chooseAttack(r, home.obs, trackEnemies(r, home.obs.terrain, log), log, { policy: ANY });
      assert.ok(c);
      assert.ok(!tried.has(idx(c.target)));
      tried.add(idx(c.target));
      log.push({ kind: 'combat', defender: 1, ...c.target, hit: false });
      log.push(turn(3 + 2 * k, home.watched, [{ zone: z, unitType: HQ }]));
    }
    const hq = trackEnemies(r, home.obs.terrain, log).find((u) => u.unitType === HQ)!;
    for (const x of tried) assert.equal(hq.p[x], 0);
  });

  it('after a hit that did not kill, the next attacker strikes the same tile for certain', () => {
    const first = chooseAttack(r, obs, trackEnemies(r, terrain, sighted), sighted, { policy: ANY })!;
    const log: IntelEvent[] = [
      ...sighted,
      { kind: 'combat', defender: 1, ...first.target, hit: true, unitType: INF, killed: false },
    ];
    const next = chooseAttack(r, obs, trackEnemies(r, terrain, log), log, {
      policy: ANY,
      attacked: new Set([5]),
    })!;
    assert.deepEqual(next.target, first.target);
    assert.ok(next.p > 0.999);
  });

  it('attacks only when the odds beat a uniform guess over the zone by the policy margin', () => {
    const beliefs = trackEnemies(r, terrain, sighted);
    const loose = chooseAttack(r, obs, beliefs, sighted, { policy: ANY })!;
    assert.equal(loose.uniform, 1 / 64);
    assert.equal(
      chooseAttack(r, obs, beliefs, sighted, {
        policy: { minRatio: loose.p / loose.uniform + 0.01, minP: 0 },
      }),
      null,
    );
    assert.ok(
      chooseAttack(r, obs, beliefs, sighted, {
        policy: { minRatio: loose.p / loose.uniform - 0.01, minP: 0 },
      }),
    );
    // A slot that already attacked this turn does not attack again.
    assert.equal(chooseAttack(r, obs, beliefs, sighted, { policy: ANY, attacked: new Set([0]) }), null);
  });
});

describe('uniform odds', () => {
  it('counts the latest turn’s revealed units in the zone over its on-board tiles, less kills since', () => {
    const edge = zoneOf(b, { col: 0, row: 25 }); // the bottom row of zones has 2 rows: 16 tiles
    const log: IntelEvent[] = [
      turn(
        1,
        [edge, 7],
        [
          { zone: edge, unitType: INF },
          { zone: 7, unitType: INF },
        ],
      ),
    ];
    assert.equal(uniformOdds(b, log, 1, edge), 1 / 16);
    assert.equal(uniformOdds(b, log, 1, 7), 1 / 64);
    log.push({ kind: 'combat', defender: 1, col: 0, row: 25, hit: true, unitType: INF, killed: true });
    assert.equal(uniformOdds(b, log, 1, edge), 0);
    log.push(turn(3, [7], []));
    assert.equal(uniformOdds(b, log, 1, 7), 0);
  });
});

describe('intel from chain events', () => {
  const players = [
    '0x00000000000000000000000000000000000000aa',
    '0x00000000000000000000000000000000000000bb',
  ];
  const at = (tx: string) => ({ tx, block: 1 });
  it('groups each enemy turn with its reveals in watched zones, adds its mask, and records combats', () => {
    const events: GameEvent[] = [
      { kind: 'TurnSubmitted', player: players[0]!, turn: 4, commitment: 1n, ...at('a') },
      { kind: 'ZoneReveal', player: players[0]!, zone: 3, unitType: 1, ...at('a') },
      { kind: 'ZoneReveal', player: players[1]!, zone: 7, unitType: 1, ...at('b') },
      { kind: 'ZoneReveal', player: players[1]!, zone: 9, unitType: 0, ...at('b') },
      { kind: 'TurnSubmitted', player: players[1]!, turn: 5, commitment: 1n, ...at('b') },
      { kind: 'CombatFizzled', attacker: players[0]!, defender: players[1]!, col: 3, row: 4, ...at('c') },
      {
        kind: 'CombatResolved',
        attacker: players[1]!,
        defender: players[0]!,
        col: 1,
        row: 1,
        unitType: 0,
        hpBefore: 10,
        killed: false,
        ...at('d'),
      },
    ];
    const intel = intelFromEvents(events, {
      players,
      me: 0,
      watched: new Set([7, 8]),
      masks: new Map([[1, { turn: 5, zones: [7, 9] }]]),
    });
    assert.deepEqual(intel, [
      {
        kind: 'turn',
        player: 1,
        turn: 5,
        watched: [7, 8],
        reveals: [{ zone: 7, unitType: 1 }],
        mask: [7, 9],
      },
      { kind: 'combat', defender: 1, col: 3, row: 4, hit: false },
    ]);
    // A mask read after a later turn belongs to that turn, not this one.
    const stale = intelFromEvents(events, {
      players,
      me: 0,
      watched: new Set([7]),
      masks: new Map([[1, { turn: 7, zones: [1] }]]),
    });
    assert.equal((stale[0] as EnemyTurnIntel).mask, undefined);
  });
});
