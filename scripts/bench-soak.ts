/**
 * Soak: does a dealer's memory stay flat over many games? The dealer app runs in-process (Fastify
 * `inject`, no sockets) on a FakeChain and a temp SQLite file, with its production defaults (per-player
 * rate limit, cache bounds). Each game is dealt, then every seat (fresh players each game, as over months)
 * opens a session, fetches three turns' openings twice each over it, fetches the last turn once more with a
 * signed request, posts a receipt for it, and asks for a turn not on-chain yet (a refusal); the game's zone
 * roots are fetched once. Memory is read after a full GC (`--expose-gc`: the suite runs in a child process
 * started with it) before the first game and after every tenth of them; cache sizes come from the dealer's
 * `shroud_dealer_cache_entries` gauge when it has one.
 *
 * Growth "after warm-up" is the slope from the half-way sample to the end, per 1,000 games: by then every
 * bound that a game's own entries can reach is reached. The FakeChain keeps every game in this process's
 * heap too: `soak_fake_chain_mb_per_1000_games` measures that part alone (the same chain calls, no dealer).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keccak256, toUtf8Bytes, Wallet } from 'ethers';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import {
  type Hasher,
  leafIndex,
  loadHasher,
  playCommitment,
  revealCommitment,
  shareCommitment,
  shippedRuleset,
  type ValidRuleset,
} from '../core/index.ts';
import { signRevealReceipt } from '../core/reveal-receipt.ts';
import {
  sessionKeyHash,
  sessionMacKey,
  sessionRevealMac,
  signRevealSession,
} from '../core/reveal-session.ts';
import { addressToField, generateSealKey, sealShare } from '../core/sealed.ts';
import { buildApp } from '../dealer/app.ts';
import { revealDomain, signRevealRequest } from '../dealer/auth.ts';
import { FakeChain } from '../dealer/chain/fake.ts';
import { ChainHead } from '../dealer/chain/head.ts';
import { type DealingDeps, dealGame } from '../dealer/dealing.ts';
import { MapCache } from '../dealer/maps.ts';
import { createMetrics } from '../dealer/metrics.ts';
import { randomFieldElement } from '../dealer/random.ts';
import { secretBox } from '../dealer/store/secret-box.ts';
import { SqliteStore } from '../dealer/store/sqlite.ts';
import { round } from './lib/stats.ts';

export interface SoakOptions {
  games: number;
  ruleset: string;
}

const CHAIN_ID = 31337n;
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const DOMAIN = revealDomain(CHAIN_ID, CONTRACT);
/** Turns each seat posts and fetches per game. */
const TURNS = 3;
/** Tiles opened per turn. */
const TILES = 8;
const MB = 1024 * 1024;

/** What one memory sample holds (MB, after a full GC). */
interface Sample {
  heap: number;
  external: number;
  rss: number;
}

function sample(): Sample {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the soak needs global.gc: run node with --expose-gc');
  gc();
  gc(); // a second pass collects what the first one's finalizers released
  const m = process.memoryUsage();
  return { heap: m.heapUsed / MB, external: m.external / MB, rss: m.rss / MB };
}

/** The suite entry (npm run bench -- soak): runs the soak in a child with --expose-gc, returns its metrics. */
export async function benchSoak(o: SoakOptions): Promise<Record<string, number>> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', new URL(import.meta.url).pathname, '--child', String(o.games), o.ruleset],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  if (code !== 0) throw new Error(`soak child exited with ${code}`);
  return JSON.parse(out) as Record<string, number>;
}

/** Deterministic, distinct player keys (bench-only; never funded anywhere). */
function player(i: number): Wallet {
  return new Wallet(keccak256(toUtf8Bytes(`shroud-soak-player-${i}`)));
}

async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  want: number,
): Promise<string> {
  const res = await app.inject({
    method,
    url,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
  });
  if (res.statusCode !== want) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.body;
}

const nonce = () => BigInt(`0x${randomBytes(32).toString('hex')}`);
const soon = () => Math.floor(Date.now() / 1000) + 300;

/** The ceremony on the fake chain (every seat commits and seals its share to the dealer), as the tests do. */
function ceremony(
  h: Hasher,
  chain: FakeChain,
  sealKey: ReturnType<typeof generateSealKey>['publicKey'],
  ruleset: string,
  players: Wallet[],
): bigint {
  const gameId = chain.createGame(
    ruleset,
    players.map((p) => p.address),
    sealKey,
    CONTRACT,
  );
  const shares = players.map(() => randomFieldElement());
  players.forEach((p, i) => {
    chain.commitShare(gameId, p.address, shareCommitment(h, gameId, addressToField(p.address), shares[i]!));
  });
  players.forEach((p, i) => {
    const ctx = { gameId, player: addressToField(p.address) };
    chain.postSealedShare(gameId, p.address, sealShare(h, sealKey, shares[i]!, ctx).sealed);
  });
  return gameId;
}

