/**
 * `npm run dealer -- prover [--concurrency N] [--grace SECONDS] [--config FILE]`: a map-proof prover for
 * the dealer's PostgreSQL job queue, on this or any other machine (as many as wanted).
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { intFlag, parseCli, UsageError } from '../../lib/cli.ts';
import { REDACT_PATHS } from '../app.ts';
import { hexKey } from '../config.ts';
import { queuePolicy } from '../mapproof/chunk-job.ts';
import { opsConfig } from '../ops/load-config.ts';
import { describeStore } from '../store/open.ts';
import { secretBox } from '../store/secret-box.ts';
import { provableRulesets, QueueProver } from './prover.ts';

export const PROVER_USAGE = `usage: npm run dealer -- prover [--concurrency N] [--grace SECONDS] [--config FILE]

Proves map chunks for the dealer: takes chunk jobs from the job queue in the dealer's PostgreSQL
(the dealer runs with SHROUD_MAP_PROOF_QUEUE=true and starts first), proves each with this machine's
keys and stores the proof for the dealer, which verifies it. Run it on any number of machines. It reads
the dealer's settings (file, then SHROUD_* variables: docs/dealer-config.md) and needs only these:
SHROUD_DB_DRIVER=postgres, SHROUD_DB_URL, SHROUD_MAP_PROOF_JOB_KEY (the dealer's), SHROUD_MAP_PROOF_DIR
(keys from \`npm run circuits:build -- --ruleset R --circuits mapchunk\`), SHROUD_MAP_PROOF_HEARTBEAT_SECONDS
and SHROUD_MAP_PROOF_ATTEMPTS (as the dealer's). It learns each game's seed: run it only on your machines.
A killed prover loses nothing: its jobs go to another after the heartbeat. SIGTERM or Ctrl-C stops it
gracefully (twice: at once).
  --concurrency N    jobs proven at once, one process each (default SHROUD_MAP_PROOF_WORKERS, else cores)
  --grace SECONDS    on SIGTERM, how long jobs in hand may finish before going back to the queue (default 60)
  --config FILE      the JSON config file (default: dealer/config.default.json)`;

export async function proverCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values } = parseCli(
    {
      name: 'dealer prover',
      usage: PROVER_USAGE,
      options: {
        concurrency: { type: 'string' },
        grace: { type: 'string' },
        config: { type: 'string' },
      },
    },
    argv,
  );
  const { config } = opsConfig(values.config, env);
  const concurrency =
    values.concurrency === undefined
      ? (config.mapProof?.workers ?? availableParallelism())
      : intFlag('concurrency', values.concurrency, 1, 64);
  const grace = values.grace === undefined ? 60 : intFlag('grace', values.grace, 0, 86_400);
  if (config.db.driver !== 'postgres') {
    throw new UsageError('the job queue is in PostgreSQL: set SHROUD_DB_DRIVER=postgres and SHROUD_DB_URL');
  }
  const jobKey = config.mapProof?.jobKey;
  if (!jobKey) throw new UsageError("set SHROUD_MAP_PROOF_JOB_KEY (the dealer's) to open the jobs");
  const buildDir = path.resolve(config.mapProof?.buildDir ?? './build/circuits');
  const rulesets = provableRulesets(buildDir);
  if (rulesets.length === 0) {
    throw new UsageError(
      `no mapchunk keys under ${buildDir} (SHROUD_MAP_PROOF_DIR): npm run circuits:build -- --ruleset R --circuits mapchunk`,
    );
  }
  const log = pino({ level: config.log.level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
  let broken: string | null = null;
  let wake: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const prover = await QueueProver.start({
    url: config.db.url!,
    box: secretBox(hexKey(jobKey)),
    buildDir,
    concurrency,
    policy: queuePolicy(config.mapProof),
    log,
    onBroken: (why) => {
      broken = why;
      wake();
    },
  }).catch((e: Error) => {
    throw new Error(`cannot start on ${describeStore(config.db)}: ${e.message}`);
  });
  log.info({ pid: process.pid, concurrency, rulesets, db: describeStore(config.db) }, 'prover ready');
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      // A second signal: stop now (the jobs in hand come back after the heartbeat).
      if (stopping) process.exit(1);
      stopping = true;
      log.info({ signal, graceSeconds: grace }, 'stopping: finishing the jobs in hand');
      wake();
    });
  }
  await stopped;
  await prover.stop(grace * 1000);
  if (broken) throw new Error(broken);
  log.info('prover stopped');
}
