import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { leafHash } from '../../core/commitments.ts';
import { InputError } from '../../core/errors.ts';
import { type Coord, leafCoord, leafIndex, ZONE_DEPTH } from '../../core/geometry.ts';
import { buildTree, merklePath, pathLength, rootFromPath, treeLeaves } from '../../core/merkle.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { packSlots, playCommitment, stateCommitment, type Unit } from '../../core/state.ts';
import { isPassable, type Tile } from '../../core/tile.ts';
import { type DestinationProof, type TurnArgs, turnWitness } from '../../core/witness/inputs.ts';
import { mapNodesAt, mapTopLevels, mobileSlots } from '../../core/witness/maptop.ts';
import { packPlay, packReport } from '../../core/witness/publics.ts';
import { forcedReveals } from '../../core/witness/reference.ts';
import { visionZones } from '../../core/witness/zones.ts';
import { mainSource } from '../../scripts/circuits/generate.ts';
import {
  load,
  P,
  playOf,
  randomMasks,
  randomMoves,
  randomReveals,
  randomSlots,
  rejects,
  rng,
  str,
  variant,
} from './helpers.ts';

// The shipped tiny-pass: tiny with provePassability.
const tinyPass = shippedRuleset('tiny-pass');
// 24 columns: 6 zones under a 5-level (4-ary) tree, so the shared top (k = 2, the zone roots) has
// absent nodes (zones 6 to 15): MapTop hashes zero subtrees and the selects meet constant entries.
// Four mobile spawn slots and a fifth that stays empty keep the top at k = 2.
const widePass = variant('tiny-pass', {
  name: 'tiny-pass-wide',
  grid: { kind: 'hex', width: 24, height: 12, zoneSize: 8 },
  unitSlots: 5,
  spawn: ['infantry', 'infantry', 'scout', 'scout'],
});

type Input = Record<string, string | string[] | string[][]>;

