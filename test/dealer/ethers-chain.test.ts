/**
 * The ethers ChainView against the real ShroudGame on Hardhat's in-process chain: the real dealer
 * (watcher + dealing over EthersChain) finds its game (its tx key as dealer AND its seal key), opens the
 * sealed shares from `SealedReveal` events, posts the root, serves a reveal once a spawn stored a play
 * commitment (Poseidon(stateCommit, revealCommit, mapRoot)), answers a reveal dispute on-chain (the answer verifies against the root; with the
 * disputer's receipt when it holds one), indexes `TurnSubmitted` logs so old turns cost no RPC call, and
 * publishes the secrets at the end. Set-up reuses the contract tests' helpers: the shares are really sealed
 * to the test seal key `SEAL`; only the seal, spawn and turn proofs are MockVerifier "proofs" bound to their
 * signals.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Contract, keccak256, type Provider, solidityPacked, Wallet } from 'ethers';
import { pino } from 'pino';
import { verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { mulPoint, pointsWithY } from '../../core/babyjub.ts';
import {
  commitMap,
  decodeDisputeAnswer,
  generateMap,
  leafIndex,
  packPlay,
  packReport,
  playCommitment,
  revealCommitment,
  shippedRuleset,
} from '../../core/index.ts';
import { zoneLeaves, zoneRoots } from '../../core/mapproof/witness.ts';
import { signRevealReceipt } from '../../core/reveal-receipt.ts';
import { revealDomain } from '../../core/reveal-request.ts';
import { rulesetHash } from '../../core/ruleset/hash.ts';
import { generateSealKey, sealContext, sealPublicKey } from '../../core/sealed.ts';
import { buildApp } from '../../dealer/app.ts';
import { EthersChain, leavesHash } from '../../dealer/chain/ethers.ts';
import { ChainHead } from '../../dealer/chain/head.ts';
import type { RevealEntry } from '../../dealer/maps.ts';
import { MapCache } from '../../dealer/maps.ts';
import { createMetrics } from '../../dealer/metrics.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import { ChainWatcher } from '../../dealer/watcher.ts';
import {
  as,
  BOND,
  commitAll,
  createGame,
  DURATIONS,
  type Env,
  gameParams,
  increaseTime,
  lastGameId,
  Phase,
  phaseOf,
  revealAll,
  type Scenario,
  SEAL,
  sealedShareOf,
  sealProof,
  setup,
} from '../contracts/helpers.ts';
import { proofFor } from '../contracts/mock-play.ts';
import {
  captureLogs,
  HTTP,
  openSession,
  sessionReveal,
  signedReceipt,
  signedReveal,
  tempDir,
  testStateCommit,
} from './fixture.ts';

/** Hardhat account #1 (`env.dealer` in the contract helpers): the dealer's transaction key on the local chain only. */
const TX_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
/** Hardhat account #2: seat 0. */
const SEAT0_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const CHAIN_ID = 31337n;
const RULESET = 'tiny';
// The packed word (seat, step, opponent mask; zone mask + forced lanes), gameId, newCommit, mapRoot (the game's root,
// which the spawn binds into its play commitment).
const SPAWN_SIGNALS = 4;
const TURN_SIGNALS = 3; // the packed word, oldCommit, newCommit (no gameId nor root: the commitment binds both)
const STAKE = 1000n;
const DEPOSIT = 100n;

const tmp = tempDir();
const DB = join(tmp.dir, 'dealer.sqlite');
const AT_REST_KEY = randomBytes(32);
let env: Env;
let G: Contract;
let chain: EthersChain;
let store: SqliteStore;
let watcher: ChainWatcher;
let maps: MapCache;
const head = new ChainHead();
const metrics = createMetrics();
const logs = captureLogs();
const log = pino({ level: 'debug' }, logs.stream);

const mine = async (n: number) => {
  for (let i = 0; i < n; i++) await env.ethers.provider.send('evm_mine', []);
};
const r = shippedRuleset(RULESET);
const board = r.board;

before(async () => {
  env = await setup([], { sealVerifier: 'mock' });
  G = env.game;
  assert.equal(new Wallet(TX_KEY).address, env.dealer.address, 'TX_KEY is the helpers’ dealer');
  // The shipped ruleset's real hash (the dealer maps it to `tiny`), with a binding mock spawn verifier.
  const reg = env.registry.connect(env.deployer) as Contract;
  await (
    await reg.getFunction('registerRuleset')(
      rulesetHash(r),
      0,
      board.width,
      board.height,
      2,
      4,
      false,
      r.maxRevealedTiles,
    )
  ).wait();
  const mock = await env.ethers.deployContract('MockVerifier', [], env.deployer);
  for (const [kind, n] of [
    [0, SPAWN_SIGNALS],
    [1, TURN_SIGNALS],
  ] as const) {
    await (
      await reg.getFunction('setVerifier')(rulesetHash(r), kind, await mock.getAddress(), '0x12345678', n)
    ).wait();
  }

  chain = new EthersChain({
    provider: env.ethers.provider,
    chainId: Number(CHAIN_ID),
    gameContract: await G.getAddress(),
    txKey: TX_KEY,
    confirmations: 2,
    reorgDepth: 4,
    logChunk: 7, // small on purpose: exercises the chunked log scan
  });
  store = new SqliteStore(DB, secretBox(AT_REST_KEY));
  maps = new MapCache(env.h, store);
  watcher = new ChainWatcher(
    {
      h: env.h,
      chain,
      store,
      maps,
      sealSecretKey: SEAL.secretKey,
      log,
      onDisputeAnswered: () => metrics.disputesAnswered.inc(),
      onZoneChallengeAnswered: () => metrics.zoneChallengesAnswered.inc(),
    },
    { pollMs: 1000, startBlock: 0, sealPublicKey: SEAL.publicKey, head },
  );
});
after(async () => {
  await store.close();
  tmp.cleanup();
});

