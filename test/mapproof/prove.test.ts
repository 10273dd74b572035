import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { MapProofError, verifyMapProof } from '../../client/mapproof.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import {
  commitMap,
  generateMap,
  type Hasher,
  loadHasher,
  seedFromShares,
  shareCommitment,
  shippedRuleset,
} from '../../core/index.ts';
import type { Groth16Proof, MapProof } from '../../core/mapproof/types.ts';
import { ProverPool } from '../../dealer/mapproof/pool.ts';
import { proveMap } from '../../dealer/mapproof/prove.ts';
import { buildCircuits } from '../../scripts/circuits/build.ts';

/** End to end on tiny: the dealer proves every zone and the root, a client verifies against chain values. */
describe('ZK map proof, tiny ruleset', () => {
  const r = shippedRuleset('tiny');
  const b = r.board;
  const gameId = 4242n;
  const players = [0x1111n, 0x2222n];
  const shares = [31n, 32n];
  let h: Hasher;
  let pool: ProverPool;
  let proof: MapProof;
  let vkeys: { mapchunk: object; maproot: object };
  let artifacts: { mapchunk: { wasm: string; zkey: string }; maproot: { wasm: string; zkey: string } };
  let map: ReturnType<typeof commitMap>;
  let proved = 0;

  before(async () => {
    h = await loadHasher();
    const arts = await buildCircuits({ ruleset: r, circuits: ['mapchunk', 'maproot'], log: () => {} });
    artifacts = {
      mapchunk: { wasm: arts.mapchunk!.wasm, zkey: arts.mapchunk!.zkey! },
      maproot: { wasm: arts.maproot!.wasm, zkey: arts.maproot!.zkey! },
    };
    vkeys = {
      mapchunk: JSON.parse(readFileSync(arts.mapchunk!.vkey!, 'utf8')),
      maproot: JSON.parse(readFileSync(arts.maproot!.vkey!, 'utf8')),
    };
    pool = new ProverPool(2);
    const seed = seedFromShares(h, shares);
    map = commitMap(h, b, generateMap(h, b, seed), 777n);
    // Resume: zone 2 was proven before a "crash"; it must not be proven again.
    const saved = new Map<number, Groth16Proof>();
    const counting = {
      prove: (input: Record<string, unknown>, a: { wasm: string; zkey: string }) => {
        proved++;
        return pool.prove(input, a);
      },
    } as unknown as ProverPool;
    const job = { board: b, maxPlayers: 2, gameId, players, shares, seed, map, artifacts };
    const first = await proveMap(h, counting, {
      ...job,
      store: { load: async (z) => saved.get(z) ?? null, save: async (z, p) => void saved.set(z, p) },
    });
    assert.equal(proved, b.zoneCount + 1);
    for (const z of [0, 1, 3]) saved.delete(z);
    proved = 0;
    const progress: number[] = [];
    proof = await proveMap(h, counting, {
      ...job,
      store: { load: async (z) => saved.get(z) ?? null, save: async (z, p) => void saved.set(z, p) },
      onProgress: (done) => progress.push(done),
    });
    assert.equal(proved, 4, 'three zones and the root proved again, zone 2 reused');
    assert.deepEqual(progress.at(-1), b.zoneCount + 1);
    assert.deepEqual(proof.chunks[2], first.chunks[2]);
  });

  after(async () => {
    await pool?.close();
    await releaseSnarkjsThreads();
  });

  const claim = () => ({
    board: b,
    maxPlayers: 2,
    gameId,
    players,
    shareCommits: players.map((p, i) => shareCommitment(h, gameId, p, shares[i]!)),
    root: map.tree.root,
  });

  test('a client accepts the honest proof for the chain root', async () => {
    await verifyMapProof(claim(), proof, vkeys);
  });

  test('a client refuses proofs for another root, game or ceremony', async () => {
    const refuse = (c: ReturnType<typeof claim>, p: MapProof = proof) =>
      assert.rejects(verifyMapProof(c, p, vkeys), MapProofError);
    await refuse({ ...claim(), root: map.tree.root + 1n });
    await refuse({ ...claim(), gameId: gameId + 1n });
    await refuse({ ...claim(), shareCommits: [1n, 2n] });
    await refuse({ ...claim(), players: [0x1111n, 0x3333n] });
  });

  test('a client refuses swapped, altered or missing zone proofs', async () => {
    const swapped = { ...proof, chunks: [proof.chunks[1]!, proof.chunks[0]!, ...proof.chunks.slice(2)] };
    await assert.rejects(verifyMapProof(claim(), swapped, vkeys), /zone 0: proof is for another zone/);
    const forged = structuredClone(proof);
    forged.chunks[3]!.publicSignals[0] = forged.root.publicSignals[2 * 2 + 4 + 3]!;
    forged.root.publicSignals[2 * 2 + 4 + 3] = String(BigInt(forged.root.publicSignals[2 * 2 + 4 + 3]!) + 1n);
    await assert.rejects(verifyMapProof(claim(), forged, vkeys), MapProofError);
    const badChunk = structuredClone(proof);
    badChunk.chunks[1]!.proof.pi_a[0] = badChunk.chunks[0]!.proof.pi_a[0]!;
    await assert.rejects(verifyMapProof(claim(), badChunk, vkeys), /zone 1: chunk proof does not verify/);
    await assert.rejects(
      verifyMapProof(claim(), { ...proof, chunks: proof.chunks.slice(1) }, vkeys),
      /3 chunk proofs/,
    );
  });
});
