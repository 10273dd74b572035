import { type BotPlan, planTurn } from '../../client/bot.ts';
import type { Observation } from '../../client/sdk/observation.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import { verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { frameOf, type Replay } from '../../client/viewer/replay.ts';
import { leafCoord, tileIndex } from '../../core/geometry.ts';
import type { Slots } from '../../core/state.ts';
import { type DealtMap, serve } from './fixture.ts';

export interface SimStep {
  obs: Observation;
  plan: BotPlan;
  undiscovered: number;
}

/** Spawn units in seat 0's start area: hq, infantry, scout in the first free slots. */
export function spawnUnits(m: DealtMap): Slots {
  const a = m.ruleset.startAreas[0]!;
  const slots: Slots = m.ruleset.spawn.map((name, k) => {
    const type = m.ruleset.unitTypes.findIndex((t) => t.name === name);
    return { type, hp: m.ruleset.unitTypes[type]!.hp, col: a.col0 + k, row: a.row0 + 1 + (k % 2) };
  });
  return [...slots, ...Array(m.ruleset.unitSlots - slots.length).fill(null)];
}

/**
 * Plays one bot alone for `turns` turns against an honest fake dealer: the plan's moves become the new
 * slots, the reveal list is served and verified against the root, and the model applies the turn.
 */
export function simulate(m: DealtMap, turns: number, seed: bigint | number = 1n) {
  const p = new PlayerModel({ ruleset: m.ruleset, seat: 0, units: spawnUnits(m) });
  const steps: SimStep[] = [];
  const replay: Replay = { ruleset: m.ruleset, board: m.board, seat: 0, turns: [frameOf(p)] };
  for (let turn = 1; turn <= turns; turn++) {
    const obs = p.observe();
    const plan = planTurn(obs, m.ruleset, seed);
    p.setUnits(p.units.map((u, slot) => (u && plan.moves[slot] ? { ...u, ...plan.moves[slot] } : u)));
    const tiles = verifyRevealedTiles(
      m.h,
      m.board,
      m.root,
      plan.reveal,
      plan.reveal.map((l) => serve(m, l)),
    );
    p.applyTurn({ turn, visibleTiles: p.visionOf(), tiles });
    steps.push({ obs, plan, undiscovered: p.fog().filter((f) => f === 0).length });
    replay.turns.push(frameOf(p));
  }
  return { player: p, steps, replay, leafToIndex: (l: number) => tileIndex(m.board, leafCoord(m.board, l)!) };
}
