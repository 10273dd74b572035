/**
 * The SDK's ArtifactStore against a real deployment (deployShroud registers the SHA-256 of every tiny
 * circuit's and the seal's zkey and wasm) and a real dealer serving contracts/generated: downloads checked
 * against the chain and cached, a second store served from the cache, a real proof from stored artifacts
 * verified on-chain, a tampered host refused, a corrupted cache replaced, unregistered verifiers refused, a
 * dead host skipped.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { FileArtifactCache, proverFromDealer } from '../../client/node/artifacts.ts';
import {
  type ArtifactChain,
  type ArtifactEvent,
  ArtifactStore,
  MemoryArtifactCache,
} from '../../client/sdk/artifacts.ts';
import { GameChain } from '../../client/sdk/chain.ts';
import {
  ArtifactMismatchError,
  ArtifactsNotRegisteredError,
  ArtifactUnavailableError,
} from '../../client/sdk/errors.ts';
import { StoreProver } from '../../client/sdk/prover.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { combatWitness, spawnSlots } from '../../core/witness/inputs.ts';
import { ArtifactCatalog } from '../../dealer/artifacts.ts';
import { exportArtifacts } from '../../scripts/artifacts-export.ts';
import { GENERATED_DIR, rulesetHash } from '../../scripts/contracts/rulesets.ts';
import { createGame, type Env, RULESET_HASH, setup } from '../contracts/helpers.ts';
import { type Dealer, startDealer, tempDir } from '../dealer/fixture.ts';

const sha = (b: Uint8Array) => `0x${createHash('sha256').update(b).digest('hex')}`;
const CIRCUITS = ['seal', 'spawn', 'turn', 'attack', 'combat', 'maproot'] as const;

/** A fetch that counts requests by URL (what the hosts were asked for). */
function countingFetch() {
  const urls: string[] = [];
  const f: typeof fetch = (input, init) => {
    urls.push(String(input));
    return fetch(input, init);
  };
  return { fetch: f, urls };
}

