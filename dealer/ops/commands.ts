/**
 * The dealer's operations subcommands (`npm run dealer -- <command> …`), each a small module of its own.
 * Every one follows the CLI convention (lib/cli.ts): `--help`, one-line errors, exit 2 on misuse.
 */
import { runCli } from '../../lib/cli.ts';
import { proverCommand } from '../prover/command.ts';
import { backupCommand, restoreCommand } from './backup.ts';
import { checkCommand } from './check.ts';
import { keysCommand } from './keys.ts';

export const COMMANDS: Readonly<Record<string, (argv: string[]) => void | Promise<void>>> = {
  keys: keysCommand,
  check: checkCommand,
  backup: backupCommand,
  restore: restoreCommand,
  prover: proverCommand,
};

export function isCommand(arg: string | undefined): arg is string {
  return arg !== undefined && Object.hasOwn(COMMANDS, arg);
}

/** Runs one subcommand to completion, then exits (0, or as runCli decides on an error). */
export async function runCommand(name: string, argv: string[]): Promise<never> {
  await runCli(`dealer ${name}`, () => COMMANDS[name]!(argv));
  process.exit(0);
}
