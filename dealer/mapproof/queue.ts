import { readFileSync } from 'node:fs';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Groth16Proof } from '../../core/mapproof/types.ts';
import type { SecretBox } from '../store/secret-box.ts';
import {
  CHUNK_QUEUE,
  type ChunkQueuePolicy,
  chunkJobId,
  openBoss,
  queueOptions,
  sealChunkJob,
} from './chunk-job.ts';
import type { ChunkJob, ChunkProver } from './chunk-prover.ts';
import { ChunkProofRejected, checkChunkProof } from './verify-chunk.ts';

/** What became of a chunk job this dealer queued (the `shroud_dealer_map_chunk_jobs_total` counter). */
export type ChunkJobOutcome = 'queued' | 'completed' | 'failed' | 'rejected';

/** Jobs in the queue by state, as pg-boss last counted them (the `shroud_dealer_map_chunk_jobs` gauge). */
export type ChunkJobCounts = Record<'queued' | 'active' | 'failed', number>;

export interface ChunkQueueOptions {
  /** The dealer's PostgreSQL (`db.url`): the queue lives in its `pgboss` schema. */
  url: string;
  /** Seals each job's input (`mapProof.jobKey`); the provers hold the same key. */
  box: SecretBox;
  policy: ChunkQueuePolicy;
  log: Logger;
  /** How often the dealer looks for finished jobs, ms (default 500). */
  pollMs?: number;
  onOutcome?: (o: ChunkJobOutcome) => void;
}

interface Waiter {
  job: ChunkJob;
  id: string;
  resolve: (p: Groth16Proof) => void;
  reject: (e: Error) => void;
}

/**
 * The dealer's side of the durable chunk queue: each chunk proof is a pg-boss job that any
 * `npm run dealer -- prover` takes; the proof comes back as the job's output and is used only once it
 * verifies under the dealer's own key. A job whose prover dies (no heartbeat) or fails goes back to the
 * queue with a backoff; after `attempts` tries it is failed and so is the map proof (a later start of
 * the same map proof, e.g. the dealer's restart, gives it fresh tries). Jobs survive the dealer too:
 * restarted, it finds each zone's job by its id rather than queueing it again.
 */
export class ChunkQueue implements ChunkProver {
  readonly #boss: PgBoss;
  readonly #o: ChunkQueueOptions;
  readonly #waiting = new Map<string, Waiter>();
  readonly #vkeys = new Map<string, object>();
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #closed = false;

  private constructor(boss: PgBoss, o: ChunkQueueOptions) {
    this.#boss = boss;
    this.#o = o;
  }

  /** Connects, installs pg-boss's schema if needed and creates (or updates) the queue. */
  static async open(o: ChunkQueueOptions): Promise<ChunkQueue> {
    const boss = openBoss(o.url, 'dealer', o.policy);
    boss.on('error', (e) => o.log.warn({ err: e.message }, 'map-proof job queue error'));
    await boss.start();
    const options = queueOptions(o.policy);
    if (await boss.getQueue(CHUNK_QUEUE)) await boss.updateQueue(CHUNK_QUEUE, options);
    else await boss.createQueue(CHUNK_QUEUE, options);
    return new ChunkQueue(boss, o);
  }

  async prove(job: ChunkJob): Promise<Groth16Proof> {
    if (this.#closed) throw new Error('map-proof job queue closed');
    if (!job.ruleset) throw new Error('a queued chunk job needs its ruleset name');
    if (!job.artifacts.vkey) throw new Error(`no mapchunk verification key for ${job.ruleset}`);
    const id = chunkJobId(job.gameId, job.zone);
    const [old] = await this.#boss.findJobs(CHUNK_QUEUE, { id });
    if (old?.state === 'completed') {
      // Finished while the dealer was away.
      try {
        return await this.#accept(job, old.output);
      } catch (e) {
        if (!(e instanceof ChunkProofRejected)) throw e;
      }
    }
    // A job that failed (or whose proof was refused) in an earlier run is queued afresh, with all its tries.
    if (old && (old.state === 'completed' || old.state === 'failed' || old.state === 'cancelled')) {
      await this.#boss.deleteJob(CHUNK_QUEUE, id);
    }
    if (!old || old.state === 'completed' || old.state === 'failed' || old.state === 'cancelled') {
      const data = sealChunkJob(this.#o.box, job);
      if ((await this.#boss.send(CHUNK_QUEUE, data, { id })) !== null) this.#o.onOutcome?.('queued');
    }
    return new Promise<Groth16Proof>((resolve, reject) => {
      this.#waiting.set(id, { job, id, resolve, reject });
      this.#timer ??= setInterval(() => void this.#poll(), this.#o.pollMs ?? 500);
    });
  }

  /** Jobs by state, from pg-boss's queue statistics (refreshed by each supervision pass). */
  async counts(): Promise<ChunkJobCounts> {
    const q = await this.#boss.getQueue(CHUNK_QUEUE);
    return { queued: q?.queuedCount ?? 0, active: q?.activeCount ?? 0, failed: q?.failedCount ?? 0 };
  }

  /** Stops polling and supervising; waiting proofs fail (their jobs stay queued for the next start). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    for (const w of this.#waiting.values()) w.reject(new Error('map-proof job queue closed'));
    this.#waiting.clear();
    await this.#boss.stop({ graceful: false });
  }

  /** One query per game being waited on: the jobs of that game, finished ones settled. */
  async #poll(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const games = new Set([...this.#waiting.values()].map((w) => w.job.gameId.toString()));
      for (const gameId of games) {
        const jobs = await this.#boss.findJobs(CHUNK_QUEUE, { data: { gameId } });
        for (const j of jobs) {
          const w = this.#waiting.get(j.id);
          if (!w || !['completed', 'failed', 'cancelled'].includes(j.state)) continue;
          this.#waiting.delete(j.id);
          await this.#settle(w, j.state, j.output, j.retryCount);
        }
      }
    } catch (e) {
      // The database went away for a moment: the jobs are safe in it; try again on the next tick.
      this.#o.log.warn({ err: (e as Error).message }, 'map-proof job queue unreachable; retrying');
    } finally {
      this.#polling = false;
      if (this.#waiting.size === 0) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    }
  }

  async #settle(w: Waiter, state: string, output: unknown, retries: number): Promise<void> {
    const { job } = w;
    if (state === 'completed') {
      try {
        w.resolve(await this.#accept(job, output));
      } catch (e) {
        // Dropped, so the next start of this map proof queues the zone again.
        await this.#boss.deleteJob(CHUNK_QUEUE, w.id).catch(() => {});
        w.reject(e as Error);
      }
      return;
    }
    this.#o.onOutcome?.('failed');
    const why = (output as { message?: unknown } | null)?.message;
    w.reject(
      new Error(
        `zone ${job.zone}: chunk job ${state} after ${retries + 1} tries` +
          (typeof why === 'string' ? ` (last: ${why.split('\n')[0]})` : ''),
      ),
    );
  }

  async #accept(job: ChunkJob, output: unknown): Promise<Groth16Proof> {
    try {
      const proof = await checkChunkProof(this.#vkey(job.artifacts.vkey!), job, output);
      this.#o.onOutcome?.('completed');
      return proof;
    } catch (e) {
      if (e instanceof ChunkProofRejected) this.#o.onOutcome?.('rejected');
      throw e;
    }
  }

  #vkey(file: string): object {
    let v = this.#vkeys.get(file);
    if (!v) {
      v = JSON.parse(readFileSync(file, 'utf8')) as object;
      this.#vkeys.set(file, v);
    }
    return v;
  }
}
