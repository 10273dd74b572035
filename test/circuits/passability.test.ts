import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { leafHash } from '../../core/commitments.ts';
import { InputError } from '../../core/errors.ts';
import { type Coord, leafIndex } from '../../core/geometry.ts';
import { buildTree, merklePath } from '../../core/merkle.ts';
import { packSlots, type Unit } from '../../core/state.ts';
import { isPassable, type Tile } from '../../core/tile.ts';
import { type DestinationProof, type TurnArgs, turnWitness } from '../../core/witness/inputs.ts';
import {
  load,
  randomMasks,
  randomMoves,
  randomReveals,
  randomSlots,
  rejects,
  rng,
  str,
  variant,
} from './helpers.ts';

const r = variant('tiny', { name: 'tiny-pass', provePassability: true });

describe('turn with passability (tiny-pass)', async () => {
  const c = await load(r, 'turn');
  const g = rng(2024);
  const tiles = new Map<number, { tile: Tile; salt: bigint }>();
  const leaves: bigint[] = new Array(r.board.zoneCount * 64).fill(0n);
  for (let row = 0; row < r.board.height; row++) {
    for (let col = 0; col < r.board.width; col++) {
      // Mostly passable land, some water and mountains.
      const terrain = g.pick([0, 1, 2, 3, 3, 4, 5, 5, 6, 2, 3]) as Tile['terrain'];
      const tile: Tile = {
        terrain,
        feature: g.int(3) as Tile['feature'],
        resource: g.int(6) as Tile['resource'],
        rivers: g.int(64),
      };
      const salt = g.field();
      const leaf = leafIndex(r.board, { col, row });
      tiles.set(leaf, { tile, salt });
      leaves[leaf] = leafHash(c.h, tile, salt);
    }
  }
  const tree = buildTree(c.h, leaves, r.board.depth);
  const opening = (t: Coord): DestinationProof => {
    const leaf = leafIndex(r.board, t);
    return { ...tiles.get(leaf)!, path: merklePath(tree, leaf) };
  };
  const passable = (t: Coord) => isPassable(tiles.get(leafIndex(r.board, t))!.tile.terrain);
  const withPass = (a: Omit<TurnArgs, 'passability'>): TurnArgs => ({
    ...a,
    passability: {
      mapRoot: tree.root,
      destinations: a.newSlots.map((u, i) => {
        const o = a.oldSlots[i];
        return u && o && (u.col !== o.col || u.row !== o.row) ? opening(u) : null;
      }),
    },
  });

  test('public outputs equal the reference on 100 random legal turns onto passable tiles', async () => {
    let moves = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const h = rng(seed * 97);
      const oldSlots = randomSlots(r, h);
      // Re-draw moves until every destination is passable (staying is always allowed).
      const newSlots = randomMoves(r, h, oldSlots).map((u, i) => (u && !passable(u) ? oldSlots[i]! : u));
      moves += newSlots.filter(
        (u, i) => u && (u.col !== oldSlots[i]!.col || u.row !== oldSlots[i]!.row),
      ).length;
      const plan = turnWitness(
        r,
        c.h,
        withPass({
          gameId: h.field(),
          player: 3n,
          turn: 4n,
          oldSlots,
          oldBlinding: h.field(),
          newSlots,
          newBlinding: h.field(),
          revealed: randomReveals(r, h, newSlots),
          revealBlinding: h.field(),
          oppMasks: randomMasks(r, h),
        }),
      );
      assert.equal(plan.publicSignals.at(-1), tree.root);
      assert.deepEqual(c.publicOf(await c.witness(plan.input)), plan.publicSignals, `seed ${seed}`);
    }
    assert.ok(moves > 50, `${moves} moves`);
  });

  test('moving onto water or mountains, a wrong path, wrong tile data or a wrong root', async () => {
    // Find an infantry move from a passable tile to an impassable neighbour, and to a passable one.
    let from: Coord | undefined;
    let bad: Coord | undefined;
    let good: Coord | undefined;
    for (const [leaf] of tiles) {
      const col = ((leaf % 64) % 8) + ((leaf >> 6) % r.board.zonesX) * 8;
      const row = Math.floor((leaf % 64) / 8) + Math.floor((leaf >> 6) / r.board.zonesX) * 8;
      if (col < 2 || col > 13 || row < 2 || row > 9 || !passable({ col, row })) continue;
      const b = [
        { col: col + 1, row },
        { col: col - 1, row },
      ].find((t) => !passable(t));
      const ok = [
        { col: col + 1, row },
        { col: col - 1, row },
      ].find((t) => passable(t));
      if (b && ok) {
        from = { col, row };
        bad = b;
        good = ok;
        break;
      }
    }
    assert.ok(from && bad && good);
    const u: Unit = { type: 0, hp: 5, ...from };
    const base = {
      gameId: 1n,
      player: 2n,
      turn: 3n,
      oldSlots: [u, null, null, null],
      oldBlinding: 4n,
      newBlinding: 5n,
      revealed: [],
      revealBlinding: 6n,
      oppMasks: [0n],
    };
    const okPlan = turnWitness(
      r,
      c.h,
      withPass({ ...base, newSlots: [{ ...u, ...good }, null, null, null] }),
    );
    await c.witness(okPlan.input);
    // The builder refuses an impassable destination, naming the unit and the tile.
    assert.throws(
      () => turnWitness(r, c.h, withPass({ ...base, newSlots: [{ ...u, ...bad }, null, null, null] })),
      (e) => e instanceof InputError && /not passable/.test(e.message),
    );
    // A forged witness: the unit moved onto the impassable tile, with that tile's true opening.
    const words = packSlots([{ ...u, ...bad }, null, null, null], 4);
    const op = opening(bad);
    const forged = {
      ...okPlan.input,
      newWords: words.map(str),
      newCommit: str(c.h.hash([5n, ...words])),
      destTerrain: [str(op.tile.terrain), '0', '0', '0'],
      destFeature: [str(op.tile.feature), '0', '0', '0'],
      destResource: [str(op.tile.resource), '0', '0', '0'],
      destRivers: [str(op.tile.rivers), '0', '0', '0'],
      destSalt: [str(op.salt), '0', '0', '0'],
      destPath: [op.path.map(str), ...(okPlan.input.destPath as string[][]).slice(1)],
    };
    assert.ok(await rejects(c, forged), 'impassable terrain');
    // Lying about the terrain breaks the leaf hash.
    assert.ok(await rejects(c, { ...forged, destTerrain: ['2', '0', '0', '0'] }), 'terrain relabelled');
    // The passable move with a corrupted path, another tile's opening, or another root.
    const path = (okPlan.input.destPath as string[][]).map((p) => p.slice());
    path[0]![3] = str(BigInt(path[0]![3]!) + 1n);
    assert.ok(await rejects(c, { ...okPlan.input, destPath: path }), 'corrupted path');
    assert.ok(
      await rejects(c, { ...okPlan.input, destSalt: [str(opening(from).salt), '0', '0', '0'] }),
      'wrong salt',
    );
    assert.ok(await rejects(c, { ...okPlan.input, mapRoot: str(tree.root + 1n) }), 'wrong root');
  });
});
