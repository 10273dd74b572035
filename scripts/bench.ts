import { writeFileSync } from 'node:fs';
import { cliArgs, die } from './lib/args.ts';

const USAGE =
  'npm run bench -- <core|circuits|gas|dealer|mapproof> [--ruleset R] [--ptau-dir DIR] --json FILE';

/** Each suite returns a flat object of numeric metrics; loaded lazily so one suite's deps never slow another. */
const SUITES: Record<string, (o: { ruleset?: string; ptauDir?: string }) => Promise<Record<string, number>>> =
  {
    core: async () => (await import('./bench-core.ts')).benchCore(),
    circuits: async (o) =>
      (await import('./circuits/bench.ts')).benchCircuits({
        ruleset: o.ruleset ?? 'tiny',
        ptauDir: o.ptauDir,
      }),
    gas: async () => (await import('./bench-gas.ts')).benchGas(),
    dealer: async () => (await import('./bench-dealer.ts')).benchDealer(),
    mapproof: async (o) =>
      (await import('./bench-mapproof.ts')).benchMapProof({
        ruleset: o.ruleset ?? 'duel',
        ptauDir: o.ptauDir,
      }),
  };

const { values, positionals } = cliArgs(USAGE, {
  ruleset: { type: 'string' },
  'ptau-dir': { type: 'string' },
  json: { type: 'string' },
});
const suite = positionals[0];
if (!suite || !(suite in SUITES)) die(`unknown suite "${suite ?? ''}"; ${USAGE}`);
const metrics = await SUITES[suite]!({ ruleset: values.ruleset, ptauDir: values['ptau-dir'] });
for (const [k, v] of Object.entries(metrics)) {
  if (typeof v !== 'number' || !Number.isFinite(v)) die(`metric ${k} is not a finite number: ${v}`);
}
const json = `${JSON.stringify(metrics, null, 2)}\n`;
if (values.json) writeFileSync(values.json, json);
process.stdout.write(json);
// Suites may leave handles open (an in-process chain, prover threads): the report is written, so end here.
process.exit(0);
