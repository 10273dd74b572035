/**
 * Deploys Shroud (Poseidon 1..6, MapGen, VerifierRegistry, ShroudAudit, ShroudGame, MapProofRegistry), registers
 * rulesets with their generated verifiers, and records `deployments/<chainId>.json`.
 *
 *   node contracts/scripts/deploy.ts --network local [--ruleset tiny] [--record] [--out DIR]
 *   RPC_URL=… DEPLOYER_KEY=0x… node contracts/scripts/deploy.ts --network testnet --ruleset duel [--ruleset …]
 *
 * `--ruleset NAME` (repeatable, or comma-separated) needs `node scripts/contracts/verifiers.ts --ruleset NAME`
 * followed by `hardhat build`. The in-process chain vanishes with the process, so `local` records only with
 * `--record`; `testnet` always records.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Deployed, deployShroud, recordDeployment } from '../deployer.ts';

export interface DeployCliOptions {
  network: 'local' | 'testnet';
  rulesets: string[];
  record: boolean;
  /** Directory of the deployment records (default `deployments/`). */
  out?: string;
}

/** Parses the CLI arguments (throws a usage error). */
export function parseDeployArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): DeployCliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      network: { type: 'string', default: 'local' },
      ruleset: { type: 'string', multiple: true, default: [] },
      record: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
    strict: true,
  });
  const network = values.network!;
  if (network !== 'local' && network !== 'testnet') {
    throw new Error(`--network must be local or testnet, got "${network}"`);
  }
  if (network === 'testnet' && (!env['RPC_URL'] || !env['DEPLOYER_KEY'])) {
    throw new Error('testnet deploys need RPC_URL and DEPLOYER_KEY in the environment');
  }
  const rulesets = [...new Set(values.ruleset!.flatMap((r) => r.split(',')).filter(Boolean))];
  return {
    network,
    rulesets,
    record: network === 'testnet' || values.record!,
    ...(values.out ? { out: values.out } : {}),
  };
}

/**
 * Connects to the network, deploys everything with the first signer, registers the rulesets, and (when
 * `record`) writes the deployment record. Returns the deployed contracts, the record and the file written (if any).
 */
export async function runDeploy(o: DeployCliOptions): Promise<Deployed & { file: string | null }> {
  const { network } = await import('hardhat');
  const { ethers } = await network.connect({ network: o.network });
  const deployed = await deployShroud(ethers, undefined, o.rulesets);
  const file = o.record ? await recordDeployment(deployed.deployment, o.out) : null;
  return { ...deployed, file };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let opts: DeployCliOptions;
  try {
    opts = parseDeployArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    console.error(
      'usage: node contracts/scripts/deploy.ts --network local|testnet [--ruleset NAME]… [--record] [--out DIR]',
    );
    process.exit(2);
  }
  try {
    const { deployment, file } = await runDeploy(opts);
    if (file) console.error(`recorded ${file}`);
    console.log(JSON.stringify(deployment, null, 2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
