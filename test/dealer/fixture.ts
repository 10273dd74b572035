/** Shared set-up for dealer tests: players, a ceremony on a FakeChain, a dealer app, signed requests. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { keccak256, toUtf8Bytes, Wallet } from 'ethers';
import { pino } from 'pino';
import type { Point } from '../../core/babyjub.ts';
import {
  FIELD_MODULUS,
  type Hasher,
  leafIndex,
  loadHasher,
  playCommitment,
  revealCommitment,
  shareCommitment,
  shippedRuleset,
} from '../../core/index.ts';
import { signRevealReceipt } from '../../core/reveal-receipt.ts';
import {
  sessionKeyHash,
  sessionMacKey,
  sessionRevealMac,
  signRevealSession,
} from '../../core/reveal-session.ts';
import { addressToField, generateSealKey, sealShare } from '../../core/sealed.ts';
import { buildApp, type HttpOptions, REDACT_PATHS } from '../../dealer/app.ts';
import type { ArtifactCatalog } from '../../dealer/artifacts.ts';
import { revealDomain, signRevealRequest } from '../../dealer/auth.ts';
import { type CacheLimits, cacheLimits } from '../../dealer/cache-limits.ts';
import { FakeChain } from '../../dealer/chain/fake.ts';
import { ChainHead } from '../../dealer/chain/head.ts';
import { type DealingDeps, dealGame } from '../../dealer/dealing.ts';
import { MapCache } from '../../dealer/maps.ts';
import { createMetrics } from '../../dealer/metrics.ts';
import { randomFieldElement } from '../../dealer/random.ts';
import type { ReceiptBody, RevealRequestBody, SessionRevealBody } from '../../dealer/reveals.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import { ChainWatcher } from '../../dealer/watcher.ts';

export const CHAIN_ID = 31337n;
export const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
/** Hardhat's well-known dev keys: players, never real funds. */
export const ALICE = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
export const BOB = new Wallet('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
export const MALLORY = new Wallet('0x47e179ec197488593b187f80a00eb0da91f1c9b0b13d8733555dd8ea0c9e4a27');

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'shroud-dealer-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Ceremony {
  gameId: bigint;
  shares: bigint[];
}

/**
 * Runs commit and sealed reveal for every player, each share really sealed to `sealKey` (the FakeChain
 * checks no proof: `sealed` overrides what a seat posts, e.g. a ciphertext copied from another game).
 */
export function runCeremony(
  h: Hasher,
  chain: FakeChain,
  sealKey: Point,
  opts: {
    ruleset?: string;
    players?: Wallet[];
    sealed?: Record<number, { ephemeralY: bigint; ciphertext: bigint }>;
    /** The game contract the game is created on (default CONTRACT). */
    contract?: string;
    /** The dealer's bond (default none). */
    bond?: bigint;
  } = {},
): Ceremony {
  const players = opts.players ?? [ALICE, BOB];
  const gameId = chain.createGame(
    opts.ruleset ?? 'duel',
    players.map((p) => p.address),
    sealKey,
    opts.contract ?? CONTRACT,
    { bond: opts.bond ?? 0n },
  );
  const shares = players.map(() => randomFieldElement());
  players.forEach((p, i) => {
    chain.commitShare(gameId, p.address, shareCommitment(h, gameId, addressToField(p.address), shares[i]!));
  });
  players.forEach((p, i) => {
    const ctx = { gameId, player: addressToField(p.address) };
    chain.postSealedShare(
      gameId,
      p.address,
      opts.sealed?.[i] ?? sealShare(h, sealKey, shares[i]!, ctx).sealed,
    );
  });
  return { gameId, shares };
}

/** Captures every log line (as text) for secret-leak checks. */
export function captureLogs(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, stream };
}

export const HTTP: HttpOptions = {
  bodyLimitBytes: 8192,
  corsOrigins: ['http://localhost:5173'],
  rateLimit: { max: 10_000, timeWindowMs: 60_000 },
  docs: true,
  maxExpirySeconds: 600,
  // Generous: the per-player limit has its own tests.
  playerRateLimit: { perSecond: 10_000, burst: 100_000 },
};

