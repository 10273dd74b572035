/**
 * Restart safety with a real process: the dealer runs as a child on a file-backed FakeChain (which
 * outlives it) and a durable store (a SQLite file, or a database on a PostgreSQL server the test
 * starts), is SIGKILLed mid-dealing and mid-serving, and restarts on the same DB.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { loadHasher, masterCommitment } from '../../core/index.ts';
import { sessionMacKey } from '../../core/reveal-session.ts';
import { generateSealKey } from '../../core/sealed.ts';
import { FakeChain } from '../../dealer/chain/fake.ts';
import type { DealerConfig } from '../../dealer/config.ts';
import { openStore } from '../../dealer/store/open.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import type { DealerStore } from '../../dealer/store/types.ts';
import {
  ALICE,
  CHAIN_ID,
  CONTRACT,
  duelLeaves,
  postTurn,
  runCeremony,
  sessionOpenBody,
  sessionReveal,
  signedReveal,
  tempDir,
} from './fixture.ts';
import { type PgServer, postgresSkip, startPostgres } from './postgres-server.ts';

const MAIN = new URL('../../dealer/main.ts', import.meta.url).pathname;

interface Running {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  /** Resolves with the first log line matching. */
  waitFor(pred: (l: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

function startDealerChild(config: string, env: Record<string, string | undefined> = {}): Running {
  const child = spawn(process.execPath, [MAIN, '--config', config], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: {
    pred: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let l: Record<string, unknown>;
    try {
      l = JSON.parse(text);
    } catch {
      return;
    }
    lines.push(l);
    for (const w of waiters.splice(0)) {
      if (w.pred(l)) w.resolve(l);
      else waiters.push(w);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    waitFor(pred, ms = 20_000) {
      const seen = lines.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('timed out waiting for a log line')), ms);
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(t);
            resolve(l);
          },
        });
      });
    },
  };
}

async function kill9(r: Running): Promise<void> {
  r.child.kill('SIGKILL');
  await r.exited;
}

const running: Running[] = [];
const dirs: (() => void)[] = [];
after(async () => {
  for (const r of running) if (r.child.exitCode === null && r.child.signalCode === null) await kill9(r);
  for (const cleanup of dirs) cleanup();
});

/** A dealer config file on the fake chain file and the given store. */
function writeConfig(
  dir: string,
  o: { chainFile: string; db: DealerConfig['db']; dealerKey: string; masterKey: string },
) {
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      http: {
        host: '127.0.0.1',
        port: 0,
        bodyLimitBytes: 8192,
        corsOrigins: [],
        rateLimit: { max: 100000, timeWindowMs: 60000 },
        docs: false,
      },
      chain: {
        kind: 'fake-file',
        rpcUrl: '',
        chainId: Number(CHAIN_ID),
        gameContract: CONTRACT,
        fakeFile: o.chainFile,
        pollMs: 20,
        startBlock: 0,
      },
      reveals: { maxExpirySeconds: 600 },
      db: o.db,
      keys: { dealerKey: o.dealerKey, masterKey: o.masterKey },
      log: { level: 'info' },
    }),
  );
  return config;
}

/** Where a scenario keeps the dealer's state. */
interface StoreSetup {
  /** The config's `db` section, as the test opens the store to look inside. */
  db: DealerConfig['db'];
  /** Pass `db.url` in SHROUD_DB_URL rather than the config file, as an operator would (it holds a password). */
  urlFromEnv?: boolean;
}

