import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Groth16Proof, ProverArtifacts } from '../../core/mapproof/types.ts';

type Reply = { id: number; error?: string } & Groth16Proof;

/** A fixed pool of proving processes; each runs snarkjs single-threaded, so N workers use N cores. */
export class ProverPool {
  readonly #workers: ChildProcess[];
  readonly #idle: ChildProcess[];
  readonly #waiting: (() => void)[] = [];
  #nextId = 0;

  constructor(size = Math.max(1, availableParallelism())) {
    const script = fileURLToPath(new URL('./worker.ts', import.meta.url));
    // A clean execArgv: the parent may run under flags (a test runner's) that the worker must not inherit.
    this.#workers = Array.from({ length: size }, () =>
      fork(script, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    this.#idle = [...this.#workers];
  }

  get size(): number {
    return this.#workers.length;
  }

  async prove(input: Record<string, unknown>, a: ProverArtifacts): Promise<Groth16Proof> {
    while (this.#idle.length === 0) await new Promise<void>((r) => this.#waiting.push(r));
    const w = this.#idle.pop()!;
    const id = this.#nextId++;
    try {
      return await new Promise<Groth16Proof>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`proving worker exited (${code})`));
        const onMessage = (m: Reply) => {
          if (m.id !== id) return;
          w.off('message', onMessage);
          w.off('exit', onExit);
          if (m.error) reject(new Error(`proving failed: ${m.error}`));
          else resolve({ proof: m.proof, publicSignals: m.publicSignals });
        };
        if (w.exitCode !== null || w.signalCode !== null) return onExit(w.exitCode);
        w.on('message', onMessage);
        w.once('exit', onExit);
        w.send({ id, input, wasm: a.wasm, zkey: a.zkey });
      });
    } finally {
      this.#idle.push(w);
      this.#waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      this.#workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.exitCode !== null || w.signalCode !== null) return resolve();
            w.once('exit', () => resolve());
            // Ctrl-C reaches the workers too (one process group): one may have dropped its channel already.
            if (w.connected) w.disconnect();
          }),
      ),
    );
  }
}
