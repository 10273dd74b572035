/**
 * The demo's bots against each other in the in-process game (`scripts/demo/sim.ts`: the protocol's rules, no
 * chain or proofs), on fixed duel maps: their attacks are legal (the simulation refuses any other), a tile
 * that fizzled is not attacked again before the enemy moves, and the attacks land far more often than a
 * uniform guess over the revealed zone would. Deterministic: the maps and the bots' seeds are fixed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateMap } from '../../core/generator/index.ts';
import { loadHasher } from '../../core/poseidon.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { DEMO_TURNS } from '../../scripts/demo/game.ts';
import { type SimAttack, simulateGame } from '../../scripts/demo/sim.ts';

// The demo's turns: terrain rules move every unit one tile per turn, so duel's start areas sit 7 columns apart
// for the armies to meet within them (README: Terrain rules).
describe(`the demo bots in the in-process game (duel, the demo's ${DEMO_TURNS} turns each)`, async () => {
  const h = await loadHasher();
  const r = shippedRuleset('duel');
  const games: SimAttack[][] = [];
  for (const mapSeed of [8919n, 16838n, 32676n]) {
    const tiles = generateMap(h, r.board, mapSeed);
    games.push(
      (await simulateGame({ ruleset: r, tiles, turns: DEMO_TURNS, seed: `sim-${mapSeed}` })).attacks,
    );
  }
  const all = games.flat();

  it('fight within the demo: every game has attacks that land', () => {
    for (const [g, attacks] of games.entries())
      assert.ok(
        attacks.some((a) => a.hit),
        `no hit in game ${g}`,
      );
  });

  it('never attack a tile that fizzled earlier in the same turn (the enemy has not moved since)', () => {
    const fizzled = new Set<string>();
    // Per game: the same seat, turn and tile can come up in two different games.
    for (const [g, a] of games.flatMap((attacks, g) => attacks.map((a) => [g, a] as const))) {
      const key = `${g}:${a.seat}:${a.turn}:${a.target.col},${a.target.row}`;
      assert.ok(!fizzled.has(key), `attacked ${key} again after a fizzle`);
      if (!a.hit) fizzled.add(key);
    }
  });

  it('hit at least 3× as often as a uniform guess over the revealed zone would', () => {
    const rate = all.filter((a) => a.hit).length / all.length;
    const uniform = all.reduce((s, a) => s + a.uniform, 0) / all.length;
    assert.ok(uniform > 0 && uniform < 0.2, `uniform odds ${uniform}`);
    assert.ok(rate >= 3 * uniform, `hit rate ${rate} vs uniform ${uniform}`);
  });
});
