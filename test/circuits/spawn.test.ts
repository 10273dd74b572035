import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import type { Coord } from '../../core/geometry.ts';
import { packSlots, type Unit } from '../../core/state.ts';
import { type SpawnArgs, spawnSlots, spawnWitness } from '../../core/witness/inputs.ts';
import { playSignalCounts } from '../../core/witness/publics.ts';
import { type Loaded, load, P, playOf, randomMasks, randomReveals, rejects, rng, str } from './helpers.ts';

function randomSpawn(c: Loaded, seed: number): SpawnArgs {
  const r = c.ruleset;
  const g = rng(seed);
  const seat = g.int(r.players.max);
  const a = r.startAreas[seat]!;
  const positions: Coord[] = r.spawn.map(() => ({
    col: a.col0 + g.int(a.col1 - a.col0 + 1),
    row: a.row0 + g.int(a.row1 - a.row0 + 1),
  }));
  const slots = spawnSlots(r, positions);
  return {
    gameId: g.field(),
    player: BigInt(g.int(2 ** 31)),
    seat,
    slots,
    blinding: g.field(),
    revealed: randomReveals(r, g, slots),
    revealBlinding: g.field(),
    oppMasks: randomMasks(r, g),
    mapRoot: g.field(),
  };
}

function forge(c: Loaded, args: SpawnArgs, slots: (Unit | null)[]) {
  const plan = spawnWitness(c.ruleset, c.h, args);
  const words = packSlots(slots, c.ruleset.unitSlots);
  return {
    ...plan.input,
    newWords: words.map(str),
    newCommit: playOf(c, args.blinding, words, plan.revealCommit, args.mapRoot),
  };
}

