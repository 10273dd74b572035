/**
 * The ethers ChainView against the real ShroudGame on Hardhat's in-process chain: the real dealer
 * (watcher + dealing over EthersChain) finds its game, opens the sealed shares from events, posts the
 * root, serves a reveal once a spawn stored a revealCommit, files bad-share evidence, and publishes the
 * secrets at the end. Spawn "proofs" go through the repository's binding MockVerifier.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HardhatEthers, HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/types';
import { type Contract, concat, getBytes, Interface, keccak256, toBeHex, Wallet } from 'ethers';
import { network } from 'hardhat';
import { pino } from 'pino';
import { deployShroud } from '../../contracts/deployer.ts';
import {
  type Hasher,
  leafHash,
  leafIndex,
  loadHasher,
  packContext,
  revealCommitment,
  shareCommitment,
  shippedRuleset,
  verifyPath,
} from '../../core/index.ts';
import { rulesetHash } from '../../core/ruleset/hash.ts';
import {
  addressToField,
  generateDealerEncKey,
  sealShare,
  verifyBadShareEvidence,
} from '../../core/sealed.ts';
import { buildApp } from '../../dealer/app.ts';
import { SHROUD_GAME_ABI } from '../../dealer/chain/abi.ts';
import { EthersChain } from '../../dealer/chain/ethers.ts';
import { decodeEvidence } from '../../dealer/chain/evidence.ts';
import type { RevealEntry } from '../../dealer/maps.ts';
import { MapCache } from '../../dealer/maps.ts';
import { createMetrics } from '../../dealer/metrics.ts';
import { randomFieldElement } from '../../dealer/random.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import { ChainWatcher } from '../../dealer/watcher.ts';
import { captureLogs, HTTP, signedReveal, tempDir } from './fixture.ts';

/** Hardhat account #1: the dealer's transaction key on the local chain only. */
const TX_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const CHAIN_ID = 31337n;
const RULESET = 'tiny';
const DURATIONS = {
  commitSeconds: 600,
  revealSeconds: 600,
  rootSeconds: 1800,
  turnSeconds: 600,
  combatSeconds: 300,
  secretsSeconds: 3600,
  auditSeconds: 3600,
};
const SPAWN_SIGNALS = 5; // report (zone mask + forced lanes), gameId, context (player, seat, opponent mask), newCommit, revealCommit

const tmp = tempDir();
let ethers: HardhatEthers;
let h: Hasher;
let G: Contract;
let dealer: HardhatEthersSigner;
let players: HardhatEthersSigner[];
let chain: EthersChain;
let store: SqliteStore;
let watcher: ChainWatcher;
let maps: MapCache;
const enc = generateDealerEncKey();
const logs = captureLogs();
const log = pino({ level: 'debug' }, logs.stream);

const mine = async (n: number) => {
  for (let i = 0; i < n; i++) await ethers.provider.send('evm_mine', []);
};
const as = (s: HardhatEthersSigner) => G.connect(s) as Contract;
const proofFor = (sig: readonly bigint[]) => ({
  a: [BigInt(keccak256(concat(sig.map((x) => toBeHex(x, 32))))), 0n],
  b: [
    [0n, 0n],
    [0n, 0n],
  ],
  c: [0n, 0n],
});

before(async () => {
  ({ ethers } = await network.connect());
  h = await loadHasher();
  const signers = await ethers.getSigners();
  const deployer = signers[0]!;
  dealer = signers[1]!;
  players = [signers[2]!, signers[3]!];
  assert.equal(new Wallet(TX_KEY).address, dealer.address, 'TX_KEY is Hardhat account #1');
  const d = await deployShroud(ethers, deployer);
  G = d.game;
  // The shipped ruleset's real hash, registered with a binding mock verifier for spawns.
  const r = shippedRuleset(RULESET);
  const reg = d.registry.connect(deployer) as Contract;
  await (
    await reg.getFunction('registerRuleset')(rulesetHash(r), 0, r.board.width, r.board.height, 2, 4, false)
  ).wait();
  const mock = await ethers.deployContract('MockVerifier', [], deployer);
  await (
    await reg.getFunction('setVerifier')(
      rulesetHash(r),
      0,
      await mock.getAddress(),
      '0x12345678',
      SPAWN_SIGNALS,
    )
  ).wait();

  chain = new EthersChain({
    provider: ethers.provider,
    chainId: Number(CHAIN_ID),
    gameContract: await G.getAddress(),
    txKey: TX_KEY,
    confirmations: 2,
    reorgDepth: 4,
    logChunk: 7, // small on purpose: exercises the chunked log scan
  });
  store = new SqliteStore(join(tmp.dir, 'dealer.sqlite'), secretBox(randomBytes(32)));
  maps = new MapCache(h, store);
  watcher = new ChainWatcher(
    { h, chain, store, maps, encSecretKey: enc.secretKey, chainId: CHAIN_ID, log },
    { pollMs: 1000, startBlock: 0, encPublicKey: enc.publicKey },
  );
});
after(async () => {
  await store.close();
  tmp.cleanup();
});