function suite(r: ValidRuleset, turns: number, expectK: number): void {
  describe(`turn with passability (${r.name})`, async () => {
    const c = await load(r, 'turn');
    const b = r.board;
    const mobile = mobileSlots(r);
    const k = mapTopLevels(b, mobile.length);
    // The first mobile slot (lane 0) carries the moves below; the spawn type of that slot.
    const S = mobile[0]!;
    const sType = r.unitTypes.findIndex((u) => u.name === r.spawn[S]);
    const L = b.depth - k;
    // Leaves under one top node: a leaf's top node is its index / span, its index below it index % span.
    const span = treeLeaves(L);
    const g = rng(2024);
    const tiles = new Map<number, { tile: Tile; salt: bigint }>();
    const leaves: bigint[] = new Array(b.zoneCount * 64).fill(0n);
    for (let row = 0; row < b.height; row++) {
      for (let col = 0; col < b.width; col++) {
        // Mostly passable land, some water and mountains.
        const terrain = g.pick([0, 1, 2, 3, 3, 4, 5, 5, 6, 2, 3]) as Tile['terrain'];
        const tile: Tile = {
          terrain,
          feature: g.int(3) as Tile['feature'],
          resource: g.int(6) as Tile['resource'],
          rivers: g.int(64),
        };
        const salt = g.field();
        const leaf = leafIndex(b, { col, row });
        tiles.set(leaf, { tile, salt });
        leaves[leaf] = leafHash(c.h, tile, salt);
      }
    }
    const tree = buildTree(c.h, leaves, b.depth);
    const zoneRoots = tree.levels[ZONE_DEPTH]!.slice(0, b.zoneCount);
    const opening = (t: Coord): DestinationProof => {
      const leaf = leafIndex(b, t);
      return { ...tiles.get(leaf)!, path: merklePath(tree, leaf) };
    };
    const passable = (t: Coord) => isPassable(tiles.get(leafIndex(b, t))!.tile.terrain);
    /** The turn's args on the map: the root the seat's play commitments bind, its zone roots, the openings. */
    const withPass = (a: Omit<TurnArgs, 'passability' | 'mapRoot'>): TurnArgs => ({
      ...a,
      mapRoot: tree.root,
      passability: {
        zoneRoots,
        destinations: a.newSlots.map((u, i) => {
          const o = a.oldSlots[i];
          return u && o && (u.col !== o.col || u.row !== o.row) ? opening(u) : null;
        }),
      },
    });

    test('the generator shares the expected top height', () => {
      assert.equal(k, expectK);
      assert.match(
        mainSource('turn', r),
        new RegExp(`= TurnPass\\(.*, ${b.depth}, ${k}, ${mobile.length}, \\[${mobile.join(', ')}\\]\\);`),
      );
    });

    test(`public outputs equal the reference on ${turns} random legal turns onto passable tiles`, async () => {
      let moves = 0;
      const topsReached = new Set<number>();
      for (let seed = 1; seed <= turns; seed++) {
        const h = rng(seed * 97);
        const oldSlots = randomSlots(r, h);
        // Moves onto passable tiles by the mobile slots only (staying is always allowed).
        const newSlots = randomMoves(r, h, oldSlots).map((u, i) =>
          u && (!passable(u) || !mobile.includes(i)) ? oldSlots[i]! : u,
        );
        newSlots.forEach((u, i) => {
          if (u && (u.col !== oldSlots[i]!.col || u.row !== oldSlots[i]!.row)) {
            moves++;
            topsReached.add(Math.floor(leafIndex(b, u) / span));
          }
        });
        const plan = turnWitness(
          r,
          c.h,
          withPass({
            player: 3n,
            seat: 0,
            turn: 4n,
            oldSlots,
            oldBlinding: h.field(),
            oldRevealCommit: h.field(),
            newSlots,
            newBlinding: h.field(),
            revealed: randomReveals(r, h, newSlots),
            revealBlinding: h.field(),
            oppMasks: randomMasks(r, h),
          }),
        );
        // The root is private: the turn's public signals end with the commitments that bind it.
        assert.equal(plan.input.mapRoot, str(tree.root));
        assert.deepEqual(plan.publicSignals.slice(-2), [plan.oldCommit, plan.newCommit]);
        assert.equal(plan.publicSignals.length, c.art.publicSignals);
        assert.deepEqual(c.publicOf(await c.witness(plan.input)), plan.publicSignals, `seed ${seed}`);
      }
      assert.ok(moves > turns / 4, `${moves} moves`);
      // Every real top node was some destination's ancestor, the last one included.
      assert.equal(topsReached.size, mapNodesAt(b, L), `top nodes reached: ${[...topsReached]}`);
    });

    // A unit in slot 0 moving from `from` to a passable neighbour `good`; `bad` an impassable
    // neighbour of some other passable `badFrom`; `twin` a passable tile in another top node's
    // subtree at the same local position as `good`.
    let from: Coord | undefined;
    let good: Coord | undefined;
    let twin: Coord | undefined;
    let badFrom: Coord | undefined;
    let bad: Coord | undefined;
    for (const [leaf] of tiles) {
      const here = leafCoord(b, leaf)!;
      const { col, row } = here;
      if (col < 2 || col > b.width - 3 || row < 2 || row > b.height - 3 || !passable(here)) continue;
      const near = [
        { col: col + 1, row },
        { col: col - 1, row },
      ];
      const ok = near.find((t) => passable(t));
      const no = near.find((t) => !passable(t));
      if (no && !bad) {
        badFrom = here;
        bad = no;
      }
      if (ok && !twin) {
        const low = leafIndex(b, ok) % span;
        for (let top = 0; top < mapNodesAt(b, L); top++) {
          const t = leafCoord(b, top * span + low);
          if (top !== Math.floor(leafIndex(b, ok) / span) && t && passable(t)) {
            from = here;
            good = ok;
            twin = t;
            break;
          }
        }
      }
    }
    assert.ok(from && good && twin && badFrom && bad);
    const base = {
      player: 2n,
      seat: 0,
      turn: 3n,
      oldBlinding: 4n,
      oldRevealCommit: 5n,
      newBlinding: 5n,
      revealed: [],
      revealBlinding: 6n,
      oppMasks: [0n],
    };
    /** Slot S holds `u`, every other slot is empty. */
    const only = (u: Unit): (Unit | null)[] =>
      Array.from({ length: r.unitSlots }, (_, i) => (i === S ? u : null));
    const unitAt = (t: Coord): Unit => ({ type: sType, hp: 5, ...t });
    const okPlan = turnWitness(
      r,
      c.h,
      withPass({ ...base, oldSlots: only(unitAt(from)), newSlots: only(unitAt(good)) }),
    );
    const okInput = okPlan.input as Input;
    /** The packed public words of a turn ending at `slots` (their own zone mask and lanes). */
    const packedFor = (slots: (Unit | null)[]): string[] =>
      packPlay(
        r,
        base.seat,
        base.turn,
        base.oppMasks,
        packReport(r, visionZones(r, slots), forcedReveals(r, slots, base.oppMasks)),
      ).map(str);
    const col0 = (xs: unknown, v: bigint | number): string[] => {
      const out = (xs as string[]).slice();
      out[0] = str(v);
      return out;
    };
    /** The honest `okPlan` input, but the unit goes to `to` and slot 0 opens `op` (path cut to L). */
    const forge = (old: Coord, to: Coord, op: DestinationProof): Input => {
      const plan = turnWitness(
        r,
        c.h,
        withPass({ ...base, oldSlots: only(unitAt(old)), newSlots: only(unitAt(old)) }),
      );
      const words = packSlots(only(unitAt(to)), r.unitSlots);
      const paths = (plan.input.destPath as string[][]).map((p) => p.slice());
      paths[0] = op.path.slice(0, pathLength(L)).map(str);
      return {
        ...(plan.input as Input),
        packed: packedFor(only(unitAt(to))),
        newWords: words.map(str),
        newCommit: playOf(c, base.newBlinding, words, plan.revealCommit, tree.root),
        destTerrain: col0(plan.input.destTerrain, op.tile.terrain),
        destFeature: col0(plan.input.destFeature, op.tile.feature),
        destResource: col0(plan.input.destResource, op.tile.resource),
        destRivers: col0(plan.input.destRivers, op.tile.rivers),
        destSalt: col0(plan.input.destSalt, op.salt),
        destPath: paths,
      };
    };

    test('the honest move, and the forge helper reproduces it', async () => {
      assert.equal((okInput.destPath as string[][])[0]!.length, pathLength(L));
      assert.equal((okInput.mapTop as string[]).length, mapNodesAt(b, L));
      await c.witness(okInput);
      // Same witness through forge: the forged cases below differ only where they say.
      const again = forge(from!, good!, opening(good!));
      assert.deepEqual(again, okInput);
    });

    test('moving onto water or mountains is refused by the builder and by the circuit', async () => {
      // The builder refuses an impassable destination, naming the unit and the tile.
      assert.throws(
        () =>
          turnWitness(
            r,
            c.h,
            withPass({ ...base, oldSlots: only(unitAt(badFrom!)), newSlots: only(unitAt(bad!)) }),
          ),
        (e) =>
          e instanceof InputError &&
          e.field === `passability.destinations.${S}` &&
          /not passable/.test(e.message),
      );
      // A forged witness: the unit moved onto the impassable tile, with that tile's true opening.
      const forged = forge(badFrom!, bad!, opening(bad!));
      assert.ok(await rejects(c, forged), 'impassable terrain');
      // Lying about the terrain breaks the leaf hash.
      assert.ok(
        await rejects(c, { ...forged, destTerrain: col0(forged.destTerrain, 2) }),
        'terrain relabelled',
      );
    });

    test('a mountain or water word opened as passable terrain with field-element fields (aliasing)', async () => {
      // The leaf hashes terrain + 2^8·feature + 2^16·resource + 2^24·rivers: terrain 2 and feature
      // (word − 2) / 2^8 (mod p) make the same word, and the same leaf, as the impassable tile.
      const op = opening(bad!);
      const word = BigInt(op.tile.terrain) + (BigInt(op.tile.feature) << 8n);
      const rest = BigInt(op.tile.resource) + (BigInt(op.tile.rivers) << 8n);
      const inv = (x: bigint): bigint => {
        let [r, e, acc] = [x % P, P - 2n, 1n];
        for (; e > 0n; e >>= 1n, r = (r * r) % P) if (e & 1n) acc = (acc * r) % P;
        return acc;
      };
      const feature = (((word - 2n + P) % P) * inv(256n)) % P;
      const forged = forge(badFrom!, bad!, op);
      const alias = {
        ...forged,
        destTerrain: col0(forged.destTerrain, 2),
        destFeature: col0(forged.destFeature, feature),
      };
      assert.equal((2n + feature * 256n + rest * 65536n) % P, word + (rest << 16n), 'same word, same leaf');
      assert.ok(await rejects(c, alias), 'aliased bytes accepted');
    });

    test('tampered tile data, salt or path', async () => {
      const op = opening(good!);
      const t = op.tile;
      const cases: [string, Input][] = [
        ['feature', { ...okInput, destFeature: col0(okInput.destFeature, (t.feature + 1) % 3) }],
        ['resource', { ...okInput, destResource: col0(okInput.destResource, (t.resource + 1) % 6) }],
        ['rivers', { ...okInput, destRivers: col0(okInput.destRivers, t.rivers ^ 1) }],
        ['salt + 1', { ...okInput, destSalt: col0(okInput.destSalt, (op.salt + 1n) % P) }],
        ['another tile’s salt', { ...okInput, destSalt: col0(okInput.destSalt, opening(from!).salt) }],
      ];
      for (const word of [0, 2, 4, pathLength(L) - 1]) {
        const path = (okInput.destPath as string[][]).map((p) => p.slice());
        path[0]![word] = str((BigInt(path[0]![word]!) + 1n) % P);
        cases.push([`path word ${word}`, { ...okInput, destPath: path }]);
      }
      // The siblings of a level in another order: the node lands in the same slot, the hash differs.
      const rotated = (okInput.destPath as string[][]).map((p) => p.slice());
      rotated[0]!.splice(0, 3, rotated[0]![1]!, rotated[0]![2]!, rotated[0]![0]!);
      cases.push(['siblings rotated', { ...okInput, destPath: rotated }]);
      for (const [what, input] of cases) assert.ok(await rejects(c, input), what);
    });

    test("the node's slot among its siblings is pinned at every level (PlaceChild)", async () => {
      const w = await c.witness(okInput);
      assert.ok(c.satisfies(w));
      // The slot's one-hot comes from one product of the index bits and two selects (the children are
      // linear, substituted into the Poseidon): bump any of them and no constraint system holds.
      const sym = readFileSync(path.join(c.art.dir, 'turn.sym'), 'utf8');
      const placed = sym
        .split('\n')
        .map((line) => line.split(','))
        .filter(
          ([, wire, , name]) => Number(wire) > 0 && /^main\.pass\[0\]\.mr\.place\[\d+\]\./.test(name ?? ''),
        );
      assert.equal(placed.length, 3 * L, 'both, low1, high2 per level');
      for (const [, wire, , name] of placed) {
        const bad = w.slice();
        bad[Number(wire)] = (bad[Number(wire)]! + 1n) % P;
        assert.ok(!c.satisfies(bad), `${name} is not constrained`);
      }
    });

    test('top nodes that do not hash to the map root, or a wrong root', async () => {
      const top = okInput.mapTop as string[];
      const sel = Math.floor(leafIndex(b, good!) / span);
      const other = (sel + 1) % top.length;
      const bump = (j: number): string[] => top.map((v, i) => (i === j ? str((BigInt(v) + 1n) % P) : v));
      // The node the move's path ends at, and one no slot uses: both caught by the shared hash.
      assert.ok(await rejects(c, { ...okInput, mapTop: bump(sel) }), 'selected top node edited');
      assert.ok(await rejects(c, { ...okInput, mapTop: bump(other) }), 'unused top node edited');
      // The last real node (next to the zero subtrees when the top has absent nodes).
      assert.ok(await rejects(c, { ...okInput, mapTop: bump(top.length - 1) }), 'last top node edited');
      const swapped = top.slice();
      [swapped[sel], swapped[other]] = [swapped[other]!, swapped[sel]!];
      assert.ok(await rejects(c, { ...okInput, mapTop: swapped }), 'top nodes swapped');
      assert.ok(await rejects(c, { ...okInput, mapRoot: str(tree.root + 1n) }), 'wrong root');
      // A no-move turn still checks the top against the root.
      const still = turnWitness(
        r,
        c.h,
        withPass({ ...base, oldSlots: only(unitAt(from!)), newSlots: only(unitAt(from!)) }),
      );
      await c.witness(still.input);
      assert.ok(await rejects(c, { ...still.input, mapTop: bump(other) }), 'no move, top node edited');
    });

    // A made-up map B: the same tiles and salts but `bad` relabelled grassland, so a move onto it proves against B.
    const badLeaf = leafIndex(b, bad);
    const tilesB = new Map(tiles);
    tilesB.set(badLeaf, {
      tile: { ...tiles.get(badLeaf)!.tile, terrain: 2 },
      salt: tiles.get(badLeaf)!.salt,
    });
    const leavesB = leaves.slice();
    leavesB[badLeaf] = leafHash(c.h, tilesB.get(badLeaf)!.tile, tilesB.get(badLeaf)!.salt);
    const treeB = buildTree(c.h, leavesB, b.depth);
    /** A turn witnessed on map B throughout: root, zone roots, openings, and both commitments under B's root. */
    const onB = (a: Omit<TurnArgs, 'passability' | 'mapRoot'>) =>
      turnWitness(r, c.h, {
        ...a,
        mapRoot: treeB.root,
        passability: {
          zoneRoots: treeB.levels[ZONE_DEPTH]!.slice(0, b.zoneCount),
          destinations: a.newSlots.map((u, i) => {
            const o = a.oldSlots[i];
            if (!(u && o && (u.col !== o.col || u.row !== o.row))) return null;
            const leaf = leafIndex(b, u);
            return { ...tilesB.get(leaf)!, path: merklePath(treeB, leaf) };
          }),
        },
      });
    /** The play commitment the seat stores before a move from `t` (spawned on map A, the game's root). */
    const storedAt = (t: Coord): bigint =>
      playCommitment(
        c.h,
        stateCommitment(c.h, only(unitAt(t)), r.unitSlots, base.oldBlinding),
        base.oldRevealCommit,
        tree.root,
      );

    test('terrain rules (root binding): a private map root other than the one inside oldCommit fails', async () => {
      assert.equal(okPlan.oldCommit, storedAt(from!));
      await c.witness(okInput);
      // Only the root changed: neither the stored commitment nor the shared top opens under it.
      for (const root of [tree.root + 1n, treeB.root, 0n])
        assert.ok(await rejects(c, { ...okInput, mapRoot: str(root % P) }), `root ${root}`);
      // Everything consistent under B (the top, the openings and both commitments) proves …
      const honestB = onB({ ...base, oldSlots: only(unitAt(from!)), newSlots: only(unitAt(good!)) });
      const w = await c.witness(honestB.input);
      assert.ok(c.satisfies(w));
      // … and the stored commitment (under A) in its place breaks the opening alone: every violated constraint
      // holds the public oldCommit wire (public signals [packed…, oldCommit, newCommit], w[0] = 1).
      const at = c.art.publicSignals - 1;
      assert.equal(w[at], honestB.oldCommit);
      const forged = w.slice();
      forged[at] = okPlan.oldCommit;
      const broken = c.violated(forged);
      assert.ok(broken.length > 0, 'the opening under another root holds');
      assert.ok(
        broken.every((wires) => wires.includes(at)),
        'only the oldCommit opening is violated',
      );
    });

    test('terrain rules (root binding): a destination proven against a made-up map root fails', async () => {
      // On A, `bad` is water or mountains: the builder refuses the move.
      assert.ok(!passable(bad!));
      assert.throws(
        () =>
          turnWitness(
            r,
            c.h,
            withPass({ ...base, oldSlots: only(unitAt(badFrom!)), newSlots: only(unitAt(bad!)) }),
          ),
        /not passable/,
      );
      // On B it is grassland: the move proves there, with every input consistent under B …
      assert.notEqual(treeB.root, tree.root);
      const cheat = onB({ ...base, oldSlots: only(unitAt(badFrom!)), newSlots: only(unitAt(bad!)) });
      await c.witness(cheat.input);
      // … but the seat's stored commitment binds A: opening it with B's root fails, whether newCommit binds B
      // (consistent) or claims to keep A.
      const stored = storedAt(badFrom!);
      assert.notEqual(cheat.oldCommit, stored);
      const cheatWords = cheat.input.newWords as string[];
      for (const [label, newCommit] of [
        ['newCommit under B', cheat.input.newCommit as string],
        ['newCommit under A', playOf(c, base.newBlinding, cheatWords, cheat.revealCommit, tree.root)],
      ] as const)
        assert.ok(await rejects(c, { ...cheat.input, oldCommit: str(stored), newCommit }), label);
      // The stored root with B's top and openings: the top does not hash to it.
      assert.ok(
        await rejects(c, {
          ...cheat.input,
          oldCommit: str(stored),
          newCommit: playOf(c, base.newBlinding, cheatWords, cheat.revealCommit, tree.root),
          mapRoot: str(tree.root),
        }),
        "B's top under A's root",
      );
    });

    test('terrain rules (root binding): newCommit over another root than oldCommit’s fails', async () => {
      const w = await c.witness(okInput);
      const words = okInput.newWords as string[];
      assert.equal(okInput.newCommit, playOf(c, base.newBlinding, words, okPlan.revealCommit, tree.root));
      const at = c.art.publicSignals; // newCommit, the last public signal
      assert.equal(w[at], okPlan.newCommit);
      for (const root of [treeB.root, tree.root + 1n, 0n]) {
        const newCommit = playOf(c, base.newBlinding, words, okPlan.revealCommit, root);
        assert.ok(await rejects(c, { ...okInput, newCommit }), `newCommit under root ${root}`);
        const edited = w.slice();
        edited[at] = BigInt(newCommit);
        assert.equal(c.satisfies(edited), false, `public newCommit under root ${root}`);
      }
    });

    test('an opening from another top node’s subtree (claiming another zone)', async () => {
      // twin sits at good's position below the top level, in another subtree: its cut path is
      // valid and ends at a true top node, just not the one good's index selects.
      const op = opening(twin!);
      const low = leafIndex(b, good!) % span;
      const end = rootFromPath(c.h, low, leafHash(c.h, op.tile, op.salt), op.path.slice(0, pathLength(L)));
      const top = (okInput.mapTop as string[]).map(BigInt);
      assert.equal(
        end,
        top[Math.floor(leafIndex(b, twin!) / span)],
        'the twin path ends at its own top node',
      );
      assert.notEqual(end, top[Math.floor(leafIndex(b, good!) / span)]);
      assert.ok(await rejects(c, forge(from!, good!, op)), 'twin opening accepted');
    });

    test('units that stay prove nothing', async () => {
      // Lane 1 (the second mobile slot) is empty: anything in its destination inputs is ignored.
      const junk = (okInput.destPath as string[][]).map((p) => p.slice());
      junk[1] = junk[1]!.map((_, i) => str(i + 7));
      const input = {
        ...okInput,
        destTerrain: (okInput.destTerrain as string[]).map((v, i) => (i === 1 ? '6' : v)),
        destSalt: (okInput.destSalt as string[]).map((v, i) => (i === 1 ? '123' : v)),
        destPath: junk,
      };
      await c.witness(input);
    });

    test('no hop: a move is one tile, so a path across water or mountains is refused', async () => {
      // Terrain rules bound every speed to 1: the destination is the whole path.
      for (const u of r.unitTypes) assert.ok(u.speed <= 1, `${u.name} speed ${u.speed}`);
      assert.throws(
        () =>
          variant('tiny-pass', {
            unitTypes: r.unitTypes.map((u) => (u.structure ? u : { ...u, speed: 2 })),
          }),
        (e) => e instanceof InputError && /speed must be at most 1/.test(e.message),
      );
      // A passable tile two columns from a passable start, with water or mountains between them.
      let hopFrom: Coord | undefined;
      let hopTo: Coord | undefined;
      for (const [leaf] of tiles) {
        const here = leafCoord(b, leaf)!;
        const mid = { col: here.col + 1, row: here.row };
        const to = { col: here.col + 2, row: here.row };
        if (to.col >= b.width || !passable(here) || passable(mid) || !passable(to)) continue;
        hopFrom = here;
        hopTo = to;
        break;
      }
      assert.ok(hopFrom && hopTo, 'a hop over an impassable tile exists on this map');
      assert.throws(
        () =>
          turnWitness(
            r,
            c.h,
            withPass({ ...base, oldSlots: only(unitAt(hopFrom!)), newSlots: only(unitAt(hopTo!)) }),
          ),
        (e) => e instanceof InputError && /moved 2 tiles/.test(e.message),
      );
      // Forged: the hop with the destination's true (passable) opening; the speed bound rejects it.
      assert.ok(await rejects(c, forge(hopFrom!, hopTo!, opening(hopTo!))), 'hop over an impassable tile');
    });

    test('a slot that is not a mobile spawn slot may not move', async () => {
      // Slot F is not mobile (the hq's, or past the spawn list): even a mobile type there stays.
      const F = [...Array(r.unitSlots).keys()].find((i) => !mobile.includes(i))!;
      const at = (t: Coord): (Unit | null)[] =>
        Array.from({ length: r.unitSlots }, (_, i) => (i === F ? unitAt(t) : null));
      assert.throws(
        () => turnWitness(r, c.h, withPass({ ...base, oldSlots: at(from!), newSlots: at(good!) })),
        (e) =>
          e instanceof InputError && e.field === `newSlots.${F}` && /not a mobile spawn slot/.test(e.message),
      );
      const still = turnWitness(r, c.h, withPass({ ...base, oldSlots: at(from!), newSlots: at(from!) }));
      await c.witness(still.input);
      const words = packSlots(at(good!), r.unitSlots);
      const forged = {
        ...(still.input as Input),
        packed: packedFor(at(good!)),
        newWords: words.map(str),
        newCommit: playOf(c, base.newBlinding, words, still.revealCommit, tree.root),
      };
      assert.ok(await rejects(c, forged), `slot ${F} moved to a passable neighbour`);
    });

    test('the builder checks the zone roots against the map root', () => {
      const args = withPass({
        ...base,
        oldSlots: only(unitAt(from!)),
        newSlots: only(unitAt(good!)),
      });
      const p = args.passability!;
      const bad = (zoneRoots: unknown, message: RegExp, field = 'passability.zoneRoots') =>
        assert.throws(
          () => turnWitness(r, c.h, { ...args, passability: { ...p, zoneRoots: zoneRoots as bigint[] } }),
          (e) => e instanceof InputError && e.field === field && message.test(e.message),
        );
      bad(undefined, /zone roots are required/);
      bad(zoneRoots.slice(1), /zone roots, the board has/);
      bad([...zoneRoots, 0n], /zone roots, the board has/);
      bad(
        zoneRoots.map((z, i) => (i === 1 ? z + 1n : z)),
        /do not hash to the map root/,
      );
      bad(
        zoneRoots.map((z, i) => (i === 2 ? P : z)),
        /field modulus/,
        'passability.zoneRoots.2',
      );
      // A full-depth path is required even though the circuit takes only the lower part.
      assert.throws(
        () =>
          turnWitness(r, c.h, {
            ...args,
            passability: {
              ...p,
              destinations: only(unitAt(good!)).map((u) =>
                u ? { ...opening(good!), path: opening(good!).path.slice(0, pathLength(L)) } : null,
              ),
            },
          }),
        (e) => e instanceof InputError && e.field === `passability.destinations.${S}.path`,
      );
    });
  });
}

suite(tinyPass, 100, 1);
suite(widePass, 50, 2);
