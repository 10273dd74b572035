/**
 * The page's `Prover`: artifacts from the SDK's ArtifactStore (downloaded once, checked against the SHA-256 the
 * chain registered, cached in IndexedDB), proofs in a dedicated Web Worker (worker.ts), progress reported while
 * it works. A proof whose public signals differ from the witness plan is refused before anything is sent; a
 * worker that dies is replaced for the next proof. The same worker checks the game's map proof (`verifyMapProof`).
 */

import type { MapProof } from '@shroud/core/mapproof/types.ts';
import { toSolidityProof } from '@shroud/core/mapproof/types.ts';
import type { WitnessPlan } from '@shroud/core/witness/inputs.ts';
import {
  type ArtifactChain,
  type ArtifactStore,
  type CircuitArtifactBytes,
  type CircuitKind,
  MapProofError,
  MapProofUncheckedError,
  type Prover,
  type SolidityProof,
} from '@shroud/sdk';
import type { MapProofClaim, MapProofKeys } from '@shroud/sdk/mapproof.ts';
import type {
  ProveRequest,
  VerifyMapProofReply,
  VerifyMapProofRequest,
  WorkerReply,
  WorkerRequest,
} from './worker-protocol.ts';

export interface ProofProgress {
  circuit: CircuitKind;
  /** 'artifacts' while fetching and checking the files, then the worker's stages. */
  label: string;
  /** 0..1 */
  fraction: number;
  elapsedMs: number;
}

export interface ProofRecord {
  circuit: CircuitKind;
  ms: number;
}

/** Every circuit a player proves, in the order a game needs them (the SDK's PLAYER_CIRCUITS). */
const PLAYER_CIRCUITS: readonly CircuitKind[] = ['seal', 'spawn', 'turn', 'attack', 'combat'];

export interface WorkerProverOptions {
  store: ArtifactStore;
  chain: ArtifactChain;
  /** The game (its ruleset is read from the chain). */
  game: bigint;
  /** The built worker script (worker.js beside the page). */
  workerUrl: string | URL;
  onProgress?: (p: ProofProgress | null) => void;
}

export class ProofFailedError extends Error {
  override name = 'ProofFailedError';
}

/** The worker failed to load or crashed (it is replaced for the next request). */
class WorkerFailedError extends ProofFailedError {}

/** The page's MapProofError for a worker's refusal: the same zone, the same message. */
export const mapProofErrorOf = (r: { zone: number | null; reason: string }): MapProofError =>
  new MapProofError(r.zone, r.reason);

export class WorkerProver implements Prover {
  /** Checked artifacts per circuit, fetched once (a failed fetch is forgotten, to be tried again). */
  readonly #loaded = new Map<CircuitKind, Promise<CircuitArtifactBytes>>();
  readonly #o: WorkerProverOptions;
  #worker: Worker | null = null;
  #next = 1;
  /** Every proof this page made, in order: the test counts them, the page shows them. */
  readonly proofs: ProofRecord[] = [];

  constructor(o: WorkerProverOptions) {
    this.#o = o;
  }

  /** The checked zkey and wasm of `circuit` (the SDK's StoreProver does the same; it would bundle snarkjs here). */
  #artifacts(circuit: CircuitKind): Promise<CircuitArtifactBytes> {
    let p = this.#loaded.get(circuit);
    if (!p) {
      p = this.#o.store.forCircuit(this.#o.chain, this.#o.game, circuit);
      p.catch(() => this.#loaded.delete(circuit));
      this.#loaded.set(circuit, p);
    }
    return p;
  }