async function until<T>(f: () => Promise<T | null>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Kill during dealing, restart, serve, kill mid-serving, restart: the dealer resumes with the same
 * secrets and serves the same tiles, on whichever store `setup` gives it.
 */
async function killAndResume(setup: StoreSetup): Promise<{ logs: Record<string, unknown>[] }> {
  const tmp = tempDir();
  dirs.push(tmp.cleanup);
  const h = await loadHasher();
  const seal = generateSealKey();
  const atRestKey = randomBytes(32);
  const chainFile = join(tmp.dir, 'chain.json');
  const chain = new FakeChain({ chainId: CHAIN_ID, file: chainFile, create: true });
  const { gameId } = runCeremony(h, chain, seal.publicKey);
  const { url, ...withoutUrl } = setup.db;
  const fileDb = setup.urlFromEnv ? withoutUrl : setup.db;
  const dbEnv: Record<string, string> = setup.urlFromEnv && url ? { SHROUD_DB_URL: url } : {};
  const config = writeConfig(tmp.dir, {
    chainFile,
    db: fileDb,
    dealerKey: `0x${seal.secretKey.toString(16)}`,
    masterKey: atRestKey.toString('hex'),
  });
  const startChild = (env: Record<string, string> = {}) => startDealerChild(config, { ...dbEnv, ...env });
  const peek = async <T>(f: (s: DealerStore) => Promise<T>): Promise<T> => {
    const s = await openStore(setup.db, secretBox(atRestKey));
    try {
      return await f(s);
    } finally {
      await s.close();
    }
  };

  // 1. Kill during dealing: the master secret is stored, the root is not posted.
  const first = startChild({ SHROUD_TEST_PAUSE_AT: 'root-computed', NODE_ENV: 'test' });
  running.push(first);
  await first.waitFor((l) => l.pausedAt === 'root-computed');
  const secretsBefore = await peek((s) => s.getSecrets(gameId));
  assert.ok(secretsBefore, 'master secret persisted before the root is posted');
  assert.equal(await chain.mapRoot(gameId), null, 'root not posted yet');
  await kill9(first);

  // 2. Restart on the same DB: it resumes with the same master secret and posts the root once.
  const second = startChild();
  running.push(second);
  const listening = await second.waitFor((l) => l.msg === 'dealer listening');
  const base = String(listening.address);
  const posted = await until(() => chain.mapRoot(gameId));
  assert.equal(posted.masterCommitment, masterCommitment(h, secretsBefore.masterSecret));
  assert.deepEqual(await peek((s) => s.getSecrets(gameId)), secretsBefore);
  assert.equal((await peek((s) => s.getGame(gameId)))?.root, posted.root);

  const leaves = duelLeaves();
  const blinding = postTurn(h, chain, gameId, ALICE, 1, leaves);
  const fetchReveal = (body: unknown, url = base) =>
    fetch(`${url}/v1/games/${gameId}/reveals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const firstAnswer = await fetchReveal(await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }));
  assert.equal(firstAnswer.status, 200);
  const answer = (await firstAnswer.json()) as { root: string };
  assert.equal(answer.root, posted.root.toString());

  // A session opened and used before the kill (its nonces live in memory only).
  const opened = await sessionOpenBody(ALICE, { gameId });
  const post = (path: string, body: unknown, url = base) =>
    fetch(`${url}/v1/games/${gameId}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const sessionRes = await post('sessions', opened.body);
  assert.equal(sessionRes.status, 200);
  const { sessionId } = (await sessionRes.json()) as { sessionId: string };
  const session = { sessionId, macKey: sessionMacKey(opened.sessionKey, sessionId) };
  const sessionBody = sessionReveal(session, { gameId, turn: 1, leaves, blinding });
  const viaSession = await post('session-reveals', sessionBody);
  assert.equal(viaSession.status, 200);
  assert.deepEqual(await viaSession.json(), answer);

  // 3. Kill while serving: a burst in flight, SIGKILL after the first answer.
  const burst = await Promise.all(
    Array.from({ length: 30 }, () => signedReveal(ALICE, { gameId, turn: 1, leaves, blinding })),
  );
  const answered: unknown[] = [];
  const inFlight = burst.map((b) =>
    fetchReveal(b).then(
      async (r) => {
        if (r.status === 200) answered.push(b);
        await r.arrayBuffer();
      },
      () => {},
    ),
  );
  await until(async () => (answered.length > 0 ? true : null), 10_000);
  await kill9(second);
  await Promise.all(inFlight);

  // 4. Restart again: same root, same tiles, and nonces answered before the kill stay burned.
  const third = startChild();
  running.push(third);
  const base3 = String((await third.waitFor((l) => l.msg === 'dealer listening')).address);
  const again = await fetchReveal(await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }), base3);
  assert.equal(again.status, 200);
  assert.deepEqual(await again.json(), answer);
  const replay = await fetchReveal(answered[0], base3);
  assert.equal(replay.status, 409);
  assert.equal(((await replay.json()) as { error: string }).error, 'nonce-replayed');
  // The session died with the process: its answered request is refused, and so is re-opening it
  // (the creation nonce was burned durably); a new session serves the same tiles.
  const sessionReplay = await post('session-reveals', sessionBody, base3);
  assert.equal(sessionReplay.status, 401);
  assert.equal(((await sessionReplay.json()) as { error: string }).error, 'unknown-session');
  assert.equal((await post('sessions', opened.body, base3)).status, 409);
  const reopened = await sessionOpenBody(ALICE, { gameId });
  const r2 = await post('sessions', reopened.body, base3);
  assert.equal(r2.status, 200);
  const id2 = ((await r2.json()) as { sessionId: string }).sessionId;
  const again2 = await post(
    'session-reveals',
    sessionReveal(
      { sessionId: id2, macKey: sessionMacKey(reopened.sessionKey, id2) },
      { gameId, turn: 1, leaves, blinding },
    ),
    base3,
  );
  assert.equal(again2.status, 200);
  assert.deepEqual(await again2.json(), answer);
  assert.equal(third.lines.filter((l) => l.step === 'root-posted').length, 0, 'no second root');
  third.child.kill('SIGTERM');
  assert.equal(await third.exited, 0, 'graceful shutdown on SIGTERM');
  return { logs: [first, second, third].flatMap((r) => r.lines) };
}