async function createGame(): Promise<bigint> {
  const r = shippedRuleset(RULESET);
  const tx = await as(dealer).getFunction('createGame')(
    players.map((p) => p.address),
    dealer.address,
    enc.publicKey,
    rulesetHash(r),
    DURATIONS,
    { kind: 0, width: r.board.width, height: r.board.height, maxTurns: 10 },
    0,
    { value: 10n ** 18n },
  );
  const receipt = await tx.wait();
  const ev = receipt.logs
    .map((l: never) => G.interface.parseLog(l))
    .find((e: { name: string } | null) => e?.name === 'GameCreated');
  return BigInt(ev.args.gameId);
}

/** Commit and sealed reveal for both seats; `corrupt` seals a wrong share for that seat. */
async function ceremony(gameId: bigint, corrupt?: number): Promise<bigint[]> {
  const shares = players.map(() => randomFieldElement());
  for (const [i, p] of players.entries()) {
    await (
      await as(p).getFunction('commit')(
        gameId,
        shareCommitment(h, gameId, addressToField(p.address), shares[i]!),
      )
    ).wait();
  }
  for (const [i, p] of players.entries()) {
    const share = corrupt === i ? shares[i]! + 1n : shares[i]!;
    const ctx = { chainId: CHAIN_ID, gameId, player: addressToField(p.address) };
    await (await as(p).getFunction('sealedReveal')(gameId, sealShare(enc.publicKey, share, ctx))).wait();
  }
  return shares;
}

