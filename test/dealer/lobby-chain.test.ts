/**
 * Lobbies against the real ShroudGame on Hardhat's in-process chain (mock verifiers): two players join a
 * 2-seat lobby through the SDK's LobbyClient over HTTP, the dealer creates the game from its transaction key
 * (EthersChain), and the game on-chain has those players in join order, the ruleset's durations (at or above
 * the floors), the lobby's stake, deposit and bond, and the dealer's seal key; the players then stake on it.
 * Crash recovery on the real chain: the kept signed createGame is broadcast again, found by its receipt, or
 * (when a replacement with the same nonce was mined) found by its GameCreated log; never a second game.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Contract, Transaction, Wallet } from 'ethers';
import { pino } from 'pino';
import { LobbyClient, LobbyGameFailedError, LobbyTermsRejectedError } from '../../client/sdk/index.ts';
import { leaveLobby } from '../../client/web/session.ts';
import { packStartAreas } from '../../core/generator/index.ts';
import { DURATION_FIELDS, DURATION_FLOORS, rulesetHash, shippedRuleset } from '../../core/index.ts';
import { buildApp } from '../../dealer/app.ts';
import { EthersChain } from '../../dealer/chain/ethers.ts';
import type { GameCreator } from '../../dealer/chain/types.ts';
import { type LobbyKind, LobbyService } from '../../dealer/lobby.ts';
import { MapCache } from '../../dealer/maps.ts';
import { createMetrics } from '../../dealer/metrics.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import { type Env, SEAL, setup } from '../contracts/helpers.ts';
import { HTTP, tempDir } from './fixture.ts';
import { type CrashPoint, dyingCreator } from './lobby-fixture.ts';

/** Hardhat account #1 (`env.dealer`): the dealer's transaction key on the local chain only. */
const TX_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const CHAIN_ID = 31337n;
const TINY = shippedRuleset('tiny');
const KIND: LobbyKind = {
  name: 'tiny-duel',
  ruleset: TINY,
  seats: 2,
  stake: 1000n,
  disputeDeposit: 100n,
  maxTurns: 40,
  bond: 10n ** 18n,
};

const tmp = tempDir();
let env: Env;
let G: Contract;
let chain: EthersChain;
let gameContract: string;
let dbs = 0;

before(async () => {
  env = await setup([], { sealVerifier: 'mock' });
  G = env.game;
  gameContract = await G.getAddress();
  assert.equal(new Wallet(TX_KEY).address, env.dealer.address);
  // The shipped ruleset's real hash, registered for its board and 2 seats (no play verifiers needed here).
  const reg = env.registry.connect(env.deployer) as Contract;
  await (
    await reg.getFunction('registerRuleset')(
      rulesetHash(TINY),
      0,
      TINY.board.width,
      TINY.board.height,
      2,
      4,
      false,
      TINY.maxRevealedTiles,
    )
  ).wait();
  await (await reg.getFunction('setStartAreas')(rulesetHash(TINY), packStartAreas(TINY.board))).wait();
  chain = new EthersChain({
    provider: env.ethers.provider,
    chainId: Number(CHAIN_ID),
    gameContract,
    txKey: TX_KEY,
    confirmations: 0,
  });
});
after(() => tmp.cleanup());

