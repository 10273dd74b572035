/**
 * A `StateStore` on disk for Node players (the CLI): one file per id, mode 0600 in a 0700 folder, replaced
 * atomically (a temporary file in the same folder, fsync, rename, fsync of the folder), so a crash leaves the
 * old state or the new one, never half of either. A file that group or others can read or write is refused:
 * the state is sealed, but its owner should hear about a loosened mode rather than have it go on silently.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { StateStore } from '../sdk/store.ts';

/** The state file is unsafe or unreadable; nothing was read or changed. */
export class StateFileError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'StateFileError';
    this.file = file;
  }
}

export class FileStateStore implements StateStore {
  readonly #pathOf: (id: string) => string;

  /** `pathOf` maps a store id to its file (one file for every id: the CLI's `--state FILE`). */
  constructor(pathOf: (id: string) => string) {
    this.#pathOf = pathOf;
  }

  /** Every id in one file. */
  static file(file: string): FileStateStore {
    const f = path.resolve(file);
    return new FileStateStore(() => f);
  }

  pathOf(id: string): string {
    return this.#pathOf(id);
  }

  async get(id: string): Promise<Uint8Array | null> {
    const file = this.pathOf(id);
    let fh: Awaited<ReturnType<typeof open>>;
    try {
      fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      if (code === 'ELOOP') throw new StateFileError(file, 'is a symbolic link: refused');
      throw new StateFileError(file, `cannot be read (${code ?? (e as Error).message})`);
    }
    try {
      // The mode of the file actually opened (no window between a stat and the open).
      const st = await fh.stat();
      if (!st.isFile()) throw new StateFileError(file, 'is not a regular file');
      if ((st.mode & 0o077) !== 0)
        throw new StateFileError(
          file,
          `is accessible to group or others (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}): refused; chmod 600 it if it is yours`,
        );
      return new Uint8Array(await fh.readFile());
    } finally {
      await fh.close();
    }
  }

  async put(id: string, bytes: Uint8Array): Promise<void> {
    const file = this.pathOf(id);
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(
      dir,
      `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    try {
      const fh = await open(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(bytes);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, file);
    } catch (e) {
      await rm(tmp, { force: true });
      throw new StateFileError(
        file,
        `cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
    // The rename itself is durable once the folder is synced (best effort: not every file system allows it).
    const d = await open(dir, 'r').catch(() => null);
    await d?.sync().catch(() => {});
    await d?.close();
  }

  async delete(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }
}

/** `$XDG_STATE_HOME/shroud/players`, else `~/.local/state/shroud/players`. */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state'), 'shroud', 'players');
}

/** The default state file of a seat: `<dir>/<chainId>-<contract>-<gameId hex>-<player>.json`. */
export function defaultStateFile(
  seat: { chainId: bigint; contract: string; gameId: bigint; player: string },
  env: NodeJS.ProcessEnv = process.env,
): string {
  const name = `${seat.chainId}-${seat.contract.toLowerCase()}-0x${seat.gameId.toString(16)}-${seat.player.toLowerCase()}.json`;
  return path.join(defaultStateDir(env), name);
}
