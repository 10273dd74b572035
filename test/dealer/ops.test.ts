import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../dealer/config.ts';
import { HEALTH_TTL_MS } from '../../dealer/routes/ops.ts';
import { ALICE, type Dealer, duelLeaves, postTurn, signedReveal, startDealer, tempDir } from './fixture.ts';

let d: Dealer | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

describe('operations routes', () => {
  it('/health reports chain, DB and head block; 503 when the chain is unreachable', async () => {
    let ms = 0;
    d = await startDealer({ nowMs: () => ms });
    const ok = await d.app.inject({ url: '/health' });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { ok: true, chain: true, db: true, headBlock: await d.chain.headBlock() });
    d.chain.unreachable = true;
    ms += HEALTH_TTL_MS;
    const down = await d.app.inject({ url: '/health' });
    assert.equal(down.statusCode, 503);
    assert.deepEqual(down.json(), { ok: false, chain: false, db: true, headBlock: null });
  });

  it('/health checks at most once a second however often it is asked (each check writes to the DB)', async () => {
    let ms = 0;
    d = await startDealer({ nowMs: () => ms });
    let pings = 0;
    const ping = d.store.ping.bind(d.store);
    d.store.ping = async () => {
      pings++;
      return ping();
    };
    const burst = await Promise.all(Array.from({ length: 50 }, () => d!.app.inject({ url: '/health' })));
    assert.ok(burst.every((r) => r.statusCode === 200));
    assert.equal(pings, 1, 'one check for the burst');
    ms += HEALTH_TTL_MS - 1;
    await d.app.inject({ url: '/health' });
    assert.equal(pings, 1);
    ms += 1;
    await d.app.inject({ url: '/health' });
    assert.equal(pings, 2, 'a second later, a fresh check');
  });

  it('/health says the DB is not writable once it is closed', async () => {
    d = await startDealer();
    await d.store.close();
    const res = await d.app.inject({ url: '/health' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().db, false);
  });

  it('/metrics counts served reveals, dealt games and request latency', async () => {
    d = await startDealer();
    const g = await d.dealtGame();
    const leaves = duelLeaves();
    const blinding = postTurn(d.h, d.chain, g.gameId, ALICE, 1, leaves);
    const res = await d.app.inject({
      method: 'POST',
      url: `/v1/games/${g.gameId}/reveals`,
      payload: await signedReveal(ALICE, { gameId: g.gameId, turn: 1, leaves, blinding }),
    });
    assert.equal(res.statusCode, 200);
    const m = (await d.app.inject({ url: '/metrics' })).body;
    assert.match(m, /^shroud_dealer_reveals_served_total 1$/m);
    assert.match(m, /^shroud_dealer_games_dealt_total 1$/m);
    assert.match(
      m,
      /shroud_dealer_http_request_duration_seconds_count\{method="POST",route="\/v1\/games\/:gameId\/reveals",status="200"\} 1/,
    );
  });

  it('OpenAPI at /docs documents every route with its schema', async () => {
    d = await startDealer();
    const res = await d.app.inject({ url: '/docs/json' });
    assert.equal(res.statusCode, 200);
    const spec = res.json();
    assert.ok(spec.paths['/v1/games/{gameId}/reveals'].post.requestBody);
    assert.ok(spec.paths['/health'].get);
    assert.ok(spec.paths['/metrics'].get);
    assert.equal((await d.app.inject({ url: '/docs' })).statusCode < 400, true);
  });

  it('CORS: allowed origins only', async () => {
    d = await startDealer();
    const yes = await d.app.inject({ url: '/health', headers: { origin: 'http://localhost:5173' } });
    assert.equal(yes.headers['access-control-allow-origin'], 'http://localhost:5173');
    const no = await d.app.inject({ url: '/health', headers: { origin: 'https://evil.example' } });
    assert.equal(no.headers['access-control-allow-origin'], undefined);
  });

  it('rate limit: a clear 429 past the budget', async () => {
    d = await startDealer({ http: { rateLimit: { max: 3, timeWindowMs: 60_000 } } });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      codes.push(
        (await d.app.inject({ method: 'POST', url: '/v1/games/1/reveals', payload: {} })).statusCode,
      );
    }
    assert.deepEqual(codes, [400, 400, 400, 429, 429]);
    const res = await d.app.inject({ method: 'POST', url: '/v1/games/1/reveals', payload: {} });
    assert.equal(res.json().error, 'rate-limited');
  });

  it('rate limit: of concurrent requests over the budget, only the excess is refused', async () => {
    d = await startDealer({ http: { rateLimit: { max: 5, timeWindowMs: 60_000 } } });
    const codes = (
      await Promise.all(
        Array.from({ length: 12 }, () =>
          d!.app.inject({ method: 'POST', url: '/v1/games/1/reveals', payload: {} }),
        ),
      )
    ).map((r) => r.statusCode);
    assert.equal(codes.filter((c) => c === 400).length, 5, String(codes));
    assert.equal(codes.filter((c) => c === 429).length, 7, String(codes));
  });
});

