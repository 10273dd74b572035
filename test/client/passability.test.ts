/**
 * The SDK on a ruleset with passability proofs (tiny-pass), without a chain or a prover: the zone roots posted
 * with the root are read once (at the spawn) and checked against the on-chain root (zone roots that do not build
 * it are proven so on-chain and refused), and `playTurn` hands the witness builder the map root, the zone roots
 * and each moving unit's verified opening.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Wallet } from 'ethers';
import type { GameChain, Prover } from '../../client/sdk/chain.ts';
import { DealerClient } from '../../client/sdk/dealer-client.ts';
import { ZoneRootsRejectedError } from '../../client/sdk/errors.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { zoneRootsBuild } from '../../client/sdk/zone-roots.ts';
import { InputError } from '../../core/errors.ts';
import { type Coord, gridDistance, tileCoord, tileIndex } from '../../core/geometry.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { commitMap } from '../../core/maptree.ts';
import { pathLength } from '../../core/merkle.ts';
import { isPassable, Terrain } from '../../core/tile.ts';
import type { TurnPlan, WitnessPlan } from '../../core/witness/inputs.ts';
import { mapTopLevels, mobileSlots } from '../../core/witness/maptop.ts';
import { type DealtMap, dealtMap, serve } from './fixture.ts';

const m = await dealtMap('tiny-pass', 4242n, 99n);
/** Another map of the same board: a dealer lying with it has consistent zone roots for the wrong root. */
const other = await dealtMap('tiny-pass', 5151n, 99n);
const honestRoots = zoneRoots(m.commitment, m.board);
const GAME = 7n;

describe('zoneRootsBuild', () => {
  it('holds for the zone roots of the root, not edited, swapped, another map’s or a wrong count', () => {
    assert.equal(zoneRootsBuild(m.h, m.board, m.root, honestRoots), true);
    const edited = [...honestRoots];
    edited[1] = edited[1]! + 1n;
    const swapped = [honestRoots[1]!, honestRoots[0]!, ...honestRoots.slice(2)];
    for (const roots of [edited, swapped, zoneRoots(other.commitment, other.board), honestRoots.slice(1)])
      assert.equal(zoneRootsBuild(m.h, m.board, m.root, roots), false);
    assert.equal(
      zoneRootsBuild(m.h, m.board, other.root, honestRoots),
      false,
      'checked against the root given',
    );
  });
});

/** An honest tile dealer; counts the reveal requests. */
function fakeDealer(map: DealtMap) {
  const calls = { reveals: 0 };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input));
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const match = /^\/v1\/games\/([^/]+)\/reveals$/.exec(url.pathname);
    if (match && init?.method === 'POST') {
      calls.reveals++;
      const b = JSON.parse(String(init.body)) as {
        gameId: string;
        player: string;
        turn: number;
        leaves: number[];
      };
      return json(200, {
        gameId: b.gameId,
        player: b.player,
        turn: b.turn,
        root: String(map.root),
        tiles: b.leaves.map((l) => serve(map, l)),
      });
    }
    return json(404, { statusCode: 404, error: 'not-found', message: url.pathname });
  };
  return { fetch, calls };
}

/**
 * A one-seat game on `map` whose dealer posted `zones` with the root (default: the map's own): the chain part of
 * GamePlayer, in memory; proofs are recorded, not made. Joined and waiting for its spawn.
 */
