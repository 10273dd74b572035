import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { verifyMapProof } from '../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../client/sdk/snark-threads.ts';
import { commitMap, generateMap, seedFromShares, shareCommitment } from '../core/index.ts';
import type { Groth16Proof, MapProof } from '../core/mapproof/types.ts';
import { DEFAULT_QUEUE_POLICY } from '../dealer/mapproof/chunk-job.ts';
import { ProverPool } from '../dealer/mapproof/pool.ts';
import { proveMap } from '../dealer/mapproof/prove.ts';
import { ChunkQueue } from '../dealer/mapproof/queue.ts';
import { secretBox } from '../dealer/store/secret-box.ts';
// The tests' throwaway server (initdb in a temp dir, a free port, deleted afterwards): the same one here.
import { startPostgres } from '../test/dealer/postgres-server.ts';
import { mapProofFixture } from './bench-mapproof.ts';
import { round } from './lib/stats.ts';

const MAIN = fileURLToPath(new URL('../dealer/main.ts', import.meta.url));

interface Prover {
  child: ChildProcess;
  /** Seconds each of its proofs took, as it logs them. */
  proofSeconds: number[];
}

/** `npm run dealer -- prover --concurrency 1`, resolved once it is taking jobs. */
async function startProver(vars: Record<string, string>): Promise<Prover> {
  const proofSeconds: number[] = [];
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SHROUD_')) env[k] = v;
  const child = spawn(process.execPath, [MAIN, 'prover', '--concurrency', '1'], {
    env: { ...env, ...vars },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`prover exited ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"prover ready"')) resolve();
      if (line.includes('"chunk job proven"')) proofSeconds.push(Number(JSON.parse(line).seconds));
    });
  });
  return { child, proofSeconds };
}

/**
 * A map proof whose chunk proofs go through the PostgreSQL job queue to 1, then 2 prover processes (one
 * proving process each), the dealer side verifying each chunk proof and proving the root on its own pool:
 * `mapproof_workers_speedup` is the chunk phase's time with 1 over with 2. On a machine with fewer free cores
 * than provers the speed-up is bounded by the cores: the mean seconds per chunk proof and the load average
 * before each run show how contended they were.
 */
export async function benchMapProofQueue(
  opts: { ruleset?: string; ptauDir?: string } = {},
): Promise<Record<string, number>> {
  const { r, key, h, artifacts, vkeys, players, shares } = await mapProofFixture(
    opts.ruleset ?? 'tiny',
    opts.ptauDir,
  );
  const buildDir = dirname(dirname(dirname(artifacts.mapchunk.zkey)));
  const seed = seedFromShares(h, shares);
  const map = commitMap(h, r.board, generateMap(h, r.board, seed), 123456789n);
  const jobKey = `0x${randomBytes(32).toString('hex')}`;
  const server = await startPostgres();
  // The dealer's own pool proves the root proof (it holds the shares), as with the queue in production.
  const pool = new ProverPool(1);
  const out: Record<string, number> = { [`mapproof_queue_${key}_zones`]: r.board.zoneCount };
  try {
    const chunkSeconds: number[] = [];
    for (const workers of [1, 2]) {
      const url = await server.createDatabase();
      const queue = await ChunkQueue.open({
        url,
        box: secretBox(Buffer.from(jobKey.slice(2), 'hex')),
        policy: DEFAULT_QUEUE_POLICY,
        log: pino({ level: 'silent' }),
        pollMs: 200,
      });
      const vars = {
        SHROUD_DB_DRIVER: 'postgres',
        SHROUD_DB_URL: url,
        SHROUD_MAP_PROOF_JOB_KEY: jobKey,
        SHROUD_MAP_PROOF_DIR: buildDir,
        // info: its 'prover ready' line says when it takes jobs.
        SHROUD_LOG_LEVEL: 'info',
      };
      const provers = await Promise.all(Array.from({ length: workers }, () => startProver(vars)));
      try {
        const gameId = BigInt(100 + workers);
        // Other work on the machine slows the provers: the load before the run says how busy it was.
        const load = loadavg()[0]!;
        let tChunks = 0;
        const t0 = performance.now();
        const proof: MapProof = await proveMap(h, pool, {
          board: r.board,
          maxPlayers: r.players.max,
          gameId,
          players,
          shares,
          seed,
          map,
          artifacts,
          ruleset: r.name,
          chunks: queue,
          store: { load: async () => null, save: async (_z: number, _p: Groth16Proof) => {} },
          onProgress: (done, total) => {
            if (done === r.board.zoneCount) tChunks = performance.now();
            process.stderr.write(`queue, ${workers} prover(s): map proof ${done}/${total}\n`);
          },
        });
        const t1 = performance.now();
        await verifyMapProof(
          {
            board: r.board,
            maxPlayers: r.players.max,
            gameId,
            players,
            shareCommits: players.map((p, i) => shareCommitment(h, gameId, p, shares[i]!)),
            root: map.tree.root,
          },
          proof,
          vkeys,
        );
        const label = workers === 1 ? '1_worker' : `${workers}_workers`;
        chunkSeconds.push((tChunks - t0) / 1000);
        out[`mapproof_queue_${key}_chunks_${label}_s`] = round((tChunks - t0) / 1000, 1);
        out[`mapproof_queue_${key}_${label}_s`] = round((t1 - t0) / 1000, 1);
        const each = provers.flatMap((p) => p.proofSeconds);
        out[`mapproof_queue_${key}_chunk_proof_${label}_s`] = round(
          each.reduce((a, b) => a + b, 0) / each.length,
          1,
        );
        out[`mapproof_queue_${key}_loadavg_${label}`] = round(load, 2);
      } finally {
        for (const { child } of provers) child.kill('SIGTERM');
        await Promise.all(
          provers.map(
            ({ child }) => new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(0))),
          ),
        );
        await queue.close();
      }
    }
    out.mapproof_workers_speedup = round(chunkSeconds[0]! / chunkSeconds[1]!, 2);
    return out;
  } finally {
    await pool.close();
    await server.destroy();
    await releaseSnarkjsThreads();
  }
}
