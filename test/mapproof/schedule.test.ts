/**
 * proveMap's scheduling (dealer/mapproof/prove.ts), with provers that answer when the test says: the root proof
 * needs only the dealer's own zone roots, so it is proven alongside the chunk proofs, never after them. No
 * circuits, no proving.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  commitMap,
  generateMap,
  type Hasher,
  loadHasher,
  seedFromShares,
  shippedRuleset,
} from '../../core/index.ts';
import type { Groth16Proof, ProverArtifacts } from '../../core/mapproof/types.ts';
import type { ChunkJob } from '../../dealer/mapproof/chunk-prover.ts';
import { type MapProofJob, proveMap } from '../../dealer/mapproof/prove.ts';

const tiny = shippedRuleset('tiny');
const artifacts = {
  mapchunk: { wasm: 'chunk.wasm', zkey: 'chunk.zkey' },
  maproot: { wasm: 'root.wasm', zkey: 'root.zkey' },
};
const fake = (tag: string): Groth16Proof => ({
  proof: { pi_a: [], pi_b: [], pi_c: [], protocol: 'groth16', curve: 'bn128' },
  publicSignals: [tag],
});

/** A prover whose every call waits until the test resolves it. */
class HeldProver {
  readonly calls: { what: string; resolve: (p: Groth16Proof) => void }[] = [];
  hold(what: string): Promise<Groth16Proof> {
    return new Promise((resolve) => this.calls.push({ what, resolve }));
  }
  release(what: string): void {
    const c = this.calls.find((x) => x.what === what);
    assert.ok(c, `${what} was asked for`);
    c.resolve(fake(what));
  }
}

const settle = () => new Promise((r) => setImmediate(r));

describe('proveMap schedules the root proof alongside the chunk proofs', () => {
  let h: Hasher;
  let job: Omit<MapProofJob, 'store'>;

  before(async () => {
    h = await loadHasher();
    const shares = [31n, 32n];
    const seed = seedFromShares(h, shares);
    job = {
      board: tiny.board,
      maxPlayers: tiny.players.max,
      gameId: 9n,
      players: [0x11n, 0x22n],
      shares,
      seed,
      map: commitMap(h, tiny.board, generateMap(h, tiny.board, seed), 5n),
      artifacts,
    };
  });

  test('on the pool, the root proof is asked for first, before any chunk proof has finished', async () => {
    const pool = new HeldProver();
    const progress: number[] = [];
    const run = proveMap(
      h,
      {
        prove: (input: Record<string, unknown>, a: ProverArtifacts) =>
          pool.hold(a === artifacts.maproot ? 'root' : `zone ${input.zone}`),
      },
      {
        ...job,
        store: { load: async () => null, save: async () => {} },
        onProgress: (d) => progress.push(d),
      },
    );
    await settle();
    const Z = tiny.board.zoneCount;
    assert.deepEqual(
      pool.calls.map((c) => c.what),
      ['root', ...Array.from({ length: Z }, (_, z) => `zone ${z}`)],
    );
    // The root finishes while every chunk is still out; chunks come back in reverse order.
    pool.release('root');
    await settle();
    assert.deepEqual(progress, [1]);
    for (let z = Z - 1; z >= 0; z--) pool.release(`zone ${z}`);
    const proof = await run;
    assert.deepEqual(proof.root, fake('root'));
    assert.deepEqual(
      proof.chunks.map((c) => c.publicSignals[0]),
      Array.from({ length: Z }, (_, z) => `zone ${z}`),
      'chunks in zone order, whatever order they finished in',
    );
    assert.deepEqual(
      progress,
      Array.from({ length: Z + 1 }, (_, i) => i + 1),
    );
  });

  test('with the chunks elsewhere (the job queue), the pool proves the root while they are pending', async () => {
    const pool = new HeldProver();
    const queue = new HeldProver();
    const stored = new Map<number, Groth16Proof>([[1, fake('zone 1 (stored)')]]);
    const saved: number[] = [];
    const run = proveMap(
      h,
      { prove: () => pool.hold('root') },
      {
        ...job,
        chunks: { prove: (j: ChunkJob) => queue.hold(`zone ${j.zone}`) },
        store: {
          load: async (z) => stored.get(z) ?? null,
          save: async (z) => void saved.push(z),
        },
      },
    );
    await settle();
    assert.deepEqual(
      pool.calls.map((c) => c.what),
      ['root'],
    );
    assert.deepEqual(
      queue.calls.map((c) => c.what),
      ['zone 0', 'zone 2', 'zone 3'],
      'a stored zone is not proven again',
    );
    pool.release('root');
    await settle();
    let finished = false;
    void run.then(() => {
      finished = true;
    });
    await settle();
    assert.equal(finished, false, 'the map proof is not complete before its chunks');
    for (const z of [0, 2, 3]) queue.release(`zone ${z}`);
    const proof = await run;
    assert.equal(proof.chunks[1]!.publicSignals[0], 'zone 1 (stored)');
    assert.deepEqual(saved.sort(), [0, 2, 3]);
  });

  test('a failed root proof fails the map proof', async () => {
    const run = proveMap(
      h,
      {
        prove: async (_i: Record<string, unknown>, a: ProverArtifacts) => {
          if (a === artifacts.maproot) throw new Error('root failed');
          return fake('chunk');
        },
      },
      { ...job, store: { load: async () => null, save: async () => {} } },
    );
    await assert.rejects(run, /root failed/);
  });
});