/** A game of the shipped ruleset dealt by this dealer (sealed to SEAL), with a stake and a dispute deposit. */
const newGame = () =>
  createGame(env, {
    rulesetHash: rulesetHash(r),
    width: board.width,
    height: board.height,
    stake: STAKE,
    disputeDeposit: DEPOSIT,
    maxTurns: 40,
  });

/**
 * A provider that counts the calls made through it per method (`getLogs` is eth_getLogs, `call` eth_call),
 * with the arguments of each `getLogs`. Its `provider` is itself, so a Contract or Wallet on it goes through it.
 */
function countingProvider(inner: Provider) {
  const calls = new Map<string, number>();
  const logQueries: { fromBlock?: unknown; toBlock?: unknown }[] = [];
  const proxy: Provider = new Proxy(inner, {
    get(target, key) {
      if (key === 'provider') return proxy;
      const v = Reflect.get(target, key, target);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.set(String(key), (calls.get(String(key)) ?? 0) + 1);
        if (key === 'getLogs') logQueries.push(args[0] as { fromBlock?: unknown });
        return v.apply(target, args);
      };
    },
  });
  return { provider: proxy, count: (m: string) => calls.get(m) ?? 0, logQueries };
}

/**
 * The next move of game `t` on the mock verifiers: the seat to move spawns (if it has not) or plays a turn,
 * storing the play commitment Poseidon(S, `revealCommit`, root) with S = `testStateCommit` of the game, seat and
 * turn (what the fixture's requests send by default) and root the game's on-chain map root (the dealer's). Returns
 * the seat, the on-chain turn number and the commitment.
 */
async function move(
  t: Scenario,
  revealCommit: bigint,
): Promise<{ seat: number; turn: number; commitment: bigint }> {
  const g = await G.getFunction('getGame')(t.id);
  const seat = Number(g.toMove);
  const turn = Number(g.turn);
  const player = t.players[seat]!;
  const me = await G.getFunction('getSeat')(t.id, seat);
  const them = await G.getFunction('getSeat')(t.id, 1 - seat);
  const newCommit = playCommitment(
    env.h,
    testStateCommit(t.id, player.address, turn),
    revealCommit,
    BigInt(g.root),
  );
  const report = packReport(r, 5n, []);
  const packed = packPlay(r, seat, BigInt(me.spawned ? turn : seat), [BigInt(them.zoneMask)], report);
  if (!me.spawned) {
    const sig = [...packed, t.id, newCommit, BigInt(g.root)];
    await (await as(env, player).getFunction('spawn')(t.id, proofFor(sig), report, newCommit)).wait();
  } else {
    const sig = [...packed, BigInt(me.playCommitment), newCommit];
    await (await as(env, player).getFunction('playTurn')(t.id, proofFor(sig), report, newCommit)).wait();
  }
  return { seat, turn, commitment: newCommit };
}