describe('EthersChain against ShroudGame (Hardhat in-process)', () => {
  let gameId: bigint;
  let shares: bigint[];

  it('every ABI fragment the dealer uses matches the compiled contract', () => {
    const art = JSON.parse(
      readFileSync(
        new URL('../../artifacts/contracts/ShroudGame.sol/ShroudGame.json', import.meta.url),
        'utf8',
      ),
    ) as { abi: never[] };
    const compiled = new Interface(art.abi);
    const ours = new Interface([...SHROUD_GAME_ABI]);
    ours.forEachFunction((f) => {
      const c = compiled.getFunction(f.selector);
      assert.ok(c, `${f.format('sighash')} is not in the contract`);
      assert.equal(c.format('full'), f.format('full'), `${f.name}: signature or outputs drifted`);
    });
    ours.forEachEvent((e) => {
      const c = compiled.getEvent(e.topicHash);
      assert.ok(c, `${e.format('sighash')} is not in the contract`);
    });
  });

  it('finds its game only once confirmed, maps the ruleset and seats, then deals and posts the root on-chain', async () => {
    gameId = await createGame();
    await watcher.tick();
    assert.equal(await store.getGame(gameId), null, 'not tracked before 2 confirmations');
    await mine(2);
    await watcher.tick();
    const tracked = await store.getGame(gameId);
    assert.ok(tracked, 'tracked once confirmed');
    assert.equal(tracked.ruleset, RULESET);
    assert.deepEqual(
      tracked.players,
      players.map((p) => p.address.toLowerCase()),
    );
    assert.equal(tracked.contract, await G.getAddress());
    const info = await chain.game(gameId);
    assert.deepEqual(info?.dealerEncKey, enc.publicKey);
    assert.equal(await chain.phase(gameId), 'commit');
    assert.equal(await chain.game(12345n), null, 'unknown game');
    assert.equal(await chain.chainId(), CHAIN_ID);

    shares = await ceremony(gameId);
    assert.equal(await chain.phase(gameId), 'dealing');
    const seats = await chain.seatShares(gameId);
    assert.equal(seats.length, 2);
    assert.ok(
      seats.every((s) => s.sealed !== null && s.sealed.length > 0),
      'ciphertexts found in events',
    );

    await watcher.tick();
    const game = await store.getGame(gameId);
    assert.equal(game?.status, 'dealt', JSON.stringify(logs.lines.slice(-3)));
    const onChain = await G.getFunction('getGame')(gameId);
    assert.equal(onChain.root, game!.root);
    assert.equal(await chain.phase(gameId), 'playing');
    assert.match(game!.rootTx ?? '', /^0x[0-9a-f]{64}$/);
    assert.equal((await store.getSecrets(gameId))?.seed, h.hash(shares));
    // Retrying the write is safe: the chain already has this root.
    assert.deepEqual(
      await chain.postRoot(gameId, { root: game!.root!, masterCommitment: game!.masterCommitment! }),
      { hash: 'already-posted' },
    );
  });

  it('serves a reveal once a spawn stored a confirmed revealCommit, with paths verifying against the on-chain root', async () => {
    const r = shippedRuleset(RULESET);
    const leaves = [
      { col: 0, row: 0 },
      { col: 3, row: 2 },
      { col: 15, row: 11 },
    ].map((c) => leafIndex(r.board, c));
    const blinding = randomFieldElement();
    const rc = revealCommitment(h, leaves, r.maxRevealedTiles, blinding);
    const p0 = players[0]!;
    const sig = [5n, gameId, ...packContext(r, BigInt(p0.address), 0n, [0n]), 777n, rc];
    await (await as(p0).getFunction('spawn')(gameId, proofFor(sig), [5n], 777n, rc)).wait();
    assert.equal(await chain.revealCommit(gameId, p0.address, 0), null, 'not trusted before confirmations');
    await mine(2);
    assert.equal(await chain.revealCommit(gameId, p0.address, 0), rc);
    assert.equal(await chain.revealCommit(gameId, players[1]!.address, 0), null);

    const app = await buildApp({
      h,
      chain,
      store,
      maps,
      metrics: createMetrics(),
      chainId: CHAIN_ID,
      logger: log,
      http: HTTP,
    });
    try {
      const wallet = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
      assert.equal(wallet.address, p0.address, 'Hardhat account #2 is seat 0');
      const body = await signedReveal(wallet, {
        gameId,
        turn: 0,
        leaves,
        blinding,
        contract: await G.getAddress(),
      });
      const res = await app.inject({
        method: 'POST',
        url: `/v1/games/${gameId}/reveals`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      assert.equal(res.statusCode, 200, res.body);
      const j = res.json() as { root: string; tiles: RevealEntry[] };
      const root = BigInt((await G.getFunction('getGame')(gameId)).root);
      assert.equal(BigInt(j.root), root);
      for (const t of j.tiles) {
        const leaf = leafHash(h, t as never, BigInt(t.salt));
        assert.ok(
          verifyPath(
            h,
            root,
            t.leaf,
            leaf,
            t.path.map((p) => BigInt(p)),
          ),
          `path of leaf ${t.leaf}`,
        );
      }
      const wrong = await signedReveal(wallet, {
        gameId,
        turn: 0,
        leaves,
        blinding: blinding + 1n,
        contract: await G.getAddress(),
      });
      const bad = await app.inject({
        method: 'POST',
        url: `/v1/games/${gameId}/reveals`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(wrong),
      });
      assert.equal(bad.statusCode, 403, bad.body);
    } finally {
      await app.close();
    }
  });

  it('publishes master_secret and every r_i once the game ended, exactly once', async () => {
    await (await as(players[1]!).getFunction('forfeit')(gameId)).wait();
    assert.equal(await chain.phase(gameId), 'ended');
    assert.equal(await chain.secretsPublished(gameId), false);
    await watcher.tick();
    assert.equal((await store.getGame(gameId))?.status, 'published');
    assert.equal(await chain.secretsPublished(gameId), true);
    const onChain = await G.getFunction('getGame')(gameId);
    assert.equal(onChain.seed, h.hash(shares));
    assert.deepEqual(await chain.publishSecrets(gameId, 1n, shares), { hash: 'already-published' });
    const secret = (await store.getSecrets(gameId))!.masterSecret.toString();
    assert.ok(!logs.lines.some((l) => l.includes(secret)), 'master secret never logged');
  });

  it('files DLEQ evidence on-chain for a bad sealed share; anyone can verify it from the event', async () => {
    const id = await createGame();
    await ceremony(id, 1);
    await mine(2);
    await watcher.tick();
    const game = await store.getGame(id);
    assert.equal(game?.status, 'cancelled');
    assert.equal(game?.fault, `bad-share:${players[1]!.address.toLowerCase()}`);
    assert.equal(await chain.phase(id), 'cancelled');
    const logsOnChain = await G.queryFilter(G.filters.BadCiphertext!(id));
    assert.equal(logsOnChain.length, 1);
    const ev = G.interface.parseLog(logsOnChain[0]!)!;
    assert.equal(ev.args.seat, 1n);
    const evidence = decodeEvidence(getBytes(ev.args.evidence));
    assert.equal(evidence.kind, 'shared-point');
    const sealed = (await chain.seatShares(id))[1]!.sealed!;
    const p1 = players[1]!.address;
    const ok = verifyBadShareEvidence(
      h,
      enc.publicKey,
      sealed,
      { chainId: CHAIN_ID, gameId: id, player: addressToField(p1) },
      (await chain.seatShares(id))[1]!.commitment,
      evidence,
    );
    assert.ok(ok, 'evidence verifies');
    // Retry after the fact: nothing is sent twice.
    assert.deepEqual(await chain.postBadShareEvidence(id, p1, evidence), { hash: 'already-cancelled' });
  });

  it('write failures carry no calldata (the master secret must never reach a log)', async () => {
    const secret = 123456789012345678901234567890n;
    await assert.rejects(
      chain.publishSecrets(gameId + 1n, secret, [1n, 2n]),
      (e: Error) =>
        e.name === 'ChainWriteError' &&
        !e.message.includes(secret.toString(16)) &&
        !e.message.includes(secret.toString()),
    );
  });
});