/** A listening dealer with lobbies on a SQLite file (`dbPath` again: a restart). */
async function startDealer(o: { creator?: GameCreator; dbPath?: string } = {}) {
  const dbPath = o.dbPath ?? `${tmp.dir}/chain-lobby-${dbs++}.sqlite`;
  const store = new SqliteStore(dbPath, secretBox(new Uint8Array(32).fill(3)));
  const log = pino({ level: 'silent' });
  const service = new LobbyService({
    store,
    creator: o.creator ?? chain,
    chainId: CHAIN_ID,
    gameContract,
    sealKey: SEAL.publicKey,
    kinds: [KIND],
    log,
    maxJoinAheadSeconds: 600,
    // The chain's clock: evm_increaseTime in other tests moves it ahead of the wall clock.
    now: () => Math.floor(Date.now() / 1000),
    pollMs: 60_000,
  });
  await service.start();
  const app = await buildApp({
    h: env.h,
    chain,
    store,
    maps: new MapCache(env.h, store),
    metrics: createMetrics(),
    chainId: CHAIN_ID,
    logger: log,
    http: HTTP,
    lobbies: service,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    store,
    service,
    dbPath,
    async close() {
      await service.stop();
      await app.close();
      await store.close();
    },
  };
}

const gameCount = async () => (await G.getFunction('gameCount')()) as bigint;

describe('lobbies on the real contract (Hardhat, EthersChain, LobbyClient)', () => {
  it("reads the registry's start areas for a registered ruleset, and none for an unregistered one", async () => {
    assert.equal(await chain.registeredStartAreas(rulesetHash(TINY)), packStartAreas(TINY.board));
    assert.equal(await chain.registeredStartAreas(rulesetHash(shippedRuleset('tiny-square'))), null);
  });

  it('two players join a 2-seat lobby with the SDK; the game on-chain has them, the ruleset durations, the stake', async () => {
    const d = await startDealer();
    try {
      const [p0, p1] = env.players;
      const client = new LobbyClient(d.url, { chainId: CHAIN_ID, gameContract });
      const [lobby] = await client.lobbies();
      assert.ok(lobby);
      assert.deepEqual(
        [lobby.kind, lobby.seats, lobby.filled, lobby.stake, lobby.rulesetHash],
        ['tiny-duel', 2, 0, 1000n, rulesetHash(TINY).toLowerCase()],
      );
      assert.equal(lobby.dealer, env.dealer.address.toLowerCase());
      const before = await gameCount();

      const t0 = await client.join(p0!, lobby.id, { maxStake: 1000n, seats: 2 });
      assert.deepEqual([t0.seat, t0.status, t0.gameId], [0, 'waiting', null]);
      const waiting = client.waitForGame(lobby.id, t0, { pollMs: 20 });
      const t1 = await client.join(p1!, lobby.id);
      assert.equal(t1.seat, 1);
      const [{ gameId }, again] = await Promise.all([
        waiting,
        client.waitForGame(lobby.id, t1, { pollMs: 20 }),
      ]);
      assert.equal(again.gameId, gameId, 'both joiners get the game id');
      assert.equal(await gameCount(), before + 1n);

      const g = await G.getFunction('getGame')(gameId);
      assert.equal(g.dealer, env.dealer.address);
      assert.equal(g.nPlayers, 2n);
      assert.equal(g.bond, 10n ** 18n);
      const cfg = await G.getFunction('getGameConfig')(gameId);
      assert.equal(cfg.rulesetHash, rulesetHash(TINY));
      assert.equal(cfg.stake, 1000n);
      assert.equal(cfg.disputeDeposit, 100n);
      assert.deepEqual(
        [cfg.board.kind, cfg.board.width, cfg.board.height, cfg.board.maxTurns],
        [0n, 16n, 12n, 40n],
      );
      assert.deepEqual([cfg.sealKey[0], cfg.sealKey[1]], [SEAL.publicKey[0], SEAL.publicKey[1]]);
      for (const f of DURATION_FIELDS) {
        assert.equal(Number(cfg.durations[f]), TINY.deadlines[f], `${f} from the ruleset`);
        assert.ok(Number(cfg.durations[f]) >= DURATION_FLOORS[f], `${f} ≥ its floor`);
      }
      for (const [i, p] of [p0!, p1!].entries()) {
        assert.equal((await G.getFunction('getSeat')(gameId, i)).player, p.address, `seat ${i}: join order`);
      }
      // The players commit their stakes themselves, as in any game.
      for (const [i, p] of [p0!, p1!].entries()) {
        await (
          await (G.connect(p) as Contract).getFunction('commit')(gameId, 1000n + BigInt(i), { value: 1000n })
        ).wait();
      }
      assert.equal((await G.getFunction('getGame')(gameId)).phase, 2n, 'both committed: Reveal');

      // A fresh lobby of the same kind is open; the SDK refuses terms its player does not accept, unsigned.
      const [next] = await client.lobbies();
      assert.notEqual(next?.id, lobby.id);
      await assert.rejects(
        client.join(env.players[2]!, next!.id, { maxStake: 999n }),
        (e: unknown) => e instanceof LobbyTermsRejectedError && e.field === 'stake',
      );
      await assert.rejects(
        new LobbyClient(d.url, { gameContract: env.other.address }).lobbies(),
        (e: unknown) => e instanceof LobbyTermsRejectedError && e.field === 'gameContract',
      );
      assert.equal((await client.lobbies())[0]?.filled, 0, 'nothing was sent');
    } finally {
      await d.close();
    }
  });

  it("the page's Leave: the key gives its seat up while waiting, and everything it holds goes home; once filled, the seat stays", async () => {
    const d = await startDealer();
    try {
      const wallet = env.players[5]!;
      const provider = env.ethers.provider;
      const client = new LobbyClient(d.url, { chainId: CHAIN_ID, gameContract });
      const [lobby] = await client.lobbies();
      const record = { owner: wallet.address, gameContract, lobby: { id: lobby!.id } } as Parameters<
        typeof leaveLobby
      >[1];
      const dealer = { url: d.url, chainId: CHAIN_ID };
      // A session key the wallet funded, seated and waiting: the wait stops when the person clicks Leave.
      const key = new Wallet(Wallet.createRandom().privateKey, provider);
      await (await wallet.sendTransaction({ to: key.address, value: 10n ** 16n })).wait();
      const ticket = await client.join(key, lobby!.id);
      const stop = new AbortController();
      const waiting = client.waitForGame(lobby!.id, ticket, { pollMs: 20, signal: stop.signal });
      stop.abort(new Error('left'));
      await assert.rejects(waiting, /left/);
      const before = await provider.getBalance(wallet.address);
      const out = await leaveLobby(key, record, dealer);
      assert.equal(out.exit, 'left');
      assert.equal(await provider.getBalance(key.address), 0n, 'the key holds nothing');
      assert.equal((await provider.getBalance(wallet.address)) - before, out.returned);
      assert.ok(out.returned > 10n ** 16n - 10n ** 15n, `all but the transfer's gas: ${out.returned}`);
      assert.equal((await client.lobbies())[0]?.filled, 0, 'the seat is free');
      assert.deepEqual(
        await leaveLobby(key, record, dealer),
        { exit: 'not-seated', returned: 0n },
        'again: nothing',
      );

      // Another key joins; the lobby fills before its Leave: the game has the key, the funds still go home.
      const late = new Wallet(Wallet.createRandom().privateKey, provider);
      await (await wallet.sendTransaction({ to: late.address, value: 10n ** 16n })).wait();
      const games = await gameCount();
      await client.join(late, lobby!.id);
      await client.join(env.players[2]!, lobby!.id);
      await d.service.drive();
      assert.equal(await gameCount(), games + 1n);
      const filled = await leaveLobby(late, record, dealer);
      assert.equal(filled.exit, 'filled');
      assert.equal(await provider.getBalance(late.address), 0n);
      const { gameId } = await client.status(lobby!.id, late.address);
      assert.equal((await G.getFunction('getSeat')(gameId, 0)).player, late.address, 'its seat in the game');
    } finally {
      await d.close();
    }
  });

  /** Fills a lobby in a dealer that dies at `at`, runs `between`, restarts it: exactly one new game. */
  async function crashAndRecover(at: CrashPoint, between?: (tx: { raw: string }) => Promise<void>) {
    const before = await gameCount();
    let d = await startDealer({ creator: dyingCreator(chain, at) });
    const client = new LobbyClient(d.url);
    const [lobby] = await client.lobbies();
    await client.join(env.players[3]!, lobby!.id);
    await client.join(env.players[4]!, lobby!.id);
    await d.service.drive();
    const crashed = await d.store.getLobby(lobby!.id);
    assert.equal(crashed?.status, at === 'before-sign' ? 'filled' : 'creating');
    await d.close();
    if (between && crashed?.createTx) await between(crashed.createTx);
    d = await startDealer({ dbPath: d.dbPath });
    try {
      const l = await d.store.getLobby(lobby!.id);
      assert.equal(l?.status, 'created', l?.fault ?? '');
      assert.equal(await gameCount(), before + 1n, 'exactly one game');
      const { gameId } = await new LobbyClient(d.url).waitForGame(lobby!.id, {
        player: env.players[4]!.address,
      });
      assert.equal(gameId, l!.gameId);
      assert.equal((await G.getFunction('getSeat')(gameId, 0)).player, env.players[3]!.address);
      return { crashed: crashed!, created: l! };
    } finally {
      await d.close();
    }
  }

  it('crash after the signed createGame was kept, before its broadcast: the same bytes are sent after the restart', async () => {
    const { crashed, created } = await crashAndRecover('after-persist');
    assert.equal(created.createTx?.hash, crashed.createTx?.hash);
  });

  it('crash after it was mined, before the game id was recorded: found by its receipt after the restart', async () => {
    const { crashed, created } = await crashAndRecover('after-broadcast');
    assert.equal(created.createTx?.hash, crashed.createTx?.hash);
  });

  it('a replacement (same nonce, another fee) was mined meanwhile: found by its GameCreated log, not created again', async () => {
    let replacement = '';
    await crashAndRecover('after-persist', async (tx) => {
      const t = Transaction.from(tx.raw);
      t.maxFeePerGas = (t.maxFeePerGas ?? 0n) * 2n + 1n;
      t.maxPriorityFeePerGas = (t.maxPriorityFeePerGas ?? 0n) * 2n + 1n;
      t.signature = null;
      const signed = await new Wallet(TX_KEY).signTransaction(t);
      replacement = Transaction.from(signed).hash!;
      await (await env.ethers.provider.broadcastTransaction(signed)).wait();
    });
    assert.ok(replacement);
  });

  it('a game the contract refuses (unregistered ruleset) fails the lobby; waitForGame says why', async () => {
    const unregistered: LobbyKind = { ...KIND, name: 'square', ruleset: shippedRuleset('tiny-square') };
    const store = new SqliteStore(`${tmp.dir}/chain-lobby-${dbs++}.sqlite`, secretBox(new Uint8Array(32)));
    const service = new LobbyService({
      store,
      creator: chain,
      chainId: CHAIN_ID,
      gameContract,
      sealKey: SEAL.publicKey,
      kinds: [unregistered],
      log: pino({ level: 'silent' }),
      maxJoinAheadSeconds: 600,
      now: () => Math.floor(Date.now() / 1000),
      pollMs: 60_000,
    });
    await service.start();
    const app = await buildApp({
      h: env.h,
      chain,
      store,
      maps: new MapCache(env.h, store),
      metrics: createMetrics(),
      chainId: CHAIN_ID,
      logger: pino({ level: 'silent' }),
      http: HTTP,
      lobbies: service,
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const before = await gameCount();
      const client = new LobbyClient(url);
      const [lobby] = await client.lobbies();
      const t = await client.join(env.players[0]!, lobby!.id);
      await client.join(env.players[1]!, lobby!.id);
      await service.drive();
      await assert.rejects(
        client.waitForGame(lobby!.id, t, { pollMs: 10 }),
        (e: unknown) => e instanceof LobbyGameFailedError && /UnknownRuleset/.test(e.message),
      );
      assert.equal(await gameCount(), before);
    } finally {
      await service.stop();
      await app.close();
      await store.close();
    }
  });
});
