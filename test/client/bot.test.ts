import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planTurn } from '../../client/bot.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import { verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import {
  gridDistance,
  leafCoord,
  onBoard,
  tileCoord,
  tileIndex,
  zoneOf,
  zoneTiles,
} from '../../core/geometry.ts';
import { isPassable, type Terrain } from '../../core/tile.ts';
import { dealtMap } from './fixture.ts';
import { simulate, spawnUnits } from './sim.ts';

for (const name of ['tiny', 'tiny-square']) {
  describe(`bot on ${name}`, async () => {
    const m = await dealtMap(name, 4242n, 99n);
    const { steps, player } = simulate(m, 20, 7n);

    it('makes only legal moves: within speed, on the board, inside the move mask; structures stay', () => {
      for (const { obs, plan } of steps) {
        assert.equal(plan.moves.length, m.ruleset.unitSlots);
        plan.moves.forEach((dest, slot) => {
          const u = obs.ownUnits[slot];
          if (!u) {
            assert.equal(dest, null);
            return;
          }
          const type = m.ruleset.unitTypes[u.type]!;
          if (type.structure) {
            assert.equal(dest, null);
            return;
          }
          if (!dest) return;
          assert.ok(onBoard(m.board, dest));
          assert.ok(gridDistance(m.board.kind, u, dest) <= type.speed);
          assert.ok(obs.moveMask[slot]!.includes(tileIndex(m.board, dest)));
        });
      }
    });

    it('reveals at most maxRevealedTiles distinct tiles, all within the new vision, undiscovered first', () => {
      const p = new PlayerModel({ ruleset: m.ruleset, seat: 0, units: spawnUnits(m) });
      for (const { obs, plan } of steps) {
        assert.ok(plan.reveal.length <= m.ruleset.maxRevealedTiles);
        assert.equal(new Set(plan.reveal).size, plan.reveal.length);
        const moved = obs.ownUnits.map((u) =>
          u ? { type: u.type, hp: u.hp, ...(plan.moves[u.slot] ?? { col: u.col, row: u.row }) } : null,
        );
        const vision = p.visionOf(moved);
        const indices = plan.reveal.map((l) => tileIndex(m.board, leafCoord(m.board, l)!));
        for (const i of indices) assert.ok(vision.has(i), `tile ${i} outside the new vision`);
        const newlySeen = [...vision].filter((i) => obs.fog[i] === 0).length;
        const undiscoveredPicked = indices.filter((i) => obs.fog[i] === 0).length;
        assert.equal(undiscoveredPicked, Math.min(newlySeen, m.ruleset.maxRevealedTiles));
      }
    });

    it('explores: the fog shrinks over 20 turns', () => {
      const counts = steps.map((s) => s.undiscovered);
      const total = m.board.width * m.board.height;
      for (let k = 1; k < counts.length; k++) assert.ok(counts[k]! <= counts[k - 1]!);
      assert.ok(counts.at(-1)! < counts[0]!, `fog did not shrink: ${counts.join(',')}`);
      assert.ok(
        counts.at(-1)! < total * 0.5,
        `explored too little: ${counts.at(-1)} of ${total} still unseen`,
      );
      assert.ok(player.revealedTiles().size > 20 * m.ruleset.maxRevealedTiles * 0.5);
    });

    it('is deterministic for a given seed', () => {
      const again = simulate(m, 20, 7n).steps.map((s) => s.plan);
      assert.deepEqual(
        again,
        steps.map((s) => s.plan),
      );
      const other = simulate(m, 20, 8n).steps.map((s) => s.plan);
      assert.notDeepEqual(other, again, 'the seed should matter');
    });

    it('attacks a sighted zone only with better than uniform odds; an exact sighting in range at once', () => {
      const p = new PlayerModel({ ruleset: m.ruleset, seat: 0, units: spawnUnits(m) });
      const leaves: number[] = [];
      const tiles = verifyRevealedTiles(m.h, m.board, m.root, leaves, []);
      p.applyTurn({ turn: 0, visibleTiles: p.visionOf(), tiles });
      assert.equal(planTurn(p.observe(), m.ruleset, 1n).attack, undefined, 'no sighting, no attack');
      const u = p.units[1]!;
      const zone = zoneOf(m.board, u);
      p.applyOpponentTurn({ player: 1, turn: 1, zoneReveals: [{ zone, unitType: 'infantry' }] });
      // A zone reveal alone puts the unit anywhere in the zone: a guess would be a uniform one.
      assert.equal(planTurn(p.observe(), m.ruleset, 1n).attack, undefined, 'no better than a uniform guess');
      const plan = planTurn(p.observe(), m.ruleset, 1n, { policy: { minRatio: 0, minP: 0 } });
      assert.ok(plan.attack, 'expected an attack under a policy that takes any odds');
      const { slot, target } = plan.attack;
      const attacker = p.units[slot]!;
      assert.ok(p.targetable(target));
      assert.equal(zoneOf(m.board, target), zone);
      assert.ok(
        gridDistance(m.board.kind, attacker, target) <= m.ruleset.unitTypes[attacker.type]!.attackRange,
      );
      assert.ok(plan.attack.p > 0 && plan.attack.p < 0.1, `p ${plan.attack.p}`);
      assert.equal(plan.attack.uniform, 1 / zoneTiles(m.board, zone).length);
      // A combat showed an enemy unit on a tile next to ours (it survived): strike it, for certain.
      const next = { col: u.col + 1, row: u.row };
      p.recordSighting({
        player: 1,
        coord: next,
        zone: zoneOf(m.board, next),
        unitType: 'scout',
        turn: 2,
        source: 'combat',
      });
      const strike = planTurn(p.observe(), m.ruleset, 1n);
      assert.deepEqual(strike.attack?.target, next);
      assert.equal(strike.attack?.p, 1);
      assert.deepEqual(planTurn(p.observe(), m.ruleset, 1n), strike, 'same seed, same plan');
      // Lost sightings stop the attacks.
      p.applyOpponentTurn({ player: 1, turn: 3, zoneReveals: [] });
      assert.equal(planTurn(p.observe(), m.ruleset, 1n).attack, undefined);
    });

    it('refuses an observation from another board', () => {
      const obs = steps[0]!.obs;
      assert.throws(() => planTurn({ ...obs, width: obs.width + 1 }, m.ruleset, 1n), TypeError);
      assert.ok(tileCoord(m.board, 0));
    });
  });
}

