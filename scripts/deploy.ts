/**
 * Deploys Shroud with the Ignition modules (contracts/ignition/): Poseidon 1..6, MapGen, the verifier registry,
 * the seal verifier, ShroudGame and its libraries, MapProofRegistry; registers rulesets with their generated
 * verifiers; records `deployments/<chainId>.json`.
 *
 *   node scripts/deploy.ts --network local [--ruleset tiny] [--record] [--out DIR]
 *   RPC_URL=… DEPLOYER_KEY=0x… node scripts/deploy.ts --network testnet --ruleset duel [--ruleset …]
 *
 * `testnet` deployments are journaled (ignition/deployments/chain-<id>/): after a failure the same command resumes
 * without redeploying what was deployed. The in-process chain (`local`) vanishes with the process: no journal, and
 * it records only with `--record`. `--ruleset NAME` needs the ruleset's generated verifiers: built here for
 * `local` (development keys), for `testnet` by `node scripts/contracts/verifiers.ts --ruleset NAME --ptau-dir DIR`
 * first. Keys refused off the local chain: scripts/contracts/keys.ts.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Deployed,
  defaultDeploymentId,
  deployShroud,
  IGNITION_DIR,
  journalDirOf,
} from '../contracts/ignition/deploy.ts';
import { recordDeployment } from '../contracts/ignition/record.ts';
import { shippedRulesetNames } from '../core/ruleset/shipped.ts';
import { intFlag, outputDir, parseCli, runCli, UsageError } from '../lib/cli.ts';
import { buildContracts, ensureBuilt, missingVerifiers, verifiersCommand } from './contracts/ensure.ts';
import { checkDevKeys } from './contracts/keys.ts';
import { deployPlan } from './contracts/plan.ts';
import { consoleProgress } from './lib/progress.ts';

export interface DeployCliOptions {
  network: 'local' | 'testnet';
  rulesets: string[];
  record: boolean;
  /** Directory of the deployment records (default `deployments/`). */
  out?: string;
  /** Deploy development-key verifiers on a chain other than 31337 (a test network you throw away). */
  allowDevKeys?: boolean;
  /** Phase-2 contributions each zkey needs off the local chain (default 1). */
  minContributions?: number;
  /** Ignition deployment id (testnet; default `chain-<chainId>`). */
  deploymentId?: string;
  /** Ignition folder (testnet; default `ignition/`): the journal is `<dir>/deployments/<deployment id>/`. */
  ignitionDir?: string;
}

export const DEPLOY_USAGE = `usage: npm run deploy:local [-- --ruleset NAME… --record --out DIR]
       RPC_URL=… DEPLOYER_KEY=0x… npm run deploy:testnet -- --ruleset NAME [--ruleset NAME…] [options]

Deploys Poseidon, MapGen, the verifier registry, ShroudGame and MapProofRegistry (Hardhat Ignition modules),
registers the rulesets with their generated verifiers, and records deployments/<chainId>.json.
Testnet deployments are journaled in ignition/deployments/<deployment id>/: after a failure, run the same
command again to resume (nothing deployed is deployed twice).
  --network              local (the in-process chain) or testnet (RPC_URL, DEPLOYER_KEY)
  --ruleset              a shipped ruleset to register (repeatable or comma-separated)
  --record               write the record for a local deployment too
  --out DIR              where records go (default deployments/)
  --allow-dev-keys       deploy keys from the INSECURE development ptau, or with too few contributions,
                         to a chain other than 31337
  --min-contributions N  phase-2 contributions each zkey needs off chain 31337 (default 1)
  --deployment-id ID     testnet: the journal's id (default chain-<chainId>)
  --ignition-dir DIR     testnet: the Ignition folder holding deployments/<id>/ (default ignition/)`;

/** Ignition's rule for deployment ids. */
const DEPLOYMENT_ID = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

