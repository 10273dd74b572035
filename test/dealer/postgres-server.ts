/**
 * A throwaway PostgreSQL server for tests: `initdb` into a temp dir, started on a free loopback port
 * (its unix socket in the temp dir), a generated password, stopped and deleted afterwards. PostgreSQL
 * refuses to run as root, so under root the server binaries run as the `postgres` OS user.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../helpers/free-port.ts';

export interface PgServer {
  readonly port: number;
  /** The superuser's password (generated): tests check it never leaks into a message. */
  readonly password: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(): Promise<string>;
  /** A URL for `database` on this server (which need not exist). */
  url(database: string, password?: string): string;
  /** Stops the server the hard way (`pg_ctl stop -m immediate`): a crash, recovered from on start. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its directory. */
  destroy(): Promise<void>;
}

const LOOKED_IN = '/usr/lib/postgresql/*/bin, pg_config --bindir';
const INSTALL_HINT = 'install the server with `apt-get install postgresql`';

/** The directory holding initdb, pg_ctl and postgres, or null. Newest major version first. */
export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const dirs = versions.map((v) => join(root, v, 'bin'));
  try {
    dirs.push(
      execFileSync('pg_config', ['--bindir'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim(),
    );
  } catch {
    // no pg_config on PATH
  }
  return dirs.find((d) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(d, b)))) ?? null;
}

/** CI (`.ci/run` sets SHROUD_REQUIRE_POSTGRES; most CI systems set CI) installs the server: never skip there. */
const REQUIRED = Boolean(process.env.SHROUD_REQUIRE_POSTGRES || process.env.CI);

/**
 * Why the Postgres tests are skipped here, or false to run them. Where the server is required they never
 * skip: startPostgres then fails with the reason.
 */
export function postgresSkip(): string | false {
  if (findPgBin() || REQUIRED) return false;
  return `PostgreSQL server binaries not found (${LOOKED_IN}): ${INSTALL_HINT}`;
}

/** Runs a server binary, as the `postgres` user when we are root; rejects with its output on failure. */
function run(cmd: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    // stdin ignored and 'exit' (not 'close'): the daemonized postmaster must not hold us up.
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd.split('/').pop()} exited with ${code}: ${out.trim()}`));
    });
  });
}

let dbCounter = 0;

export async function startPostgres(): Promise<PgServer> {
  const bin = findPgBin();
  if (!bin) {
    const fix = REQUIRED ? 'CI must install them (.ci/run installs the postgresql package)' : INSTALL_HINT;
    throw new Error(`PostgreSQL server binaries not found (${LOOKED_IN}): ${fix}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'shroud-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const password = randomBytes(18).toString('base64url');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (process.getuid?.() === 0) {
    let ids: number[];
    try {
      ids = ['-u', '-g'].map((f) => Number(execFileSync('id', [f, 'postgres'], { encoding: 'utf8' })));
    } catch {
      rmSync(dir, { recursive: true, force: true });
      throw new Error('running as root: the server must run as the `postgres` OS user, which does not exist');
    }
    chownSync(dir, ids[0]!, ids[1]!);
    chownSync(pwfile, ids[0]!, ids[1]!);
  }
  // Always attempted (a failed or timed-out start may still have left a server running).
  const stopSync = () => {
    if (!existsSync(join(data, 'postmaster.pid'))) return;
    try {
      const args = [join(bin, 'pg_ctl'), '-D', data, 'stop', '-m', 'immediate', '-w'];
      if (process.getuid?.() === 0) {
        execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'ignore' });
      } else {
        execFileSync(args[0]!, args.slice(1), { stdio: 'ignore' });
      }
    } catch {
      // already gone
    }
  };
  // A test process that dies before its after() hook must not leave a server behind.
  const onExit = () => {
    stopSync();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  try {
    await run(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      `--pwfile=${pwfile}`,
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
  } catch (e) {
    onExit();
    process.removeListener('exit', onExit);
    throw e;
  }
  rmSync(pwfile);

  let port = 0;
  const start = async () => {
    // fsync off: these data are throwaway; commits still reach the OS, so an immediate stop keeps them.
    const opts = `-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB -c max_connections=60`;
    await run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', '-o', opts, 'start']);
  };
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (e) {
      // Another process may have taken the port between our probe and the server's bind.
      const why = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      if (attempt < 2 && /could not bind|address already in use/i.test(why)) continue;
      onExit();
      process.removeListener('exit', onExit);
      throw new Error(`${(e as Error).message}\n${why}`);
    }
  }

  const url = (database: string, pw = password) =>
    `postgres://postgres:${encodeURIComponent(pw)}@127.0.0.1:${port}/${database}`;
  return {
    port,
    password,
    url,
    async createDatabase() {
      const name = `shroud_${process.pid}_${++dbCounter}`;
      const c = new pg.Client({ connectionString: url('postgres') });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${name}`);
      } finally {
        await c.end();
      }
      return url(name);
    },
    async stop() {
      await run(join(bin, 'pg_ctl'), ['-D', data, 'stop', '-m', 'immediate', '-w']);
    },
    start,
    async destroy() {
      onExit();
      process.removeListener('exit', onExit);
    },
  };
}