async function joinedGame(map: DealtMap, zones: readonly bigint[] = zoneRoots(map.commitment, map.board)) {
  const wallet = Wallet.createRandom();
  let turn = 0;
  const proved: { circuit: string; plan: WitnessPlan }[] = [];
  const calls = { zoneRoots: 0, fraudProofs: [] as bigint[][] };
  const tx = (n: number) => ({ hash: `0x${n}`, blockNumber: n, gasUsed: 1n, events: [] });
  const chain = {
    provider: { getBlockNumber: async () => 1 },
    signerAddress: async () => wallet.address,
    join: async (gameId: bigint) => ({
      gameId,
      seat: 0,
      players: [wallet.address, Wallet.createRandom().address],
      config: { kind: 0, width: map.board.width, height: map.board.height },
    }),
    game: async () => ({
      turn,
      phase: 'Play',
      toMove: 0,
      root: map.root,
      rootAdopted: false,
      replacedRoot: 0n,
    }),
    seat: async () => ({ spawned: true, rebound: false, forfeited: false }),
    root: async () => map.root,
    waitForRoot: async () => map.root,
    opponentMasks: async () => [0n],
    postedZoneRoots: async () => {
      calls.zoneRoots++;
      return [...zones];
    },
    proveZoneRootsFraud: async (_: bigint, roots: readonly bigint[]) => {
      calls.fraudProofs.push([...roots]);
      return tx(++turn);
    },
    spawn: async () => tx(++turn),
    submitTurn: async () => tx(++turn),
  } as unknown as GameChain;
  const prover: Prover = {
    prove: async (circuit, plan) => {
      proved.push({ circuit, plan });
      return {
        a: ['0', '0'],
        b: [
          ['0', '0'],
          ['0', '0'],
        ],
        c: ['0', '0'],
      } as never;
    },
  };
  const dealer = fakeDealer(map);
  const player = await GamePlayer.join({
    chain,
    dealer: new DealerClient({
      baseUrl: 'http://dealer.test',
      chainId: 31337n,
      gameContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      signer: wallet,
      useSessions: false,
      fetch: dealer.fetch,
      sleep: async () => {},
      maxAttempts: 2,
    }),
    prover,
    h: map.h,
    ruleset: map.ruleset,
    gameId: GAME,
    revealWaitMs: 0,
  });
  await player.waitForRoot();
  return { player, proved, calls };
}

/** `joinedGame`, spawned. */
async function fakeGame(map: DealtMap, zones?: readonly bigint[]) {
  const g = await joinedGame(map, zones);
  await spawn(g.player);
  return g;
}

const spawn = (player: GamePlayer) => {
  let x = 1;
  return player.spawn(player.spawnPositions(() => (x = (x * 48271) % 2147483647) / 2147483647));
};

/** A mobile unit's move onto a verified passable tile, and one onto a tile in reach that was never served. */
function pickMoves(player: GamePlayer): { slot: number; known: Coord; unknown: Coord } {
  const obs = player.model!.observe();
  const b = player.ruleset.board;
  for (const u of obs.ownUnits) {
    if (!u || player.ruleset.unitTypes[u.type]!.structure) continue;
    const here = tileIndex(b, u);
    const known = obs.moveMask[u.slot]!.find((i) => i !== here);
    if (known === undefined) continue;
    const speed = player.ruleset.unitTypes[u.type]!.speed;
    // Seen (vision covers it) but never served: no opening.
    const unknown = obs.terrain.findIndex(
      (t, i) => t === -1 && gridDistance(b.kind, u, tileCoord(b, i)) <= speed,
    );
    if (unknown === -1) continue;
    return { slot: u.slot, known: tileCoord(b, known), unknown: tileCoord(b, unknown) };
  }
  throw new Error('no unit with both a known and an unknown destination');
}

const movesFor = (player: GamePlayer, slot: number, to: Coord) =>
  player.units.map((_, i) => (i === slot ? to : null));

