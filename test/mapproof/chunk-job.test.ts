/**
 * The chunk queue's wire format (dealer/mapproof/chunk-job.ts) and the dealer's check of a proof that comes
 * back from another machine (dealer/mapproof/verify-chunk.ts): what a database holding the jobs learns,
 * what a prover refuses to open, and what the dealer refuses to use. No server, no proving.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import {
  commitMap,
  generateMap,
  type Hasher,
  loadHasher,
  seedFromShares,
  shippedRuleset,
} from '../../core/index.ts';
import { mapChunkInput, zoneRoots } from '../../core/mapproof/witness.ts';
import {
  ChunkJobError,
  chunkJobId,
  openChunkJob,
  queueOptions,
  sealChunkJob,
} from '../../dealer/mapproof/chunk-job.ts';
import type { ChunkJob } from '../../dealer/mapproof/chunk-prover.ts';
import { ChunkProofRejected, checkChunkProof } from '../../dealer/mapproof/verify-chunk.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { buildCircuits } from '../../scripts/circuits/build.ts';

const tiny = shippedRuleset('tiny');

describe('chunk jobs: sealed inputs, stable ids', () => {
  let h: Hasher;
  let job: ChunkJob;
  const box = secretBox(randomBytes(32));
  before(async () => {
    h = await loadHasher();
    const seed = seedFromShares(h, [31n, 32n]);
    const map = commitMap(h, tiny.board, generateMap(h, tiny.board, seed), 777n);
    const input = mapChunkInput(h, tiny.board, seed, map, 1);
    job = {
      gameId: 7n,
      zone: 1,
      ruleset: 'tiny',
      input,
      zoneRoot: zoneRoots(map, tiny.board)[1]!,
      artifacts: { wasm: 'w', zkey: 'z' },
    };
  });

  it('a job holds its seed and salts only sealed; the job key opens it, bound to its game, zone and ruleset', () => {
    const data = sealChunkJob(box, job);
    const text = JSON.stringify(data);
    assert.ok(!text.includes(job.input.seed), 'no seed in clear');
    assert.ok(!job.input.salts.some((s) => text.includes(s)), 'no salt in clear');
    assert.deepEqual(
      { gameId: data.gameId, zone: data.zone, ruleset: data.ruleset },
      { gameId: '7', zone: 1, ruleset: 'tiny' },
    );
    assert.deepEqual(openChunkJob(box, JSON.parse(text)), {
      gameId: 7n,
      zone: 1,
      ruleset: 'tiny',
      input: job.input,
    });
    // Moved to another game or zone (the clear fields edited), or opened with another key: refused.
    assert.throws(() => openChunkJob(box, { ...data, zone: 2 }), ChunkJobError);
    assert.throws(() => openChunkJob(box, { ...data, gameId: '8' }), ChunkJobError);
    assert.throws(() => openChunkJob(secretBox(randomBytes(32)), data), /SHROUD_MAP_PROOF_JOB_KEY/);
  });

  it('a malformed job or a ruleset name that is a path is refused before anything is opened', () => {
    const data = sealChunkJob(box, job);
    for (const bad of [
      null,
      'x',
      { ...data, v: 2 },
      { ...data, gameId: '-1' },
      { ...data, zone: -1 },
      { ...data, zone: 1.5 },
      { ...data, ruleset: '../../etc' },
      { ...data, ruleset: 'tiny/../duel' },
      { ...data, sealed: 5 },
    ]) {
      assert.throws(() => openChunkJob(box, bad), /not a Shroud chunk job/, JSON.stringify(bad));
    }
  });

  it('one id per game and zone (a UUID), so a restarted dealer finds its job again', () => {
    const id = chunkJobId(7n, 1);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(chunkJobId(7n, 1), id);
    assert.notEqual(chunkJobId(7n, 2), id);
    assert.notEqual(chunkJobId(70n, 1), id);
  });

  it('three tries by default, with backoff; a dead prover is noticed by its heartbeat', () => {
    const q = queueOptions({ attempts: 3, heartbeatSeconds: 30 });
    assert.equal(q.retryLimit, 2);
    assert.equal(q.retryBackoff, true);
    assert.equal(q.heartbeatSeconds, 30);
  });
});

describe("the dealer's check of a chunk proof made elsewhere", () => {
  let vkey: object;
  let job: ChunkJob;
  before(async () => {
    const h = await loadHasher();
    const arts = await buildCircuits({ ruleset: tiny, circuits: ['mapchunk'], log: () => {} });
    vkey = JSON.parse(readFileSync(arts.mapchunk!.vkey!, 'utf8'));
    const seed = seedFromShares(h, [31n, 32n]);
    const map = commitMap(h, tiny.board, generateMap(h, tiny.board, seed), 777n);
    job = {
      gameId: 7n,
      zone: 1,
      ruleset: 'tiny',
      input: mapChunkInput(h, tiny.board, seed, map, 1),
      zoneRoot: zoneRoots(map, tiny.board)[1]!,
      artifacts: { wasm: 'w', zkey: 'z' },
    };
  });
  after(() => releaseSnarkjsThreads());

  const shaped = (signals: string[]) => ({
    proof: {
      pi_a: ['1', '2', '1'],
      pi_b: [
        ['1', '0'],
        ['2', '0'],
        ['1', '0'],
      ],
      pi_c: ['1', '2', '1'],
      protocol: 'groth16',
      curve: 'bn128',
    },
    publicSignals: signals,
  });

  it('refuses what is not a proof, a proof of another zone, seed or map, and one that does not verify', async () => {
    const right = [String(job.zoneRoot), '1', job.input.seedHash];
    for (const bad of [
      null,
      {},
      { proof: {}, publicSignals: right },
      shaped(['1', '2']),
      shaped(['x', 'y', 'z']),
    ]) {
      await assert.rejects(checkChunkProof(vkey, job, bad), /not a Groth16 proof/);
    }
    await assert.rejects(checkChunkProof(vkey, job, shaped([right[0]!, '2', right[2]!])), /another zone/);
    await assert.rejects(checkChunkProof(vkey, job, shaped([right[0]!, '1', '5'])), /another zone, seed/);
    await assert.rejects(
      checkChunkProof(vkey, job, shaped(['5', '1', right[2]!])),
      /another zone, seed or map/,
    );
    await assert.rejects(checkChunkProof(vkey, job, shaped(right)), (e: Error) => {
      assert.ok(e instanceof ChunkProofRejected);
      assert.match(e.message, /does not verify/);
      return true;
    });
  });
});
