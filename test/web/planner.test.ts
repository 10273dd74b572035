/**
 * The page's planner offers only what the rules allow: a click on a tile outside the selected unit's move
 * mask queues nothing, a structure never moves, attacks only on the offered tiles of a sighted zone, and a
 * spawn only inside the start area.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TurnContext, TurnDecision } from '../../client/planner.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import { WebPlanner } from '../../client/web/planner.ts';
import { shippedRuleset } from '../../core/index.ts';
import type { Slots } from '../../core/state.ts';

const r = shippedRuleset('tiny');
// hq (speed 0) at (3,4), infantry (speed 2) at (5,5), scout at (4,6).
const units: Slots = [
  { type: 2, hp: 40, col: 3, row: 4 },
  { type: 0, hp: 10, col: 5, row: 5 },
  { type: 1, hp: 6, col: 4, row: 6 },
  null,
];

function context(model: PlayerModel): TurnContext {
  return { seat: 0, ruleset: r, turn: 2, obs: model.observe(), attacked: new Set() };
}

test('moves: only the move mask is offered and queued; a structure has none', async () => {
  const model = new PlayerModel({ ruleset: r, seat: 0, units });
  model.applyTurn({ turn: 0, visibleTiles: model.visionOf(units), tiles: [] });
  const p = new WebPlanner('t', () => {});
  const decided = p.turn(context(model));
  p.clickUnit(0);
  assert.deepEqual(p.reachable(), [], 'the hq never moves');
  p.clickUnit(1);
  const reach = p.reachable();
  const mask = model.observe().moveMask[1]!.filter((i) => i !== 5 * r.board.width + 5);
  assert.deepEqual(
    reach.map((c) => c.row * r.board.width + c.col).sort((a, b) => a - b),
    mask,
  );
  p.clickTile({ col: 12, row: 5 }); // far beyond speed 2: not offered, nothing queued
  assert.equal(p.state.kind === 'turn' && p.state.moves[1], null);
  p.clickUnit(1);
  p.clickTile(reach[0]!);
  assert.deepEqual(p.state.kind === 'turn' && p.state.moves[1], reach[0]);
  assert.equal(p.canAttack(), false, 'no enemy sighted: no attack offered');
  p.setMode('attack');
  p.clickTile({ col: 9, row: 5 });
  p.end();
  const d = (await decided) as Extract<TurnDecision, { kind: 'turn' }>;
  assert.equal(d.kind, 'turn');
  assert.deepEqual(d.moves, [null, reach[0], null, null]);
  assert.ok(d.reveal.length <= r.maxRevealedTiles);
});

test('attack: only visible tiles of a sighted zone within range are targets', async () => {
  const model = new PlayerModel({ ruleset: r, seat: 0, units });
  model.applyTurn({ turn: 0, visibleTiles: model.visionOf(units), tiles: [] });
  model.recordSighting({ player: 1, zone: 1, unitType: 'infantry', turn: 1, source: 'zoneReveal' });
  const p = new WebPlanner('t', () => {});
  const decided = p.turn(context(model));
  assert.equal(p.canAttack(), false, 'zone 1 (cols 8..15) is out of every unit’s range 1');
  p.end(true);
  assert.deepEqual(((await decided) as { moves: unknown[] }).moves, [null, null, null, null]);

  const near: Slots = [units[0]!, { type: 0, hp: 10, col: 7, row: 5 }, units[2]!, null];
  const m2 = new PlayerModel({ ruleset: r, seat: 0, units: near });
  m2.applyTurn({ turn: 0, visibleTiles: m2.visionOf(near), tiles: [] });
  m2.recordSighting({ player: 1, zone: 1, unitType: 'infantry', turn: 1, source: 'zoneReveal' });
  const q = new WebPlanner('t', () => {});
  const d2 = q.turn(context(m2));
  assert.equal(q.canAttack(), true);
  q.setMode('attack');
  const targets = q.targets();
  assert.ok(targets.length > 0 && targets.every((t) => t.zone === 1 && t.at.col >= 8));
  q.clickTile({ col: 3, row: 4 }); // not a target: back to move mode, nothing decided
  q.setMode('attack');
  q.clickTile(targets[0]!.at);
  assert.deepEqual(await d2, { kind: 'attack', slot: targets[0]!.slots[0], target: targets[0]!.at });
});

test('spawn: a unit moves only within the start area, onto a free tile', async () => {
  const p = new WebPlanner('t', () => {});
  const area = r.startAreas[0]!;
  const placed = p.spawn({
    seat: 0,
    ruleset: r,
    area,
    positions: () => [
      { col: 2, row: 3 },
      { col: 3, row: 3 },
      { col: 4, row: 3 },
    ],
  });
  p.clickUnit(1);
  p.clickTile({ col: 12, row: 5 }); // outside
  p.clickUnit(1);
  p.clickTile({ col: 2, row: 3 }); // taken by unit 0
  p.clickUnit(1);
  p.clickTile({ col: 5, row: 8 });
  p.end();
  assert.deepEqual(await placed, [
    { col: 2, row: 3 },
    { col: 5, row: 8 },
    { col: 4, row: 3 },
  ]);
});
