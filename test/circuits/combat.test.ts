import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import type { Coord } from '../../core/geometry.ts';
import { playCommitment, stateCommitment, type Unit } from '../../core/state.ts';
import { type CombatArgs, combatWitness } from '../../core/witness/inputs.ts';
import { type Loaded, load, P, ROOT, randomSlots, rawTarget, rejects, rng, str } from './helpers.ts';

function randomCombat(c: Loaded, seed: number): CombatArgs {
  const r = c.ruleset;
  const g = rng(seed);
  const slots = randomSlots(r, g);
  const alive = slots.filter((u): u is Unit => u !== null);
  // Half the time aim at a unit, else at a random tile (mostly absent).
  const target: Coord =
    alive.length > 0 && g.chance(0.5)
      ? { col: g.pick(alive).col, row: g.pick(alive).row }
      : { col: g.int(r.board.width), row: g.int(r.board.height) };
  return {
    gameId: g.field(),
    player: BigInt(g.int(2 ** 31)),
    turn: BigInt(g.int(500)),
    slots,
    blinding: g.field(),
    revealCommit: g.field(),
    target,
    damage: g.int(12),
    mapRoot: g.field(),
  };
}

/** An infantry (hp 5) alone on (5,5) in slot 1, hit there for 2. */
function infantryHit(): CombatArgs {
  return {
    gameId: 1n,
    player: 2n,
    turn: 3n,
    slots: [null, { type: 0, hp: 5, col: 5, row: 5 }, null, null],
    blinding: 77n,
    revealCommit: 66n,
    mapRoot: ROOT,
    target: { col: 5, row: 5 },
    damage: 2,
  };
}