export type Dealer = Awaited<ReturnType<typeof startDealer>>;

/** A dealer on a temp SQLite file and a FakeChain, with captured logs and a controllable clock. */
export async function startDealer(
  opts: {
    http?: Partial<HttpOptions>;
    chain?: FakeChain;
    dbPath?: string;
    /** Milliseconds for the per-player rate limiter (default: the wall clock). */
    nowMs?: () => number;
    /** The keys of an earlier dealer on the same DB (a restart); fresh ones by default. */
    keys?: { seal: ReturnType<typeof generateSealKey>; atRestKey: Buffer };
    /** Serves these proving artifacts under /v1/artifacts. */
    artifacts?: ArtifactCatalog;
    /** Cache bounds (dealer/cache-limits.ts): the app's, the map cache's and the store's nonce memo. */
    caches?: Partial<CacheLimits>;
  } = {},
) {
  const caches = cacheLimits(opts.caches);
  const h = await loadHasher();
  const tmp = tempDir();
  const seal = opts.keys?.seal ?? generateSealKey();
  const atRestKey = opts.keys?.atRestKey ?? randomBytes(32);
  const chain = opts.chain ?? new FakeChain({ chainId: CHAIN_ID });
  const store = new SqliteStore(opts.dbPath ?? join(tmp.dir, 'dealer.sqlite'), secretBox(atRestKey), {
    nonceMemo: caches.entries,
  });
  const maps = new MapCache(h, store, caches.maps);
  const metrics = createMetrics();
  const logs = captureLogs();
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, logs.stream);
  const clock = { now: Math.floor(Date.now() / 1000) };
  /** The head block the reveal service sees: tests publish it (syncHead) as the watcher's tick would. */
  const head = new ChainHead();
  const dealing: DealingDeps = {
    h,
    chain,
    store,
    maps,
    sealSecretKey: seal.secretKey,
    log: logger,
    onDealt: () => metrics.gamesDealt.inc(),
    onDisputeAnswered: () => metrics.disputesAnswered.inc(),
    onZoneChallengeAnswered: () => metrics.zoneChallengesAnswered.inc(),
    onClosed: (_gameId, call) => metrics.gamesClosed.inc({ call }),
    onWithdrawn: (wei) => metrics.creditWithdrawn.inc(Number(wei)),
  };
  const app = await buildApp({
    h,
    chain,
    store,
    maps,
    metrics,
    chainId: CHAIN_ID,
    logger,
    http: { ...HTTP, ...opts.http },
    now: () => clock.now,
    nowMs: opts.nowMs,
    head,
    caches,
    ...(opts.artifacts ? { artifacts: opts.artifacts } : {}),
  });
  return {
    h,
    chain,
    store,
    maps,
    metrics,
    seal,
    head,
    atRestKey,
    logs,
    clock,
    dealing,
    app,
    /** Publishes the chain's head block to the reveal service, as a watcher tick does. */
    async syncHead() {
      head.set(await chain.headBlock());
    },
    /** Ceremony, then dealing, for one game. */
    async dealtGame(o: Parameters<typeof runCeremony>[3] = {}) {
      const c = runCeremony(h, chain, seal.publicKey, o);
      await store.addGame({
        gameId: c.gameId,
        contract: CONTRACT,
        ruleset: o.ruleset ?? 'duel',
        players: (o.players ?? [ALICE, BOB]).map((p) => p.address.toLowerCase()),
      });
      const outcome = await dealGame(dealing, c.gameId);
      return { ...c, outcome };
    },
    async close() {
      await app.close();
      await store.close();
      tmp.cleanup();
    },
  };
}

/** The dealer's chain watcher on its FakeChain, fast polling, from block 0; tests call `tick()` themselves. */
export const watcherOf = (dealer: Dealer) =>
  new ChainWatcher(dealer.dealing, {
    pollMs: 10,
    startBlock: 0,
    sealPublicKey: dealer.seal.publicKey,
    head: dealer.head,
  });

