/** The demo's combat summary and the benchmark's metrics, from a hand-written sequence of bot actions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BotAction } from '../../client/bot-player.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { combatMetrics, ownTurn } from '../../scripts/bench-demo.ts';
import { CombatTally } from '../../scripts/demo/combat-tally.ts';

const r = shippedRuleset('duel');
const attack = (seat: number, p: number, uniform: number): BotAction => ({
  kind: 'attack',
  report: { turn: 5, seat, defender: 1 - seat, target: { col: 1, row: 2 }, proofMs: 1, gas: 1n },
  odds: { p, uniform },
});
const answer = (seat: number, present: boolean, killed = false): BotAction => ({
  kind: 'combat',
  report: {
    seat,
    attacker: 1 - seat,
    target: { col: 1, row: 2 },
    present,
    unitType: present ? 1 : 0,
    hpBefore: present ? 6 : 0,
    killed,
    proofMs: 1,
    gas: 1n,
  },
});

describe('combat tally', () => {
  const t = new CombatTally(r);
  for (const a of [
    attack(0, 0.5, 0.02),
    answer(1, true),
    attack(0, 1, 0.02),
    answer(1, true, true),
    attack(1, 0.2, 0.05),
    answer(0, false),
    { kind: 'commit', seat: 0, gas: 1n } as BotAction,
  ])
    t.record(a);

  it('joins each attack with its answer, per seat: hits, fizzles, kills and units lost', () => {
    assert.deepEqual(t.seats(2), [
      { seat: 0, attacks: 2, hits: 2, fizzles: 0, kills: 1, lost: [] },
      { seat: 1, attacks: 1, hits: 0, fizzles: 1, kills: 0, lost: ['scout'] },
    ]);
    assert.deepEqual(t.lines(2), [
      'combat: seat 0 attacked 2 times: 2 hits, 0 fizzles, 1 kill; lost 0 units',
      'combat: seat 1 attacked 1 time: 0 hits, 1 fizzle, 0 kills; lost 1 unit (scout)',
    ]);
  });

  it('refuses an answer without an open attack', () => {
    assert.throws(() => t.record(answer(1, false)), /without an open attack/);
  });

  it('gives the benchmark its rates: hits over attacks against the mean uniform odds of the same attacks', () => {
    const m = combatMetrics([t.attacks, []]);
    assert.equal(m.seeds, 2);
    assert.equal(m.attacks, 3);
    assert.equal(m.hits, 2);
    assert.equal(m.fizzles, 1);
    assert.equal(m.kills, 1);
    assert.equal(m.attack_hit_rate, 0.6667);
    assert.equal(m.attack_hit_rate_uniform, 0.03);
    assert.equal(m.attack_hit_rate_ratio, 22.22);
    assert.equal(m.hits_per_game_median, 1);
    assert.equal(m.games_with_a_hit, 1);
    // Game turn 5 of two seats: seat 1's second turn after the spawns (turns 0, 1).
    assert.equal(m.games_with_an_attack, 1);
    assert.equal(m.first_attack_turn_median, 2);
    assert.equal(m.first_attack_turn_max, 2);
    assert.deepEqual(
      [2, 3, 4, 5].map((t) => ownTurn(t, 2)),
      [1, 1, 2, 2],
    );
  });
});
