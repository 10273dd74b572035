/**
 * What only the Postgres store has to get right: migrations shared by several dealer processes,
 * atomicity across connection pools, a server that goes away and comes back, and errors that name
 * the server without its password.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import pg from 'pg';
import { StoreOpenError } from '../../dealer/store/errors.ts';
import { PostgresStore } from '../../dealer/store/postgres.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { CONTRACT } from './fixture.ts';
import { type PgServer, postgresSkip, startPostgres } from './postgres-server.ts';

/** A loopback port nothing listens on (the OS picked it free and we let it go). */
function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('Postgres store: server-side behaviour', { skip: postgresSkip() }, () => {
  let server: PgServer;
  const open: PostgresStore[] = [];
  before(async () => {
    server = await startPostgres();
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });
  after(() => server?.destroy());

  const key = randomBytes(32);
  const openStore = async (url: string, o: Parameters<typeof PostgresStore.open>[2] = {}) => {
    const s = await PostgresStore.open(url, secretBox(key), { maxConnections: 4, ...o });
    open.push(s);
    return s;
  };
  const versions = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query('SELECT version FROM schema_migrations ORDER BY version')).rows.map(
        (r) => r.version,
      );
    } finally {
      await c.end();
    }
  };

  it('migrates once: re-opening runs no migration again and keeps the data', async () => {
    const url = await server.createDatabase();
    const first = await openStore(url);
    await first.addGame({ gameId: 1n, contract: CONTRACT, ruleset: 'duel', players: ['0xa'] });
    await first.close();
    for (let i = 0; i < 2; i++) await (await openStore(url)).close();
    assert.deepEqual(await versions(url), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const again = await openStore(url);
    assert.equal((await again.getGame(1n))?.ruleset, 'duel');
  });

  it('several dealers starting at once on a fresh database all open (the advisory lock serializes migrations)', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openStore(url)));
    assert.deepEqual(await versions(url), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await Promise.all(stores.map((s, i) => s.setCursor(i)));
    assert.ok([0, 1, 2, 3].includes((await stores[0]!.getCursor())!));
  });

  it('two pools burning the same nonces at once: exactly one burn wins each', async () => {
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([openStore(url), openStore(url)]);
    const nonces = Array.from({ length: 60 }, (_, i) => 2n ** 200n + BigInt(i));
    const results = await Promise.all(
      nonces.map(async (n) => {
        const [x, y] = await Promise.all([a!.burnNonce('0xa', n, 100), b!.burnNonce('0xa', n, 100)]);
        return Number(x) + Number(y);
      }),
    );
    assert.deepEqual(
      results,
      nonces.map(() => 1),
    );
    assert.equal(await a!.burnNonce('0xa', nonces[0]!, 100), false);
  });

  it('two pools drawing secrets for one game at once: both get the same, first, draw', async () => {
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([openStore(url), openStore(url)]);
    const draw = (n: bigint) => ({ shares: [n], seed: n + 1n, masterSecret: n + 2n });
    const [x, y] = await Promise.all([a!.putSecretsOnce(7n, draw(10n)), b!.putSecretsOnce(7n, draw(20n))]);
    assert.deepEqual(x, y);
    assert.deepEqual(await a!.getSecrets(7n), x);
  });

  it('survives a restart of the PostgreSQL server: fails while it is down, then works on the same pool', async () => {
    const url = await server.createDatabase();
    const lost: string[] = [];
    const s = await openStore(url, { connectTimeoutMs: 2000, onConnectionLost: (m) => lost.push(m) });
    await s.addGame({ gameId: 3n, contract: CONTRACT, ruleset: 'duel', players: ['0xa'] });
    await s.setCursor(5);
    await s.ping(); // leaves idle connections in the pool, which the crash will cut
    await server.stop();
    try {
      const down = await s.ping().then(
        () => null,
        (e: Error) => e,
      );
      assert.ok(down, 'ping fails while the server is down');
      assert.ok(!down.message.includes(server.password));
    } finally {
      await server.start();
    }
    await s.ping();
    assert.equal(await s.getCursor(), 5);
    assert.equal((await s.getGame(3n))?.ruleset, 'duel');
    assert.equal(await s.burnNonce('0xa', 1n, 100), true);
    assert.ok(lost.length > 0, 'the lost idle connections were reported');
  });

  it('an unreachable server, a wrong password, no right to create tables: StoreOpenError naming host and database, never the password', async () => {
    const closed = await unusedPort();
    const secret = 'hunter2-Do-Not-Log';
    const refused = await PostgresStore.open(
      `postgres://shroud:${secret}@127.0.0.1:${closed}/dealer_db`,
      secretBox(key),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof StoreOpenError, String(refused));
    assert.match(refused.message, new RegExp(`127\\.0\\.0\\.1:${closed}/dealer_db`));
    assert.match(refused.message, /ECONNREFUSED/);
    assert.ok(!refused.message.includes(secret));

    const wrongPassword = await PostgresStore.open(server.url('postgres', secret), secretBox(key)).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(wrongPassword instanceof StoreOpenError, String(wrongPassword));
    assert.match(wrongPassword.message, new RegExp(`127\\.0\\.0\\.1:${server.port}/postgres`));
    assert.match(wrongPassword.message, /password authentication failed/);
    assert.ok(!wrongPassword.message.includes(secret));

    // A user who may connect but not create tables (PostgreSQL 15+: only the owner creates in public).
    const db = await server.createDatabase();
    const admin = new pg.Client({ connectionString: db });
    await admin.connect();
    await admin.query(`CREATE ROLE reader LOGIN PASSWORD '${secret}'`);
    await admin.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    await admin.end();
    const readerUrl = new URL(db);
    readerUrl.username = 'reader';
    readerUrl.password = secret;
    const cannotMigrate = await PostgresStore.open(readerUrl.href, secretBox(key)).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(cannotMigrate instanceof StoreOpenError, String(cannotMigrate));
    assert.match(
      cannotMigrate.message,
      /cannot migrate PostgreSQL at 127\.0\.0\.1:\d+\/\w+ \(42501: permission denied/,
    );
    assert.ok(!cannotMigrate.message.includes(secret));

    const notPostgres = await PostgresStore.open(`mysql://u:${secret}@h/db`, secretBox(key)).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(notPostgres instanceof StoreOpenError);
    assert.ok(!notPostgres.message.includes(secret));
  });
});
