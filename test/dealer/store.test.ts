import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { MIGRATIONS as PG_MIGRATIONS, PostgresStore } from '../../dealer/store/postgres.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { MIGRATIONS as SQLITE_MIGRATIONS, SqliteStore } from '../../dealer/store/sqlite.ts';
import type { DealerStore, NewGame, ServedReveal } from '../../dealer/store/types.ts';
import { tempDir } from './fixture.ts';
import { type PgServer, postgresSkip, startPostgres } from './postgres-server.ts';
import { type StoreBackend, type StoreUnderTest, storeContract } from './store-contract.ts';

/** The schema versions from before served openings were sealed (SQLite 1–2, Postgres 1). */
const SQLITE_PLAINTEXT_OPENINGS = 2;
const PG_PLAINTEXT_OPENINGS = 1;

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
  /** The hooks on the database at `path`, opened with `key`. */
  const underTest = async (path: string, key: Uint8Array): Promise<StoreUnderTest> => {
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
      async rows(table) {
        return raw((db) => db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[]);
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
  };
  const newPath = () => {
    const t = tempDir();
    c.add(t.cleanup);
    return join(t.dir, 'd.sqlite');
  };
  return {
    fresh: async () => underTest(newPath(), randomBytes(32)),
    async legacy(reveals: readonly ServedReveal[], games: readonly NewGame[] = []) {
      const path = newPath();
      const db = new DatabaseSync(path);
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
      for (let v = 1; v <= SQLITE_PLAINTEXT_OPENINGS; v++) {
        db.exec(SQLITE_MIGRATIONS[v - 1] as string);
        db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(v, 0);
      }
      const insert = db.prepare(
        'INSERT INTO served_reveals (game_id, player, turn, leaves, blinding, served_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const r of reveals) {
        insert.run(r.gameId.toString(), r.player, r.turn, JSON.stringify(r.leaves), r.blinding.toString(), 1);
      }
      for (const g of games) {
        db.prepare(
          `INSERT INTO games (game_id, contract, ruleset, players, status, updated_at)
           VALUES (?, ?, ?, ?, 'dealt', 1)`,
        ).run(g.gameId.toString(), g.contract, g.ruleset, JSON.stringify(g.players));
      }
      db.close();
      return underTest(path, randomBytes(32));
    },
    cleanup: c.run,
  };
}

function postgresBackend(server: () => PgServer): StoreBackend {
  const c = closers();
  const query = async (url: string, sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  const underTest = async (url: string, key: Uint8Array): Promise<StoreUnderTest> => {
    const open = async (k: Uint8Array = key): Promise<DealerStore> => {
      const s = await PostgresStore.open(url, secretBox(k), { maxConnections: 4 });
      c.add(() => s.close());
      return s;
    };
    return {
      store: await open(),
      key,
      open,
      async exec(sql) {
        await query(url, sql);
      },
      async count(table) {
        return Number((await query(url, `SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);
      },
      async rows(table) {
        return query(url, `SELECT * FROM ${table}`);
      },
      async dump() {
        const tables = await query(
          url,
          "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public'",
        );
        const rows = await Promise.all(
          tables.map(({ t }) => query(url, `SELECT r::text AS r FROM "${t}" r`)),
        );
        return rows
          .flat()
          .map((r) => r.r)
          .join('\n');
      },
    };
  };
  return {
    fresh: async () => underTest(await server().createDatabase(), randomBytes(32)),
    async legacy(reveals: readonly ServedReveal[], games: readonly NewGame[] = []) {
      const url = await server().createDatabase();
      await query(
        url,
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
      );
      for (let v = 1; v <= PG_PLAINTEXT_OPENINGS; v++) {
        await query(url, PG_MIGRATIONS[v - 1] as string);
        await query(url, 'INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)', [v]);
      }
      for (const r of reveals) {
        await query(
          url,
          `INSERT INTO served_reveals (game_id, player, turn, leaves, blinding, served_at)
           VALUES ($1, $2, $3, $4, $5, 1)`,
          [r.gameId.toString(), r.player, r.turn, JSON.stringify(r.leaves), r.blinding.toString()],
        );
      }
      for (const g of games) {
        await query(
          url,
          `INSERT INTO games (game_id, contract, ruleset, players, status, updated_at)
           VALUES ($1, $2, $3, $4, 'dealt', 1)`,
          [g.gameId.toString(), g.contract, g.ruleset, JSON.stringify(g.players)],
        );
      }
      return underTest(url, randomBytes(32));
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
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
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