const SCENARIO =
  'resumes dealing after a kill between storing the master secret and posting the root, then serves the same tiles across a kill mid-serving';

describe('restart safety (real process, SIGKILL): SQLite', () => {
  it(SCENARIO, async () => {
    const dir = tempDir();
    dirs.push(dir.cleanup);
    await killAndResume({ db: { path: join(dir.dir, 'dealer.sqlite') } });
  });
});

describe('restart safety (real process, SIGKILL): Postgres', { skip: postgresSkip() }, () => {
  let server: PgServer | undefined;
  before(async () => {
    server = await startPostgres();
  });
  after(() => server?.destroy());

  it(SCENARIO, async () => {
    const url = await server!.createDatabase();
    const { logs } = await killAndResume({ db: { driver: 'postgres', url }, urlFromEnv: true });
    const listening = logs.find((l) => l.msg === 'dealer listening');
    assert.equal(listening?.db, `postgres:127.0.0.1:${server!.port}/${new URL(url).pathname.slice(1)}`);
    assert.ok(!JSON.stringify(logs).includes(server!.password), 'the DB password is never logged');
  });
});

describe('dealer start-up on an unreachable PostgreSQL', () => {
  it('exits 1 with a message naming host and database, never the password', async () => {
    const tmp = tempDir();
    dirs.push(tmp.cleanup);
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const secret = 'pw-Never-Printed-42';
    const config = writeConfig(tmp.dir, {
      chainFile: join(tmp.dir, 'chain.json'),
      db: { driver: 'postgres' },
      dealerKey: `0x${generateSealKey().secretKey.toString(16)}`,
      masterKey: randomBytes(32).toString('hex'),
    });
    const child = spawn(process.execPath, [MAIN, '--config', config], {
      env: { ...process.env, SHROUD_DB_URL: `postgres://shroud:${secret}@127.0.0.1:${port}/dealer` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 1, out);
    assert.match(out, new RegExp(`cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}/dealer`));
    assert.ok(!out.includes(secret), 'the password is not printed');
  });
});
