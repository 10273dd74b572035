/**
 * The deployment record other tools read (`deployments/<chainId>.json`: the audit, the demo, the dealer's
 * config): derived from an Ignition result, whatever run of a resumed deployment finished it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArtifactHashes } from '../../core/artifacts.ts';
import type { GameLibrary } from './plan.ts';

export interface Deployment {
  chainId: number;
  deployer: string;
  /** circomlibjs Poseidon contract per arity, keyed `poseidon1`..`poseidon6`. */
  poseidon: Record<string, string>;
  mapGen: string;
  /** The libraries linked into ShroudGame, one per protocol concern. */
  libraries: Record<GameLibrary, string>;
  /** The sealed-share Groth16 verifier ShroudGame checks every sealed reveal with. */
  sealVerifier: string;
  /** VerifierRegistry (owned by the deployer). */
  registry: string;
  shroudGame: string;
  /** MapProofRegistry: verified maproot proofs per game. */
  mapProofRegistry: string;
  /** Registered rulesets: hash and verifier address per circuit. */
  rulesets: Record<string, { hash: string; verifiers: Record<string, string> }>;
  /** SHA-256 of the proving artifacts registered on-chain, per verifier address (the seal verifier's included). */
  artifacts: Record<string, ArtifactHashes>;
  /** The block ShroudGame was deployed in (journaled deployments), else the block the deployment ended at. */
  blockNumber: number;
  deployedAt: string;
}

/** Repository `deployments/` directory. */
export const DEPLOYMENTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'deployments');

/** Writes `deployments/<chainId>.json` (or under `dir`) and returns its path. */
export async function recordDeployment(d: Deployment, dir: string = DEPLOYMENTS_DIR): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${d.chainId}.json`);
  await writeFile(file, `${JSON.stringify(d, null, 2)}\n`);
  return file;
}

/** Reads a recorded deployment, or null when the chain has none. */
export async function readDeployment(
  chainId: number,
  dir: string = DEPLOYMENTS_DIR,
): Promise<Deployment | null> {
  try {
    return JSON.parse(await readFile(join(dir, `${chainId}.json`), 'utf8')) as Deployment;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
