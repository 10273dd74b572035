/**
 * The page's `Prover`: artifacts from the SDK's ArtifactStore (downloaded once, checked against the SHA-256 the
 * chain registered, cached in IndexedDB), proofs in a dedicated Web Worker (worker.ts), progress reported while
 * it works. A proof whose public signals differ from the witness plan is refused before anything is sent; a
 * worker that dies is replaced for the next proof.
 */
import { toSolidityProof } from '@shroud/core/mapproof/types.ts';
import type { WitnessPlan } from '@shroud/core/witness/inputs.ts';
import type {
  ArtifactChain,
  ArtifactStore,
  CircuitArtifactBytes,
  CircuitKind,
  Prover,
  SolidityProof,
} from '@shroud/sdk';
import type { ProveRequest, WorkerReply } from './worker-protocol.ts';

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

  #run(
    req: Omit<ProveRequest, 'id'>,
    onStage: (stage: number, of: number, label: string) => void,
  ): Promise<Extract<WorkerReply, { type: 'done' }>> {
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
      const onMessage = (ev: MessageEvent<WorkerReply>) => {
        const r = ev.data;
        if (r.id !== id) return;
        if (r.type === 'progress') return onStage(r.stage, r.of, r.label);
        done();
        if (r.type === 'done') resolve(r);
        else reject(new ProofFailedError(r.message));
      };
      const onError = (ev: ErrorEvent) => {
        done();
        // A worker that failed to load or crashed is of no further use.
        this.terminate();
        reject(
          new ProofFailedError(`${req.circuit}: the prover worker failed (${ev.message || 'no message'})`),
        );
      };
      worker.addEventListener('message', onMessage);
      worker.addEventListener('error', onError);
      worker.postMessage({ id, ...req } satisfies ProveRequest);
    });
  }
}