/** A few on-board leaves of the duel map. */
export function duelLeaves(): number[] {
  const b = shippedRuleset('duel').board;
  return [
    { col: 0, row: 0 },
    { col: 5, row: 3 },
    { col: 39, row: 25 },
    { col: 20, row: 13 },
  ].map((c) => leafIndex(b, c));
}

/**
 * The state commitment S the tests' players bind into their play commitment for (game, player, turn): any field
 * element does (the dealer never opens it), so a fixed one per turn, which requests and receipts send by
 * default. Tests of a wrong S pass another explicitly.
 */
export function testStateCommit(gameId: bigint, player: string, turn: number): bigint {
  return (
    BigInt(keccak256(toUtf8Bytes(`test-state:${gameId}:${player.toLowerCase()}:${turn}`))) % FIELD_MODULUS
  );
}

/** R of a reveal list on `ruleset`: `revealCommitment(leaves, blinding)`. */
export function revealCommitOf(h: Hasher, leaves: number[], blinding: bigint, ruleset = 'duel'): bigint {
  return revealCommitment(h, leaves, shippedRuleset(ruleset).maxRevealedTiles, blinding);
}

/**
 * The map root `chain` holds for the game (posted by its dealer): the root its seats' play commitments bind.
 */
export function postedRoot(chain: FakeChain, gameId: bigint): bigint {
  const root = chain.postedRootFor(gameId);
  if (root === null) throw new Error(`game ${gameId}: no root posted yet`);
  return root;
}

/**
 * A verified spawn/turn proof of `player` storing its play commitment C = Poseidon(S, R, mapRoot) for `leaves`
 * under a fresh reveal blinding, with S = `stateCommit` (default `testStateCommit`) and mapRoot the root the
 * chain holds for the game. Returns the blinding.
 */
export function postTurn(
  h: Hasher,
  chain: FakeChain,
  gameId: bigint,
  player: Wallet,
  turn: number,
  leaves: number[],
  ruleset = 'duel',
  stateCommit = testStateCommit(gameId, player.address, turn),
): bigint {
  const blinding = randomFieldElement();
  const revealCommit = revealCommitOf(h, leaves, blinding, ruleset);
  chain.postCommitmentFor(
    gameId,
    player.address,
    turn,
    playCommitment(h, stateCommit, revealCommit, postedRoot(chain, gameId)),
  );
  return blinding;
}

/** A turn's opening as a test sends it; nonce and expiry default to fresh ones. */
export interface TestOpening {
  gameId: bigint;
  turn: number;
  leaves: number[];
  blinding: bigint;
  /** Default: `testStateCommit` of the game, the player and the turn. */
  stateCommit?: bigint;
  nonce?: bigint;
  expiry?: number;
}

export async function signedReveal(
  signer: Wallet,
  o: TestOpening & { player?: string; contract?: string; chainId?: bigint },
): Promise<RevealRequestBody> {
  const player = o.player ?? signer.address;
  const msg = {
    gameId: o.gameId,
    player,
    turn: o.turn,
    leaves: o.leaves,
    blinding: o.blinding,
    stateCommit: o.stateCommit ?? testStateCommit(o.gameId, player, o.turn),
    nonce: o.nonce ?? BigInt(`0x${randomBytes(32).toString('hex')}`),
    expiry: o.expiry ?? Math.floor(Date.now() / 1000) + 300,
  };
  const signature = await signRevealRequest(
    signer,
    revealDomain(o.chainId ?? CHAIN_ID, o.contract ?? CONTRACT),
    msg,
  );
  return {
    gameId: msg.gameId.toString(),
    player: msg.player,
    turn: msg.turn,
    leaves: msg.leaves,
    blinding: msg.blinding.toString(),
    stateCommit: msg.stateCommit.toString(),
    nonce: msg.nonce.toString(),
    expiry: msg.expiry,
    signature,
  };
}

