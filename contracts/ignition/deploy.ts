/**
 * The one way Shroud is deployed: the plan's Ignition modules run by ignition-core, then the record derived from
 * the result. With a journal folder (Ignition's deployment folder) a run that stops part-way (an RPC failing, the
 * process killed) resumes where it stopped when run again: what the journal says is deployed is not redeployed.
 * Without one the journal stays in memory: the in-process chain (tests, bench, `deploy:local`) vanishes with the
 * process anyway.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HardhatEthers } from '@nomicfoundation/hardhat-ethers/types';
import {
  type ArtifactResolver,
  type DeploymentResult,
  DeploymentResultType,
  deploy,
  type EIP1193Provider,
  type ExecutionEventListener,
  listTransactions,
  type SuccessfulDeploymentResult,
} from '@nomicfoundation/ignition-core';
import { type Contract, getAddress } from 'ethers';
import { CORE_MODULE_ID } from './modules/core.ts';
import { rulesetModuleId } from './modules/ruleset.ts';
import { shroudModule } from './modules/shroud.ts';
import { type DeployPlan, GAME_LIBRARIES, type GameLibrary, POSEIDON_ARITIES } from './plan.ts';
import { poseidonArtifact } from './poseidon.ts';
import type { Deployment } from './record.ts';

/** Hardhat's Ignition folder (`paths.ignition`): journals go to `ignition/deployments/<deployment id>/`. */
export const IGNITION_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'ignition');

/** Ignition's default deployment id: one journal per chain. */
export const defaultDeploymentId = (chainId: number) => `chain-${chainId}`;

/** A deployment's journal folder, where `npx hardhat ignition status|wipe|track-tx ID` finds it by default. */
export const journalDirOf = (deploymentId: string, ignitionDir = IGNITION_DIR) =>
  path.join(ignitionDir, 'deployments', deploymentId);

export interface DeployOptions {
  /** Ignition's deployment folder (journal.jsonl, deployed_addresses.json). Omitted: the journal is in memory. */
  journalDir?: string;
  /** Where Ignition sends its requests (default: the connection's provider); tests put a failing RPC here. */
  provider?: EIP1193Provider;
  /** Called with each future id (`Shroud#MapGen`…) as its transaction is confirmed in this run. */
  onStep?: (futureId: string) => void;
}

/** A network connection with Hardhat's ethers (hardhat-ethers). */
export interface Connection {
  ethers: HardhatEthers;
  provider: EIP1193Provider;
}

export interface Deployed {
  deployment: Deployment;
  game: Contract;
  mapProofs: Contract;
  mapGen: Contract;
  registry: Contract;
  poseidon: Contract[];
}

/**
 * Deploys (or resumes deploying) `plan` with the connection's first account, which owns the registry; returns
 * the record and the main contracts.
 */