describe('EthersChain against ShroudGame (Hardhat in-process)', () => {
  let s: Scenario;
  const leaves = [
    { col: 0, row: 0 },
    { col: 3, row: 2 },
    { col: 15, row: 11 },
  ].map((c) => leafIndex(board, c));
  const blinding = 0xb11d1e5n;

  it('finds its game only once confirmed, maps the ruleset, seats and seal key, then deals and posts the root on-chain', async () => {
    s = await newGame();
    await watcher.tick();
    assert.equal(await store.getGame(s.id), null, 'not tracked before 2 confirmations');
    await mine(2);
    await watcher.tick();
    const tracked = await store.getGame(s.id);
    assert.ok(tracked, 'tracked once confirmed');
    assert.equal(tracked.ruleset, RULESET);
    assert.deepEqual(
      tracked.players,
      s.players.map((p) => p.address.toLowerCase()),
    );
    assert.equal(tracked.contract, await G.getAddress());
    const info = await chain.game(s.id);
    assert.deepEqual(info?.sealKey, SEAL.publicKey);
    assert.equal(info?.dealer, env.dealer.address.toLowerCase());
    assert.equal(chain.dealer, env.dealer.address.toLowerCase());
    assert.equal(await chain.phase(s.id), 'commit');
    assert.equal(await chain.game(12345n), null, 'unknown game');
    assert.equal(await chain.chainId(), CHAIN_ID);

    await commitAll(env, s);
    await revealAll(env, s);
    assert.equal(await chain.phase(s.id), 'dealing');
    const seats = await chain.seatShares(s.id);
    assert.deepEqual(
      seats.map((x) => x.sealed),
      s.players.map((_, i) => sealedShareOf(env, s, i).sealed),
      '(E, c) found in the SealedReveal events',
    );

    await watcher.tick();
    const game = await store.getGame(s.id);
    assert.equal(game?.status, 'dealt', JSON.stringify(logs.lines.slice(-3)));
    const onChain = await G.getFunction('getGame')(s.id);
    assert.equal(onChain.root, game!.root);
    assert.equal(await chain.phase(s.id), 'playing');
    assert.match(game!.rootTx ?? '', /^0x[0-9a-f]{64}$/);
    assert.deepEqual((await store.getSecrets(s.id))?.shares, s.shares);
    assert.equal((await store.getSecrets(s.id))?.seed, env.h.hash(s.shares));
    // Retrying the write is safe: the chain already has this root.
    assert.deepEqual(
      await chain.postRoot(s.id, { root: game!.root!, masterCommitment: game!.masterCommitment! }, []),
      { hash: 'already-posted' },
    );
  });

  it('posts its root again when a re-org dropped it (the game back in Deal), before the root deadline', async () => {
    const provider = env.ethers.provider;
    const t = await newGame();
    await mine(2);
    await watcher.tick();
    await commitAll(env, t);
    await revealAll(env, t);
    const beforeRoot = await provider.send('evm_snapshot', []);
    await watcher.tick();
    const posted = (await store.getGame(t.id))!;
    assert.equal(posted.status, 'dealt');
    assert.equal(await provider.send('evm_revert', [beforeRoot]), true);
    assert.equal(await chain.phase(t.id), 'dealing', 'the root was dropped');
    await watcher.tick();
    assert.equal(await chain.phase(t.id), 'playing', 'posted again');
    assert.equal((await G.getFunction('getGame')(t.id)).root, posted.root, 'the same root');
    assert.equal((await store.getGame(t.id))?.status, 'dealt');
  });

  it('serves a reveal once a spawn stored a confirmed play commitment, with paths verifying against the on-chain root', async () => {
    const rc = revealCommitment(env.h, leaves, r.maxRevealedTiles, blinding);
    const p0 = s.players[0]!;
    const root = BigInt((await G.getFunction('getGame')(s.id)).root);
    const c = playCommitment(env.h, testStateCommit(s.id, p0.address, 0), rc, root);
    const report = packReport(r, 5n, []);
    const sig = [...packPlay(r, 0, 0n, [0n], report), s.id, c, root];
    await (await as(env, p0).getFunction('spawn')(s.id, proofFor(sig), report, c)).wait();
    assert.equal(await chain.playCommitment(s.id, p0.address, 0), null, 'not trusted before confirmations');
    await mine(2);
    assert.equal(await chain.playCommitment(s.id, p0.address, 0), c);
    assert.equal(await chain.playCommitment(s.id, s.players[1]!.address, 0), null);
    const logged = await chain.turnsSubmitted(0, await chain.headBlock());
    assert.deepEqual(
      logged.filter((t) => t.gameId === s.id).map((t) => [t.player, t.turn, t.commitment]),
      [[p0.address.toLowerCase(), 0, c]],
      'TurnSubmitted carries the play commitment',
    );

    const app = await buildApp({
      h: env.h,
      chain,
      store,
      maps,
      metrics,
      chainId: CHAIN_ID,
      logger: log,
      http: HTTP,
      head,
    });
    try {
      const wallet = new Wallet(SEAT0_KEY);
      assert.equal(wallet.address, p0.address, 'Hardhat account #2 is seat 0');
      const post = (b: unknown) =>
        app.inject({
          method: 'POST',
          url: `/v1/games/${s.id}/reveals`,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(b),
        });
      const body = await signedReveal(wallet, {
        gameId: s.id,
        turn: 0,
        leaves,
        blinding,
        contract: await G.getAddress(),
      });
      const res = await post(body);
      assert.equal(res.statusCode, 200, res.body);
      const j = res.json() as { root: string; tiles: RevealEntry[] };
      const root = BigInt((await G.getFunction('getGame')(s.id)).root);
      assert.equal(BigInt(j.root), root);
      verifyRevealedTiles(env.h, board, root, leaves, j.tiles);
      const wrong = await signedReveal(wallet, {
        gameId: s.id,
        turn: 0,
        leaves,
        blinding: blinding + 1n,
        contract: await G.getAddress(),
      });
      const bad = await post(wrong);
      assert.equal(bad.statusCode, 403, bad.body);
      // The right leaves and blinding with another state commitment (seat 1's): refused too.
      const otherState = await signedReveal(wallet, {
        gameId: s.id,
        turn: 0,
        leaves,
        blinding,
        stateCommit: testStateCommit(s.id, s.players[1]!.address, 0),
        contract: await G.getAddress(),
      });
      const bad2 = await post(otherState);
      assert.equal(bad2.statusCode, 403, bad2.body);
      assert.equal(bad2.json().error, 'opening-mismatch');
    } finally {
      await app.close();
    }
  });

  it('P7: answers a reveal dispute opened on the real contract; the answer verifies against the root', async () => {
    const p0 = s.players[0]!;
    const opened = await (
      await as(env, p0).getFunction('openDispute')(
        s.id,
        leaves,
        blinding,
        testStateCommit(s.id, p0.address, 0),
        {
          value: DEPOSIT,
        },
      )
    ).wait();
    assert.equal(await phaseOf(env, s.id), Phase.Dispute);
    assert.equal(await chain.phase(s.id), 'dispute');
    const d = await chain.dispute(s.id);
    assert.deepEqual(d && { ...d, deadline: 0 }, {
      seat: 0,
      player: p0.address.toLowerCase(),
      turn: 0,
      answered: false,
      receipted: false,
      leaves,
      deadline: 0,
    });
    const stored = await G.getFunction('getDispute')(s.id);
    assert.equal(stored.leavesHash, leavesHash(leaves), 'leaves hash as the contract computes it');
    assert.ok(d!.deadline > 0);
    assert.ok(opened.blockNumber > 0);

    // The very next tick answers (no confirmations wait: the dispute is urgent).
    await watcher.tick();
    const answered = await G.queryFilter(G.filters.DisputeAnswered!(s.id));
    assert.equal(answered.length, 1);
    const answer = [...(G.interface.parseLog(answered[0]!)!.args.answer as bigint[])];
    const root = BigInt((await G.getFunction('getGame')(s.id)).root);
    const tiles = verifyRevealedTiles(env.h, board, root, leaves, decodeDisputeAnswer(answer, leaves, board));
    assert.deepEqual(
      tiles.map((t) => t.leaf),
      leaves,
    );
    assert.equal((await G.getFunction('getDispute')(s.id)).answered, true);
    assert.equal((await chain.dispute(s.id))?.answered, true);
    // Served, but the player sent no receipt: answered with 0x, so the deposit goes back to the disputer.
    assert.equal((await G.getFunction('getDispute')(s.id)).receipted, false);
    assert.equal((await chain.dispute(s.id))?.receipted, false);
    assert.equal((await metrics.disputesAnswered.get()).values[0]?.value, 1);
    // Nothing sent twice: later ticks in the challenge window, or a direct retry, send nothing.
    await watcher.tick();
    assert.equal(await chain.answerDispute(s.id, answer, '0x'), null);
    assert.equal((await G.queryFilter(G.filters.DisputeAnswered!(s.id))).length, 1);
    // The disputer accepts: play resumes; the dispute is gone.
    await (await as(env, p0).getFunction('acceptDisputeAnswer')(s.id)).wait();
    assert.equal(await chain.phase(s.id), 'playing');
    assert.equal(await chain.dispute(s.id), null);
    assert.equal(await chain.answerDispute(s.id, answer, '0x'), null, 'no dispute: nothing sent');
  });

  it('publishes master_secret and every r_i once the game ended, exactly once', async () => {
    await (await as(env, s.players[1]!).getFunction('forfeit')(s.id)).wait();
    assert.equal(await chain.phase(s.id), 'ended');
    assert.equal(await chain.secretsPublished(s.id), false);
    const provider = env.ethers.provider;
    const beforePublish = await provider.send('evm_snapshot', []);
    await watcher.tick();
    assert.equal(await chain.secretsPublished(s.id), true, 'sent');
    assert.equal(await chain.secretsPublished(s.id, true), false, 'not yet confirmed');
    assert.equal(
      (await store.getGame(s.id))?.status,
      'dealt',
      'not counted as published before 2 confirmations',
    );
    // A re-org drops the publish (only the dealer may publish: nobody else would send it again).
    assert.equal(await provider.send('evm_revert', [beforePublish]), true);
    assert.equal(await chain.secretsPublished(s.id), false, 'dropped');
    await watcher.tick();
    assert.equal(await chain.secretsPublished(s.id), true, 'sent again');
    await provider.send('hardhat_mine', ['0x2']);
    await watcher.tick();
    assert.equal((await store.getGame(s.id))?.status, 'published');
    assert.equal(await chain.secretsPublished(s.id, true), true);
    const onChain = await G.getFunction('getGame')(s.id);
    assert.equal(onChain.seed, env.h.hash(s.shares));
    assert.deepEqual(await chain.publishSecrets(s.id, 1n, s.shares), { hash: 'already-published' });
    const secret = (await store.getSecrets(s.id))!.masterSecret.toString();
    assert.ok(!logs.lines.some((l) => l.includes(secret)), 'master secret never logged');
  });

  it('P3: posts its tree’s zone roots with the root, and answers an audit zone challenge with its own leaves (the challenger loses its deposit)', async () => {
    const secrets = (await store.getSecrets(s.id))!;
    const map = commitMap(
      env.h,
      board,
      generateMap(env.h, board, env.h.hash(s.shares)),
      secrets.masterSecret,
    );
    const zones = zoneRoots(map, board);
    const audit = await G.getFunction('getAudit')(s.id);
    assert.equal(
      audit.zoneRootsHash,
      keccak256(
        solidityPacked(
          zones.map(() => 'uint256'),
          zones,
        ),
      ),
    );
    // A wrong challenge: zone 1's leaves with one changed (someone who miscomputed, or a griefer).
    const lie = zoneLeaves(map, 1);
    lie[5] = lie[5]! + 1n;
    const deposit = (await G.getFunction('getGameConfig')(s.id)).disputeDeposit as bigint;
    await (
      await as(env, s.players[0]!).getFunction('challengeZone')(s.id, zones, 1, lie, { value: deposit })
    ).wait();
    const posted = (await chain.zoneChallenges(0)).challenges.filter((c) => c.gameId === s.id);
    assert.deepEqual(
      posted.map((c) => [c.seat, c.zone, c.leaves]),
      [[0, 1, lie]],
      'the one scan carries the leaves',
    );
    // The answer lands, then a re-org drops it; the challenge is older than the re-org window of the log scan,
    // so only the watch kept until the answer is confirmed gets it answered again.
    const provider = env.ethers.provider;
    await provider.send('hardhat_mine', ['0x6']);
    const beforeAnswer = await provider.send('evm_snapshot', []);
    await watcher.tick();
    assert.equal((await G.getFunction('getZoneChallenge')(s.id, 0)).open, false, 'answered');
    assert.equal(await chain.zoneChallengeClosed(s.id, 0), false, 'not yet confirmed');
    assert.equal(await provider.send('evm_revert', [beforeAnswer]), true);
    assert.equal((await G.getFunction('getZoneChallenge')(s.id, 0)).open, true, 'the answer was dropped');
    await watcher.tick();
    assert.equal((await G.getFunction('getZoneChallenge')(s.id, 0)).open, false, 'answered again');
    await provider.send('hardhat_mine', ['0x2']);
    assert.equal(await chain.zoneChallengeClosed(s.id, 0), true);
    await watcher.tick();
    const decided = await G.queryFilter(G.filters.ZoneChallengeDecided!(s.id));
    assert.equal(decided.length, 1);
    const args = G.interface.parseLog(decided[0]!)!.args;
    assert.equal(args.leafIndex, 64n + 5n, 'judged at the first differing leaf');
    assert.equal(args.dealerStands, true);
    // Held for the dealer in the seat's escrow (paid with the bond at settlement: the next test).
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).escrow, deposit);
    assert.equal(
      (await metrics.zoneChallengesAnswered.get()).values[0]?.value,
      2,
      'sent twice (one re-orged)',
    );
    assert.equal((await G.getFunction('getZoneChallenge')(s.id, 0)).open, false);
    assert.equal(
      await chain.answerZoneChallenge(s.id, 0, lie, zoneLeaves(map, 1)),
      null,
      'answered: nothing sent',
    );
  });

  it('settles the game once its audit window closed (not before) and withdraws the bond and deposits to its wallet', async () => {
    await watcher.tick();
    assert.equal((await store.getGame(s.id))?.status, 'published', 'the audit window is open');
    assert.equal(await chain.close(s.id, 'settle'), null, 'nothing sent before the deadline');
    await increaseTime(env, DURATIONS.auditSeconds + 1);
    const provider = env.ethers.provider;
    const before = await provider.getBalance(env.dealer.address);
    const beforeSettle = await provider.send('evm_snapshot', []);
    await watcher.tick();
    assert.equal(await phaseOf(env, s.id), Phase.Settled, 'sent');
    assert.equal((await store.getGame(s.id))?.status, 'published', 'not recorded before 2 confirmations');
    // A re-org drops the settle (and the withdrawal after it): the next tick sends it again.
    assert.equal(await provider.send('evm_revert', [beforeSettle]), true);
    assert.equal(await phaseOf(env, s.id), Phase.Audit, 'dropped');
    await watcher.tick();
    assert.equal(await phaseOf(env, s.id), Phase.Settled, 'sent again');
    await provider.send('hardhat_mine', ['0x2']);
    await watcher.tick();
    assert.equal((await store.getGame(s.id))?.status, 'settled');
    assert.equal(await chain.credit(), 0n, 'withdrawn');
    const gained = (await env.ethers.provider.getBalance(env.dealer.address)) - before;
    assert.ok(gained > BOND - 10n ** 16n, `the bond came back (less gas): ${gained}`);
    assert.equal(await chain.close(s.id, 'settle'), null, 'settled: nothing more to send');
    assert.equal(await chain.withdraw(), null, 'no credit: no transaction');
  });

  it('cancels its game whose ceremony a player missed once the commit deadline passed, and withdraws the bond', async () => {
    const c = await newGame();
    await (
      await as(env, c.players[0]!).getFunction('commit')(c.id, c.commitments[0], { value: STAKE })
    ).wait();
    await mine(2);
    await watcher.tick();
    assert.equal((await store.getGame(c.id))?.status, 'watching', 'tracked, the deadline ahead');
    assert.equal(await phaseOf(env, c.id), Phase.Commit);
    await increaseTime(env, DURATIONS.commitSeconds + 1);
    const before = await env.ethers.provider.getBalance(env.dealer.address);
    const creditBefore: bigint = await G.getFunction('credit')(c.players[0]!.address);
    await watcher.tick();
    assert.equal(await phaseOf(env, c.id), Phase.Cancelled);
    assert.equal(
      (await store.getGame(c.id))?.status,
      'watching',
      'recorded once 2 blocks confirm the cancel',
    );
    await mine(2);
    await watcher.tick();
    assert.equal((await store.getGame(c.id))?.status, 'cancelled');
    const gained = (await env.ethers.provider.getBalance(env.dealer.address)) - before;
    assert.ok(gained > BOND - 10n ** 16n, `the bond came back (less gas): ${gained}`);
    // The seat that committed is not at fault: its stake is its credit, for its own withdrawal.
    assert.equal((await G.getFunction('credit')(c.players[0]!.address)) - creditBefore, STAKE);
  });

  it('skips a game of this dealer sealed to another seal key', async () => {
    const other = sealPublicKey(generateSealKey().secretKey);
    const params = gameParams(
      env,
      env.players.slice(0, 2).map((p) => p.address),
      {
        sealKey: [other[0], other[1]],
        rulesetHash: rulesetHash(r),
        board: { kind: 0, width: board.width, height: board.height, maxTurns: 10 },
      },
    );
    await (await as(env, env.dealer).getFunction('createGame')(params, { value: 10n ** 18n })).wait();
    const id = await lastGameId(env);
    await mine(2);
    await watcher.tick();
    assert.equal(await store.getGame(id), null);
    assert.deepEqual((await chain.game(id))?.sealKey, other);
  });

  it('P1: a share that does not open (here copied from another game; the mock seal verifier let it in) gets no transaction and no cancel; the chain force-opens the game', async () => {
    const t = await newGame();
    await commitAll(env, t);
    // Seat 0 posts game s's seat-0 (E, c) with a "proof" for this game's signals (a real verifier would refuse).
    const copied = sealedShareOf(env, s, 0).sealed;
    const bound = [
      sealContext(env.h, t.id, SEAL.publicKey),
      BigInt(t.players[0]!.address),
      t.commitments[0]!,
      copied.ephemeralY,
      copied.ciphertext,
    ];
    await (
      await as(env, t.players[0]!).getFunction('sealedReveal')(
        t.id,
        copied.ephemeralY,
        copied.ciphertext,
        sealProof(bound),
      )
    ).wait();
    const honest = sealedShareOf(env, t, 1);
    await (
      await as(env, t.players[1]!).getFunction('sealedReveal')(
        t.id,
        honest.sealed.ephemeralY,
        honest.sealed.ciphertext,
        sealProof(honest.plan.publicSignals),
      )
    ).wait();
    await mine(2);
    const nonce = await env.ethers.provider.getTransactionCount(env.dealer.address);
    const from = logs.lines.length;
    await watcher.tick();
    await watcher.tick();
    assert.equal(await env.ethers.provider.getTransactionCount(env.dealer.address), nonce, 'no transaction');
    assert.equal(await phaseOf(env, t.id), Phase.Deal, 'not cancelled');
    const rec = await store.getGame(t.id);
    assert.equal(rec?.status, 'watching');
    assert.equal(rec?.fault, 'share-not-opened:0');
    const lines = logs.lines.slice(from).map((l) => JSON.parse(l) as { level: number; gameId?: string });
    const loud = lines.filter((l) => l.level >= 40 && l.gameId === t.id.toString());
    assert.equal(loud.length, 1);
    assert.equal(loud[0]!.level, 50);
    const all = logs.lines.join('\n');
    const S = pointsWithY(copied.ephemeralY).flatMap((E) => mulPoint(E, SEAL.secretKey));
    for (const v of [...S, SEAL.secretKey])
      assert.ok(!all.includes(v.toString()) && !all.includes(v.toString(16)));
    // The root deadline passes: anyone force-opens; the dealer records it and stops.
    await increaseTime(env, DURATIONS.rootSeconds + 1);
    await (await as(env, env.other).getFunction('startForceOpen')(t.id)).wait();
    await mine(2);
    await watcher.tick();
    assert.equal((await store.getGame(t.id))?.status, 'forced-open');
    assert.equal(await env.ethers.provider.getTransactionCount(env.dealer.address), nonce);
  });

  /** Game u: both seats spawn and play; every move's opening by turn (the leaves and blinding behind it). */
  let u: Scenario;
  const moves = new Map<
    number,
    { seat: number; leaves: number[]; blinding: bigint; revealCommit: bigint; commitment: bigint }
  >();
  const wallet0 = new Wallet(SEAT0_KEY);
  const post = (app: Awaited<ReturnType<typeof buildApp>>, url: string, body: unknown) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('indexes every TurnSubmitted as the watcher scans: 1,000 requests for old turns cost zero eth_getLogs (and no eth_call)', async () => {
    u = await newGame();
    await mine(2);
    await watcher.tick();
    const tracked = await store.getGame(u.id);
    assert.ok(tracked?.createdBlock && tracked.createdBlock > 0, 'creation block stored with the game');
    await commitAll(env, u);
    await revealAll(env, u);
    await watcher.tick();
    assert.equal((await store.getGame(u.id))?.status, 'dealt');
    // Turns 0–11: seat 0 spawns at 0 and plays the even turns, seat 1 the odd ones.
    for (let k = 0; k < 12; k++) {
      const ls = [leafIndex(board, { col: k % board.width, row: (3 * k) % board.height })];
      const blinding = 7000n + BigInt(k);
      const revealCommit = revealCommitment(env.h, ls, r.maxRevealedTiles, blinding);
      const { seat, turn, commitment } = await move(u, revealCommit);
      assert.equal(turn, k);
      assert.equal(seat, k % 2);
      moves.set(turn, { seat, leaves: ls, blinding, revealCommit, commitment });
    }
    await mine(2);
    await watcher.tick();
    assert.equal(await store.getTurnCursor(), await chain.headBlock());
    const p0 = u.players[0]!.address.toLowerCase();
    for (const [turn, m] of moves) {
      const player = u.players[m.seat]!.address.toLowerCase();
      assert.equal((await store.indexedTurn(u.id, player, turn)).commitment, m.commitment, `turn ${turn}`);
    }
    assert.deepEqual(await store.indexedTurn(u.id, p0, 3), { commitment: null, laterTurnIndexed: true });

    // A view over a provider that counts every call; the dealer's own store and index.
    const counted = countingProvider(env.ethers.provider);
    const view = new EthersChain({
      provider: counted.provider,
      chainId: Number(CHAIN_ID),
      gameContract: await G.getAddress(),
      txKey: TX_KEY,
      confirmations: 2,
      logChunk: 7,
    });
    const app = await buildApp({
      h: env.h,
      chain: view,
      store,
      maps,
      metrics,
      chainId: CHAIN_ID,
      logger: log,
      http: HTTP,
      head,
    });
    try {
      const contract = await G.getAddress();
      const session = await openSession(app, wallet0, { gameId: u.id, contract });
      assert.equal(session.res.statusCode, 200, session.res.body);
      const seen = new Map<string, number>();
      for (let i = 0; i < 1000; i++) {
        const turn = i % 10; // below seat 0's latest turn (10): its own turns are served, seat 1's never existed for it
        const m = moves.get(turn)!;
        const res = await post(
          app,
          `/v1/games/${u.id}/session-reveals`,
          sessionReveal(session, { gameId: u.id, turn, leaves: m.leaves, blinding: m.blinding }),
        );
        const k = `${res.statusCode} ${res.statusCode === 200 ? 'ok' : res.json().error}`;
        seen.set(k, (seen.get(k) ?? 0) + 1);
      }
      assert.deepEqual(Object.fromEntries(seen), { '200 ok': 500, '404 unknown-turn': 500 });
      assert.equal(counted.count('getLogs'), 0, 'no eth_getLogs');
      assert.equal(counted.count('call'), 0, 'no eth_call either: old turns are answered from the index');
      // The tiles served for an old turn verify against the on-chain root.
      const m = moves.get(4)!;
      const res = await post(
        app,
        `/v1/games/${u.id}/reveals`,
        await signedReveal(wallet0, {
          gameId: u.id,
          turn: 4,
          leaves: m.leaves,
          blinding: m.blinding,
          contract,
        }),
      );
      assert.equal(res.statusCode, 200, res.body);
      const root = BigInt((await G.getFunction('getGame')(u.id)).root);
      verifyRevealedTiles(env.h, board, root, m.leaves, (res.json() as { tiles: RevealEntry[] }).tiles);
      assert.equal(counted.count('getLogs'), 0);
      // The view itself never scans logs for a past turn: it says where it is.
      assert.equal(await view.playCommitment(u.id, wallet0.address, 4), 'in-logs');
      assert.equal(await view.playCommitment(u.id, wallet0.address, 10), moves.get(10)!.commitment);
      assert.equal(await view.playCommitment(u.id, wallet0.address, 12), null);
      assert.equal(counted.count('getLogs'), 0);
      assert.equal(counted.count('call'), 3, 'the counter sees the calls made through it');
    } finally {
      await app.close();
    }
  });

  it('a restarted dealer (new process state, same DB) answers old turns from its store without rescanning from the deployment block', async () => {
    await mine(3);
    const gamesCursor = (await store.getCursor())!;
    const turnCursor = (await store.getTurnCursor())!;
    const counted = countingProvider(env.ethers.provider);
    const chain2 = new EthersChain({
      provider: counted.provider,
      chainId: Number(CHAIN_ID),
      gameContract: await G.getAddress(),
      txKey: TX_KEY,
      confirmations: 2,
      reorgDepth: 4,
      logChunk: 7,
    });
    const store2 = new SqliteStore(DB, secretBox(AT_REST_KEY));
    const maps2 = new MapCache(env.h, store2);
    const head2 = new ChainHead();
    const watcher2 = new ChainWatcher(
      { h: env.h, chain: chain2, store: store2, maps: maps2, sealSecretKey: SEAL.secretKey, log },
      { pollMs: 1000, startBlock: 0, sealPublicKey: SEAL.publicKey, head: head2 },
    );
    const app = await buildApp({
      h: env.h,
      chain: chain2,
      store: store2,
      maps: maps2,
      metrics,
      chainId: CHAIN_ID,
      logger: log,
      http: HTTP,
      head: head2,
    });
    try {
      await watcher2.tick();
      const from = Math.min(gamesCursor, turnCursor) + 1 - 4;
      assert.ok(
        counted.logQueries.length > 0 && counted.logQueries.length <= 4,
        `${counted.logQueries.length} scans`,
      );
      for (const q of counted.logQueries) {
        assert.ok(
          Number(q.fromBlock) >= from,
          `a scan from block ${q.fromBlock}: not from the deployment block`,
        );
      }
      assert.equal(await store2.getTurnCursor(), await chain2.headBlock());
      const logs = counted.count('getLogs');
      const calls = counted.count('call');
      const contract = await G.getAddress();
      for (const turn of [0, 2, 4, 6, 8]) {
        const m = moves.get(turn)!;
        const res = await post(
          app,
          `/v1/games/${u.id}/reveals`,
          await signedReveal(wallet0, {
            gameId: u.id,
            turn,
            leaves: m.leaves,
            blinding: m.blinding,
            contract,
          }),
        );
        assert.equal(res.statusCode, 200, res.body);
      }
      assert.equal(counted.count('getLogs'), logs, 'no eth_getLogs');
      assert.equal(counted.count('call'), calls, 'no eth_call');
    } finally {
      await app.close();
      await store2.close();
    }
  });

  it('P7 with receipts: a served and receipted turn is answered with the receipt (getDispute.receipted), one without with 0x', async () => {
    const contract = await G.getAddress();
    const app = await buildApp({
      h: env.h,
      chain,
      store,
      maps,
      metrics,
      chainId: CHAIN_ID,
      logger: log,
      http: HTTP,
      head,
    });
    try {
      // Seat 0 is served its latest turn (10) and, having verified the tiles, hands over its receipt.
      const m = moves.get(10)!;
      const served = await post(
        app,
        `/v1/games/${u.id}/reveals`,
        await signedReveal(wallet0, {
          gameId: u.id,
          turn: 10,
          leaves: m.leaves,
          blinding: m.blinding,
          contract,
        }),
      );
      assert.equal(served.statusCode, 200, served.body);
      const receipt = await signedReceipt(wallet0, {
        gameId: u.id,
        turn: 10,
        revealCommit: m.revealCommit,
        contract,
      });
      const kept = await post(app, `/v1/games/${u.id}/receipts`, receipt);
      assert.equal(kept.statusCode, 200, kept.body);
      assert.equal(kept.json().stored, 'new');
      // The SDK's own signer gives the same receipt.
      assert.equal(
        await signRevealReceipt(u.players[0]!, revealDomain(CHAIN_ID, contract), {
          gameId: u.id,
          turn: 10,
          revealCommit: m.revealCommit,
        }),
        receipt.signature,
      );
    } finally {
      await app.close();
    }
    /** `player` disputes its `turn` with the opening the test played (the state commitment of that turn). */
    const openDispute = async (player: (typeof u.players)[number], turn: number) => {
      const m = moves.get(turn)!;
      const stateCommit = testStateCommit(u.id, player.address, turn);
      const call = as(env, player).getFunction('openDispute');
      await (await call(u.id, m.leaves, m.blinding, stateCommit, { value: DEPOSIT })).wait();
    };
    // Seat 0 disputes it anyway (a false dispute): the answer carries the receipt.
    const p0 = u.players[0]!;
    const m10 = moves.get(10)!;
    await openDispute(p0, 10);
    await watcher.tick();
    const d0 = await G.getFunction('getDispute')(u.id);
    assert.equal(d0.revealCommit, m10.revealCommit, 'the dispute keeps R, which the receipt signs');
    assert.equal(d0.answered, true);
    assert.equal(d0.receipted, true, 'the contract accepted the receipt: the deposit is the dealer’s');
    assert.equal((await chain.dispute(u.id))?.receipted, true);
    const answered = await G.queryFilter(G.filters.DisputeAnswered!(u.id));
    const answer = [...(G.interface.parseLog(answered.at(-1)!)!.args.answer as bigint[])];
    const root = BigInt((await G.getFunction('getGame')(u.id)).root);
    verifyRevealedTiles(env.h, board, root, m10.leaves, decodeDisputeAnswer(answer, m10.leaves, board));
    await (await as(env, p0).getFunction('acceptDisputeAnswer')(u.id)).wait();
    assert.equal(await chain.phase(u.id), 'playing');

    // Seat 1 disputes its latest turn (11), for which the dealer holds no receipt: answered with 0x.
    const p1 = u.players[1]!;
    await openDispute(p1, 11);
    await watcher.tick();
    const d1 = await G.getFunction('getDispute')(u.id);
    assert.equal(d1.answered, true);
    assert.equal(d1.receipted, false, 'no receipt: the deposit goes back to the disputer');
    await (await as(env, p1).getFunction('acceptDisputeAnswer')(u.id)).wait();
    const lines = logs.lines
      .filter((l) => l.includes('reveal dispute answered') && l.includes(u.id.toString()))
      .map((l) => JSON.parse(l) as { receipted: boolean; turn: number });
    assert.deepEqual(
      lines.map((l) => [l.turn, l.receipted]),
      [
        [10, true],
        [11, false],
      ],
    );
  });

  it('write failures carry no calldata (the master secret must never reach a log)', async () => {
    const secret = 123456789012345678901234567890n;
    await assert.rejects(
      chain.publishSecrets(s.id + 1n, secret, [1n, 2n]),
      (e: Error) =>
        e.name === 'ChainWriteError' &&
        !e.message.includes(secret.toString(16)) &&
        !e.message.includes(secret.toString()),
    );
  });
});