/**
 * A `POST /receipts` body: `signer`'s EIP-712 RevealReceipt over `revealCommit` (R, as the SDK's sendReceipt
 * signs it) and the state commitment that opens the turn's play commitment with it (unsigned).
 */
export async function signedReceipt(
  signer: Wallet,
  o: {
    gameId: bigint;
    turn: number;
    revealCommit: bigint;
    /** Default: `testStateCommit` of the game, `player` and turn. */
    stateCommit?: bigint;
    player?: string;
    contract?: string;
    chainId?: bigint;
  },
): Promise<ReceiptBody> {
  const signature = await signRevealReceipt(
    signer,
    revealDomain(o.chainId ?? CHAIN_ID, o.contract ?? CONTRACT),
    {
      gameId: o.gameId,
      turn: o.turn,
      revealCommit: o.revealCommit,
    },
  );
  const player = o.player ?? signer.address;
  return {
    player,
    turn: o.turn,
    revealCommit: o.revealCommit.toString(),
    stateCommit: (o.stateCommit ?? testStateCommit(o.gameId, player, o.turn)).toString(),
    signature,
  };
}

/** A signed session-creation body, and the session key behind it. */
export async function sessionOpenBody(
  signer: Wallet,
  o: {
    gameId: bigint;
    sessionKey?: Uint8Array;
    expiry?: number;
    nonce?: bigint;
    player?: string;
    contract?: string;
  },
) {
  const sessionKey = o.sessionKey ?? new Uint8Array(randomBytes(32));
  const msg = {
    gameId: o.gameId,
    player: o.player ?? signer.address,
    sessionKeyHash: sessionKeyHash(sessionKey),
    expiry: o.expiry ?? Math.floor(Date.now() / 1000) + 1800,
    nonce: o.nonce ?? BigInt(`0x${randomBytes(32).toString('hex')}`),
  };
  const signature = await signRevealSession(signer, revealDomain(CHAIN_ID, o.contract ?? CONTRACT), msg);
  const body = {
    gameId: o.gameId.toString(),
    player: msg.player,
    sessionKey: `0x${Buffer.from(sessionKey).toString('hex')}`,
    expiry: msg.expiry,
    nonce: msg.nonce.toString(),
    signature,
  };
  return { body, sessionKey };
}

/** Opens a reveal session over `app` (inject); returns the id and the MAC key the client derives. */
export async function openSession(
  app: Dealer['app'],
  signer: Wallet,
  o: Parameters<typeof sessionOpenBody>[1],
) {
  const { body, sessionKey } = await sessionOpenBody(signer, o);
  const res = await app.inject({
    method: 'POST',
    url: `/v1/games/${o.gameId}/sessions`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  const sessionId = res.statusCode === 200 ? (res.json() as { sessionId: string }).sessionId : '';
  return {
    res,
    body,
    player: body.player,
    sessionId,
    macKey: sessionId ? sessionMacKey(sessionKey, sessionId) : new Uint8Array(),
  };
}

/**
 * A session reveal body MACed with the SDK-side (noble) HMAC. The state commitment defaults to
 * `testStateCommit` of the session's player (`s.player`, else Alice).
 */
export function sessionReveal(
  s: { sessionId: string; macKey: Uint8Array; player?: string },
  o: TestOpening,
): SessionRevealBody {
  const m = {
    sessionId: s.sessionId,
    gameId: o.gameId,
    turn: o.turn,
    leaves: o.leaves,
    blinding: o.blinding,
    stateCommit: o.stateCommit ?? testStateCommit(o.gameId, s.player ?? ALICE.address, o.turn),
    nonce: o.nonce ?? BigInt(`0x${randomBytes(32).toString('hex')}`),
    expiry: o.expiry ?? Math.floor(Date.now() / 1000) + 300,
  };
  return {
    sessionId: s.sessionId,
    turn: m.turn,
    leaves: m.leaves,
    blinding: m.blinding.toString(),
    stateCommit: m.stateCommit.toString(),
    nonce: m.nonce.toString(),
    expiry: m.expiry,
    mac: sessionRevealMac(s.macKey, m),
  };
}