/** Parses the CLI arguments (throws a UsageError). */
export function parseDeployArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): DeployCliOptions {
  const { values } = parseCli(
    {
      name: 'deploy',
      usage: DEPLOY_USAGE,
      options: {
        network: { type: 'string', default: 'local' },
        ruleset: { type: 'string', multiple: true, default: [] },
        record: { type: 'boolean', default: false },
        out: { type: 'string' },
        'allow-dev-keys': { type: 'boolean', default: false },
        'min-contributions': { type: 'string' },
        'deployment-id': { type: 'string' },
        'ignition-dir': { type: 'string' },
      },
    },
    [...argv],
  );
  const network = values.network!;
  if (network !== 'local' && network !== 'testnet') {
    throw new UsageError(`--network must be local or testnet, got "${network}"`);
  }
  if (network === 'testnet' && (!env['RPC_URL'] || !env['DEPLOYER_KEY'])) {
    throw new UsageError('testnet deploys need RPC_URL and DEPLOYER_KEY in the environment');
  }
  const rulesets = [...new Set(values.ruleset!.flatMap((r) => r.split(',')).filter(Boolean))];
  for (const r of rulesets)
    if (!shippedRulesetNames.includes(r))
      throw new UsageError(`--ruleset ${r}: unknown; shipped: ${shippedRulesetNames.join(', ')}`);
  for (const flag of ['deployment-id', 'ignition-dir'] as const)
    if (network === 'local' && values[flag] !== undefined)
      throw new UsageError(`--${flag}: the in-process chain (--network local) keeps no journal`);
  const id = values['deployment-id'];
  if (id !== undefined && !DEPLOYMENT_ID.test(id))
    throw new UsageError(`--deployment-id ${id}: letters, digits, - and _ only, starting with a letter`);
  const min = values['min-contributions'];
  return {
    network,
    rulesets,
    record: network === 'testnet' || values.record!,
    ...(values.out ? { out: outputDir('out', values.out) } : {}),
    ...(values['allow-dev-keys'] ? { allowDevKeys: true } : {}),
    ...(min !== undefined ? { minContributions: intFlag('min-contributions', min, 0, 1000) } : {}),
    ...(id ? { deploymentId: id } : {}),
    ...(values['ignition-dir'] ? { ignitionDir: outputDir('ignition-dir', values['ignition-dir']) } : {}),
  };
}

/**
 * Connects to the network, checks the keys, deploys (or resumes) with the first account, and (when `record`)
 * writes the deployment record. Returns the deployed contracts, the record, the file written and the journal.
 */
export async function runDeploy(
  o: DeployCliOptions,
): Promise<Deployed & { file: string | null; journalDir: string | null }> {
  const missing = missingVerifiers(o.rulesets);
  const progress = consoleProgress({ out: process.stderr });
  if (o.network === 'local') {
    // The in-process chain takes development keys: build what is missing.
    await ensureBuilt(o.rulesets, { progress });
  } else if (missing.length > 0) {
    throw new UsageError(
      `no generated verifiers for ${missing.join(', ')}: run ${verifiersCommand(missing)} --ptau-dir DIR first (DIR: a real ceremony's powers of tau)`,
    );
  } else buildContracts();
  const { network } = await import('hardhat');
  const conn = await network.connect({ network: o.network });
  const chainId = Number((await conn.ethers.provider.getNetwork()).chainId);
  checkDevKeys(o.rulesets, chainId, {
    ...(o.allowDevKeys ? { allowDevKeys: true } : {}),
    ...(o.minContributions !== undefined ? { minContributions: o.minContributions } : {}),
  });
  const plan = await deployPlan(o.rulesets);
  const journalDir =
    o.network === 'testnet'
      ? journalDirOf(o.deploymentId ?? defaultDeploymentId(chainId), o.ignitionDir ?? IGNITION_DIR)
      : null;
  // A testnet deployment takes minutes (confirmations): say each step as it is confirmed.
  const deployed = await deployShroud(
    conn,
    plan,
    journalDir ? { journalDir, onStep: (id) => progress.line(`done ${id}`) } : {},
  );
  const file = o.record ? await recordDeployment(deployed.deployment, o.out) : null;
  return { ...deployed, file, journalDir };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('deploy', async () => {
    const { deployment, file, journalDir } = await runDeploy(parseDeployArgs(process.argv.slice(2)));
    if (journalDir) console.error(`journal ${path.relative(process.cwd(), journalDir)}`);
    if (file) console.error(`recorded ${file}`);
    console.log(JSON.stringify(deployment, null, 2));
  });
}