/** The smallest static host: files of `dir` by name, 404 otherwise. */
async function staticHost(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const f = path.join(dir, path.basename(req.url ?? ''));
    if (!existsSync(f)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(f));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('ArtifactStore on a deployed chain and a dealer', () => {
  const tmp = tempDir();
  const cacheDir = path.join(tmp.dir, 'cache');
  let env: Env;
  let chain: GameChain;
  let tiny: string;
  let gameId: bigint;
  let dealer: Dealer;
  let dealerUrl: string;
  let base: string;
  const servers: Server[] = [];

  before(async () => {
    env = await setup(['tiny'], {}); // {}: the generated SealVerifier, its hashes registered too
    tiny = rulesetHash('tiny');
    gameId = (await createGame(env, { rulesetHash: tiny })).id;
    chain = new GameChain(await env.game.getAddress(), env.players[0]!);
    dealer = await startDealer({ artifacts: await ArtifactCatalog.scan(GENERATED_DIR) });
    dealerUrl = await dealer.app.listen({ host: '127.0.0.1', port: 0 });
    base = `${dealerUrl}/v1/artifacts`;
  });
  after(async () => {
    await dealer.close();
    for (const s of servers) s.close();
    await releaseSnarkjsThreads();
    tmp.cleanup();
  });

  /** What the registry says, read the long way round (not through the SDK). */
  async function registered(circuit: (typeof CIRCUITS)[number]) {
    const verifier =
      circuit === 'seal'
        ? await env.game.getFunction('sealVerifier')()
        : (await env.registry.getFunction('getVerifier')(tiny, CIRCUITS.indexOf(circuit) - 1)).target;
    const a = await env.registry.getFunction('artifactsOf')(verifier);
    return { zkey: a.zkey as string, wasm: a.wasm as string };
  }

  it('downloads, checks and caches every tiny circuit and the seal, each hash once', async () => {
    const c = countingFetch();
    const events: ArtifactEvent[] = [];
    const store = new ArtifactStore({
      baseUrls: base,
      cache: new FileArtifactCache(cacheDir),
      fetch: c.fetch,
      onEvent: (e) => events.push(e),
    });
    const t0 = performance.now();
    // Every circuit at once, turn three times over: concurrent callers share downloads.
    const got = await Promise.all(
      [...CIRCUITS, 'turn', 'turn'].map((x, i) =>
        store.forCircuit(chain, i % 2 ? gameId : tiny, x as (typeof CIRCUITS)[number]),
      ),
    );
    const ms = performance.now() - t0;
    const hashes = new Set<string>();
    for (const [i, circuit] of CIRCUITS.entries()) {
      const want = await registered(circuit);
      assert.equal(sha(got[i]!.zkey), want.zkey, `${circuit} zkey`);
      assert.equal(sha(got[i]!.wasm), want.wasm, `${circuit} wasm`);
      hashes.add(want.zkey).add(want.wasm);
      for (const h of [want.zkey, want.wasm]) assert.ok(existsSync(path.join(cacheDir, h.slice(2))), h);
    }
    assert.equal(c.urls.length, hashes.size, 'one request per distinct file');
    assert.equal(new Set(c.urls).size, c.urls.length);
    const bytes = events.reduce((n, e) => n + (e.type === 'download' ? e.bytes : 0), 0);
    console.log(
      `cold: ${c.urls.length} files, ${(bytes / 1e6).toFixed(1)} MB from the dealer in ${ms.toFixed(0)} ms`,
    );
    assert.deepEqual(
      readdirSync(cacheDir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary files left',
    );
  });

  it('a second store on the same cache folder downloads nothing', async () => {
    const c = countingFetch();
    const events: ArtifactEvent[] = [];
    const store = new ArtifactStore({
      baseUrls: base,
      cache: new FileArtifactCache(cacheDir),
      fetch: c.fetch,
      onEvent: (e) => events.push(e),
    });
    const t0 = performance.now();
    for (const circuit of CIRCUITS) await store.forCircuit(chain, tiny, circuit);
    console.log(
      `cached: ${CIRCUITS.length} circuits read and re-checked in ${(performance.now() - t0).toFixed(0)} ms`,
    );
    assert.deepEqual(c.urls, []);
    assert.ok(events.every((e) => e.type === 'cache-hit'));
  });

  it('proves with stored artifacts, fetched before the first proof; the registry verifies the proof', async () => {
    const c = countingFetch();
    const store = new ArtifactStore({ baseUrls: base, cache: new MemoryArtifactCache(), fetch: c.fetch });
    const prover = new StoreProver({ store, chain, game: gameId });
    const r = shippedRuleset('tiny');
    const plan = combatWitness(r, env.h, {
      mapRoot: 0x600dn,
      gameId,
      player: BigInt(env.players[0]!.address),
      turn: 3n,
      slots: spawnSlots(r, [
        { col: 3, row: 4 },
        { col: 5, row: 5 },
        { col: 4, row: 6 },
      ]),
      blinding: 4242n,
      revealCommit: 4343n,
      target: { col: 5, row: 5 },
      damage: 4,
    });
    const proof = await prover.prove('combat', plan);
    assert.equal(c.urls.length, 2, 'the combat zkey and wasm, before proving');
    const ok = await env.registry.getFunction('verify')(
      tiny,
      3,
      proof.a,
      proof.b,
      proof.c,
      plan.publicSignals,
    );
    assert.equal(ok, true);
    await prover.prove('combat', plan);
    assert.equal(c.urls.length, 2, 'kept in memory after the first proof');
    console.log(`combat proof from stored artifacts: ${prover.lastMs.toFixed(0)} ms`);
  });

  it('refuses a host serving a tampered zkey, caching nothing; an honest second host then serves it', async () => {
    const hostDir = path.join(tmp.dir, 'static');
    const { index } = await exportArtifacts(GENERATED_DIR, hostDir);
    const row = index.find((x) => x.ruleset === 'tiny' && x.circuit === 'combat')!;
    const file = path.join(hostDir, row.zkeyUrl);
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1]! ^= 0x01;
    writeFileSync(file, bytes);
    const host = await staticHost(hostDir);
    servers.push(host.server);
    const cache = new MemoryArtifactCache();
    const store = new ArtifactStore({ baseUrls: [host.url], cache });
    const err = await store.forCircuit(chain, tiny, 'combat').then(
      () => assert.fail('accepted a tampered zkey'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ArtifactMismatchError, String(err));
    assert.equal(err.circuit, 'combat');
    assert.equal(err.kind, 'zkey');
    assert.equal(err.url, `${host.url}/${row.zkeyUrl}`);
    assert.equal(err.expected, row.zkey);
    assert.equal(err.expected, (await registered('combat')).zkey);
    assert.equal(err.got, sha(bytes));
    assert.equal(await cache.get(row.zkey), null, 'the bad file is not cached');

    const events: ArtifactEvent[] = [];
    const both = new ArtifactStore({ baseUrls: [host.url, base], cache, onEvent: (e) => events.push(e) });
    const good = await both.forCircuit(chain, tiny, 'combat');
    assert.equal(sha(good.zkey), row.zkey);
    assert.ok(
      events.some((e) => e.type === 'host-failed' && e.url.startsWith(host.url) && /SHA-256/.test(e.reason)),
    );
  });

  it('detects a corrupted cache file and replaces it with a fresh download', async () => {
    const want = (await registered('turn')).zkey;
    const file = path.join(cacheDir, want.slice(2));
    const bytes = readFileSync(file);
    bytes[100]! ^= 0xff;
    writeFileSync(file, bytes);
    const c = countingFetch();
    const events: ArtifactEvent[] = [];
    const store = new ArtifactStore({
      baseUrls: base,
      cache: new FileArtifactCache(cacheDir),
      fetch: c.fetch,
      onEvent: (e) => events.push(e),
    });
    const got = await store.forCircuit(chain, tiny, 'turn');
    assert.equal(sha(got.zkey), want);
    assert.deepEqual(c.urls, [`${base}/${want.slice(2)}.zkey`]);
    assert.ok(events.some((e) => e.type === 'cache-corrupt' && e.hash === want));
    assert.equal(sha(readFileSync(file)), want, 'the cache file was replaced');
  });

  it('refuses a verifier with no registered hashes, and a circuit with no verifier', async () => {
    const mock = await env.ethers.deployContract('MockVerifier');
    await mock.waitForDeployment();
    const reg = env.registry.connect(env.deployer) as Contract;
    await (
      await reg.getFunction('setVerifier')(RULESET_HASH, 3, await mock.getAddress(), '0x34baeab9', 5)
    ).wait();
    const store = new ArtifactStore({ baseUrls: base });
    const e1 = await store.forCircuit(chain, RULESET_HASH, 'combat').catch((e: unknown) => e);
    assert.ok(e1 instanceof ArtifactsNotRegisteredError, String(e1));
    assert.equal(e1.circuit, 'combat');
    assert.equal(e1.verifier, (await mock.getAddress()).toLowerCase());
    const e2 = await store.forCircuit(chain, RULESET_HASH, 'turn').catch((e: unknown) => e);
    assert.ok(e2 instanceof ArtifactsNotRegisteredError, String(e2));
    assert.match(e2.message, /no verifier registered/);
  });

  it('falls back from a dead first host to the second; no live host is ArtifactUnavailableError', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/v1/artifacts`;
    await new Promise<void>((r) => dead.close(() => r()));
    const events: ArtifactEvent[] = [];
    const store = new ArtifactStore({ baseUrls: [deadUrl, base], onEvent: (e) => events.push(e) });
    const got = await store.forCircuit(chain, gameId, 'attack');
    assert.equal(sha(got.zkey), (await registered('attack')).zkey);
    assert.ok(events.some((e) => e.type === 'host-failed' && e.url.startsWith(deadUrl)));
    assert.ok(events.some((e) => e.type === 'download' && e.url.startsWith(base)));

    const none = new ArtifactStore({ baseUrls: [deadUrl] });
    const err = await none.forCircuit(chain, tiny, 'attack').catch((e: unknown) => e);
    assert.ok(err instanceof ArtifactUnavailableError, String(err));
    assert.equal(err.attempts.length, 1);
  });

  it('proverFromDealer fetches and checks every player circuit before it returns', async () => {
    const c = countingFetch();
    const dir = path.join(tmp.dir, 'cli-cache');
    const prover = await proverFromDealer({ chain, gameId, dealerUrl, cacheDir: dir, fetch: c.fetch });
    assert.ok(prover instanceof StoreProver);
    // seal, spawn, turn, attack, combat: a zkey and a wasm each.
    assert.equal(c.urls.length, 10);
    assert.ok(c.urls.every((u) => u.startsWith(`${dealerUrl}/v1/artifacts/`)));
    assert.equal(readdirSync(dir).length, 10);
  });

  it('a stub chain shows what the store reads: a game id resolves its ruleset first', async () => {
    const calls: string[] = [];
    const stub: ArtifactChain = {
      config: async (g) => {
        calls.push(`config ${g}`);
        return chain.config(gameId);
      },
      sealVerifier: () => chain.sealVerifier(),
      verifierOf: async (h, c) => {
        calls.push(`verifierOf ${c}`);
        return chain.verifierOf(h, c);
      },
      artifactsOf: (v) => chain.artifactsOf(v),
    };
    const store = new ArtifactStore({ baseUrls: base, cache: new FileArtifactCache(cacheDir) });
    const e = await store.expected(stub, 99n, 'spawn');
    assert.deepEqual(calls, ['config 99', 'verifierOf spawn']);
    assert.equal(e.zkey, (await registered('spawn')).zkey);
    await assert.rejects(store.expected(stub, '0x1234', 'spawn'), /not a ruleset hash/);
  });
});
