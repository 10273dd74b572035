/**
 * SQLite backup and restore with node:sqlite's online backup (the SQLite backup API): the copy is taken in
 * one step under a read transaction, so it is a consistent snapshot even while the dealer keeps writing
 * (WAL mode: the dealer's writes are not blocked either).
 */
import {
  chownSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { UsageError } from '../../lib/cli.ts';
import type { SecretBox } from '../store/secret-box.ts';
import { MIGRATIONS, SqliteStore } from '../store/sqlite.ts';
import {
  BOOKKEEPING_TABLES,
  type CopyReport,
  checkGamesContract,
  checkSecretsOpen,
  type SealedSecretsRow,
} from './backup-common.ts';
import { createPrivateFile } from './secret-file.ts';

/** Every page in one backup step: one read transaction, so no restart when the dealer writes meanwhile. */
const ALL_PAGES = 2 ** 31 - 1;

function tableNames(db: DatabaseSync): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  ).map((r) => r.name);
}

function secretsRows(db: DatabaseSync): SealedSecretsRow[] {
  if (!tableNames(db).includes('game_secrets')) return [];
  return db
    .prepare('SELECT game_id AS gameId, sealed FROM game_secrets')
    .all() as unknown as SealedSecretsRow[];
}

function gameCount(db: DatabaseSync): number {
  if (!tableNames(db).includes('games')) return 0;
  return (db.prepare('SELECT count(*) AS n FROM games').get() as { n: number }).n;
}

/** Some table other than the bookkeeping ones has a row. */
function holdsData(db: DatabaseSync): boolean {
  return tableNames(db).some(
    (t) => !BOOKKEEPING_TABLES.has(t) && db.prepare(`SELECT 1 AS x FROM "${t}" LIMIT 1`).get() !== undefined,
  );
}

function quickCheck(db: DatabaseSync, what: string): void {
  const r = db.prepare('PRAGMA quick_check').get() as { quick_check: string };
  if (r.quick_check !== 'ok') throw new Error(`${what}: not a sound SQLite database (${r.quick_check})`);
}

/**
 * True when another connection has the database open (a running dealer): in WAL mode every open
 * connection holds a shared lock, so an exclusive one is refused at once.
 */
export function sqliteInUse(file: string): boolean {
  const db = new DatabaseSync(file, { timeout: 0 });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT');
    return false;
  } catch (e) {
    if (/locked|busy/i.test((e as Error).message)) return true;
    throw e;
  } finally {
    db.close();
  }
}

/** Copies the dealer's database at `dbPath` (running or not) to a new 0600 file `out`. */
export async function backupSqlite(dbPath: string, out: string, box: SecretBox): Promise<CopyReport> {
  if (!existsSync(dbPath)) throw new Error(`db.path ${dbPath}: no such database`);
  // Not read-only: a read-only connection to a stopped dealer's database would leave -wal and -shm files
  // behind (owned by whoever ran the backup, e.g. root, which the dealer's user could not then write);
  // the last connection to close removes them. Nothing is written.
  const src = new DatabaseSync(dbPath, { timeout: 5000 });
  let ms: number;
  try {
    const secretsChecked = checkSecretsOpen(box, secretsRows(src));
    closeSync(createPrivateFile('out', out));
    const t0 = performance.now();
    try {
      await backup(src, out, { rate: ALL_PAGES });
    } catch (e) {
      rmSync(out, { force: true });
      throw e;
    }
    ms = performance.now() - t0;
    // One self-contained file (no -wal beside it), checked before we call it a backup.
    const copy = new DatabaseSync(out);
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
      quickCheck(copy, out);
      return { games: gameCount(copy), secretsChecked, bytes: statSync(out).size, ms };
    } finally {
      copy.close();
    }
  } finally {
    src.close();
  }
}

/**
 * Loads the backup `from` into the database at `dbPath`: refused while a dealer has it open, and over one
 * holding data unless `force`. Checked first (sound file, a schema this dealer knows, secrets that open
 * under `box`, games of `contract` only), copied to a temp file beside the target, then renamed over it, so a failure midway leaves
 * the target as it was.
 */
export async function restoreSqlite(
  from: string,
  dbPath: string,
  box: SecretBox,
  force: boolean,
  contract: string,
): Promise<CopyReport> {
  const src = new DatabaseSync(from, { readOnly: true });
  const tmp = `${dbPath}.restoring-${process.pid}`;
  let ms: number;
  let owner: Stats;
  try {
    quickCheck(src, `--from ${from}`);
    const names = tableNames(src);
    if (!names.includes('schema_migrations') || !names.includes('games'))
      throw new UsageError(`--from ${from}: not a dealer database (no games, no schema_migrations)`);
    const { v } = src.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number };
    if (v > MIGRATIONS.length)
      throw new Error(
        `--from ${from}: schema ${v} is newer than this dealer's (${MIGRATIONS.length}): upgrade it`,
      );
    checkSecretsOpen(box, secretsRows(src));
    checkGamesContract(
      (src.prepare('SELECT DISTINCT contract FROM games').all() as { contract: string }[]).map(
        (r) => r.contract,
      ),
      contract,
    );
    const dir = path.dirname(path.resolve(dbPath));
    if (!existsSync(dir)) throw new UsageError(`db.path ${dbPath}: folder ${dir} does not exist`);
    owner = statSync(existsSync(dbPath) ? dbPath : dir);
    if (existsSync(dbPath)) {
      if (sqliteInUse(dbPath))
        throw new Error(`db.path ${dbPath}: in use (a dealer running?): stop it first`);
      const target = new DatabaseSync(dbPath);
      const full = (() => {
        try {
          return holdsData(target);
        } finally {
          target.close();
        }
      })();
      if (full && !force)
        throw new UsageError(`db.path ${dbPath}: holds data; pass --force to replace it with the backup`);
    }
    rmSync(tmp, { force: true });
    closeSync(createPrivateFile('from', tmp));
    const t0 = performance.now();
    await backup(src, tmp, { rate: ALL_PAGES });
    ms = performance.now() - t0;
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  } finally {
    src.close();
  }
  // The old database's WAL must not be replayed onto the restored file.
  for (const suffix of ['-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
  renameSync(tmp, dbPath);
  // Run as root (e.g. next to a systemd service), the new file goes to the user the dealer runs as: the
  // old database's owner, or its folder's.
  if (process.getuid?.() === 0) chownSync(dbPath, owner.uid, owner.gid);
  const dir = openSync(path.dirname(path.resolve(dbPath)), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  // Opened as the dealer will (migrations included), and every game's secrets opened once more.
  const store = new SqliteStore(dbPath, box);
  try {
    const games = await store.listGames();
    let secretsChecked = 0;
    for (const g of games) if (await store.getSecrets(g.gameId)) secretsChecked++;
    return { games: games.length, secretsChecked, bytes: statSync(dbPath).size, ms };
  } finally {
    await store.close();
  }
}