/** One seat's traffic in a dealt game (see the file comment); returns the requests made. */
async function playSeat(
  ctx: { h: Hasher; app: FastifyInstance; chain: FakeChain; head: ChainHead; r: ValidRuleset },
  gameId: bigint,
  seat: number,
  p: Wallet,
): Promise<number> {
  const { h, app, chain, head, r } = ctx;
  const base = `/v1/games/${gameId}`;
  const sessionKey = new Uint8Array(randomBytes(32));
  const open = {
    gameId,
    player: p.address,
    sessionKeyHash: sessionKeyHash(sessionKey),
    expiry: soon() + 600,
    nonce: nonce(),
  };
  const sessionBody = {
    gameId: gameId.toString(),
    player: p.address,
    sessionKey: `0x${Buffer.from(sessionKey).toString('hex')}`,
    expiry: open.expiry,
    nonce: open.nonce.toString(),
    signature: await signRevealSession(p, DOMAIN, open),
  };
  const sessionId = (
    JSON.parse(await call(app, 'POST', `${base}/sessions`, sessionBody, 200)) as { sessionId: string }
  ).sessionId;
  const macKey = sessionMacKey(sessionKey, sessionId);
  let requests = 1;
  let last = { leaves: [] as number[], blinding: 0n, commit: 0n, stateCommit: 0n };
  // The root the dealer posted: every play commitment of the game binds it (core/state.ts playCommitment).
  const root = chain.postedRootFor(gameId);
  if (root === null) throw new Error(`game ${gameId}: no root posted`);
  for (let turn = 1; turn <= TURNS; turn++) {
    const row = (seat * TURNS + turn) % r.board.height;
    const leaves = Array.from({ length: TILES }, (_, i) =>
      leafIndex(r.board, { col: (turn + i) % r.board.width, row }),
    );
    const blinding = randomFieldElement();
    const stateCommit = randomFieldElement();
    const commit = revealCommitment(h, leaves, r.maxRevealedTiles, blinding);
    chain.postCommitmentFor(gameId, p.address, turn, playCommitment(h, stateCommit, commit, root));
    head.set(await chain.headBlock()); // a new block, as the watcher would publish it
    for (let again = 0; again < 2; again++) {
      const m = { sessionId, gameId, turn, leaves, blinding, stateCommit, nonce: nonce(), expiry: soon() };
      const body = {
        sessionId,
        turn,
        leaves,
        blinding: blinding.toString(),
        stateCommit: stateCommit.toString(),
        nonce: m.nonce.toString(),
        expiry: m.expiry,
        mac: sessionRevealMac(macKey, m),
      };
      await call(app, 'POST', `${base}/session-reveals`, body, 200);
      requests++;
    }
    last = { leaves, blinding, commit, stateCommit };
  }
  const signed = async (turn: number, want: number) => {
    const msg = {
      gameId,
      player: p.address,
      turn,
      leaves: last.leaves,
      blinding: last.blinding,
      stateCommit: last.stateCommit,
      nonce: nonce(),
      expiry: soon(),
    };
    const signature = await signRevealRequest(p, DOMAIN, msg);
    const body = {
      ...msg,
      gameId: gameId.toString(),
      blinding: msg.blinding.toString(),
      stateCommit: msg.stateCommit.toString(),
      nonce: msg.nonce.toString(),
      signature,
    };
    await call(app, 'POST', `${base}/reveals`, body, want);
  };
  await signed(TURNS, 200);
  const receipt = await signRevealReceipt(p, DOMAIN, { gameId, turn: TURNS, revealCommit: last.commit });
  await call(
    app,
    'POST',
    `${base}/receipts`,
    {
      player: p.address,
      turn: TURNS,
      revealCommit: last.commit.toString(),
      stateCommit: last.stateCommit.toString(),
      signature: receipt,
    },
    200,
  );
  await signed(TURNS + 1, 404); // not on-chain yet: a refusal the dealer remembers until the next block
  return requests + 3;
}

/** Heap the FakeChain alone keeps per 1,000 games (its state for the same calls, no dealer), in MB. */
async function fakeChainCost(h: Hasher, ruleset: string, seats: number): Promise<number> {
  const games = 50;
  const seal = generateSealKey();
  const before = sample();
  const chain = new FakeChain({ chainId: CHAIN_ID });
  for (let g = 0; g < games; g++) {
    const players = Array.from({ length: seats }, (_, i) => player(1_000_000 + g * seats + i));
    const gameId = ceremony(h, chain, seal.publicKey, ruleset, players);
    await chain.postRoot(gameId, { root: randomFieldElement(), masterCommitment: randomFieldElement() }, []);
    for (const p of players)
      for (let t = 1; t <= TURNS; t++) chain.postCommitmentFor(gameId, p.address, t, randomFieldElement());
  }
  const after = sample();
  if (chain.writes.length === 0) throw new Error('unreachable'); // keeps `chain` alive until the sample
  return ((after.heap + after.external - before.heap - before.external) * 1000) / games;
}

