/**
 * The snarkjs `Prover`: Groth16 `fullProve` with the core witness builders' inputs, against per-circuit
 * artifacts (paths in Node, URLs or bytes in browsers). The proof's public signals must equal the plan's:
 * a mismatch means the artifacts are not this ruleset's, and is refused before anything is sent.
 */
import * as snarkjs from 'snarkjs';
import { type SolidityProof, toSolidityProof } from '../../core/mapproof/types.ts';
import type { WitnessPlan } from '../../core/witness/inputs.ts';
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
    const t0 = performance.now();
    const { proof, publicSignals } = await snarkjs.groth16.fullProve(plan.input as never, a.wasm, a.zkey);
    this.lastMs = performance.now() - t0;
    const got = publicSignals.map(BigInt);
    if (got.length !== plan.publicSignals.length || got.some((v, i) => v !== plan.publicSignals[i])) {
      throw new Error(
        `${circuit}: the proof's public signals differ from the witness plan (wrong artifacts?)`,
      );
    }
    return toSolidityProof(proof);
  }

  /** Frees snarkjs' worker threads (Node keeps the process alive until they end). */
  static terminate(): Promise<void> {
    return releaseSnarkjsThreads();
  }
}