for (const name of ['tiny', 'tiny-square']) {
  describe(`combat circuit, ruleset ${name}`, () => {
    test('presence, absence, damage and kills equal the reference on 200 random cases', async () => {
      const c = await load(name, 'combat');
      let present = 0;
      let killed = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const args = randomCombat(c, seed * 7877);
        const plan = combatWitness(c.ruleset, c.h, args);
        const w = await c.witness(plan.input);
        assert.deepEqual(c.publicOf(w), plan.publicSignals, `seed ${seed}`);
        const state = stateCommitment(c.h, plan.after, c.ruleset.unitSlots, args.blinding);
        assert.equal(plan.newCommit, playCommitment(c.h, state, args.revealCommit, args.mapRoot));
        if (plan.present) present++;
        if (plan.present && plan.after.filter(Boolean).length < args.slots.filter(Boolean).length) killed++;
      }
      assert.ok(present > 40 && present < 180, `${present} presences`);
      assert.ok(killed > 5, `${killed} kills`);
    });

    test('claiming absence while present, presence while absent, and editing outputs', async () => {
      const c = await load(name, 'combat');
      const args = infantryHit();
      const plan = combatWitness(c.ruleset, c.h, args);
      assert.equal(plan.present, true);
      const w = await c.witness(plan.input);
      assert.ok(c.satisfies(w));
      // Hiding the unit: an all-zero selector.
      assert.ok(await rejects(c, { ...plan.input, sel: ['0', '0', '0', '0'] }));
      // Naming an empty slot or a unit elsewhere.
      assert.ok(await rejects(c, { ...plan.input, sel: ['1', '0', '0', '0'] }));
      // Each claim is pinned: the target word's outcome fields present (bit 220), type (bit 221) and hp (bit 225),
      // and the new commitment (e.g. hp not reduced). w = [1, newCommit, gameId, target, oldCommit, …].
      assert.equal(w[3]! >> 220n, 1n | (0n << 1n) | (5n << 5n), 'outcome = present | type << 1 | hp << 5');
      for (const bit of [220n, 221n, 225n, 232n]) {
        const bad = w.slice();
        bad[3] = w[3]! ^ (1n << bit);
        assert.equal(c.satisfies(bad), false, `outcome bit ${bit}`);
      }
      const moved = w.slice();
      moved[1] = (w[1]! + 1n) % P;
      assert.equal(c.satisfies(moved), false, 'new commitment');
      const unhurt = w.slice();
      unhurt[1] = plan.oldCommit;
      assert.equal(c.satisfies(unhurt), false, 'new commitment without damage');
      // The answer keeps the reveal commitment: a new play commitment over another one is refused, and so is an
      // opening of the stored one with another reveal commitment.
      const rebound = w.slice();
      rebound[1] = playCommitment(c.h, plan.stateCommit, 67n, ROOT);
      assert.equal(c.satisfies(rebound), false, 'new commitment with another reveal commitment');
      assert.ok(await rejects(c, { ...plan.input, revealCommit: '67' }));
      // Absent target: claiming presence with any slot fails; the honest answer is absence.
      const away = combatWitness(c.ruleset, c.h, { ...args, target: { col: 6, row: 5 } });
      assert.equal(away.present, false);
      assert.equal(away.newCommit, away.oldCommit);
      for (let k = 0; k < 4; k++) {
        const sel = ['0', '0', '0', '0'];
        sel[k] = '1';
        assert.ok(await rejects(c, { ...away.input, sel }), `slot ${k}`);
      }
      // Wrong commitment, damage out of range, target off the board.
      assert.ok(await rejects(c, { ...plan.input, oldCommit: str((plan.oldCommit + 1n) % P) }));
      const outcome = (1n | (0n << 1n) | (5n << 5n)) << 220n;
      assert.equal(
        plan.input.target,
        str(rawTarget(2n, 3n, 5, 5, 2) | outcome),
        'the test packs the target as the builder does',
      );
      // (damage 256 cannot be written: the 8-bit field would carry into the outcome's present bit; the contract
      // builds damage from a uint8 and the builder refuses it, below.)
      assert.ok(await rejects(c, { ...plan.input, target: str(P - 1n) }), 'wrapped target word');
      assert.ok(
        await rejects(c, { ...plan.input, target: str(rawTarget(2n, 3n, 5, 5, 2) | outcome | (1n << 233n)) }),
        'a bit above the layout',
      );
      const offBoard = rawTarget(2n, 3n, 5, c.ruleset.grid.height, 2) | outcome;
      assert.ok(await rejects(c, { ...plan.input, target: str(offBoard) }), 'row off the board');
      assert.throws(() => combatWitness(c.ruleset, c.h, { ...args, damage: 256 }), InputError);
      assert.throws(() => combatWitness(c.ruleset, c.h, { ...args, slot: 0 }), InputError);
    });

    test('kill at hp ≤ damage empties the slot; hp above damage is reduced', async () => {
      const c = await load(name, 'combat');
      const inf = { type: 0, hp: 5, col: 5, row: 5 };
      const base: CombatArgs = {
        gameId: 1n,
        player: 2n,
        turn: 3n,
        slots: [inf, null, null, null],
        blinding: 5n,
        revealCommit: 6n,
        mapRoot: ROOT,
        target: { col: 5, row: 5 },
        damage: 4,
      };
      const hurt = combatWitness(c.ruleset, c.h, base);
      assert.deepEqual(hurt.after[0], { ...inf, hp: 1 });
      const dead = combatWitness(c.ruleset, c.h, { ...base, damage: 5 });
      assert.equal(dead.after[0], null);
      for (const plan of [hurt, dead])
        assert.deepEqual(c.publicOf(await c.witness(plan.input)), plan.publicSignals);
    });

    test('P8 combat (root binding): the answer opens the stored commitment under its root and keeps that root', async () => {
      const c = await load(name, 'combat');
      const base = infantryHit();
      // A presence (the state changes) and an absence (newCommit = oldCommit).
      for (const target of [base.target, { col: 6, row: 5 }]) {
        const plan = combatWitness(c.ruleset, c.h, { ...base, target });
        const w = await c.witness(plan.input);
        assert.ok(c.satisfies(w));
        // w = [1, newCommit, gameId, target, oldCommit, …]: the output keeps the root of the opening.
        const state = stateCommitment(c.h, plan.after, c.ruleset.unitSlots, base.blinding);
        assert.equal(w[1], playCommitment(c.h, state, base.revealCommit, ROOT), 'newCommit keeps the root');
        const old = stateCommitment(c.h, base.slots, c.ruleset.unitSlots, base.blinding);
        assert.equal(
          w[4],
          playCommitment(c.h, old, base.revealCommit, ROOT),
          'oldCommit is opened under the root',
        );
        // The new commitment over another root is refused, whatever the root.
        for (const other of [ROOT + 1n, 0n]) {
          const rebound = w.slice();
          rebound[1] = playCommitment(c.h, state, base.revealCommit, other);
          assert.equal(c.satisfies(rebound), false, `new commitment with root ${other}`);
        }
        // Opening the stored commitment with another root fails.
        assert.ok(await rejects(c, { ...plan.input, mapRoot: str(ROOT + 1n) }), 'opened under another root');
        // An honest answer for the same state under another root is a proof about another commitment.
        const elsewhere = combatWitness(c.ruleset, c.h, { ...base, target, mapRoot: ROOT + 1n });
        assert.notEqual(elsewhere.oldCommit, plan.oldCommit);
        assert.ok(
          await rejects(c, { ...elsewhere.input, oldCommit: str(plan.oldCommit) }),
          'the stored commitment opened with another root',
        );
      }
    });
  });
}
