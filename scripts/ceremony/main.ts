/**
 * The production phase-2 trusted setup: `npm run ceremony -- <init|contribute|verify|beacon|finalize> …`.
 * One module per subcommand; this file only dispatches (the CLI convention of lib/cli.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCli, runCli, UsageError } from '../../lib/cli.ts';
import { consoleUi, type Ui } from './ui.ts';

type Subcommand = (argv: string[], ui: Ui) => Promise<void>;
/** Loaded on use: `--help` and usage errors stay quick (no compiler, snarkjs or ethers to load). */
const SUBCOMMANDS: Record<string, () => Promise<Subcommand>> = {
  init: async () => (await import('./init.ts')).initCli,
  contribute: async () => (await import('./contribute.ts')).contributeCli,
  beacon: async () => (await import('./beacon.ts')).beaconCli,
  verify: async () => (await import('./verify.ts')).verifyCli,
  finalize: async () => (await import('./finalize.ts')).finalizeCli,
};

const USAGE = `usage: npm run ceremony -- <init|contribute|beacon|verify|finalize> … (each takes --help)

The Groth16 phase-2 ceremony for production keys, on a published Hermez powers of tau:
  init        the coordinator: checks the ptau, compiles the circuits, writes the first zkeys and ceremony.json
  contribute  each contributor in turn, on their own machine, on the folder the previous one passed on
  beacon      after the last contribution: a public random beacon (e.g. a future block hash)
  verify      anyone: every zkey against the r1cs and the ptau, every contribution and attestation
  finalize    the deployer: verify, then write the verifiers, manifest.json and seal.json for deploy
snarkjs output goes to DIR/ceremony.log.`;

export async function main(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const load = sub === undefined ? undefined : SUBCOMMANDS[sub];
  if (load) return (await load())(rest, consoleUi());
  // No subcommand: --help, or a flag this level does not know (a one-line usage error).
  parseCli({ name: 'ceremony', usage: USAGE, options: {}, positionals: true }, argv);
  if (sub === undefined)
    throw new UsageError(`a subcommand is required: ${Object.keys(SUBCOMMANDS).join(', ')}`);
  throw new UsageError(`unknown subcommand "${sub}"; subcommands: ${Object.keys(SUBCOMMANDS).join(', ')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('ceremony', () => main(process.argv.slice(2)));
}
