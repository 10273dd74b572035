import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../lib/cli.ts';

/**
 * Creates `file` for the owner only (0600) and never over an existing one: keys and backups are not
 * something to clobber or to let other users read. Returns the open descriptor; `--flag` names the option
 * in errors.
 */
export function createPrivateFile(flag: string, file: string): number {
  try {
    return openSync(file, 'wx', 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new UsageError(`--${flag} ${file}: already exists (refusing to overwrite it)`);
    if (code === 'ENOENT')
      throw new UsageError(`--${flag} ${file}: folder ${path.dirname(path.resolve(file))} does not exist`);
    if (code === 'EISDIR') throw new UsageError(`--${flag} ${file}: is a folder, not a file`);
    throw new UsageError(`--${flag} ${file}: not writable (${code ?? 'error'})`);
  }
}

/** Writes `text` to a new 0600 file (see createPrivateFile) and flushes it to disk. */
export function writePrivateFile(flag: string, file: string, text: string): void {
  const fd = createPrivateFile(flag, file);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
