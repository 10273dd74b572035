/**
 * Map proving across machines (dealer/mapproof/queue.ts, dealer/prover/): a dealer process on a throwaway
 * PostgreSQL queues a tiny game's chunk proofs; `dealer prover` processes prove them (real snarkjs proofs);
 * the dealer verifies each, proves the root and serves the whole proof, which a client verifies against the
 * chain. A prover SIGKILLed while it holds a job loses nothing (the other one proves it after the
 * heartbeat); a prover whose keys are broken fails each job three times, and the dealer marks it failed and
 * says so on /metrics.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { PgBoss } from 'pg-boss';
import { type MapProofKeys, verifyMapProof } from '../../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import {
  type Hasher,
  loadHasher,
  seedFromShares,
  shareCommitment,
  shippedRuleset,
} from '../../core/index.ts';
import type { MapProof } from '../../core/mapproof/types.ts';
import { addressToField, sealPublicKey } from '../../core/sealed.ts';
import { FakeChain } from '../../dealer/chain/fake.ts';
import { CHUNK_QUEUE, chunkJobId } from '../../dealer/mapproof/chunk-job.ts';
import { generateDealerKeys } from '../../dealer/ops/keys.ts';
import { buildCircuits } from '../../scripts/circuits/build.ts';
import {
  cleanEnv,
  MAIN,
  PROD_CHAIN_ID,
  PROD_CONTRACT,
  prodVars,
  type RunningDealer,
  startDealerProcess,
} from '../dealer/dealer-process.ts';
import { ALICE, BOB, runCeremony, tempDir } from '../dealer/fixture.ts';
import { type PgServer, postgresSkip, startPostgres } from '../dealer/postgres-server.ts';

const tiny = shippedRuleset('tiny');
const ZONES = tiny.board.zoneCount;

interface Prover {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** `node dealer/main.ts prover` with only `vars` for settings; its JSON log lines are collected. */
function startProver(vars: Record<string, string>): Prover {
  const child = spawn(process.execPath, [MAIN, 'prover', '--concurrency', '1'], {
    env: cleanEnv(vars),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    try {
      lines.push(JSON.parse(text));
    } catch {}
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      if (code !== 0 && code !== null)
        process.stderr.write(`prover ${child.pid} exited ${code}: ${stderr}\n`);
      resolve(code);
    }),
  );
  return { child, lines, exited };
}

