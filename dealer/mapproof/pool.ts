import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Groth16Proof, ProverArtifacts } from '../../core/mapproof/types.ts';

type Reply = { id: number; error?: string } & Groth16Proof;

export interface ProverPoolOptions {
  /** Worker processes (default: one per core). */
  size?: number;
  /** The worker script (default ./worker.ts); tests inject one that crashes. */
  script?: string;
  /** Times a job whose worker died is retried on a fresh worker before it fails (default 1). */
  retries?: number;
  /**
   * Deaths in a row (workers that died young, with no job finished in between) after which the pool gives
   * up: waiting and later jobs fail with a clear error, nothing is respawned (default 5).
   */
  maxDeaths?: number;
  /** First respawn delay, ms, doubled per death in a row up to `maxBackoffMs` (defaults 250 and 30,000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A worker that lived this long (ms) died of something else than its start-up (default 10,000). */
  stableMs?: number;
  /** Told of every unexpected worker exit (main.ts logs it). */
  onExit?: (e: WorkerExit) => void;
}

/** An unexpected worker exit. */
export interface WorkerExit {
  slot: number;
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Whether a job was running on it (retried, or failed if out of retries). */
  jobLost: boolean;
  /** Deaths in a row so far. */
  deaths: number;
  /** When the replacement starts; null: the pool gave up. */
  respawnInMs: number | null;
}

interface Job {
  id: number;
  input: Record<string, unknown>;
  artifacts: ProverArtifacts;
  /** Workers that died running it. */
  deaths: number;
  resolve: (p: Groth16Proof) => void;
  reject: (e: Error) => void;
}

/** One place in the pool: its current process (null while it waits to be respawned) and its job. */
interface Slot {
  index: number;
  proc: ChildProcess | null;
  startedAt: number;
  job: Job | null;
  respawn: NodeJS.Timeout | undefined;
}

/**
 * A fixed-size pool of proving processes; each runs snarkjs single-threaded, so N workers use N cores.
 * A worker that dies (crash, OOM, SIGKILL) is replaced after a backoff, and the job it was running goes
 * back to the front of the queue, once (`retries`); a job that kills its workers fails instead. Workers
 * that keep dying young (e.g. at start-up) make the pool give up after `maxDeaths` with an error naming
 * the last exit, rather than respawn in a loop.
 */
export class ProverPool {
  readonly #slots: Slot[];
  readonly #queue: Job[] = [];
  readonly #script: string;
  readonly #retries: number;
  readonly #maxDeaths: number;
  readonly #backoffMs: number;
  readonly #maxBackoffMs: number;
  readonly #stableMs: number;
  readonly #onExit: ((e: WorkerExit) => void) | undefined;
  #nextId = 0;
  /** Deaths in a row (reset by a finished job, or counted from 1 again after a worker that lived long). */
  #deaths = 0;
  /** Set once the pool gave up: every job fails with it. */
  #failed: Error | null = null;
  #closing = false;

