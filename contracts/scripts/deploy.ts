/**
 * Deploys Shroud (Poseidon 1..6, MapGen, VerifierRegistry, ShroudAudit, ShroudGame, MapProofRegistry), registers
 * rulesets with their generated verifiers, and records `deployments/<chainId>.json`.
 *
 *   node contracts/scripts/deploy.ts --network local [--ruleset tiny] [--record] [--out DIR]
 *   RPC_URL=… DEPLOYER_KEY=0x… node contracts/scripts/deploy.ts --network testnet --ruleset duel [--ruleset …]
 *
 * `--ruleset NAME` (repeatable, or comma-separated) needs the ruleset's generated verifiers: built here
 * for `local` (development keys), for `testnet` by `node scripts/contracts/verifiers.ts --ruleset NAME
 * --ptau-dir DIR` first. The contracts are compiled here. Verifiers whose
 * keys come from the INSECURE development ptau are refused on any chain but 31337 unless --allow-dev-keys.
 * The in-process chain vanishes with the process, so `local` records only with `--record`; `testnet`
 * always records.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import {
  buildContracts,
  ensureBuilt,
  missingVerifiers,
  verifiersCommand,
} from '../../scripts/contracts/ensure.ts';
import {
  type GeneratedRuleset,
  readManifest,
  readSealArtifacts,
  type SealArtifacts,
} from '../../scripts/contracts/rulesets.ts';
import { outputDir, parseCli, runCli, UsageError } from '../../scripts/lib/cli.ts';
import { consoleProgress } from '../../scripts/lib/progress.ts';
import { type Deployed, deployShroud, recordDeployment } from '../deployer.ts';

export interface DeployCliOptions {
  network: 'local' | 'testnet';
  rulesets: string[];
  record: boolean;
  /** Directory of the deployment records (default `deployments/`). */
  out?: string;
  /** Deploy development-key verifiers on a chain other than 31337 (a test network you throw away). */
  allowDevKeys?: boolean;
}

export const DEPLOY_USAGE = `usage: npm run deploy:local [-- --ruleset NAME… --record --out DIR]
       RPC_URL=… DEPLOYER_KEY=0x… npm run deploy:testnet -- --ruleset NAME [--ruleset NAME…] [--allow-dev-keys]

Deploys Poseidon, MapGen, the verifier registry, ShroudGame and MapProofRegistry, registers the
rulesets with their generated verifiers, and records deployments/<chainId>.json.
  --network         local (the in-process chain) or testnet (RPC_URL, DEPLOYER_KEY)
  --ruleset         a shipped ruleset to register (repeatable or comma-separated)
  --record          write the record for a local deployment too
  --out DIR         where records go (default deployments/)
  --allow-dev-keys  deploy verifiers set up on the INSECURE development ptau to a chain other than 31337`;

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
  return {
    network,
    rulesets,
    record: network === 'testnet' || values.record!,
    ...(values.out ? { out: outputDir('out', values.out) } : {}),
    ...(values['allow-dev-keys'] ? { allowDevKeys: true } : {}),
  };
}

/**
 * Refuses verifiers set up on the development ptau (or of unknown origin) for any chain but the local
 * one: their toxic waste is public, so anyone could forge proofs against them.
 */
export function checkDevKeys(
  rulesets: readonly string[],
  chainId: number,
  allow = false,
  m: Record<string, GeneratedRuleset> = readManifest(),
  seal: Pick<SealArtifacts, 'devKeys'> = readSealArtifacts(),
): void {
  if (chainId === 31337 || allow) return;
  if (seal.devKeys !== false)
    throw new UsageError(
      `the seal verifier comes from the INSECURE development ptau (anyone can forge sealed shares), refused on chain ${chainId}; regenerate it on a real ceremony (${verifiersCommand(rulesets)} --ptau-dir DIR) or pass --allow-dev-keys for a throwaway test chain`,
    );
  for (const r of rulesets) {
    const dev = Object.entries(m[r]?.verifiers ?? {}).filter(([, v]) => v?.devKeys !== false);
    if (dev.length > 0)
      throw new UsageError(
        `ruleset ${r}: the ${dev.map(([c]) => c).join(', ')} verifiers come from the INSECURE development ptau (anyone can forge proofs), refused on chain ${chainId}; regenerate them on a real ceremony (${verifiersCommand([r])} --ptau-dir DIR) or pass --allow-dev-keys for a throwaway test chain`,
      );
  }
}

/**
 * Connects to the network, deploys everything with the first signer, registers the rulesets, and (when
 * `record`) writes the deployment record. Returns the deployed contracts, the record and the file written (if any).
 */
export async function runDeploy(o: DeployCliOptions): Promise<Deployed & { file: string | null }> {
  const missing = missingVerifiers(o.rulesets);
  if (o.network === 'local') {
    // The in-process chain takes development keys: build what is missing.
    await ensureBuilt(o.rulesets, { progress: consoleProgress({ out: process.stderr }) });
  } else if (missing.length > 0) {
    throw new UsageError(
      `no generated verifiers for ${missing.join(', ')}: run ${verifiersCommand(missing)} --ptau-dir DIR first (DIR: a real ceremony's powers of tau)`,
    );
  } else buildContracts();
  const { network } = await import('hardhat');
  const { ethers } = await network.connect({ network: o.network });
  checkDevKeys(o.rulesets, Number((await ethers.provider.getNetwork()).chainId), o.allowDevKeys);
  const deployed = await deployShroud(ethers, undefined, o.rulesets);
  const file = o.record ? await recordDeployment(deployed.deployment, o.out) : null;
  return { ...deployed, file };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('deploy', async () => {
    const { deployment, file } = await runDeploy(parseDeployArgs(process.argv.slice(2)));
    if (file) console.error(`recorded ${file}`);
    console.log(JSON.stringify(deployment, null, 2));
  });
}
