import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import { gridDistance, tilesInRange } from '../../core/geometry.ts';
import { packSlots } from '../../core/state.ts';
import { type AttackArgs, attackWitness } from '../../core/witness/inputs.ts';
import { type Loaded, load, P, ROOT, randomSlots, rawTarget, rejects, rng, str } from './helpers.ts';

function randomAttack(c: Loaded, seed: number): AttackArgs | undefined {
  const r = c.ruleset;
  const g = rng(seed);
  const slots = randomSlots(r, g);
  const attackers = slots.flatMap((u, i) => (u && r.unitTypes[u.type]!.attackRange > 0 ? [i] : []));
  if (attackers.length === 0) return undefined;
  const slot = g.pick(attackers);
  const u = slots[slot]!;
  const metric = r.board.kind === 'hex' ? 'hex' : 'chebyshev';
  const target = g.pick(tilesInRange(r.board, metric, u, r.unitTypes[u.type]!.attackRange));
  return {
    gameId: g.field(),
    player: BigInt(g.int(2 ** 31)),
    turn: BigInt(g.int(500)),
    slots,
    blinding: g.field(),
    revealCommit: g.field(),
    slot,
    target,
    mapRoot: g.field(),
  };
}

for (const name of ['tiny', 'tiny-square']) {
  describe(`attack circuit, ruleset ${name}`, () => {
    test('nullifier and public signals equal the reference on 200 random legal attacks', async () => {
      const c = await load(name, 'attack');
      let n = 0;
      for (let seed = 1; n < 200; seed++) {
        const args = randomAttack(c, seed * 31337);
        if (!args) continue;
        const plan = attackWitness(c.ruleset, c.h, args);
        const w = await c.witness(plan.input);
        assert.deepEqual(c.publicOf(w), plan.publicSignals, `seed ${seed}`);
        n++;
      }
    });

    test('out of range, no attack range, dead slot, wrong commitment, bad target, forged nullifier', async () => {
      const c = await load(name, 'attack');
      const r = c.ruleset;
      const inf = { type: 0, hp: 5, col: 5, row: 5 };
      const bld = { type: 3, hp: 20, col: 9, row: 9 };
      const slots = [inf, bld, null, null];
      const base: AttackArgs = {
        gameId: 1n,
        player: 2n,
        turn: 4n,
        slots,
        blinding: 99n,
        revealCommit: 55n,
        mapRoot: ROOT,
        slot: 0,
        target: { col: 6, row: 5 },
      };
      const plan = attackWitness(r, c.h, base);
      const w = await c.witness(plan.input);
      assert.ok(c.satisfies(w));
      /** The public target word for another tile (same player and turn), packed without validation. */
      const at = (col: number, row: number) => str(rawTarget(2n, 4n, col, row));
      assert.equal(at(6, 5), plan.input.target, 'the test packs the target as the builder does');
      // Target two tiles away for a range-1 unit.
      const far = { col: 7, row: 5 };
      assert.equal(gridDistance(r.board.kind, inf, far), 2);
      assert.throws(() => attackWitness(r, c.h, { ...base, target: far }), InputError);
      assert.ok(await rejects(c, { ...plan.input, target: at(7, 5) }));
      // Every tile at distance ≥ 2 is rejected, every tile within 1 accepted.
      for (let col = 3; col <= 7; col++) {
        for (let row = 3; row <= 7; row++) {
          const ok = gridDistance(r.board.kind, inf, { col, row }) <= 1;
          const input = { ...plan.input, target: at(col, row) };
          assert.equal(await rejects(c, input), !ok, `(${col},${row})`);
        }
      }
      // A building (attack range 0) attacking its own tile.
      assert.throws(
        () => attackWitness(r, c.h, { ...base, slot: 1, target: { col: 9, row: 9 } }),
        InputError,
      );
      assert.ok(await rejects(c, { ...plan.input, sel: ['0', '1', '0', '0'], target: at(9, 9) }));
      // An empty slot, two slots at once.
      assert.ok(await rejects(c, { ...plan.input, sel: ['0', '0', '1', '0'], target: at(0, 0) }));
      assert.ok(await rejects(c, { ...plan.input, sel: ['1', '1', '0', '0'] }));
      assert.ok(await rejects(c, { ...plan.input, commit: str((plan.commit + 1n) % P) }));
      // The stored play commitment binds the reveal commitment too: another one does not open it.
      assert.ok(await rejects(c, { ...plan.input, revealCommit: '56' }));
      // Target off the board, a target word with bits above its 212-bit layout, or wrapped.
      assert.ok(await rejects(c, { ...plan.input, target: at(r.grid.width, 5) }));
      assert.ok(await rejects(c, { ...plan.input, target: str(BigInt(at(6, 5)) + (1n << 212n)) }));
      assert.ok(await rejects(c, { ...plan.input, target: str(P - 1n) }));
      // Claiming another slot index for the nullifier: the output is pinned.
      const bad = w.slice();
      bad[1] = c.h.hash([99n, 1n, 4n]);
      assert.equal(c.satisfies(bad), false);
      // A unit placed next to the target by a forged state still needs the matching commitment.
      const moved = packSlots([{ ...inf, col: 6 }, bld, null, null], 4);
      assert.ok(await rejects(c, { ...plan.input, words: moved.map(str) }));
      assert.throws(() => attackWitness(r, c.h, { ...base, turn: P }), InputError);
    });

    test('P8 combat (root binding): the stored play commitment opens only under its own map root', async () => {
      const c = await load(name, 'attack');
      const inf = { type: 0, hp: 5, col: 5, row: 5 };
      const base: AttackArgs = {
        gameId: 1n,
        player: 2n,
        turn: 4n,
        slots: [inf, null, null, null],
        blinding: 99n,
        revealCommit: 55n,
        mapRoot: ROOT,
        slot: 0,
        target: { col: 6, row: 5 },
      };
      const plan = attackWitness(c.ruleset, c.h, base);
      await c.witness(plan.input);
      assert.equal(plan.input.mapRoot, str(ROOT));
      // The same state and reveal list under another root make another commitment: the stored one is not opened.
      for (const other of [ROOT + 1n, 0n, P - 1n])
        assert.ok(await rejects(c, { ...plan.input, mapRoot: str(other) }), `root ${other}`);
      const elsewhere = attackWitness(c.ruleset, c.h, { ...base, mapRoot: ROOT + 1n });
      assert.notEqual(elsewhere.commit, plan.commit, 'the root is inside the commitment');
      assert.ok(
        await rejects(c, { ...elsewhere.input, commit: str(plan.commit) }),
        'opened under another root',
      );
    });
  });
}
