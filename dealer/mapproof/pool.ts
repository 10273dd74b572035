import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Groth16Proof, ProverArtifacts } from '../../core/mapproof/types.ts';

/** A fixed pool of proving threads; each runs snarkjs single-threaded so N threads use N cores. */
export class ProverPool {
  private readonly workers: Worker[];
  private readonly idle: Worker[];
  private readonly waiting: (() => void)[] = [];
  private nextId = 0;

  constructor(size = Math.max(1, availableParallelism())) {
    this.workers = Array.from({ length: size }, () => new Worker(new URL('./worker.ts', import.meta.url)));
    this.idle = [...this.workers];
  }

  get size(): number {
    return this.workers.length;
  }

  async prove(input: Record<string, unknown>, a: ProverArtifacts): Promise<Groth16Proof> {
    while (this.idle.length === 0) await new Promise<void>((r) => this.waiting.push(r));
    const w = this.idle.pop()!;
    const id = this.nextId++;
    try {
      return await new Promise<Groth16Proof>((resolve, reject) => {
        const onMessage = (m: { id: number; error?: string } & Groth16Proof) => {
          if (m.id !== id) return;
          w.off('message', onMessage);
          w.off('error', reject);
          if (m.error) reject(new Error(`proving failed: ${m.error}`));
          else resolve({ proof: m.proof, publicSignals: m.publicSignals });
        };
        w.on('message', onMessage);
        w.once('error', reject);
        w.postMessage({ id, input, wasm: a.wasm, zkey: a.zkey });
      });
    } finally {
      this.idle.push(w);
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
