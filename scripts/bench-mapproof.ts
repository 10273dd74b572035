import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
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
import { round } from './lib/stats.ts';

/**
 * Dealing time for a ruleset (generation, salts, tree, every zone's chunk proof and the root proof, on a
 * pool of one proving thread per core) and a client's verification of the whole proof. Keys are built
 * (or taken from the cache) first and not timed: the setup is once per ruleset, not per game.
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
    await verifyMapProof(
      {
        board: r.board,
        maxPlayers: r.players.max,
        gameId,
        players,
        shareCommits: players.map((p, i) => shareCommitment(h, gameId, p, shares[i]!)),
        root: map.tree.root,
      },
      proof,
      vkeys,
    );
    const tVerify = performance.now();
    return {
      [`mapchunk_${key}_constraints`]: constraints.mapchunk,
      [`maproot_${key}_constraints`]: constraints.maproot,
      [`deal_${key}_s`]: round((tDeal - t0) / 1000, 1),
      [`deal_map_${key}_ms`]: round(tMap - t0, 0),
      [`deal_zone_proof_${key}_s`]: round((tDeal - tMap) / 1000 / (r.board.zoneCount + 1), 2),
      [`deal_${key}_workers`]: workers,
      [`client_verify_${key}_ms`]: round(tVerify - tDeal, 0),
    };
  } finally {
    await pool.close();
    await releaseSnarkjsThreads();
  }
}
