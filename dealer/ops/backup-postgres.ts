/**
 * PostgreSQL backup and restore with the server's own tools: `pg_dump --format=custom` (a consistent
 * snapshot, taken while the dealer runs) and `pg_restore` in one transaction. The password never goes on
 * a command line (other users can read those in `ps`): it is handed over in PGPASSWORD.
 */
import { type SpawnOptions, spawn } from 'node:child_process';
import { accessSync, closeSync, constants, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { UsageError } from '../../lib/cli.ts';
import { MIGRATIONS, PostgresStore } from '../store/postgres.ts';
import { describeTarget, postgresTarget, urlPassword } from '../store/postgres-url.ts';
import type { SecretBox } from '../store/secret-box.ts';
import {
  BOOKKEEPING_TABLES,
  type CopyReport,
  checkGamesContract,
  checkSecretsOpen,
  type SealedSecretsRow,
} from './backup-common.ts';
import { createPrivateFile } from './secret-file.ts';

/** A PostgreSQL client binary on PATH, or an error saying how to get it. */
export function pgTool(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  throw new Error(
    `${name} not found on PATH: install the PostgreSQL client tools (Debian: apt-get install ` +
      "postgresql-client), of the server's major version or newer",
  );
}

/** The libpq connection: the URL without its password, and the password for PGPASSWORD. */
function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = urlPassword(url);
  u.password = '';
  u.searchParams.delete('password');
  return { dbname: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** `host:port/database` of the URL, for messages. */
function where(url: string): string {
  const t = postgresTarget(url);
  return t ? describeTarget(t) : '(invalid url)';
}

/** Runs a client tool; rejects with its first error line (the password scrubbed, though it never has it). */
function runTool(
  file: string,
  args: string[],
  url: string,
  o: SpawnOptions = {},
): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], ...o, env: libpq(url).env });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) return resolve({ stdout });
      const pw = urlPassword(url);
      const line = stderr.split('\n').find((l) => /error|fatal/i.test(l)) ?? stderr.split('\n')[0] ?? '';
      const why = (pw ? line.replaceAll(pw, '[redacted]') : line).trim();
      reject(new Error(`${path.basename(file)} failed on ${where(url)} (exit ${code}): ${why}`));
    });
  });
}

/** A short-lived client on `url`; errors name the server, never the password. */
async function withClient<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await c.connect();
  } catch (e) {
    const err = e as Error & { code?: string };
    const pw = urlPassword(url);
    const why =
      (err.code ? `${err.code}: ` : '') + (pw ? err.message.replaceAll(pw, '[redacted]') : err.message);
    throw new Error(`cannot connect to PostgreSQL at ${where(url)} (${why})`);
  }
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

const UNDEFINED_TABLE = '42P01';

async function liveSecretRows(c: pg.Client): Promise<SealedSecretsRow[]> {
  try {
    const { rows } = await c.query<SealedSecretsRow>(
      'SELECT game_id::text AS "gameId", sealed FROM game_secrets',
    );
    return rows;
  } catch (e) {
    if ((e as { code?: string }).code === UNDEFINED_TABLE) return [];
    throw e;
  }
}

async function userTables(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ name: string }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
     WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
  );
  return rows.map((r) => r.name);
}

/** Some table other than the bookkeeping ones has a row. */
async function holdsData(c: pg.Client): Promise<boolean> {
  for (const t of await userTables(c)) {
    if (BOOKKEEPING_TABLES.has(t.replace(/^.*\./, '').replaceAll('"', ''))) continue;
    if ((await c.query(`SELECT 1 FROM ${t} LIMIT 1`)).rowCount) return true;
  }
  return false;
}

/** Other client sessions on this database (a running dealer keeps a pool open). */
async function otherSessions(c: pg.Client): Promise<number> {
  const { rows } = await c.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  );
  return Number(rows[0]!.n);
}

