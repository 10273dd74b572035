import { writeFileSync } from 'node:fs';
import { shippedRulesetNames } from '../core/ruleset/shipped.ts';
import { inputDir, intFlag, outputFile, parseCli, runCli, UsageError } from '../lib/cli.ts';
import { consoleProgress } from './lib/progress.ts';

const USAGE = `usage: npm run bench -- <core|maps|circuits|gas|dealer|mapproof|mapproof-queue|soak|demo|browser> [--ruleset R] [--games N] [--turns N] [--sim] [--seeds N] [--ptau-dir DIR] [--json FILE]

Runs one benchmark suite and prints (and with --json writes) a flat JSON of numeric metrics.
  --ruleset R      circuits, mapproof-queue and browser (default tiny), mapproof, soak and demo (default duel)
  --games N        soak: games dealt and played (default 1000, at least 10); demo: games, one per bot seed (default 10)
  --turns N        demo: turns per player after the spawns (default: the demo's default)
  --sim            demo: the same bots in the in-process game (no chain, dealer or proofs): seconds, not minutes
  --seeds N        maps: seeds per ruleset (default 1000)
  --ptau-dir DIR   prepared powers of tau (also $SHROUD_PTAU_DIR); default: INSECURE development ones
  --json FILE      also write the metrics to FILE
Suites build what they need first (circuits, keys, verifiers, contracts), with progress on stderr.`;

type Opts = {
  ruleset?: string;
  ptauDir?: string;
  games?: number;
  turns?: number;
  sim?: boolean;
  seeds?: number;
};

/** Each suite returns a flat object of numeric metrics; loaded lazily so one suite's deps never slow another. */
const SUITES: Record<string, (o: Opts) => Promise<Record<string, number>>> = {
  core: async () => (await import('./bench-core.ts')).benchCore(),
  maps: async (o) => (await import('./bench-maps.ts')).benchMaps({ seeds: o.seeds ?? 1000 }),
  circuits: async (o) =>
    (await import('./circuits/bench.ts')).benchCircuits({
      ruleset: o.ruleset ?? 'tiny',
      ptauDir: o.ptauDir,
    }),
  gas: async (o) => {
    // Real duel proofs need the duel verifiers and the compiled contracts (development keys: in-process chain).
    const { ensureBuilt } = await import('./contracts/ensure.ts');
    await ensureBuilt(['duel'], {
      ...(o.ptauDir ? { ptauDir: o.ptauDir } : {}),
      progress: consoleProgress({ out: process.stderr }),
    });
    return (await import('./bench-gas.ts')).benchGas();
  },
  dealer: async () => (await import('./bench-dealer.ts')).benchDealer(),
  mapproof: async (o) =>
    (await import('./bench-mapproof.ts')).benchMapProof({
      ruleset: o.ruleset ?? 'duel',
      ptauDir: o.ptauDir,
    }),
  // Chunk proofs on the PostgreSQL job queue with 1, then 2 prover processes (a throwaway server).
  'mapproof-queue': async (o) =>
    (await import('./bench-mapproof-queue.ts')).benchMapProofQueue({
      ruleset: o.ruleset ?? 'tiny',
      ptauDir: o.ptauDir,
    }),
  soak: async (o) =>
    (await import('./bench-soak.ts')).benchSoak({ games: o.games ?? 1000, ruleset: o.ruleset ?? 'duel' }),
  // The demo's combat over real games (chain, dealer, proofs): hit rates against a uniform guess.
  demo: async (o) => (await import('./bench-demo.ts')).benchDemo(o),
  browser: async (o) => (await import('./bench-browser.ts')).benchBrowser({ ruleset: o.ruleset ?? 'tiny' }),
};

await runCli('bench', async () => {
  const { values, positionals } = parseCli({
    name: 'bench',
    usage: USAGE,
    positionals: true,
    options: {
      ruleset: { type: 'string' },
      'ptau-dir': { type: 'string' },
      games: { type: 'string' },
      turns: { type: 'string' },
      sim: { type: 'boolean' },
      seeds: { type: 'string' },
      json: { type: 'string' },
    },
  });
  const suite = positionals[0];
  if (!suite) throw new UsageError(`a suite is required: ${Object.keys(SUITES).join(', ')} (see --help)`);
  if (!(suite in SUITES))
    throw new UsageError(`unknown suite "${suite}"; suites: ${Object.keys(SUITES).join(', ')}`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}" (see --help)`);
  if (values.ruleset && !shippedRulesetNames.includes(values.ruleset))
    throw new UsageError(`--ruleset ${values.ruleset}: unknown; shipped: ${shippedRulesetNames.join(', ')}`);
  if (values.json) outputFile('json', values.json);
  const ptauDir = values['ptau-dir'] ? inputDir('ptau-dir', values['ptau-dir']) : undefined;
  const games =
    values.games === undefined
      ? undefined
      : intFlag('games', values.games, suite === 'soak' ? 10 : 1, 1_000_000);
  const turns = values.turns === undefined ? undefined : intFlag('turns', values.turns, 1, 500);
  if (turns !== undefined && suite !== 'demo') throw new UsageError('--turns is for the demo suite only');
  if (values.sim && suite !== 'demo') throw new UsageError('--sim is for the demo suite only');
  const seeds = values.seeds === undefined ? undefined : intFlag('seeds', values.seeds, 1, 1_000_000);
  const metrics = await SUITES[suite]!({
    ...(values.ruleset ? { ruleset: values.ruleset } : {}),
    ...(ptauDir ? { ptauDir } : {}),
    ...(games === undefined ? {} : { games }),
    ...(turns === undefined ? {} : { turns }),
    ...(values.sim ? { sim: true } : {}),
    ...(seeds === undefined ? {} : { seeds }),
  });
  for (const [k, v] of Object.entries(metrics)) {
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new Error(`metric ${k} is not a finite number: ${v}`);
  }
  const json = `${JSON.stringify(metrics, null, 2)}\n`;
  if (values.json) writeFileSync(values.json, json);
  process.stdout.write(json);
});
// Suites may leave handles open (an in-process chain, prover threads): the report is written, so end here.
process.exit(0);
