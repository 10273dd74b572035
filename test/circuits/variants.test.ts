import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Unit } from '../../core/state.ts';
import { turnWitness } from '../../core/witness/inputs.ts';
import {
  load,
  playOf,
  ROOT,
  randomMasks,
  randomMoves,
  randomReveals,
  randomSlots,
  rejects,
  rng,
  str,
  variant,
} from './helpers.ts';

// Vision models that no shipped ruleset uses, on the tiny boards: Euclidean (square grid) and lit zones (hex).
const euclid = variant('tiny-square', { name: 'tiny-euclid', vision: { model: 'euclidean' } });
const lit = variant('tiny', { name: 'tiny-lit', vision: { model: 'litZones' } });

for (const r of [euclid, lit]) {
  describe(`turn circuit, ${r.name}`, () => {
    test('public outputs equal the reference on 200 random legal turns', async () => {
      const c = await load(r, 'turn');
      for (let seed = 1; seed <= 200; seed++) {
        const g = rng(seed * 613);
        const oldSlots = randomSlots(r, g);
        const newSlots = randomMoves(r, g, oldSlots);
        const plan = turnWitness(r, c.h, {
          player: 1n,
          seat: 0,
          turn: 2n,
          oldSlots,
          oldBlinding: g.field(),
          oldRevealCommit: g.field(),
          newSlots,
          newBlinding: g.field(),
          revealed: randomReveals(r, g, newSlots),
          revealBlinding: g.field(),
          oppMasks: randomMasks(r, g),
          mapRoot: g.field(),
        });
        assert.deepEqual(c.publicOf(await c.witness(plan.input)), plan.publicSignals, `seed ${seed}`);
      }
    });

    test('a revealed tile just outside vision is rejected', async () => {
      const c = await load(r, 'turn');
      const u: Unit = { type: 0, hp: 5, col: 3, row: 3 };
      const slots = [u, null, null, null];
      const base = {
        player: 1n,
        seat: 0,
        turn: 1n,
        oldSlots: slots,
        oldBlinding: 1n,
        oldRevealCommit: 4n,
        newSlots: slots,
        newBlinding: 2n,
        revealBlinding: 3n,
        oppMasks: [0n],
        mapRoot: ROOT,
      };
      // Euclidean r = 2: (5,4) is at d² = 5 > 4 (Chebyshev would allow it); lit: (8,3) is in the next zone.
      const inside = r.name === 'tiny-euclid' ? { col: 5, row: 3 } : { col: 7, row: 7 };
      const outside = r.name === 'tiny-euclid' ? { col: 5, row: 4 } : { col: 8, row: 3 };
      assert.throws(() => turnWitness(r, c.h, { ...base, revealed: [outside] }), /not within/);
      const plan = turnWitness(r, c.h, { ...base, revealed: [inside] });
      await c.witness(plan.input);
      const leaf = BigInt(
        outside.col >= 8 ? 64 + outside.row * 8 + (outside.col - 8) : outside.row * 8 + outside.col,
      );
      const forged = {
        ...plan.input,
        tileCol: [str(outside.col), ...(plan.input.tileCol as string[]).slice(1)],
        tileRow: [str(outside.row), ...(plan.input.tileRow as string[]).slice(1)],
        // The play commitment over the forged reveal list (lib/state.circom), so only vision can reject it.
        newCommit: playOf(c, 2n, plan.input.newWords as string[], c.h.hash([3n, leaf + 1n]), ROOT),
      };
      assert.ok(await rejects(c, forged));
    });
  });
}