/** Dumps the dealer's database (running or not) into a new 0600 file `out`. */
export async function backupPostgres(url: string, out: string, box: SecretBox): Promise<CopyReport> {
  const pgDump = pgTool('pg_dump');
  const { secretsChecked, games } = await withClient(url, async (c) => {
    const secretsChecked = checkSecretsOpen(box, await liveSecretRows(c));
    const games = (await userTables(c)).some((t) => t === 'public.games')
      ? Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM games')).rows[0]!.n)
      : 0;
    return { secretsChecked, games };
  });
  const fd = createPrivateFile('out', out);
  const t0 = performance.now();
  try {
    await runTool(pgDump, ['--format=custom', `--dbname=${libpq(url).dbname}`], url, {
      stdio: ['ignore', fd, 'pipe'],
    });
  } catch (e) {
    closeSync(fd);
    rmSync(out, { force: true });
    throw e;
  }
  closeSync(fd);
  return { games, secretsChecked, bytes: statSync(out).size, ms: performance.now() - t0 };
}

/**
 * The rows of `tables` in a dump, read offline (`pg_restore --data-only --file=-` prints them as COPY
 * blocks): what the restore checks before it touches the target.
 */
async function dumpRows(pgRestore: string, file: string, url: string, tables: string[]) {
  const { stdout } = await runTool(
    pgRestore,
    ['--data-only', ...tables.map((t) => `--table=${t}`), '--file=-', file],
    url,
  );
  const out = new Map<string, string[][]>();
  const columns = new Map<string, string[]>();
  let current: string[][] | null = null;
  for (const line of stdout.split('\n')) {
    const copy = /^COPY (?:\w+\.)?(\w+) \((.*)\) FROM stdin;$/.exec(line);
    if (copy) {
      out.set(copy[1]!, (current = []));
      columns.set(
        copy[1]!,
        copy[2]!.split(',').map((c) => c.trim().replaceAll('"', '')),
      );
    } else if (line === '\\.') current = null;
    else if (current) current.push(line.split('\t'));
  }
  /** One column of a table's rows, by name. */
  const column = (table: string, name: string): string[] => {
    const i = columns.get(table)?.indexOf(name) ?? -1;
    return i < 0 ? [] : (out.get(table) ?? []).map((r) => r[i]!);
  };
  return Object.assign(out, { column });
}

/**
 * Restores the dump `from` into the database at `url`: refused while other sessions use it, and over data
 * unless `force` (then the dump's tables replace the existing ones, in the same transaction).
 */
export async function restorePostgres(
  from: string,
  url: string,
  box: SecretBox,
  force: boolean,
  contract: string,
): Promise<CopyReport> {
  const pgRestore = pgTool('pg_restore');
  const rows = await dumpRows(pgRestore, from, url, ['schema_migrations', 'game_secrets', 'games']);
  const versions = rows.get('schema_migrations');
  if (!versions) throw new UsageError(`--from ${from}: not a dealer database (no schema_migrations)`);
  const v = Math.max(...versions.map((r) => Number(r[0])));
  if (v > MIGRATIONS.length)
    throw new Error(
      `--from ${from}: schema ${v} is newer than this dealer's (${MIGRATIONS.length}): upgrade it`,
    );
  checkSecretsOpen(
    box,
    (rows.get('game_secrets') ?? []).map(([gameId, sealed]) => ({ gameId: gameId!, sealed: sealed! })),
  );
  checkGamesContract(rows.column('games', 'contract'), contract);
  const full = await withClient(url, async (c) => {
    const others = await otherSessions(c);
    if (others > 0)
      throw new Error(
        `${where(url)}: ${others} other session(s) connected (a dealer running?): stop it first`,
      );
    return holdsData(c);
  });
  if (full && !force)
    throw new UsageError(`${where(url)}: holds data; pass --force to replace it with the backup`);
  const t0 = performance.now();
  await runTool(
    pgRestore,
    [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      ...(full ? ['--clean', '--if-exists'] : []),
      `--dbname=${libpq(url).dbname}`,
      from,
    ],
    url,
  );
  const ms = performance.now() - t0;
  // Opened as the dealer will (migrations included), and every game's secrets opened once more.
  const store = await PostgresStore.open(url, box, { maxConnections: 2 });
  try {
    const games = await store.listGames();
    let secretsChecked = 0;
    for (const g of games) if (await store.getSecrets(g.gameId)) secretsChecked++;
    return { games: games.length, secretsChecked, bytes: statSync(from).size, ms };
  } finally {
    await store.close();
  }
}