export async function deployShroud(
  conn: Connection,
  plan: DeployPlan,
  o: DeployOptions = {},
): Promise<Deployed> {
  const provider = o.provider ?? conn.provider;
  const accounts = (await provider.request({ method: 'eth_accounts' })) as string[];
  const chainId = Number(await provider.request({ method: 'eth_chainId' }));
  if (o.journalDir) await checkJournalMatchesChain(provider, o.journalDir, chainId);
  const automine = await provider.request({ method: 'hardhat_getAutomine' }).then(Boolean, () => false);
  let result: DeploymentResult;
  try {
    result = await deploy({
      // An automining chain has the next block as soon as a transaction is sent: poll it at once.
      config: automine ? { blockPollingInterval: 1 } : {},
      artifactResolver: await hardhatArtifacts(),
      provider,
      ...(o.journalDir ? { deploymentDir: o.journalDir } : {}),
      ignitionModule: shroudModule(plan),
      deploymentParameters: {},
      accounts,
      ...(o.onStep ? { executionEventListener: stepListener(o.onStep) } : {}),
    });
  } catch (e) {
    if (!o.journalDir) throw e;
    // Ignition's own advice (e.g. track-tx for a lost transaction) stays, on one line.
    const message = (e as Error).message.replace(/\s*\n\s*/g, ' ').trim();
    throw new Error(`${message} (${resumeHint(o.journalDir)})`);
  }
  if (result.type !== DeploymentResultType.SUCCESSFUL_DEPLOYMENT)
    throw new Error(failureMessage(result, o.journalDir));
  const deployment = toDeployment(result, plan, chainId, getAddress(accounts[0]!));
  deployment.blockNumber = o.journalDir
    ? await deployBlock(provider, o.journalDir, deployment.shroudGame)
    : Number(await provider.request({ method: 'eth_blockNumber' }));
  const { ethers } = conn;
  return {
    deployment,
    game: (await ethers.getContractAt('ShroudGame', deployment.shroudGame)) as unknown as Contract,
    mapProofs: (await ethers.getContractAt(
      'MapProofRegistry',
      deployment.mapProofRegistry,
    )) as unknown as Contract,
    mapGen: (await ethers.getContractAt('MapGen', deployment.mapGen)) as unknown as Contract,
    registry: (await ethers.getContractAt('VerifierRegistry', deployment.registry)) as unknown as Contract,
    poseidon: await Promise.all(
      POSEIDON_ARITIES.map(
        async (n) =>
          (await ethers.getContractAt(
            poseidonArtifact(n).abi as never[],
            deployment.poseidon[`poseidon${n}`]!,
          )) as unknown as Contract,
      ),
    ),
  };
}

/**
 * Compiled contracts from Hardhat's artifacts (`hardhat build`), each read once per deployment (Ignition asks for
 * the registry's at every call to it).
 */
async function hardhatArtifacts(): Promise<ArtifactResolver> {
  const { artifacts } = await import('hardhat');
  const read = new Map<string, ReturnType<ArtifactResolver['loadArtifact']>>();
  return {
    loadArtifact: (name) => {
      if (!read.has(name)) read.set(name, artifacts.readArtifact(name));
      return read.get(name)!;
    },
    getBuildInfo: async (name) => {
      const id = await artifacts.getBuildInfoId(name);
      const file = id && (await artifacts.getBuildInfoPath(id));
      return file ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
    },
  };
}

/** Ignition's listener has a method per event: every one a no-op but the two that end a deployment or a call. */
function stepListener(onStep: (futureId: string) => void): ExecutionEventListener {
  const done = ['deploymentExecutionStateComplete', 'callExecutionStateComplete'];
  return new Proxy({} as ExecutionEventListener, {
    get: (_, name) => async (e: { futureId?: string; result?: { type: string } }) => {
      if (done.includes(String(name)) && e.result?.type === 'SUCCESS' && e.futureId) onStep(e.futureId);
    },
  });
}

/** `<module id>#<contract name>`: Ignition's default future id. */
const futureAddress = (r: SuccessfulDeploymentResult, moduleId: string, contract: string): string => {
  const c = r.contracts[`${moduleId}#${contract}`];
  if (!c) throw new Error(`the deployment has no ${moduleId}#${contract}`);
  return c.address;
};

function toDeployment(
  r: SuccessfulDeploymentResult,
  plan: DeployPlan,
  chainId: number,
  deployer: string,
): Deployment {
  const core = (name: string) => futureAddress(r, CORE_MODULE_ID, name);
  const sealVerifier = core(plan.seal.contract);
  const artifacts: Deployment['artifacts'] = {};
  if (plan.seal.artifacts) artifacts[sealVerifier] = plan.seal.artifacts;
  const rulesets: Deployment['rulesets'] = {};
  for (const rs of plan.rulesets) {
    const verifiers: Record<string, string> = {};
    for (const [circuit, v] of Object.entries(rs.verifiers)) {
      verifiers[circuit] = futureAddress(r, rulesetModuleId(rs), v.contract);
      artifacts[verifiers[circuit]] = v.artifacts;
    }
    rulesets[rs.name] = { hash: rs.hash, verifiers };
  }
  return {
    chainId,
    deployer,
    poseidon: Object.fromEntries(POSEIDON_ARITIES.map((n) => [`poseidon${n}`, core(`Poseidon${n}`)])),
    mapGen: core('MapGen'),
    libraries: Object.fromEntries(GAME_LIBRARIES.map((l) => [l, core(l)])) as Record<GameLibrary, string>,
    sealVerifier,
    registry: core('VerifierRegistry'),
    shroudGame: core('ShroudGame'),
    mapProofRegistry: core('MapProofRegistry'),
    rulesets,
    artifacts,
    blockNumber: 0,
    deployedAt: new Date().toISOString(),
  };
}

