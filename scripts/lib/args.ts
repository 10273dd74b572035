import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

/** Parses CLI flags with node:util, exiting with the usage line on unknown or malformed flags. */
export function cliArgs<T extends ParseArgsOptionsConfig>(
  usage: string,
  options: T,
  argv = process.argv.slice(2),
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    console.error(`${(e as Error).message}\nusage: ${usage}`);
    process.exit(2);
  }
}

/** Fails the command with one clear line, no stack trace, for user errors. */
export function die(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}
