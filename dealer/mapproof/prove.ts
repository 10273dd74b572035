import type { Board } from '../../core/geometry.ts';
import type { Groth16Proof, MapProof, ProverArtifacts } from '../../core/mapproof/types.ts';
import { type MapChunkInput, mapChunkInput, mapRootInput, zoneRoots } from '../../core/mapproof/witness.ts';
import type { MapCommitment } from '../../core/maptree.ts';
import type { Hasher } from '../../core/poseidon.ts';
import { type ChunkProver, localChunkProver } from './chunk-prover.ts';
import type { ProverPool } from './pool.ts';

/** Where finished chunk proofs are kept, so a crashed dealer resumes instead of starting over. */
export interface ChunkProofStore {
  load(zone: number): Promise<Groth16Proof | null>;
  save(zone: number, proof: Groth16Proof): Promise<void>;
}

export interface MapProofJob {
  board: Board;
  maxPlayers: number;
  gameId: bigint;
  players: readonly bigint[];
  shares: readonly bigint[];
  seed: bigint;
  map: MapCommitment;
  artifacts: { mapchunk: ProverArtifacts & { vkey?: string }; maproot: ProverArtifacts };
  store: ChunkProofStore;
  /** Where the chunk proofs are made (default: `pool`, which always makes the root proof: it holds the shares). */
  chunks?: ChunkProver;
  /** The ruleset's name, by which provers elsewhere find their keys (needed with a queue). */
  ruleset?: string;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Proves every zone (in parallel, skipping zones already stored) and the root proof at the same time: the root
 * proof's inputs are the dealer's own zone roots, not the chunk proofs, so it never waits for them (with the
 * job queue it runs on the local pool while the chunks are proven elsewhere; on the pool, no worker idles while
 * the last chunks finish and the root still has to start). Each chunk proof is persisted as soon as it exists:
 * a restart repeats at most one proof per thread (and the root proof, stored by the caller once all are done).
 */
export async function proveMap(
  h: Hasher,
  pool: Pick<ProverPool, 'prove'>,
  job: MapProofJob,
): Promise<MapProof> {
  const { board, map, seed, store } = job;
  const total = board.zoneCount + 1;
  const prover = job.chunks ?? localChunkProver(pool);
  const roots = zoneRoots(map, board);
  let done = 0;
  const report = () => job.onProgress?.(done, total);
  const rootInput = mapRootInput(h, {
    maxPlayers: job.maxPlayers,
    gameId: job.gameId,
    players: job.players,
    shares: job.shares,
    map,
    board,
  });
  // Queued first: on a pool it takes the first free worker, while the chunks fill the others.
  const root = pool
    .prove(rootInput as unknown as Record<string, unknown>, job.artifacts.maproot)
    .then((p) => {
      done++;
      report();
      return p;
    });
  const chunks = Array.from({ length: board.zoneCount }, async (_, zone) => {
    let p = await store.load(zone);
    if (!p) {
      const input: MapChunkInput = mapChunkInput(h, board, seed, map, zone);
      p = await prover.prove({
        gameId: job.gameId,
        zone,
        ruleset: job.ruleset ?? '',
        input,
        zoneRoot: roots[zone]!,
        artifacts: job.artifacts.mapchunk,
      });
      await store.save(zone, p);
    }
    done++;
    report();
    return p;
  });
  const [rootProof, ...chunkProofs] = await Promise.all([root, ...chunks]);
  return { chunks: chunkProofs, root: rootProof };
}