/** Polls `f` until it returns non-null (each wait is for a real condition; the bound only ends a hung test). */
async function until<T>(f: () => Promise<T | null> | T | null, what: string, ms = 900_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const started = (p: Prover) => p.lines.filter((l) => l.msg === 'chunk job started');

/** A metric's value in the dealer's /metrics text, or null when absent. */
async function metric(url: string, series: string): Promise<number | null> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

describe('map proving on the PostgreSQL job queue', { skip: postgresSkip() }, () => {
  const tmp = tempDir();
  let server: PgServer;
  let boss: PgBoss;
  let h: Hasher;
  let chain: FakeChain;
  let dealer: RunningDealer;
  let vars: Record<string, string>;
  let buildDir: string;
  let vkeys: MapProofKeys;
  const keys = generateDealerKeys().keys;
  const provers: Prover[] = [];

  before(async () => {
    h = await loadHasher();
    const arts = await buildCircuits({ ruleset: tiny, circuits: ['mapchunk', 'maproot'], log: () => {} });
    buildDir = dirname(dirname(dirname(arts.mapchunk!.zkey!)));
    vkeys = {
      mapchunk: JSON.parse(readFileSync(arts.mapchunk!.vkey!, 'utf8')),
      maproot: JSON.parse(readFileSync(arts.maproot!.vkey!, 'utf8')),
    };
    server = await startPostgres();
    const url = await server.createDatabase();
    const chainFile = join(tmp.dir, 'chain.json');
    chain = new FakeChain({ chainId: PROD_CHAIN_ID, file: chainFile, create: true });
    vars = {
      ...prodVars({ chainFile, keys, db: { url } }),
      SHROUD_MAP_PROOF_ENABLED: 'true',
      SHROUD_MAP_PROOF_QUEUE: 'true',
      SHROUD_MAP_PROOF_DIR: buildDir,
      SHROUD_MAP_PROOF_JOB_KEY: `0x${randomBytes(32).toString('hex')}`,
      SHROUD_MAP_PROOF_HEARTBEAT_SECONDS: '10',
      SHROUD_LOG_LEVEL: 'info',
    };
    dealer = await startDealerProcess(vars, tmp.dir);
    // The test's own look into the queue (it supervises nothing).
    boss = new PgBoss({ connectionString: url, supervise: false, migrate: false, schedule: false, max: 1 });
    boss.on('error', () => {});
    await boss.start();
  });

  after(async () => {
    for (const p of provers)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(provers.map((p) => p.exited));
    await boss?.stop({ graceful: false });
    await dealer?.stop();
    await server?.destroy();
    await releaseSnarkjsThreads();
    tmp.cleanup();
  });

  /** A tiny game on the chain, dealt by the dealer (its root posted): chunk jobs are being queued. */
  async function dealtGame(): Promise<{ gameId: bigint; shares: bigint[] }> {
    const c = runCeremony(h, chain, sealPublicKey(BigInt(keys.dealerKey)), {
      ruleset: 'tiny',
      contract: PROD_CONTRACT,
    });
    await until(() => chain.mapRoot(c.gameId), 'the root to be posted', 60_000);
    return c;
  }

  const jobsOf = (gameId: bigint) => boss.findJobs(CHUNK_QUEUE, { data: { gameId: gameId.toString() } });

  it('two provers prove a tiny map; one SIGKILLed mid-proof loses nothing: the other proves its job', async () => {
    const a = startProver(vars);
    const b = startProver(vars);
    provers.push(a, b);
    const { gameId, shares } = await dealtGame();

    // A holds a job: it logged the start, and pg-boss has the job active (claimed, heartbeating).
    const held = await until(() => started(a)[0] ?? null, 'prover A to start a job');
    const jobId = String(held.job);
    assert.equal(jobId, chunkJobId(gameId, Number(held.zone)));
    await until(
      async () => ((await boss.findJobs(CHUNK_QUEUE, { id: jobId }))[0]?.state === 'active' ? true : null),
      'the job to be active',
    );
    a.child.kill('SIGKILL');
    assert.equal(await a.exited, null);

    const res = await until(async () => {
      const r = await fetch(`${dealer.url}/v1/games/${gameId}/map-proof`);
      const body = (await r.json()) as { status: string; proof?: MapProof };
      assert.notEqual(body.status, 'failed', 'the map proof must not fail');
      return r.status === 200 ? body.proof! : null;
    }, 'the map proof');

    // What a client does: every chunk proof and the root proof, against the chain's own values.
    const players = [ALICE, BOB].map((p) => addressToField(p.address));
    await verifyMapProof(
      {
        board: tiny.board,
        maxPlayers: tiny.players.max,
        gameId,
        players,
        shareCommits: players.map((p, i) => shareCommitment(h, gameId, p, shares[i]!)),
        root: (await chain.mapRoot(gameId))!.root,
      },
      res,
      vkeys,
    );

    const [killed] = await boss.findJobs(CHUNK_QUEUE, { id: jobId });
    assert.equal(killed!.state, 'completed');
    assert.ok(killed!.retryCount >= 1, 'retried after its prover stopped beating');
    assert.ok(
      started(b).some((l) => l.job === jobId && Number(l.attempt) >= 2),
      'the other prover proved the killed job',
    );
    const jobs = await jobsOf(gameId);
    assert.equal(jobs.length, ZONES);
    assert.ok(jobs.every((j) => j.state === 'completed'));
    // The job rows hold the seed only sealed under the job key.
    const seed = String(seedFromShares(h, shares));
    assert.ok(!JSON.stringify(jobs.map((j) => j.data)).includes(seed), 'no seed in clear in a job');
    assert.equal(await metric(dealer.url, 'shroud_dealer_map_chunk_jobs_total{outcome="completed"}'), ZONES);
    assert.equal(await metric(dealer.url, 'shroud_dealer_map_chunk_jobs_total{outcome="failed"}'), 0);

    // SIGTERM: a graceful stop.
    b.child.kill('SIGTERM');
    assert.equal(await b.exited, 0);
  });

  it('a job that fails three times is marked failed, and /metrics says so', async () => {
    // A prover whose mapchunk wasm is corrupt (its zkey and vkey are the real ones): every proof fails.
    const broken = join(tmp.dir, 'broken-keys', 'tiny', 'mapchunk');
    mkdirSync(join(broken, 'mapchunk_js'), { recursive: true });
    writeFileSync(join(broken, 'mapchunk_js', 'mapchunk.wasm'), 'not wasm');
    for (const f of ['mapchunk.zkey', 'mapchunk.vkey.json'])
      symlinkSync(join(buildDir, 'tiny', 'mapchunk', f), join(broken, f));
    const c = startProver({ ...vars, SHROUD_MAP_PROOF_DIR: join(tmp.dir, 'broken-keys') });
    provers.push(c);
    const before = (await metric(dealer.url, 'shroud_dealer_map_chunk_jobs_total{outcome="failed"}')) ?? 0;
    const { gameId } = await dealtGame();

    await until(
      async () =>
        (await metric(dealer.url, 'shroud_dealer_map_chunk_jobs_total{outcome="failed"}')) === before + ZONES
          ? true
          : null,
      'the failed jobs on /metrics',
    );
    const jobs = await jobsOf(gameId);
    assert.equal(jobs.length, ZONES);
    for (const j of jobs) {
      assert.equal(j.state, 'failed');
      assert.equal(j.retryCount, 2, 'three tries');
      assert.match(String((j.output as { message?: string }).message), /WebAssembly|wasm|magic/i);
    }
    assert.equal(started(c).filter((l) => l.gameId === gameId.toString()).length, 3 * ZONES);
    const r = await fetch(`${dealer.url}/v1/games/${gameId}/map-proof`);
    assert.equal(r.status, 202);
    assert.equal(((await r.json()) as { status: string }).status, 'failed');
    // The queue's own count, as of the dealer's next supervision pass.
    await until(
      async () =>
        ((await metric(dealer.url, 'shroud_dealer_map_chunk_jobs{state="failed"}')) ?? 0) >= ZONES
          ? true
          : null,
      'the failed-jobs gauge',
      60_000,
    );
    c.child.kill('SIGTERM');
    assert.equal(await c.exited, 0);
  });
});