  constructor(o: number | ProverPoolOptions = {}) {
    const opts = typeof o === 'number' ? { size: o } : o;
    const size = opts.size ?? Math.max(1, availableParallelism());
    this.#script = opts.script ?? fileURLToPath(new URL('./worker.ts', import.meta.url));
    this.#retries = opts.retries ?? 1;
    this.#maxDeaths = opts.maxDeaths ?? 5;
    this.#backoffMs = opts.backoffMs ?? 250;
    this.#maxBackoffMs = opts.maxBackoffMs ?? 30_000;
    this.#stableMs = opts.stableMs ?? 10_000;
    this.#onExit = opts.onExit;
    this.#slots = Array.from({ length: size }, (_, index) => ({
      index,
      proc: null,
      startedAt: 0,
      job: null,
      respawn: undefined,
    }));
    for (const slot of this.#slots) this.#spawn(slot);
  }

  get size(): number {
    return this.#slots.length;
  }

  /** Process ids of the live workers (a slot being respawned has none). */
  get pids(): number[] {
    return this.#slots.flatMap((s) => (s.proc?.pid === undefined ? [] : [s.proc.pid]));
  }

  prove(input: Record<string, unknown>, a: ProverArtifacts): Promise<Groth16Proof> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#closing) return Promise.reject(new Error('proving pool closed'));
    return new Promise<Groth16Proof>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, input, artifacts: a, deaths: 0, resolve, reject });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('proving pool closed'));
    await Promise.all(
      this.#slots.map((slot) => {
        clearTimeout(slot.respawn);
        const w = slot.proc;
        if (!w) return Promise.resolve();
        return new Promise<void>((resolve) => {
          if (w.exitCode !== null || w.signalCode !== null) return resolve();
          w.once('exit', () => resolve());
          // Ctrl-C reaches the workers too (one process group): one may have dropped its channel already.
          if (w.connected) w.disconnect();
        });
      }),
    );
  }

  #spawn(slot: Slot): void {
    slot.respawn = undefined;
    // A clean execArgv: the parent may run under flags (a test runner's) that the worker must not inherit.
    const w = fork(this.#script, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    slot.proc = w;
    slot.startedAt = Date.now();
    w.on('message', (m: Reply) => this.#reply(slot, w, m));
    // A failed spawn emits 'error' (and maybe no 'exit'); a failed send does too. Both end the worker once.
    let gone = false;
    const died = (code: number | null, signal: NodeJS.Signals | null) => {
      if (gone) return;
      gone = true;
      this.#died(slot, w, code, signal);
    };
    w.once('exit', died);
    w.once('error', () => {
      died(w.exitCode, w.signalCode);
      w.kill('SIGKILL');
    });
    this.#dispatch();
  }

  /** Gives queued jobs to idle live workers. */
  #dispatch(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return;
      if (!slot.proc || slot.job || !slot.proc.connected) continue;
      const job = this.#queue.shift()!;
      slot.job = job;
      slot.proc.send({ id: job.id, input: job.input, wasm: job.artifacts.wasm, zkey: job.artifacts.zkey });
    }
  }

  #reply(slot: Slot, w: ChildProcess, m: Reply): void {
    const job = slot.job;
    if (slot.proc !== w || !job || m.id !== job.id) return;
    slot.job = null;
    this.#deaths = 0;
    if (m.error) job.reject(new Error(`proving failed: ${m.error}`));
    else job.resolve({ proof: m.proof, publicSignals: m.publicSignals });
    this.#dispatch();
  }

  #died(slot: Slot, w: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.proc !== w) return;
    slot.proc = null;
    const job = slot.job;
    slot.job = null;
    if (this.#closing || this.#failed) {
      job?.reject(this.#failed ?? new Error('proving pool closed'));
      return;
    }
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    this.#deaths = Date.now() - slot.startedAt >= this.#stableMs ? 1 : this.#deaths + 1;
    if (job) {
      job.deaths++;
      if (job.deaths > this.#retries) {
        job.reject(new Error(`proving failed: its worker died ${job.deaths} times (last: ${how})`));
      } else this.#queue.unshift(job);
    }
    this.#dispatch(); // an idle worker may take the job back at once
    const giveUp = this.#deaths >= this.#maxDeaths;
    const delay = Math.min(this.#maxBackoffMs, this.#backoffMs * 2 ** (this.#deaths - 1));
    this.#onExit?.({
      slot: slot.index,
      pid: w.pid,
      code,
      signal,
      jobLost: job !== null,
      deaths: this.#deaths,
      respawnInMs: giveUp ? null : delay,
    });
    if (giveUp) {
      this.#giveUp(how);
      return;
    }
    // Not unref'd: a job may be waiting for this very worker (close() clears the timer).
    slot.respawn = setTimeout(() => {
      if (!this.#closing && !this.#failed) this.#spawn(slot);
    }, delay);
  }

  /** Too many deaths in a row: fail every waiting job and every later one; respawn nothing more. */
  #giveUp(how: string): void {
    this.#failed = new Error(
      `proving workers keep dying (${this.#deaths} in a row, last: ${how}); map proofs stopped until the dealer restarts`,
    );
    for (const slot of this.#slots) clearTimeout(slot.respawn);
    for (const job of this.#queue.splice(0)) job.reject(this.#failed);
  }
}