describe('GamePlayer on a passability ruleset', () => {
  it('passes the bound map root, the verified zone roots and each mover’s opening to the witness; zone roots fetched once', async () => {
    const { player, proved, calls } = await fakeGame(m);
    assert.equal(calls.zoneRoots, 1, 'read (and checked) at the spawn');
    const { slot, known } = pickMoves(player);
    const opening = player.opening(known)!;
    assert.ok(opening && isPassable(opening.terrain), 'the move mask offers verified passable tiles only');

    const report = await player.playTurn({ moves: movesFor(player, slot, known), reveal: [] });
    assert.equal(report.moved, 1);
    assert.deepEqual(report.destinations, [known]);
    assert.equal(report.provedPassable, true);
    const plan = proved.at(-1)!.plan as TurnPlan;
    assert.equal(proved.at(-1)!.circuit, 'turn');
    // The root is private: the play commitments bind it (the spawn took it as a signal).
    assert.deepEqual(plan.publicSignals.slice(-2), [plan.oldCommit, plan.newCommit]);
    assert.equal(plan.input.mapRoot, String(m.root));
    // One opening lane per mobile spawn slot.
    const mobile = mobileSlots(m.ruleset);
    const lane = mobile.indexOf(slot);
    assert.ok(lane >= 0, `slot ${slot} is a mobile spawn slot`);
    const k = mapTopLevels(m.board, mobile.length);
    const input = plan.input as Record<string, string[] & string[][]>;
    assert.equal(input.destSalt![lane], String(opening.salt));
    assert.equal(input.destTerrain![lane], String(opening.terrain));
    assert.deepEqual(input.destPath![lane], opening.path.slice(0, pathLength(m.board.depth - k)).map(String));
    // Lanes of slots that stay carry zeros.
    input.destSalt!.forEach((s, i) => {
      if (i !== lane) assert.equal(s, '0');
    });
    assert.deepEqual([...(player.zoneRoots ?? [])], zoneRoots(m.commitment, m.board));

    // A second turn (staying put) reuses the zone roots.
    await player.playTurn({ moves: player.units.map(() => null), reveal: [] });
    assert.equal((proved.at(-1)!.plan as TurnPlan).input.mapRoot, String(m.root));
    assert.equal(calls.zoneRoots, 1, 'read once per game');
  });

  it('refuses a move onto a tile without a verified opening, before proving anything', async () => {
    const { player, proved } = await fakeGame(m);
    const { slot, unknown } = pickMoves(player);
    const before = proved.length;
    const units = player.units;
    await assert.rejects(
      player.playTurn({ moves: movesFor(player, slot, unknown), reveal: [] }),
      (e) =>
        e instanceof InputError &&
        e.field === `moves.${slot}` &&
        /no verified opening of the destination/.test(e.message),
    );
    assert.equal(proved.length, before, 'nothing proven');
    assert.deepEqual(player.units, units, 'nothing moved');
  });

  it('refuses a move onto a verified impassable tile (water, mountains) before proving', async () => {
    // Start areas are land by construction (the generator blends them) and speed 1 keeps the unit's reach on them,
    // so the dealer here commits the map with mountains on one tile the spawn reveals, next to a mobile unit
    // (the spawn is deterministic: same tiles).
    const first = await fakeGame(m);
    const { slot } = pickMoves(first.player);
    const unit = first.player.units[slot]!;
    const speed = m.ruleset.unitTypes[unit.type]!.speed;
    const near = first.player.served.find((t) => {
      const d = gridDistance(m.board.kind, unit, t);
      return d > 0 && d <= speed;
    });
    assert.ok(near, "the spawn revealed a tile within the unit's reach");
    assert.equal(gridDistance(m.board.kind, unit, near), 1, 'speed 1: the tile is adjacent');
    const tiles = m.tiles.map((t) => ({ ...t }));
    tiles[tileIndex(m.board, near)]!.terrain = Terrain.MOUNTAINS;
    const commitment = commitMap(m.h, m.board, tiles, 99n);
    const mountain: DealtMap = { ...m, tiles, commitment, root: commitment.tree.root };
    const { player, proved } = await fakeGame(mountain);
    const wet = player.served.find((t) => t.col === near.col && t.row === near.row);
    assert.ok(wet && !isPassable(wet.terrain), 'the spawn revealed the adjacent mountain');
    const before = proved.length;
    await assert.rejects(
      player.playTurn({ moves: movesFor(player, slot, wet), reveal: [] }),
      (e) => e instanceof InputError && e.field === `moves.${slot}` && /not passable/.test(e.message),
    );
    assert.equal(proved.length, before);
  });

  it('zone roots posted with the root that do not build it (another map’s): proven on-chain at the spawn, nothing proven', async () => {
    const { player, proved, calls } = await joinedGame(m, zoneRoots(other.commitment, other.board));
    await assert.rejects(
      spawn(player),
      (e) => e instanceof ZoneRootsRejectedError && e.reason === 'bad-root',
    );
    assert.deepEqual(
      calls.fraudProofs,
      [zoneRoots(other.commitment, other.board)],
      'proveZoneRootsFraud sent',
    );
    assert.equal(proved.length, 0);
    assert.equal(player.zoneRoots, null, 'nothing kept');
  });
});

describe('GamePlayer without passability', () => {
  it('never asks for zone roots; turns carry the bound root privately, not as a signal', async () => {
    const tiny = await dealtMap('tiny', 4242n, 99n);
    const { player, proved, calls } = await fakeGame(tiny);
    const report = await player.playTurn({ moves: player.units.map(() => null), reveal: [] });
    assert.equal(report.provedPassable, false);
    assert.equal(calls.zoneRoots, 0);
    const plan = proved.at(-1)!.plan as TurnPlan;
    assert.equal(plan.input.mapRoot, String(tiny.root), "the game's root, which the spawn bound");
    assert.deepEqual(plan.publicSignals.slice(-2), [plan.oldCommit, plan.newCommit]);
    assert.equal(plan.input.destPath, undefined, 'no destination openings');
  });
});
