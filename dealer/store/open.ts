import type { DealerConfig } from '../config.ts';
import { type PostgresOptions, PostgresStore } from './postgres.ts';
import { describeTarget, postgresTarget } from './postgres-url.ts';
import type { SecretBox } from './secret-box.ts';
import { SqliteStore, type SqliteStoreOptions } from './sqlite.ts';
import type { DealerStore } from './types.ts';

/** The store the config names (validated by loadConfig): the one place main.ts and tests open it. */
export async function openStore(
  db: DealerConfig['db'],
  box: SecretBox,
  o: PostgresOptions & SqliteStoreOptions = {},
): Promise<DealerStore> {
  if (db.driver === 'postgres') return PostgresStore.open(db.url ?? '', box, o);
  if (!db.path) throw new Error('db.path: required for the sqlite driver');
  return new SqliteStore(db.path, box, o);
}

/** Where the store lives, safe to log: the SQLite path, or the Postgres host:port/database (no password). */
export function describeStore(db: DealerConfig['db']): string {
  if (db.driver !== 'postgres') return `sqlite:${db.path}`;
  const t = postgresTarget(db.url ?? '');
  return t ? `postgres:${describeTarget(t)}` : 'postgres:(invalid url)';
}
