import { readdirSync } from 'node:fs';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Groth16Proof } from '../../core/mapproof/types.ts';
import {
  CHUNK_QUEUE,
  type ChunkJobData,
  type ChunkQueuePolicy,
  openBoss,
  openChunkJob,
  RULESET_NAME,
} from '../mapproof/chunk-job.ts';
import { ProverPool, type ProverPoolOptions } from '../mapproof/pool.ts';
import { circuitFiles } from '../mapproof/service.ts';
import type { SecretBox } from '../store/secret-box.ts';

export interface QueueProverOptions {
  /** The dealer's PostgreSQL (`db.url`). */
  url: string;
  /** Opens the jobs (`mapProof.jobKey`, the dealer's). */
  box: SecretBox;
  /** This machine's keys: `<buildDir>/<ruleset>/mapchunk/` (`mapProof.buildDir`). */
  buildDir: string;
  /** Jobs proven at once, one child process each. */
  concurrency: number;
  policy: ChunkQueuePolicy;
  log: Logger;
  /** Called once if the proving processes keep dying: this prover can do no more (its caller exits). */
  onBroken?: (why: string) => void;
  /** Test seam: the pool's worker script. */
  pool?: Pick<ProverPoolOptions, 'script'>;
}

/** Rulesets whose `mapchunk` keys this machine holds (wasm, zkey and vkey), by folder name. */
export function provableRulesets(buildDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(buildDir);
  } catch {
    return [];
  }
  return names.filter((r) => RULESET_NAME.test(r) && circuitFiles(buildDir, r, 'mapchunk')).sort();
}

/** An error as it is stored in the job (pg-boss keeps `message` and `stack`): one line, no paths of this machine's code. */
function jobError(message: string): Error {
  const e = new Error(message.split('\n')[0]);
  e.stack = `Error: ${e.message}`;
  return e;
}

/**
 * The worker side of the chunk queue (`npm run dealer -- prover`): takes chunk jobs from the dealer's
 * PostgreSQL, proves each on a pool of child processes (so this process's event loop stays free to send
 * the heartbeats that keep its claims), and stores the proof as the job's output for the dealer, which
 * verifies it. A job it cannot prove fails and goes back to the queue for another try.
 */
export class QueueProver {
  readonly #boss: PgBoss;
  readonly #pool: ProverPool;
  readonly #o: QueueProverOptions;
  #stopping: Promise<void> | null = null;

  private constructor(boss: PgBoss, pool: ProverPool, o: QueueProverOptions) {
    this.#boss = boss;
    this.#pool = pool;
    this.#o = o;
  }

  static async start(o: QueueProverOptions): Promise<QueueProver> {
    const { log } = o;
    const pool = new ProverPool({
      size: o.concurrency,
      ...o.pool,
      onExit: (e) => {
        if (e.respawnInMs !== null) {
          log.warn({ code: e.code, signal: e.signal, jobLost: e.jobLost }, 'proving process died; replaced');
          return;
        }
        // Every later job would fail at once: better no prover than one that burns the jobs' tries.
        o.onBroken?.(`proving processes keep dying (last: ${e.signal ?? `exit code ${e.code}`})`);
      },
    });
    const boss = openBoss(o.url, 'prover', o.policy);
    boss.on('error', (e) => log.warn({ err: e.message }, 'job queue error'));
    const noQueue = new Error(
      'this database has no map-proof job queue yet: start the dealer with SHROUD_MAP_PROOF_QUEUE=true first',
    );
    try {
      // Provers install nothing: the dealer creates the schema and the queue (a prover's role may be limited).
      await boss.start().catch((e: Error) => {
        throw /not installed/.test(e.message) ? noQueue : e;
      });
      if (!(await boss.getQueue(CHUNK_QUEUE))) throw noQueue;
    } catch (e) {
      await boss.stop({ graceful: false }).catch(() => {});
      await pool.close();
      throw e;
    }
    const prover = new QueueProver(boss, pool, o);
    await boss.work<ChunkJobData, Groth16Proof>(
      CHUNK_QUEUE,
      { localConcurrency: o.concurrency, batchSize: 1, pollingIntervalSeconds: 1 },
      async ([job]) => prover.#prove(job!.id, job!.data, job!.retryCount),
    );
    return prover;
  }

  async #prove(id: string, data: unknown, retryCount: number): Promise<Groth16Proof> {
    const { log } = this.#o;
    let j: ReturnType<typeof openChunkJob>;
    try {
      j = openChunkJob(this.#o.box, data);
    } catch (e) {
      log.error({ job: id, err: (e as Error).message }, 'chunk job refused');
      throw jobError((e as Error).message);
    }
    const at = { job: id, gameId: j.gameId.toString(), zone: j.zone, attempt: retryCount + 1 };
    const files = circuitFiles(this.#o.buildDir, j.ruleset, 'mapchunk');
    if (!files) {
      const why = `this prover has no mapchunk keys for ruleset ${j.ruleset} (npm run circuits:build -- --ruleset ${j.ruleset} --circuits mapchunk)`;
      log.error(at, why);
      throw jobError(why);
    }
    log.info(at, 'chunk job started');
    const started = Date.now();
    try {
      const proof = await this.#pool.prove(j.input as unknown as Record<string, unknown>, files);
      log.info({ ...at, seconds: (Date.now() - started) / 1000 }, 'chunk job proven');
      return proof;
    } catch (e) {
      log.warn({ ...at, err: (e as Error).message }, 'chunk job failed');
      throw jobError((e as Error).message);
    }
  }

  /**
   * Takes no new job, lets the ones in hand finish for up to `graceMs`, then fails whatever is left (it
   * goes back to the queue at once for another prover) and ends the proving processes.
   */
  stop(graceMs: number): Promise<void> {
    this.#stopping ??= (async () => {
      await this.#boss.stop({ graceful: true, timeout: graceMs });
      await this.#pool.close();
    })();
    return this.#stopping;
  }
}
