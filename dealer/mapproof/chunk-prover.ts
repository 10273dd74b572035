import type { Groth16Proof, ProverArtifacts } from '../../core/mapproof/types.ts';
import type { MapChunkInput } from '../../core/mapproof/witness.ts';
import type { ProverPool } from './pool.ts';

/** One zone's `mapchunk` proof to make: what any prover needs, and what the dealer checks the answer against. */
export interface ChunkJob {
  gameId: bigint;
  zone: number;
  /** The ruleset's name: a prover on another machine finds its own copy of the keys by it. */
  ruleset: string;
  /** The circuit input: the seed and this zone's salts are secrets of the game. */
  input: MapChunkInput;
  /** The zone root the proof must output (from the dealer's own tree). */
  zoneRoot: bigint;
  /** This machine's keys; `vkey` checks a proof made elsewhere. */
  artifacts: ProverArtifacts & { vkey?: string };
}

/**
 * Where the map proof's chunk proofs are made: the dealer's own pool of child processes (SQLite, or by
 * default), or a durable job queue on its PostgreSQL that prover processes on other machines drain
 * (`mapProof.queue`, dealer/mapproof/queue.ts). Resolves with the proof once it can be used.
 */
export interface ChunkProver {
  prove(job: ChunkJob): Promise<Groth16Proof>;
}

/** The local pool: its workers are this dealer's own child processes, so their proofs are taken as made. */
export function localChunkProver(pool: Pick<ProverPool, 'prove'>): ChunkProver {
  return {
    prove: (job) => pool.prove(job.input as unknown as Record<string, unknown>, job.artifacts),
  };
}
