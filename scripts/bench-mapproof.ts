import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import * as snarkjs from 'snarkjs';
import { verifyMapProof } from '../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../client/sdk/snark-threads.ts';
import {
  commitMap,
  generateMap,
  loadHasher,
  seedFromShares,
  shareCommitment,
  shippedRuleset,
} from '../core/index.ts';
import type { Groth16Proof } from '../core/mapproof/types.ts';
import { ProverPool } from '../dealer/mapproof/pool.ts';
import { proveMap } from '../dealer/mapproof/prove.ts';
import { buildCircuits } from './circuits/build.ts';
import { consoleProgress } from './lib/progress.ts';
import { median, round } from './lib/stats.ts';

/** Verifications of the same proof, each way (medians reported). */
const VERIFY_RUNS = 5;

/**
 * Dealing time for a ruleset (generation, salts, tree, every zone's chunk proof and the root proof, on a
 * pool of one proving thread per core) and a client's verification of the whole proof: the SDK's batch
 * (`client_verify_<ruleset>_ms`, the curve already built) against one snarkjs verification per proof in the same
 * run (`_sequential_ms`), and the curve's one-time build. Keys are built (or taken from the cache) first and
 * not timed: the setup is once per ruleset, not per game.
 */
/** What a map-proof benchmark proves: a ruleset's map chunk and root keys (built or cached), a game's players and shares. */
export async function mapProofFixture(name: string, ptauDir: string | undefined) {
  const r = shippedRuleset(name);
  const h = await loadHasher();
  const arts = await buildCircuits({
    ruleset: r,
    circuits: ['mapchunk', 'maproot'],
    ...(ptauDir ? { ptauDir } : {}),
    progress: consoleProgress({ out: process.stderr }),
  });
  const artifacts = {
    mapchunk: { wasm: arts.mapchunk!.wasm, zkey: arts.mapchunk!.zkey!, vkey: arts.mapchunk!.vkey! },
    maproot: { wasm: arts.maproot!.wasm, zkey: arts.maproot!.zkey! },
  };
  const vkeys = {
    mapchunk: JSON.parse(readFileSync(arts.mapchunk!.vkey!, 'utf8')),
    maproot: JSON.parse(readFileSync(arts.maproot!.vkey!, 'utf8')),
  };
  const players = Array.from({ length: r.players.min }, (_, i) => BigInt(0x1000 + i));
  const shares = players.map((_, i) => BigInt(1_000_003 * (i + 1)));
  const constraints = { mapchunk: arts.mapchunk!.constraints, maproot: arts.maproot!.constraints };
  return { r, key: name.replace(/-/g, '_'), h, artifacts, vkeys, constraints, players, shares };
}

export async function benchMapProof(
  opts: { ruleset?: string; ptauDir?: string } = {},
): Promise<Record<string, number>> {
  const { r, key, h, artifacts, vkeys, constraints, players, shares } = await mapProofFixture(
    opts.ruleset ?? 'duel',
    opts.ptauDir,
  );
  const gameId = 77n;
  const workers = availableParallelism();
  const pool = new ProverPool(workers);
  try {
    const t0 = performance.now();
    const seed = seedFromShares(h, shares);
    const map = commitMap(h, r.board, generateMap(h, r.board, seed), 123456789n);
    const tMap = performance.now();
    const proof = await proveMap(h, pool, {
      board: r.board,
      maxPlayers: r.players.max,
      gameId,
      players,
      shares,
      seed,
      map,
      artifacts,
      store: { load: async () => null, save: async (_z: number, _p: Groth16Proof) => {} },
      onProgress: (done, total) => console.error(`map proof ${done}/${total}`),
    });
    const tDeal = performance.now();
    const claim = {
      board: r.board,
      maxPlayers: r.players.max,
      gameId,
      players,
      shareCommits: players.map((p, i) => shareCommitment(h, gameId, p, shares[i]!)),
      root: map.tree.root,
    };
    // The curve (WebAssembly and threads) is built once per process; a player who proves has built it already.
    const t0c = performance.now();
    await snarkjs.curves.getCurveFromName('bn128');
    const curveMs = performance.now() - t0c;
    // Alternated, so load on the machine falls on both: the batch (what clients run) and, as the baseline, one
    // snarkjs verification per proof (what they ran before).
    const batch: number[] = [];
    const sequential: number[] = [];
    const all = [
      { vkey: vkeys.maproot, ...proof.root },
      ...proof.chunks.map((c) => ({ vkey: vkeys.mapchunk, ...c })),
    ];
    for (let i = 0; i < VERIFY_RUNS; i++) {
      let t = performance.now();
      await verifyMapProof(claim, proof, vkeys);
      batch.push(performance.now() - t);
      t = performance.now();
      for (const c of all)
        if (!(await snarkjs.groth16.verify(c.vkey, c.publicSignals, c.proof)))
          throw new Error('snarkjs refused an honest proof');
      sequential.push(performance.now() - t);
    }
    return {
      [`mapchunk_${key}_constraints`]: constraints.mapchunk,
      [`maproot_${key}_constraints`]: constraints.maproot,
      [`deal_${key}_s`]: round((tDeal - t0) / 1000, 1),
      [`deal_map_${key}_ms`]: round(tMap - t0, 0),
      [`deal_zone_proof_${key}_s`]: round((tDeal - tMap) / 1000 / (r.board.zoneCount + 1), 2),
      [`deal_${key}_workers`]: workers,
      [`client_verify_${key}_ms`]: round(median(batch), 0),
      [`client_verify_${key}_sequential_ms`]: round(median(sequential), 0),
      [`client_verify_${key}_speedup`]: round(median(sequential) / median(batch), 1),
      [`client_curve_init_ms`]: round(curveMs, 0),
    };
  } finally {
    await pool.close();
    await releaseSnarkjsThreads();
  }
}
