/**
 * What SQLite and PostgreSQL backups share: the result both report, how a file says which kind it is, and
 * the check that the configured at-rest key opens the secrets being copied (a backup is only worth keeping
 * with the key that opens it, and a restore under another key would leave a dealer that cannot deal).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { openSecrets } from '../store/sealed-secrets.ts';
import type { SecretBox } from '../store/secret-box.ts';

export interface CopyReport {
  /** Games in the copied database. */
  games: number;
  /** Games whose sealed secrets were opened with the configured masterKey (all of those that have any). */
  secretsChecked: number;
  /** Size of the backup file. */
  bytes: number;
  /** Wall time of the copy itself (not the checks). */
  ms: number;
}

/** `sqlite`: a SQLite database file (node:sqlite backup). `postgres`: a pg_dump custom-format archive. */
export type BackupFormat = 'sqlite' | 'postgres';

/** The format by the file's magic bytes, or null. */
export function backupFormat(file: string): BackupFormat | null {
  const head = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') === 'SQLite format 3\u0000') return 'sqlite';
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'postgres';
  return null;
}

/** One `game_secrets` row as stored: the game id in decimal, the AES-GCM text. */
export interface SealedSecretsRow {
  gameId: string;
  sealed: string;
}

/** Opens every row with `box`; throws naming the first game that does not open (never a value). */
export function checkSecretsOpen(box: SecretBox, rows: readonly SealedSecretsRow[]): number {
  for (const r of rows) {
    try {
      openSecrets(box, BigInt(r.gameId), r.sealed);
    } catch {
      throw new Error(
        `the configured masterKey does not open game ${r.gameId}'s secrets: SHROUD_MASTER_KEY must be ` +
          'the key this database was written under',
      );
    }
  }
  return rows.length;
}

/**
 * Throws unless every game in a backup is on `contract`, this dealer's game contract (`chain.gameContract`):
 * a database of another deployment (a dealer sharing the key file, or one whose games have no secrets yet
 * to fail the key check) would bring its cursor, games and lobbies, and `--force` would replace this dealer's.
 */
export function checkGamesContract(contracts: readonly string[], contract: string): void {
  const other = contracts.find((c) => c.toLowerCase() !== contract.toLowerCase());
  if (other !== undefined)
    throw new Error(
      `the backup holds games of game contract ${other}, not this dealer's ${contract} ` +
        '(chain.gameContract): a database of another deployment',
    );
}

/** Tables whose rows do not make a database worth keeping: migrations bookkeeping and the health probe. */
export const BOOKKEEPING_TABLES = new Set(['schema_migrations', 'health']);
