import { type BotPlan, planTurn } from '../../client/bot.ts';
import type { Observation } from '../../client/sdk/observation.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import { verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { ReplayRecorder } from '../../client/viewer/recorder.ts';
import { REPLAY_VERSION, type Replay } from '../../client/viewer/replay.ts';
import { leafCoord, makeBoard, tileCoord, tileIndex, zoneOf } from '../../core/geometry.ts';
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

/** Seat 0's and seat 1's addresses in the scripted fight's chain events. */
const ME = { address: '0xa0', players: ['0xa0', '0xb1'] };

/**
 * A scripted fight against a seat 1 the sim does not play, fed to the model and the recorder exactly as
 * the SDK would (zone reveals, combat outcome events, the player's own combat answers). Before own turn:
 * 2 seat 1 reveals a scout and our attack hits it; 3 our attack fizzles; 4 seat 1 hits our infantry;
 * 5 seat 1 kills our scout; 6 our attack stays pending.
 */
function fightTurn(m: DealtMap, p: PlayerModel, rec: ReplayRecorder, turn: number): void {
  const units = p.units;
  const visible = p
    .fog()
    .flatMap((f, i) => (f === 1 ? [tileCoord(m.board, i)] : []))
    .filter((c) => !units.some((u) => u && u.col === c.col && u.row === c.row));
  const target = visible[turn % visible.length]!;
  const scout = m.ruleset.unitTypes.findIndex((t) => t.name === 'scout');
  const attack = (outcome: 'hit' | 'fizzle' | 'pending') => {
    rec.attackMade({ turn, defender: 1, target });
    const at = { attacker: ME.address, defender: ME.players[1]!, ...target, tx: '0x', block: 0 };
    if (outcome === 'fizzle') rec.chainEvents([{ kind: 'CombatFizzled', ...at }], ME);
    if (outcome === 'hit') {
      rec.chainEvents([{ kind: 'CombatResolved', ...at, unitType: scout, hpBefore: 6, killed: false }], ME);
      p.recordSighting({
        player: 1,
        coord: target,
        zone: zoneOf(m.board, target),
        unitType: 'scout',
        turn,
        source: 'combat',
      });
    }
  };
  const struck = (slot: number, damage: number) => {
    const u = units[slot]!;
    const killed = u.hp <= damage;
    rec.combatAnswered(
      {
        seat: 0,
        attacker: 1,
        target: { col: u.col, row: u.row },
        present: true,
        unitType: u.type,
        hpBefore: u.hp,
        killed,
        proofMs: 0,
        gas: 0n,
      },
      turn - 1,
    );
    p.setUnits(units.map((v, i) => (i !== slot ? v : killed ? null : { ...u, hp: u.hp - damage })));
  };
  if (turn === 2) {
    p.applyOpponentTurn({
      player: 1,
      turn: turn - 1,
      zoneReveals: [{ zone: zoneOf(m.board, target), unitType: 'scout' }],
    });
    attack('hit');
  }
  if (turn === 3) attack('fizzle');
  if (turn === 4) struck(1, 3);
  if (turn === 5) struck(2, 99);
  if (turn === 6) attack('pending');
}

export interface SimOptions {
  /** Also play the scripted fight (sightings, attacks made and received, a unit lost) into the replay. */
  fight?: boolean;
}

/**
 * Plays one bot alone for `turns` turns against an honest fake dealer: the plan's moves become the new
 * slots, the reveal list is served and verified against the root, and the model applies the turn. The
 * replay is recorded from the player's own model and reports, as the demo's bots record theirs.
 */
export function simulate(m: DealtMap, turns: number, seed: bigint | number = 1n, o: SimOptions = {}) {
  const p = new PlayerModel({ ruleset: m.ruleset, seat: 0, units: spawnUnits(m) });
  const steps: SimStep[] = [];
  const rec = new ReplayRecorder();
  rec.frame(p);
  for (let turn = 1; turn <= turns; turn++) {
    if (o.fight) fightTurn(m, p, rec, turn);
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
    rec.frame(p);
  }
  const replay: Replay = {
    version: REPLAY_VERSION,
    ruleset: m.ruleset,
    board: makeBoard(m.board.kind, m.board.width, m.board.height),
    seat: 0,
    turns: rec.turns,
  };
  return { player: p, steps, replay, leafToIndex: (l: number) => tileIndex(m.board, leafCoord(m.board, l)!) };
}
