import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PostgresStore } from '../../dealer/store/postgres.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import type { DealerStore } from '../../dealer/store/types.ts';
import { tempDir } from './fixture.ts';
import { type PgServer, postgresSkip, startPostgres } from './postgres-server.ts';
import { type StoreBackend, storeContract } from './store-contract.ts';

/** Tracks what a backend opened so cleanup() can close it. */
function closers() {
  const list: (() => Promise<void> | void)[] = [];
  return {
    add(f: () => Promise<void> | void) {
      list.push(f);
    },
    async run() {
      for (const f of list.splice(0).reverse()) await f();
    },
  };
}

function sqliteBackend(): StoreBackend {
  const c = closers();
  return {
    async fresh() {
      const t = tempDir();
      c.add(t.cleanup);
      const path = join(t.dir, 'd.sqlite');
      const key = randomBytes(32);
      const open = async (k: Uint8Array = key): Promise<DealerStore> => {
        const s = new SqliteStore(path, secretBox(k));
        c.add(() => s.close());
        return s;
      };
      const raw = <T>(f: (db: DatabaseSync) => T): T => {
        const db = new DatabaseSync(path);
        try {
          return f(db);
        } finally {
          db.close();
        }
      };
      return {
        store: await open(),
        key,
        open,
        async exec(sql) {
          raw((db) => db.exec(sql));
        },
        async count(table) {
          return raw((db) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n);
        },
        async dump() {
          return Buffer.concat(
            ['', '-wal'].map((suffix) => {
              try {
                return readFileSync(path + suffix);
              } catch {
                return Buffer.alloc(0);
              }
            }),
          ).toString('latin1');
        },
      };
    },
    cleanup: c.run,
  };
}

function postgresBackend(server: () => PgServer): StoreBackend {
  const c = closers();
  return {
    async fresh() {
      const url = await server().createDatabase();
      const key = randomBytes(32);
      const open = async (k: Uint8Array = key): Promise<DealerStore> => {
        const s = await PostgresStore.open(url, secretBox(k), { maxConnections: 4 });
        c.add(() => s.close());
        return s;
      };
      const query = async (sql: string) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query(sql)).rows as Record<string, unknown>[];
        } finally {
          await client.end();
        }
      };
      return {
        store: await open(),
        key,
        open,
        async exec(sql) {
          await query(sql);
        },
        async count(table) {
          return Number((await query(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);
        },
        async dump() {
          const tables = await query(
            "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public'",
          );
          const rows = await Promise.all(tables.map(({ t }) => query(`SELECT r::text AS r FROM "${t}" r`)));
          return rows
            .flat()
            .map((r) => r.r)
            .join('\n');
        },
      };
    },
    cleanup: c.run,
  };
}

describe('SQLite store', () => {
  const backend = sqliteBackend();
  storeContract(() => backend);

  it('runs in WAL mode and records its migrations once', async () => {
    const t = tempDir();
    const path = join(t.dir, 'd.sqlite');
    const key = randomBytes(32);
    await new SqliteStore(path, secretBox(key)).close();
    await new SqliteStore(path, secretBox(key)).close(); // re-opening must not re-run migrations
    const db = new DatabaseSync(path);
    assert.equal((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
    assert.deepEqual(
      db
        .prepare('SELECT version FROM schema_migrations')
        .all()
        .map((r) => r.version),
      [1, 2],
    );
    db.close();
    t.cleanup();
  });
});

describe('Postgres store', { skip: postgresSkip() }, () => {
  let server: PgServer | undefined;
  before(async () => {
    server = await startPostgres();
  });
  after(() => server?.destroy());
  const backend = postgresBackend(() => server!);
  storeContract(() => backend);
});