/** The dealer's `shroud_dealer_cache_entries` gauge, per cache (empty when the dealer has none). */
async function cacheSizes(app: FastifyInstance): Promise<Record<string, number>> {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^shroud_dealer_cache_entries\{cache="([a-z-]+)"\} ([0-9.e+]+)$/gm)) {
    out[m[1]!.replaceAll('-', '_')] = Number(m[2]);
  }
  return out;
}

async function runSoak(o: SoakOptions): Promise<Record<string, number>> {
  if (!Number.isInteger(o.games) || o.games < 10) throw new Error('the soak needs at least 10 games');
  const h = await loadHasher();
  const r = shippedRuleset(o.ruleset);
  const seats = r.players.max;
  const chainMbPer1000 = await fakeChainCost(h, o.ruleset, seats);
  const dir = mkdtempSync(join(tmpdir(), 'shroud-soak-'));
  const seal = generateSealKey();
  const chain = new FakeChain({ chainId: CHAIN_ID });
  const store = new SqliteStore(join(dir, 'dealer.sqlite'), secretBox(randomBytes(32)));
  const maps = new MapCache(h, store);
  const logger = pino({ level: 'warn' });
  const head = new ChainHead();
  const deps: DealingDeps = { h, chain, store, maps, sealSecretKey: seal.secretKey, log: logger };
  const app = await buildApp({
    h,
    chain,
    store,
    maps,
    metrics: createMetrics(),
    chainId: CHAIN_ID,
    logger,
    head,
    // Every request comes from 127.0.0.1: the per-IP limit would measure itself. The per-player one is the default.
    http: {
      bodyLimitBytes: 8192,
      corsOrigins: [],
      rateLimit: { max: 1e9, timeWindowMs: 60_000 },
      docs: false,
      maxExpirySeconds: 600,
    },
  });
  await app.ready();
  const ctx = { h, app, chain, head, r };
  const samples = new Map<number, Sample>([[0, sample()]]);
  /** Game count → percent: a sample after every tenth of the games. */
  const checkpoints = new Map(
    Array.from({ length: 10 }, (_, k) => [Math.ceil(((k + 1) * o.games) / 10), (k + 1) * 10]),
  );
  const t0 = performance.now();
  let requests = 0;
  try {
    for (let g = 1; g <= o.games; g++) {
      const players = Array.from({ length: seats }, (_, i) => player((g - 1) * seats + i));
      const gameId = ceremony(h, chain, seal.publicKey, o.ruleset, players);
      await store.addGame({
        gameId,
        contract: CONTRACT,
        ruleset: o.ruleset,
        players: players.map((p) => p.address.toLowerCase()),
      });
      if ((await dealGame(deps, gameId)) !== 'dealt') throw new Error(`game ${gameId} not dealt`);
      head.set(await chain.headBlock());
      for (const [seat, p] of players.entries()) requests += await playSeat(ctx, gameId, seat, p);
      const pct = checkpoints.get(g);
      if (pct !== undefined) {
        const s = sample();
        samples.set(pct, s);
        process.stderr.write(
          `soak: ${g}/${o.games} games, heap ${s.heap.toFixed(1)} MB, external ${s.external.toFixed(1)} MB, rss ${s.rss.toFixed(0)} MB\n`,
        );
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const caches = await cacheSizes(app);
    const at = (pct: number) => samples.get(pct)!;
    const start = at(0);
    const half = at(50);
    const end = at(100);
    // Games played between the half-way sample and the end.
    const after = o.games - Math.ceil(o.games / 2);
    const per1000 = (a: number, b: number) => round(((b - a) * 1000) / after, 1);
    return {
      soak_games: o.games,
      soak_players_per_game: seats,
      soak_requests: requests,
      soak_seconds: round(seconds, 1),
      soak_heap_mb_start: round(start.heap, 1),
      soak_heap_mb_10pct: round(at(10).heap, 1),
      soak_heap_mb_50pct: round(half.heap, 1),
      soak_heap_mb_end: round(end.heap, 1),
      soak_external_mb_start: round(start.external, 1),
      soak_external_mb_10pct: round(at(10).external, 1),
      soak_external_mb_50pct: round(half.external, 1),
      soak_external_mb_end: round(end.external, 1),
      soak_rss_mb_end: round(end.rss, 0),
      soak_heap_growth_mb_per_1000_games_after_warmup: per1000(half.heap, end.heap),
      soak_external_growth_mb_per_1000_games_after_warmup: per1000(half.external, end.external),
      soak_fake_chain_mb_per_1000_games: round(chainMbPer1000, 1),
      ...Object.fromEntries(Object.entries(caches).map(([k, v]) => [`soak_cache_${k}_entries`, v])),
      ...(Object.keys(caches).length ? { soak_cache_max_entries: Math.max(...Object.values(caches)) } : {}),
    };
  } finally {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main && process.argv[2] === '--child') {
  const games = Number(process.argv[3]);
  const ruleset = process.argv[4]!;
  process.stdout.write(`${JSON.stringify(await runSoak({ games, ruleset }))}\n`);
  process.exit(0);
}
