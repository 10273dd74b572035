/**
 * The dealer's background map prover (dealer/mapproof/service.ts) with a fake pool, store and chain: a game dealt
 * before its ruleset's keys exist waits for them, then is proven and posted with the seed hash and zone roots
 * the root proof proves (in the registry's signal order). No circuits, no proving.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import pino from 'pino';
import {
  commitMap,
  generateMap,
  type Hasher,
  loadHasher,
  seedFromShares,
  shippedRuleset,
} from '../../core/index.ts';
import { mapRootSignalCount } from '../../core/mapproof/signals.ts';
import type { Groth16Proof, ProverArtifacts } from '../../core/mapproof/types.ts';
import { mapRootInput, seedHash, zoneRoots } from '../../core/mapproof/witness.ts';
import type { ProverPool } from '../../dealer/mapproof/pool.ts';
import { type MapCircuitArtifacts, MapProver } from '../../dealer/mapproof/service.ts';
import type { MapCache } from '../../dealer/maps.ts';
import type { DealerStore } from '../../dealer/store/types.ts';

const tiny = shippedRuleset('tiny');
const keys: MapCircuitArtifacts = {
  mapchunk: { wasm: 'c.wasm', zkey: 'c.zkey', vkey: 'c.vkey.json' },
  maproot: { wasm: 'r.wasm', zkey: 'r.zkey' },
};

describe('MapProver', () => {
  let h: Hasher;
  const gameId = 12n;
  const shares = [31n, 32n];
  const players = [
    '0x00000000000000000000000000000000000000aa',
    '0x00000000000000000000000000000000000000bb',
  ];
  let seed: bigint;
  let map: ReturnType<typeof commitMap>;

  before(async () => {
    h = await loadHasher();
    seed = seedFromShares(h, shares);
    map = commitMap(h, tiny.board, generateMap(h, tiny.board, seed), 5n);
  });

  test('waits for keys built after the game was dealt, then proves and posts seedHash and zone roots', async () => {
    const saved = new Map<number, Groth16Proof>();
    const store = {
      getGame: async () => ({ players }),
      getSecrets: async () => ({ shares, seed }),
      mapProofs: async () => new Map(saved),
      putMapProof: async (_g: bigint, zone: number, p: Groth16Proof) => void saved.set(zone, p),
    } as unknown as DealerStore;
    const maps = { get: async () => ({ ruleset: tiny, commitment: map }) } as unknown as MapCache;
    // The root proof's signals are those the circuit outputs for this input, in the circuit's order.
    const root = mapRootInput(h, {
      maxPlayers: tiny.players.max,
      gameId,
      players: players.map(BigInt),
      shares,
      map,
      board: tiny.board,
    });
    const rootSignals = [
      root.gameId,
      ...root.players,
      ...root.shareCommits,
      root.nPlayers,
      root.seedHash,
      root.root,
      ...root.zoneRoots,
    ];
    assert.equal(rootSignals.length, mapRootSignalCount(tiny.players.max, tiny.board.zoneCount));
    const pool = {
      prove: async (input: Record<string, unknown>, a: ProverArtifacts) => ({
        proof: { pi_a: [], pi_b: [], pi_c: [], protocol: 'groth16', curve: 'bn128' },
        publicSignals: a === keys.maproot ? rootSignals : [String(input.zone)],
      }),
    } as unknown as ProverPool;
    const posted: { seedHash: bigint; zoneRoots: readonly bigint[] }[] = [];
    let built = false;
    const prover = new MapProver({
      h,
      store,
      maps,
      pool,
      chain: {
        submitMapProof: async (_g, seedHash, zoneRoots) => {
          posted.push({ seedHash, zoneRoots });
          return { hash: '0x1' };
        },
      },
      artifacts: () => (built ? keys : null),
      log: pino({ level: 'silent' }),
      keysPollMs: 20,
    });
    const run = prover.start(gameId);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(prover.status(gameId).state, 'waiting-keys');
    assert.equal(saved.size, 0);
    built = true;
    await run;
    assert.deepEqual(prover.status(gameId), {
      state: 'done',
      done: tiny.board.zoneCount + 1,
      total: tiny.board.zoneCount + 1,
    });
    assert.equal(saved.size, tiny.board.zoneCount + 1);
    assert.deepEqual(posted, [{ seedHash: seedHash(h, seed), zoneRoots: zoneRoots(map, tiny.board) }]);
    assert.ok((await prover.proof(gameId))?.root);
  });
});