  /** Downloads and checks every circuit's files now (before staking: a seat that cannot prove forfeits). */
  async prefetch(): Promise<void> {
    await Promise.all(PLAYER_CIRCUITS.map((c) => this.#artifacts(c)));
  }

  async prove(circuit: CircuitKind, plan: WitnessPlan): Promise<SolidityProof> {
    const t0 = performance.now();
    const progress = (label: string, fraction: number) =>
      this.#o.onProgress?.({ circuit, label, fraction, elapsedMs: performance.now() - t0 });
    progress('artifacts', 0);
    try {
      const a = await this.#artifacts(circuit);
      const reply = await this.#run(
        { circuit, input: plan.input as Record<string, unknown>, wasm: a.wasm, zkey: a.zkey },
        (stage, of, label) => progress(label, (stage + 1) / (of + 1)),
      );
      const got = reply.publicSignals.map(BigInt);
      if (got.length !== plan.publicSignals.length || got.some((v, i) => v !== plan.publicSignals[i]))
        throw new ProofFailedError(
          `${circuit}: the proof's public signals differ from the witness plan (wrong artifacts?)`,
        );
      this.proofs.push({ circuit, ms: reply.ms });
      return toSolidityProof(reply.proof as never);
    } finally {
      this.#o.onProgress?.(null);
    }
  }

  /** Ends the worker (a new one starts on the next proof). */
  terminate(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }

  /**
   * Checks the game's ZK map proof in the worker (snarkjs' curve stays out of the page's main bundle) with `vkeys`,
   * the keys the page was built with: resolves when it verifies, throws MapProofError with the zone and reason the
   * worker's `verifyMapProof` found when it does not. A worker that dies meanwhile is replaced and asked once more;
   * dying again is MapProofUncheckedError: this page's failure is never taken for a refusal of the dealer's proof.
   */
  async verifyMapProof(claim: MapProofClaim, proof: MapProof, vkeys: MapProofKeys): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let r: VerifyMapProofReply;
      try {
        r = await this.#call<VerifyMapProofReply>(
          { type: 'verify-map-proof', claim, proof, vkeys },
          'map proof',
        );
      } catch (e) {
        if (!(e instanceof WorkerFailedError)) throw e;
        if (attempt === 0) continue;
        // The page's own failure, not the dealer's: no refusal, the bot's loop asks again later.
        throw new MapProofUncheckedError((e as Error).message, { cause: e });
      }
      if (r.type === 'error') throw mapProofErrorOf(r);
      if (r.type === 'unchecked') throw new MapProofUncheckedError(r.reason);
      return;
    }
  }

  #run(
    req: Omit<ProveRequest, 'id' | 'type'>,
    onStage: (stage: number, of: number, label: string) => void,
  ): Promise<Extract<WorkerReply, { type: 'done' }>> {
    return this.#call<WorkerReply>({ type: 'prove', ...req }, req.circuit, (r) =>
      onStage(r.stage, r.of, r.label),
    ).then((r) => {
      if (r.type === 'done') return r;
      throw new ProofFailedError(r.message);
    });
  }

  /** Posts one request to the worker (started if need be) and waits for its answer, passing on its progress. */
  #call<R extends { id: number; type: string }>(
    req: Omit<ProveRequest, 'id'> | Omit<VerifyMapProofRequest, 'id'>,
    what: string,
    onProgress?: (r: Extract<WorkerReply, { type: 'progress' }>) => void,
  ): Promise<Exclude<R, { type: 'progress' }>> {
    const worker = (this.#worker ??= new Worker(this.#o.workerUrl, {
      type: 'module',
      name: 'shroud-prover',
    }));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const done = () => {
        worker.removeEventListener('message', onMessage);
        worker.removeEventListener('error', onError);
      };
      const onMessage = (ev: MessageEvent<R | WorkerReply>) => {
        const r = ev.data;
        if (r.id !== id) return;
        if (r.type === 'progress') return onProgress?.(r as Extract<WorkerReply, { type: 'progress' }>);
        done();
        resolve(r as Exclude<R, { type: 'progress' }>);
      };
      const onError = (ev: ErrorEvent) => {
        done();
        // A worker that failed to load or crashed is of no further use.
        this.terminate();
        reject(new WorkerFailedError(`${what}: the prover worker failed (${ev.message || 'no message'})`));
      };
      worker.addEventListener('message', onMessage);
      worker.addEventListener('error', onError);
      worker.postMessage({ id, ...req } satisfies WorkerRequest);
    });
  }
}