describe('config', () => {
  const dirs: (() => void)[] = [];
  after(() => {
    for (const c of dirs) c();
  });
  const file = (obj: unknown) => {
    const t = tempDir();
    dirs.push(t.cleanup);
    const path = join(t.dir, 'c.json');
    writeFileSync(path, JSON.stringify(obj));
    return path;
  };
  const base = loadConfig(new URL('../../dealer/config.default.json', import.meta.url).pathname, {});

  it('the default config loads', () => {
    assert.equal(base.chain.chainId, 31337);
    assert.equal(base.http.host, '127.0.0.1');
  });

  it('environment overrides win', () => {
    const c = loadConfig(file(base), {
      SHROUD_DEALER_PORT: '9999',
      SHROUD_RPC_URL: 'http://127.0.0.1:1',
      SHROUD_DB: '/tmp/x.sqlite',
      SHROUD_MASTER_KEY: 'ab'.repeat(32),
    });
    assert.equal(c.http.port, 9999);
    assert.equal(c.chain.rpcUrl, 'http://127.0.0.1:1');
    assert.equal(c.db.path, '/tmp/x.sqlite');
    assert.equal(c.keys.masterKey, 'ab'.repeat(32));
  });

  it('db: SQLite by default, Postgres from SHROUD_DB_DRIVER and SHROUD_DB_URL', () => {
    assert.equal(base.db.driver, undefined);
    const url = 'postgres://shroud:pw@db.internal:5433/shroud';
    const c = loadConfig(file(base), { SHROUD_DB_DRIVER: 'postgres', SHROUD_DB_URL: url });
    assert.equal(c.db.driver, 'postgres');
    assert.equal(c.db.url, url);
    // A Postgres config needs no SQLite path.
    assert.equal(loadConfig(file({ ...base, db: { driver: 'postgres', url } }), {}).db.url, url);
  });

  it('db errors name the field and never echo the URL (it holds a password)', () => {
    assert.throws(() => loadConfig(file(base), { SHROUD_DB_DRIVER: 'postgres' }), /config db\.url: required/);
    assert.throws(() => loadConfig(file(base), { SHROUD_DB_DRIVER: 'mysql' }), /config db\.driver/);
    assert.throws(() => loadConfig(file({ ...base, db: {} }), {}), /config db\.path: required/);
    assert.throws(() => loadConfig(file({ ...base, db: { path: 'x', port: 1 } }), {}), /config db\.port/);
    for (const bad of ['mysql://u:s3cret-pw@h/db', 'postgres://u:s3cret-pw@[bad/db', 's3cret-pw']) {
      try {
        loadConfig(file(base), { SHROUD_DB_DRIVER: 'postgres', SHROUD_DB_URL: bad });
        assert.fail(`accepted ${bad}`);
      } catch (e) {
        assert.ok(e instanceof ConfigError, String(e));
        assert.match(e.message, /config db\.url: not a postgres:\/\/ URL/);
        assert.ok(!e.message.includes('s3cret-pw'));
      }
    }
  });

  it('errors name the path and never echo a key', () => {
    assert.throws(() => loadConfig(file(base), { SHROUD_DEALER_PORT: 'eighty' }), /SHROUD_DEALER_PORT/);
    assert.throws(() => loadConfig(file({ ...base, extra: 1 }), {}), /config extra/);
    assert.throws(() => loadConfig(file({ ...base, http: { ...base.http, port: 70000 } }), {}), /http\.port/);
    const secret = 'zz'.repeat(32);
    try {
      loadConfig(file(base), { SHROUD_MASTER_KEY: secret });
      assert.fail('accepted a bad key');
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /keys\.masterKey/);
      assert.ok(!e.message.includes(secret));
    }
  });
});