for (const name of ['tiny', 'tiny-square']) {
  describe(`spawn circuit, ruleset ${name}`, () => {
    test('public outputs equal the TypeScript reference on 200 random legal spawns', async () => {
      const c = await load(name, 'spawn');
      let forced = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const plan = spawnWitness(c.ruleset, c.h, randomSpawn(c, seed * 104729));
        const w = await c.witness(plan.input);
        assert.deepEqual(c.publicOf(w), plan.publicSignals, `seed ${seed}`);
        forced += plan.forced.length;
      }
      assert.ok(forced > 50);
    });

    test('units outside the start area, wrong types, wrong hp, extra units, wrong seat', async () => {
      const c = await load(name, 'spawn');
      const args = randomSpawn(c, 3);
      await c.witness(spawnWitness(c.ruleset, c.h, args).input);
      const a = c.ruleset.startAreas[args.seat]!;
      const s = args.slots.map((u) => (u ? { ...u } : null)) as (Unit | null)[];
      const cases: [string, (Unit | null)[]][] = [];
      for (const [dc, dr, label] of [
        [a.col0 - 1 - s[0]!.col, 0, 'left of the area'],
        [a.col1 + 1 - s[0]!.col, 0, 'right of the area'],
        [0, a.row0 - 1 - s[0]!.row, 'above the area'],
        [0, a.row1 + 1 - s[0]!.row, 'below the area'],
      ] as const) {
        const t = s.slice();
        t[0] = { ...s[0]!, col: s[0]!.col + dc, row: s[0]!.row + dr };
        cases.push([label, t]);
      }
      cases.push(['wrong type', s.map((u, i) => (i === 1 && u ? { ...u, type: 1 } : u))]);
      cases.push(['not full hp', s.map((u, i) => (i === 0 && u ? { ...u, hp: u.hp - 1 } : u))]);
      cases.push(['extra unit', s.map((u, i) => (i === c.ruleset.unitSlots - 1 ? { ...s[1]! } : u))]);
      cases.push(['missing unit', s.map((u, i) => (i === 2 ? null : u))]);
      for (const [label, t] of cases) {
        assert.throws(() => spawnWitness(c.ruleset, c.h, { ...args, slots: t }), InputError, label);
        assert.ok(await rejects(c, forge(c, args, t)), label);
      }
      const plan = spawnWitness(c.ruleset, c.h, args);
      // The packed word with another seat (and step), no such seat, or a step other than the seat.
      const seatWord = (seat: bigint, step: bigint) => {
        const w = BigInt((plan.input.packed as string[])[0]!) & ~((1n << 40n) - 1n);
        return [str(w | seat | (step << 8n)), ...(plan.input.packed as string[]).slice(1)];
      };
      assert.ok(await c.witness({ ...plan.input, packed: seatWord(BigInt(args.seat), BigInt(args.seat)) }));
      const other = BigInt(1 - args.seat);
      assert.ok(await rejects(c, { ...plan.input, packed: seatWord(other, other) }), 'the other seat');
      const none = BigInt(c.ruleset.players.max);
      assert.ok(await rejects(c, { ...plan.input, packed: seatWord(none, none) }), 'no such seat');
      assert.ok(
        await rejects(c, { ...plan.input, packed: seatWord(BigInt(args.seat), other) }),
        'step ≠ seat',
      );
      assert.ok(await rejects(c, { ...plan.input, newCommit: str((plan.newCommit + 1n) % P) }), 'commitment');
      // Field wrap: a word of p − 1, and slot 0 shifted one column left through the field.
      assert.ok(
        await rejects(c, {
          ...plan.input,
          newWords: [str(P - 1n)],
          newCommit: playOf(c, args.blinding, [P - 1n], plan.revealCommit, args.mapRoot),
        }),
      );
      const w0 = (packSlots(s, c.ruleset.unitSlots)[0]! - (BigInt(s[0]!.col + 1) << 13n) + P) % P;
      assert.ok(
        await rejects(c, {
          ...plan.input,
          newWords: [str(w0)],
          newCommit: playOf(c, args.blinding, [w0], plan.revealCommit, args.mapRoot),
        }),
      );
      assert.throws(() => spawnWitness(c.ruleset, c.h, { ...args, gameId: P }), InputError);
    });

    test("a revealed tile outside the spawned units' vision", async () => {
      const c = await load(name, 'spawn');
      const args = { ...randomSpawn(c, 11), revealed: [] };
      const plan = spawnWitness(c.ruleset, c.h, args);
      // Seat 0 spawns in columns 2-5, seat 1 in 10-13: the far corner (15, 0) or (0, 11) is out of sight.
      const far = args.seat === 0 ? { col: 15, row: 0 } : { col: 0, row: 11 };
      assert.throws(() => spawnWitness(c.ruleset, c.h, { ...args, revealed: [far] }), /not within/);
      const forge = (t: Coord, k: number) => {
        const zone = Math.floor(t.row / 8) * c.ruleset.board.zonesX + Math.floor(t.col / 8);
        const leaf = BigInt(zone * 64 + (t.row % 8) * 8 + (t.col % 8));
        const cover = (plan.input.cover as string[][]).map((row, i) =>
          i === 0 ? row.map((_, j) => (j === k ? '1' : '0')) : row,
        );
        const present = (plan.input.present as string[]).map((x, i) => (i === 0 ? '1' : x));
        return {
          ...plan.input,
          present,
          cover,
          tileCol: [str(t.col), ...(plan.input.tileCol as string[]).slice(1)],
          tileRow: [str(t.row), ...(plan.input.tileRow as string[]).slice(1)],
          newCommit: playOf(
            c,
            args.blinding,
            plan.input.newWords as string[],
            c.h.hash([args.revealBlinding, leaf + 1n]),
            args.mapRoot,
          ),
        };
      };
      // Control: the same hand-built witness for a unit's own tile is accepted.
      await c.witness(forge(args.slots[0]!, 0));
      for (let k = 0; k < c.ruleset.spawn.length; k++)
        assert.ok(await rejects(c, forge(far, k)), `cover by slot ${k}`);
    });

    test('P3 binding (root): the public map root is the one inside newCommit', async () => {
      const c = await load(name, 'spawn');
      const args = randomSpawn(c, 17);
      const plan = spawnWitness(c.ruleset, c.h, args);
      const w = await c.witness(plan.input);
      assert.ok(c.satisfies(w));
      // Public signals [packed…, gameId, newCommit, mapRoot]: the game's root (which the contract supplies) last.
      const n = plan.publicSignals.length;
      assert.equal(c.art.publicSignals, n);
      assert.deepEqual(plan.publicSignals.slice(-3), [args.gameId, plan.newCommit, args.mapRoot]);
      assert.deepEqual(c.publicOf(w), plan.publicSignals);
      const other = (args.mapRoot + 1n) % P;
      // A proof made with root X and checked against root Y: the public wire edited after the fact (w[n] is the
      // last public signal) breaks the commitment's constraints.
      const edited = w.slice();
      edited[n] = other;
      assert.equal(c.satisfies(edited), false, 'public mapRoot edited after the fact');
      // The same as a witness: root Y claimed with the commitment made under X.
      assert.ok(
        await rejects(c, { ...plan.input, mapRoot: str(other) }),
        'public root ≠ the root in newCommit',
      );
      // newCommit over the same state and reveal list but another root, with the game's root public.
      const words = plan.input.newWords as string[];
      for (const root of [other, 0n]) {
        const newCommit = playOf(c, args.blinding, words, plan.revealCommit, root);
        assert.ok(await rejects(c, { ...plan.input, newCommit }), `newCommit under root ${root}`);
      }
      // Control: the honest spawn under the other root proves, with its own commitment.
      const moved = spawnWitness(c.ruleset, c.h, { ...args, mapRoot: other });
      assert.deepEqual(c.publicOf(await c.witness(moved.input)), moved.publicSignals);
      assert.equal(moved.input.newCommit, playOf(c, args.blinding, words, plan.revealCommit, other));
      assert.notEqual(moved.newCommit, plan.newCommit);
    });

    test('the public signal count is what the contract builds: the packed words, gameId, newCommit, mapRoot', async () => {
      const c = await load(name, 'spawn');
      const plan = spawnWitness(c.ruleset, c.h, randomSpawn(c, 17));
      assert.equal(c.art.publicSignals, plan.publicSignals.length);
      assert.equal(c.art.publicSignals, playSignalCounts(c.ruleset).spawn, 'core/witness/publics.ts');
    });

    test('outputs cannot be edited: zone bitmask and forced reveals', async () => {
      const c = await load(name, 'spawn');
      const args = { ...randomSpawn(c, 9), oppMasks: [(1n << BigInt(c.ruleset.board.zoneCount)) - 1n] };
      const plan = spawnWitness(c.ruleset, c.h, args);
      const w = await c.witness(plan.input);
      assert.ok(c.satisfies(w));
      assert.ok(plan.forced.length > 0, 'a forced reveal to edit');
      // w[1] is packed word 0: the context, then zone bit 0 at bit `at`, then forced lane 0 at bit at + Z.
      const at = BigInt(8 + 32 + (c.ruleset.players.max - 1) * c.ruleset.board.zoneCount);
      for (const bit of [at, at + BigInt(c.ruleset.board.zoneCount)]) {
        const bad = w.slice();
        bad[1] = w[1]! ^ (1n << bit);
        assert.equal(c.satisfies(bad), false, `report bit ${bit}`);
      }
    });
  });
}
