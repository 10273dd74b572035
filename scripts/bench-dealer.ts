/**
 * Dealer reveal throughput vs a bare Fastify route returning the same JSON body, on 127.0.0.1.
 *
 * Method (honest by construction): each server runs in its own child process (autocannon runs in this
 * one), both with log level "warn" and the same body. `reveal_*` measures the SESSION route
 * (`POST /v1/games/:id/session-reveals`): one session is opened with an EIP-712 RevealSession before
 * the run, then every request carries its own fresh nonce and a valid HMAC; a pool is built before the
 * run and autocannon cycles through it, sized from a short calibration run so no nonce is replayed;
 * only 2xx answers count. The production plugins (rate limit with a high cap, CORS, metrics hook,
 * schemas) stay on. A duel game is dealt on a FakeChain, so tiles come from the dealer's cache (no
 * chain latency). `signed_*` measures the per-request EIP-712 route the same way, for comparison.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { Wallet } from 'ethers';
import Fastify from 'fastify';
import { pino } from 'pino';
import {
  leafIndex,
  loadHasher,
  playCommitment,
  revealCommitment,
  shareCommitment,
  shippedRuleset,
} from '../core/index.ts';
import {
  sessionKeyHash,
  sessionMacKey,
  sessionRevealMacInput,
  signRevealSession,
} from '../core/reveal-session.ts';
import { addressToField, generateSealKey, sealShare } from '../core/sealed.ts';
import { buildApp } from '../dealer/app.ts';
import {
  RevealSignatureVerifier,
  recoverRevealSigner,
  revealDomain,
  signRevealRequest,
} from '../dealer/auth.ts';
import { FakeChain } from '../dealer/chain/fake.ts';
import { dealGame } from '../dealer/dealing.ts';
import { MapCache } from '../dealer/maps.ts';
import { createMetrics } from '../dealer/metrics.ts';
import { randomFieldElement } from '../dealer/random.ts';
import { secretBox } from '../dealer/store/secret-box.ts';
import { SqliteStore } from '../dealer/store/sqlite.ts';

const CHAIN_ID = 31337n;
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
/** Hardhat dev keys (never real funds). */
const PLAYER = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const OTHER = new Wallet('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
const DURATION_S = 10;
const CONNECTIONS = 10;
const SIGNED_DURATION_S = 5;
/** The bench player's state commitment: with the reveal list it opens the posted play commitment. */
const STATE_COMMIT = 0x5ea1ed5n;

interface Served {
  url: string;
  gameId: string;
  blinding: string;
  leaves: number[];
  body: string;
  sessionId: string;
  /** Bench-only session MAC key (hex): a throwaway key on a throwaway local server. */
  macKey: string;
}

/** Child: a dealer with one dealt duel game and one posted turn (8 tiles), on a temp DB. */
async function serveDealer(): Promise<Served> {
  const h = await loadHasher();
  const dir = mkdtempSync(join(tmpdir(), 'shroud-bench-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.once('SIGTERM', () => process.exit(0)); // so the exit hook removes the temp DB
  const enc = generateSealKey();
  const chain = new FakeChain({ chainId: CHAIN_ID });
  const store = new SqliteStore(join(dir, 'dealer.sqlite'), secretBox(randomBytes(32)));
  const maps = new MapCache(h, store);
  const logger = pino({ level: 'warn' });
  const players = [PLAYER, OTHER];
  const gameId = chain.createGame(
    'duel',
    players.map((p) => p.address),
    enc.publicKey,
    CONTRACT,
  );
  const shares = players.map(() => randomFieldElement());
  players.forEach((p, i) => {
    chain.commitShare(gameId, p.address, shareCommitment(h, gameId, addressToField(p.address), shares[i]!));
  });
  players.forEach((p, i) => {
    const ctx = { gameId, player: addressToField(p.address) };
    chain.postSealedShare(gameId, p.address, sealShare(h, enc.publicKey, shares[i]!, ctx).sealed);
  });
  await store.addGame({
    gameId,
    contract: CONTRACT,
    ruleset: 'duel',
    players: players.map((p) => p.address.toLowerCase()),
  });
  const metrics = createMetrics();
  const deps = { h, chain, store, maps, sealSecretKey: enc.secretKey, log: logger };
  if ((await dealGame(deps, gameId)) !== 'dealt') throw new Error('bench game not dealt');
  const b = shippedRuleset('duel').board;
  const leaves = Array.from({ length: 8 }, (_, i) => leafIndex(b, { col: 10 + i, row: 10 }));
  const blinding = randomFieldElement();
  const root = chain.postedRootFor(gameId);
  if (root === null) throw new Error('bench game has no root');
  const commitment = playCommitment(h, STATE_COMMIT, revealCommitment(h, leaves, 32, blinding), root);
  chain.postCommitmentFor(gameId, PLAYER.address, 1, commitment);
  const app = await buildApp({
    h,
    chain,
    store,
    maps,
    metrics,
    chainId: CHAIN_ID,
    logger,
    http: {
      bodyLimitBytes: 8192,
      corsOrigins: [],
      rateLimit: { max: 100_000_000, timeWindowMs: 60_000 },
      docs: false,
      maxExpirySeconds: 600,
      // One player sends every request: the per-player budget would measure the limiter, not the route.
      playerRateLimit: { perSecond: 1e9, burst: 1e9 },
    },
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  // One request to capture the exact body the bare server will return.
  const sample = await signedBody(gameId, leaves, blinding);
  const res = await app.inject({
    method: 'POST',
    url: `/v1/games/${gameId}/reveals`,
    headers: { 'content-type': 'application/json' },
    payload: sample,
  });
  if (res.statusCode !== 200) throw new Error(`bench reveal failed: ${res.body}`);
  const session = await openBenchSession(app, gameId);
  return {
    url,
    gameId: gameId.toString(),
    blinding: blinding.toString(),
    leaves,
    body: res.body,
    ...session,
  };
}

async function openBenchSession(
  app: Awaited<ReturnType<typeof buildApp>>,
  gameId: bigint,
): Promise<{ sessionId: string; macKey: string }> {
  const key = randomBytes(32);
  const msg = {
    gameId,
    player: PLAYER.address,
    sessionKeyHash: sessionKeyHash(key),
    expiry: Math.floor(Date.now() / 1000) + 3000,
    nonce: BigInt(`0x${randomBytes(32).toString('hex')}`),
  };
  const signature = await signRevealSession(PLAYER, revealDomain(CHAIN_ID, CONTRACT), msg);
  const res = await app.inject({
    method: 'POST',
    url: `/v1/games/${gameId}/sessions`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      gameId: gameId.toString(),
      player: PLAYER.address,
      sessionKey: `0x${key.toString('hex')}`,
      expiry: msg.expiry,
      nonce: msg.nonce.toString(),
      signature,
    }),
  });
  if (res.statusCode !== 200) throw new Error(`bench session failed: ${res.body}`);
  const sessionId = (res.json() as { sessionId: string }).sessionId;
  return { sessionId, macKey: Buffer.from(sessionMacKey(key, sessionId)).toString('hex') };
}

/** Child: a bare Fastify route returning `body` verbatim. */
async function serveBare(body: string): Promise<{ url: string }> {
  const app = Fastify({ logger: false });
  app.post('/bare', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
  return { url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

async function signedBody(gameId: bigint, leaves: number[], blinding: bigint): Promise<string> {
  const msg = {
    gameId,
    player: PLAYER.address,
    turn: 1,
    leaves,
    blinding,
    stateCommit: STATE_COMMIT,
    nonce: BigInt(`0x${randomBytes(32).toString('hex')}`),
    expiry: Math.floor(Date.now() / 1000) + 550,
  };
  const signature = await signRevealRequest(PLAYER, revealDomain(CHAIN_ID, CONTRACT), msg);
  return JSON.stringify({
    ...msg,
    gameId: gameId.toString(),
    blinding: blinding.toString(),
    stateCommit: STATE_COMMIT.toString(),
    nonce: msg.nonce.toString(),
    signature,
  });
}

function startServer(mode: 'dealer' | 'bare', env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, `--serve-${mode}`], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
  });
  return { child, ready };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

interface Load {
  ok: number;
  non2xx: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** Loads `url` for `seconds`, or (with `amount`) for exactly that many requests. */
async function load(
  url: string,
  bodies: string[] | string | (() => string),
  seconds: number,
  amount?: number,
): Promise<Load> {
  let i = 0;
  const pool = typeof bodies === 'function' ? null : Array.isArray(bodies) ? bodies : [bodies];
  const next = typeof bodies === 'function' ? bodies : () => pool![i++ % pool!.length]!;
  const r = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    ...(amount === undefined ? { duration: seconds } : { amount }),
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req: AutocannonRequest) => ({ ...req, body: next() }) }],
  });
  return {
    ok: r['2xx'],
    non2xx: r.non2xx + r.errors + r.timeouts,
    seconds: r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}

async function signPool(s: Served, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(await signedBody(BigInt(s.gameId), s.leaves, BigInt(s.blinding)));
  return out;
}

/**
 * The cost that dominates a reveal, in ms per request: EIP-712 digest plus either secp256k1 public-key
 * recovery (a player's first request) or ECDSA verify against the cached, precomputed key (later ones).
 */
async function signatureMs(s: Served): Promise<{ recover: number; cachedVerify: number }> {
  const msgs = (await signPool(s, 100)).map((text) => {
    const b = JSON.parse(text);
    return {
      sig: b.signature as string,
      msg: {
        ...b,
        gameId: BigInt(b.gameId),
        blinding: BigInt(b.blinding),
        stateCommit: BigInt(b.stateCommit),
        nonce: BigInt(b.nonce),
      },
    };
  });
  const domain = revealDomain(CHAIN_ID, CONTRACT);
  let t = performance.now();
  for (const m of msgs) recoverRevealSigner(domain, m.msg, m.sig);
  const recover = (performance.now() - t) / msgs.length;
  const v = new RevealSignatureVerifier();
  v.check(domain, msgs[0]!.msg, msgs[0]!.sig, PLAYER.address);
  t = performance.now();
  for (const m of msgs)
    if (v.check(domain, m.msg, m.sig, PLAYER.address) !== 'ok') throw new Error('verify failed');
  return { recover, cachedVerify: (performance.now() - t) / msgs.length };
}

/**
 * Session-route bodies with fresh nonces, MACed with Node's HMAC over core's canonical bytes (the
 * dealer tests cross-check it against the SDK's noble HMAC; Node's keeps pool building quick).
 */
function sessionPool(s: Served, n: number): string[] {
  const key = Buffer.from(s.macKey, 'hex');
  const expiry = Math.floor(Date.now() / 1000) + 550;
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const nonce = BigInt(`0x${randomBytes(32).toString('hex')}`);
    const m = {
      sessionId: s.sessionId,
      gameId: BigInt(s.gameId),
      turn: 1,
      leaves: s.leaves,
      blinding: BigInt(s.blinding),
      stateCommit: STATE_COMMIT,
      nonce,
      expiry,
    };
    const mac = createHmac('sha256', key).update(sessionRevealMacInput(m)).digest('hex');
    out.push(
      JSON.stringify({
        sessionId: s.sessionId,
        turn: 1,
        leaves: s.leaves,
        blinding: s.blinding,
        stateCommit: STATE_COMMIT.toString(),
        nonce: nonce.toString(),
        expiry,
        mac: `0x${mac}`,
      }),
    );
  }
  return out;
}

