/**
 * `npm run dealer -- backup --out FILE` and `restore --from FILE [--force]`, on whichever store the
 * configuration names. Secrets stay as they are in the database, encrypted under masterKey: a backup is
 * useless without that key, and the key must not be kept with it.
 */
import { inputFile, parseCli, required, UsageError } from '../../lib/cli.ts';
import { hexKey } from '../config.ts';
import { describeStore } from '../store/open.ts';
import { secretBox } from '../store/secret-box.ts';
import { backupFormat, type CopyReport } from './backup-common.ts';
import { backupPostgres, restorePostgres } from './backup-postgres.ts';
import { backupSqlite, restoreSqlite } from './backup-sqlite.ts';
import { opsConfig } from './load-config.ts';

const KEY_NOTE =
  'secrets stay encrypted under masterKey: keep SHROUD_MASTER_KEY (and SHROUD_DEALER_KEY) apart from the backup';

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

function summary(verb: string, from: string, to: string, r: CopyReport): string {
  const secrets =
    r.secretsChecked > 0
      ? `${r.secretsChecked} with secrets opened under the configured masterKey`
      : 'no game secrets yet to check the masterKey against';
  return `${verb} ${from} → ${to}: ${r.games} game(s), ${secrets}, ${kib(r.bytes)}, ${Math.round(r.ms)} ms\n`;
}

export const BACKUP_USAGE = `usage: npm run dealer -- backup --out FILE [--config FILE]

Copies the dealer's database to FILE (new, mode 0600), safely while the dealer runs: SQLite by its
online backup (a consistent snapshot), PostgreSQL by pg_dump --format=custom (pg_dump on PATH). The
store and keys come from the same configuration as the dealer (file, then SHROUD_* variables); the copy
is refused unless the configured masterKey opens every game's secrets. Secrets stay encrypted under
masterKey in the backup: keep that key (and the seal key) apart from it.
  --out FILE     the backup file (refused if it exists)
  --config FILE  the JSON config file (default: dealer/config.default.json)`;

export async function backupCommand(argv: string[]): Promise<void> {
  const { values } = parseCli(
    {
      name: 'dealer backup',
      usage: BACKUP_USAGE,
      options: { out: { type: 'string' }, config: { type: 'string' } },
    },
    argv,
  );
  const out = required('out', values.out);
  const { config } = opsConfig(values.config);
  const box = secretBox(hexKey(config.keys.masterKey));
  const r =
    config.db.driver === 'postgres'
      ? await backupPostgres(config.db.url!, out, box)
      : await backupSqlite(config.db.path!, out, box);
  process.stdout.write(summary('backup', describeStore(config.db), out, r));
  process.stdout.write(`${KEY_NOTE}\n`);
}

export const RESTORE_USAGE = `usage: npm run dealer -- restore --from FILE [--force] [--config FILE]

Loads a backup made by \`npm run dealer -- backup\` into the configured database (SQLite: db.path,
created if missing; PostgreSQL: db.url, an existing database; pg_restore on PATH). Stop the dealer first:
a database in use is refused. Before touching it, checks the backup (a dealer database this version
knows, every game's secrets open under the configured masterKey, every game is of the configured game
contract); afterwards opens it as the dealer will.
  --from FILE    the backup file
  --force        replace a database that holds data (default: refuse)
  --config FILE  the JSON config file (default: dealer/config.default.json)`;

export async function restoreCommand(argv: string[]): Promise<void> {
  const { values } = parseCli(
    {
      name: 'dealer restore',
      usage: RESTORE_USAGE,
      options: { from: { type: 'string' }, force: { type: 'boolean' }, config: { type: 'string' } },
    },
    argv,
  );
  const from = inputFile('from', required('from', values.from));
  const { config } = opsConfig(values.config);
  const driver = config.db.driver ?? 'sqlite';
  const format = backupFormat(from);
  if (format === null)
    throw new UsageError(`--from ${from}: neither a SQLite database nor a pg_dump custom archive`);
  if (format !== driver)
    throw new UsageError(`--from ${from}: a ${format} backup, but the configured db.driver is ${driver}`);
  const box = secretBox(hexKey(config.keys.masterKey));
  const force = values.force === true;
  const r =
    driver === 'postgres'
      ? await restorePostgres(from, config.db.url!, box, force, config.chain.gameContract)
      : await restoreSqlite(from, config.db.path!, box, force, config.chain.gameContract);
  process.stdout.write(summary('restore', from, describeStore(config.db), r));
}
