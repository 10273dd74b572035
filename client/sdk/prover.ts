/**
 * The snarkjs `Prover`: Groth16 `fullProve` with the core witness builders' inputs, against per-circuit
 * artifacts (paths in Node, URLs or bytes in browsers). The proof's public signals must equal the plan's:
 * a mismatch means the artifacts are not this ruleset's, and is refused before anything is sent.
 *
 * `StoreProver` takes its artifacts from an ArtifactStore instead: checked against the hashes the chain
 * registered, fetched before the first proof of each circuit and kept in memory after.
 */

import { type SolidityProof, toSolidityProof } from '@shroud/core/mapproof/types.ts';
import type { WitnessPlan } from '@shroud/core/witness/inputs.ts';
import * as snarkjs from 'snarkjs';
import type { ArtifactChain, ArtifactStore, CircuitArtifactBytes } from './artifacts.ts';
import type { CircuitKind, Prover } from './chain.ts';
import { releaseSnarkjsThreads } from './snark-threads.ts';

export interface CircuitArtifact {
  wasm: string | Uint8Array;
  zkey: string | Uint8Array;
}

/** Artifacts per circuit: the play circuits of the ruleset, and the sealed-share circuit for the ceremony. */
export type ProverArtifacts = Record<Exclude<CircuitKind, 'seal'>, CircuitArtifact> & {
  seal?: CircuitArtifact;
};

export { toSolidityProof };

/**
 * One Groth16 proof. snarkjs reads each artifact through fastfile, which takes a path (Node), a URL
 * (browser) or a Uint8Array (wrapped as an in-memory `{type: 'mem'}` file, read-only).
 */
export async function proveWith(
  circuit: CircuitKind,
  a: CircuitArtifact,
  plan: WitnessPlan,
): Promise<{ proof: SolidityProof; ms: number }> {
  const t0 = performance.now();
  const { proof, publicSignals } = await snarkjs.groth16.fullProve(plan.input as never, a.wasm, a.zkey);
  const ms = performance.now() - t0;
  const got = publicSignals.map(BigInt);
  if (got.length !== plan.publicSignals.length || got.some((v, i) => v !== plan.publicSignals[i])) {
    throw new Error(`${circuit}: the proof's public signals differ from the witness plan (wrong artifacts?)`);
  }
  return { proof: toSolidityProof(proof), ms };
}

export class SnarkjsProver implements Prover {
  readonly #artifacts: ProverArtifacts;
  /** Milliseconds of the last `prove` call. */
  lastMs = 0;

  constructor(artifacts: ProverArtifacts) {
    this.#artifacts = artifacts;
  }

  async prove(circuit: CircuitKind, plan: WitnessPlan): Promise<SolidityProof> {
    const a = this.#artifacts[circuit];
    if (!a) throw new Error(`no ${circuit} artifacts`);
    const { proof, ms } = await proveWith(circuit, a, plan);
    this.lastMs = ms;
    return proof;
  }

  /** Frees snarkjs' worker threads (Node keeps the process alive until they end). */
  static terminate(): Promise<void> {
    return releaseSnarkjsThreads();
  }
}

/** Every circuit a player proves, in the order a game needs them. */
export const PLAYER_CIRCUITS: readonly CircuitKind[] = ['seal', 'spawn', 'turn', 'attack', 'combat'];

export interface StoreProverOptions {
  store: ArtifactStore;
  chain: ArtifactChain;
  /** The game (its ruleset is read from the chain) or a 0x ruleset hash. */
  game: bigint | string;
}

/**
 * A Prover whose artifacts come from an ArtifactStore: before the first proof of a circuit it reads the
 * registered hashes from the chain and gets the matching files (cache or download, checked); after, the
 * bytes stay in memory. A failed fetch is retried on the next proof, never remembered.
 */
export class StoreProver implements Prover {
  readonly #o: StoreProverOptions;
  readonly #loaded = new Map<CircuitKind, Promise<CircuitArtifactBytes>>();
  /** Milliseconds of the last `prove` call (the proof only, not the fetch). */
  lastMs = 0;

  constructor(o: StoreProverOptions) {
    this.#o = o;
  }

  /** The checked artifacts of `circuit` (fetched once; concurrent callers share the fetch). */
  artifacts(circuit: CircuitKind): Promise<CircuitArtifactBytes> {
    let p = this.#loaded.get(circuit);
    if (!p) {
      p = this.#o.store.forCircuit(this.#o.chain, this.#o.game, circuit);
      p.catch(() => this.#loaded.delete(circuit));
      this.#loaded.set(circuit, p);
    }
    return p;
  }

  /**
   * Fetches and checks every circuit's artifacts now: a player should know it can prove before it stakes
   * (a seat that commits and then cannot prove its sealed share forfeits).
   */
  async prefetch(circuits: readonly CircuitKind[] = PLAYER_CIRCUITS): Promise<void> {
    await Promise.all(circuits.map((c) => this.artifacts(c)));
  }

  async prove(circuit: CircuitKind, plan: WitnessPlan): Promise<SolidityProof> {
    const a = await this.artifacts(circuit);
    const { proof, ms } = await proveWith(circuit, a, plan);
    this.lastMs = ms;
    return proof;
  }

  /** Frees snarkjs' worker threads (Node keeps the process alive until they end). */
  static terminate(): Promise<void> {
    return releaseSnarkjsThreads();
  }
}