/**
 * Runs `url` over a fresh pool of single-use requests: exactly one request per pool entry (autocannon's
 * `amount`), the pool sized from a warmed-up 2 s calibration so the run lasts about `seconds`. A nonce
 * can never repeat, however fast the server turns out to be.
 */
async function calibratedRun(
  url: string,
  makePool: (n: number) => Promise<string[]> | string[],
  seconds: number,
) {
  // The rate counts every answer: once the calibration pool wraps, replays are refused (4xx) about as fast.
  await load(url, await makePool(3000), 1); // warm-up (JIT, connections)
  const calib = await load(url, await makePool(3000), 2);
  const size = Math.ceil(((calib.ok + calib.non2xx) / calib.seconds) * seconds);
  const pool = await makePool(size);
  return load(url, pool, seconds, size);
}

export async function benchDealer(): Promise<Record<string, number>> {
  const servers = [startServer('dealer')];
  try {
    const s = (await servers[0]!.ready) as unknown as Served;
    const bare = startServer('bare', { SHROUD_BENCH_BODY: s.body });
    servers.push(bare);
    const { url: bareUrl } = (await bare.ready) as { url: string };
    const base = `${s.url}/v1/games/${s.gameId}`;
    const reveal = await calibratedRun(`${base}/session-reveals`, (n) => sessionPool(s, n), DURATION_S);
    const bareRun = await load(`${bareUrl}/bare`, s.body, DURATION_S);
    const signed = await calibratedRun(`${base}/reveals`, (n) => signPool(s, n), SIGNED_DURATION_S);
    const sig = await signatureMs(s);
    const revealRps = reveal.ok / reveal.seconds;
    const bareRps = bareRun.ok / bareRun.seconds;
    const signedRps = signed.ok / signed.seconds;
    return {
      // Session route (one EIP-712 session, then HMAC per request): the figure the target applies to.
      reveal_rps: Math.round(revealRps),
      bare_rps: Math.round(bareRps),
      reveal_vs_bare_ratio: Number((revealRps / bareRps).toFixed(3)),
      reveal_p50_ms: reveal.p50,
      reveal_p99_ms: reveal.p99,
      reveal_non2xx: reveal.non2xx,
      reveal_tiles_per_request: s.leaves.length,
      // Per-request EIP-712 route (the SDK's current path), same method, shorter run.
      signed_reveal_rps: Math.round(signedRps),
      signed_reveal_vs_bare_ratio: Number((signedRps / bareRps).toFixed(3)),
      signed_reveal_p50_ms: signed.p50,
      signed_reveal_p99_ms: signed.p99,
      signed_reveal_non2xx: signed.non2xx,
      sig_recover_ms: Number(sig.recover.toFixed(3)),
      sig_verify_cached_ms: Number(sig.cachedVerify.toFixed(3)),
    };
  } finally {
    for (const server of servers) await stop(server.child);
  }
}

if (import.meta.main) {
  const mode = process.argv[2];
  if (mode === '--serve-dealer') {
    process.stdout.write(`${JSON.stringify(await serveDealer())}\n`);
  } else if (mode === '--serve-bare') {
    process.stdout.write(`${JSON.stringify(await serveBare(process.env.SHROUD_BENCH_BODY ?? '{}'))}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(await benchDealer(), null, 2)}\n`);
  }
}