/** A journal folder as the user would type it: relative below the working directory, else absolute. */
const shown = (dir: string) => {
  const rel = path.relative(process.cwd(), dir);
  return rel && !rel.startsWith('..') ? rel : path.resolve(dir);
};

const resumeHint = (dir: string, fix = '') =>
  `the journal ${shown(dir)} keeps what was done: ${fix}run the same command again to resume`;

/**
 * A journal written on another chain with the same id (a restarted local node is chain 31337 again) would make
 * Ignition believe everything is deployed: every address it recorded must hold code.
 */
async function checkJournalMatchesChain(provider: EIP1193Provider, dir: string, chainId: number) {
  const file = path.join(dir, 'deployed_addresses.json');
  if (!existsSync(file)) return;
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  for (const [future, address] of Object.entries(recorded)) {
    if ((await provider.request({ method: 'eth_getCode', params: [address, 'latest'] })) === '0x')
      throw new Error(
        `the journal ${shown(dir)} records ${future} at ${address}, which has no code on chain ${chainId} (a restarted local node?): move the journal away, or use another deployment id, to deploy afresh`,
      );
  }
}

/** The block of ShroudGame's deployment transaction, from the journal (the dealer starts watching there). */
async function deployBlock(provider: EIP1193Provider, dir: string, game: string): Promise<number> {
  const txs = await listTransactions(dir, await hardhatArtifacts());
  const tx = txs.find((t) => t.address?.toLowerCase() === game.toLowerCase());
  if (!tx) throw new Error(`the journal ${dir} has no transaction deploying ShroudGame ${game}`);
  const receipt = (await provider.request({
    method: 'eth_getTransactionReceipt',
    params: [tx.txHash],
  })) as { blockNumber: string } | null;
  if (!receipt) throw new Error(`no receipt for ShroudGame's deployment ${tx.txHash}`);
  return Number(receipt.blockNumber);
}

/** The failed steps on one line, and what to do next. */
function failureMessage(r: Exclude<DeploymentResult, SuccessfulDeploymentResult>, dir?: string): string {
  const lines = (errors: Record<string, string[]>) =>
    Object.entries(errors).flatMap(([id, es]) => es.map((e) => `${id}: ${e}`));
  const wipe = `npx hardhat ignition wipe ${path.basename(dir ?? '')} <future id>`;
  switch (r.type) {
    case DeploymentResultType.VALIDATION_ERROR:
      return `the deployment modules are invalid: ${lines(r.errors).join('; ')}`;
    case DeploymentResultType.RECONCILIATION_ERROR:
      return `the journal ${shown(dir ?? '')} was written for other contracts or arguments: ${lines(r.errors).join('; ')}; redo those steps after ${wipe}, or deploy afresh under another deployment id`;
    case DeploymentResultType.PREVIOUS_RUN_ERROR:
      return `a step failed in a previous run: ${lines(r.errors).join('; ')}; fix its cause, then ${wipe} and run again`;
    case DeploymentResultType.EXECUTION_ERROR: {
      const failed = [
        ...r.failed.map((f) => `${f.futureId}: ${f.error}`),
        ...r.timedOut.map((f) => `${f.futureId}: timed out`),
        ...r.held.map((f) => `${f.futureId}: held (${f.reason})`),
      ];
      return `deployment stopped: ${failed.join('; ')}${dir ? ` (${resumeHint(dir, 'fix the cause and ')})` : ''}`;
    }
  }
}
