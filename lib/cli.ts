/**
 * One convention for every Shroud CLI (map, demo, bench, audit, deploy, dealer, the CLI player,
 * circuits:build, verifiers):
 *   `--help`/`-h`: the usage on stdout, exit 0;
 *   a user error (unknown or malformed flag, missing value, missing file, unwritable path): one line
 *   `<cli>: <what is wrong>` naming the flag on stderr, exit 2;
 *   any other failure: one line `<cli>: <message>`, exit 1 (the stack only with SHROUD_DEBUG=1).
 * It wraps node:util parseArgs once. It lives in lib/, below the dealer, the client and scripts/, which all
 * use it (nothing imports upward).
 */
import { accessSync, closeSync, constants, existsSync, openSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

/** A mistake in how the command was called: exit 2, one line. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliSpec<T extends ParseArgsOptionsConfig> {
  /** Prefix of every error line, e.g. `map`. */
  name: string;
  /** The text `--help` prints (starting with `usage:`). */
  usage: string;
  options: T;
  /** Whether positional arguments are allowed (default: none). */
  positionals?: boolean;
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Parses argv by the spec; prints the usage and exits 0 on --help; throws a UsageError (exit 2 under
 * runCli) on a bad flag.
 */
export function parseCli<T extends ParseArgsOptionsConfig>(spec: CliSpec<T>, argv = process.argv.slice(2)) {
  const flags = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (flags.includes('--help') || flags.includes('-h')) {
    process.stdout.write(`${spec.usage.trimEnd()}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({
      args: argv,
      options: { ...spec.options, ...HELP },
      allowPositionals: spec.positionals ?? false,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(parseErrorLine(e as Error & { code?: string }));
  }
}

/**
 * For top-level scripts that do not run under runCli (the dealer, the CLI player): parses argv and
 * hands the values to `then` (which may check files); a usage error exits 2 right here.
 */
export function cliArgs<T extends ParseArgsOptionsConfig, R>(
  spec: CliSpec<T>,
  then: (parsed: ReturnType<typeof parseCli<T>>) => R,
  argv = process.argv.slice(2),
): R {
  try {
    return then(parseCli(spec, argv));
  } catch (e) {
    if (e instanceof UsageError) exitUsage(spec.name, e.message);
    throw e;
  }
}

/** node:util's messages, shortened to one line that names the flag. */
export function parseErrorLine(e: Error & { code?: string }): string {
  const flag = /'(-{1,2}[^'\s]+)/.exec(e.message)?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag ?? e.message} (see --help)`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(e.message)
        ? `${flag} takes no value (see --help)`
        : `${flag} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const arg = /'([^']*)'/.exec(e.message)?.[1];
      return `unexpected argument "${arg ?? e.message}" (see --help)`;
    }
    default:
      return e.message.split('\n')[0]!;
  }
}

/** Prints `<cli>: <message>` and exits 2. */
export function exitUsage(cli: string, message: string): never {
  process.stderr.write(`${cli}: ${oneLine(message)}\n`);
  process.exit(2);
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

/** The value of a required flag, or a usage error naming it. */
export function required(flag: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${flag} is required (see --help)`);
  return value;
}

/** An existing, readable file given by `--flag`. */
export function inputFile(flag: string, file: string): string {
  if (!existsSync(file)) throw new UsageError(`--${flag} ${file}: no such file`);
  try {
    if (statSync(file).isDirectory()) throw new UsageError(`--${flag} ${file}: is a folder, not a file`);
    accessSync(file, constants.R_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--${flag} ${file}: not readable`);
  }
  return file;
}

/** An existing folder given by `--flag`. */
export function inputDir(flag: string, dir: string): string {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`--${flag} ${dir}: no such folder`);
  return dir;
}

/**
 * A path `--flag` may write: its folder exists, it is not a folder, and it opens for writing (tried
 * for real, since permission bits do not tell root or special file systems the truth).
 */
export function outputFile(flag: string, file: string): string {
  const dir = path.dirname(path.resolve(file));
  if (!existsSync(dir)) throw new UsageError(`--${flag} ${file}: folder ${dir} does not exist`);
  const existed = existsSync(file);
  if (existed && statSync(file).isDirectory())
    throw new UsageError(`--${flag} ${file}: is a folder, not a file`);
  try {
    closeSync(openSync(file, 'a'));
  } catch (e) {
    throw new UsageError(`--${flag} ${file}: not writable (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!existed) rmSync(file, { force: true });
  return file;
}

/** A folder `--flag` may create or write into. */
export function outputDir(flag: string, dir: string): string {
  let d = path.resolve(dir);
  while (!existsSync(d)) d = path.dirname(d);
  if (!statSync(d).isDirectory()) throw new UsageError(`--${flag} ${dir}: ${d} is a file, not a folder`);
  try {
    accessSync(d, constants.W_OK);
  } catch {
    throw new UsageError(`--${flag} ${dir}: ${d} is not writable`);
  }
  return dir;
}

/** An integer flag within bounds. */
export function intFlag(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || n < min || n > max)
    throw new UsageError(`--${flag} must be an integer in ${min}..${max}, got "${value}"`);
  return n;
}

/**
 * Runs a CLI's body: a UsageError exits 2, any other error exits 1, each as one line
 * `<cli>: <message>` (SHROUD_DEBUG=1 adds the stack).
 */
export async function runCli(cli: string, main: () => Promise<void> | void): Promise<void> {
  try {
    await main();
  } catch (e) {
    const err = e as Error;
    if (process.env.SHROUD_DEBUG) process.stderr.write(`${err?.stack ?? err}\n`);
    if (err instanceof UsageError) exitUsage(cli, err.message);
    process.stderr.write(`${cli}: ${oneLine(err?.message ?? String(err))}\n`);
    process.exit(1);
  }
}