describe('bot on tiny-pass (passability proofs)', async () => {
  const m = await dealtMap('tiny-pass', 4242n, 99n);
  const { steps } = simulate(m, 20, 7n);

  it('moves only onto tiles whose verified terrain is passable', () => {
    let moves = 0;
    for (const { obs, plan } of steps) {
      plan.moves.forEach((dest, slot) => {
        if (!dest) return;
        moves++;
        const i = tileIndex(m.board, dest);
        assert.ok(obs.moveMask[slot]!.includes(i));
        assert.ok(
          obs.terrain[i] !== -1 && isPassable(obs.terrain[i] as Terrain),
          `(${dest.col},${dest.row})`,
        );
      });
    }
    assert.ok(moves >= 10, `the bot keeps moving: ${moves} moves in 20 turns`);
  });

  it('reveals unserved tiles within its units’ reach first (next turn’s possible destinations)', () => {
    for (const { obs, plan } of steps) {
      const reach = new Set<number>();
      obs.ownUnits.forEach((u) => {
        if (!u || m.ruleset.unitTypes[u.type]!.speed === 0) return;
        const at = plan.moves[u.slot] ?? u;
        const speed = m.ruleset.unitTypes[u.type]!.speed;
        obs.fog.forEach((_, i) => {
          if (gridDistance(m.board.kind, at, tileCoord(m.board, i)) <= speed) reach.add(i);
        });
      });
      const indices = plan.reveal.map((l) => tileIndex(m.board, leafCoord(m.board, l)!));
      const inReach = indices.map((i) => reach.has(i) && obs.terrain[i] === -1);
      // Reachable unserved tiles form a prefix of the reveal list.
      const firstOther = inReach.indexOf(false);
      if (firstOther !== -1) assert.ok(!inReach.slice(firstOther).includes(true), `${inReach}`);
    }
  });
});
