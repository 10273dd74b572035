import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HardhatEthers } from '@nomicfoundation/hardhat-ethers/types';
import { poseidonContract } from 'circomlibjs';
import type { Contract, Signer } from 'ethers';

/** Poseidon arities deployed: 1 to 6 (masterCommitment, tree/salt/lattice, C_i, leaf, seed of 2..6 shares). */
export const POSEIDON_ARITIES = [1, 2, 3, 4, 5, 6] as const;

export interface Deployment {
  chainId: number;
  deployer: string;
  /** circomlibjs Poseidon contract per arity, keyed `poseidon1`..`poseidon6`. */
  poseidon: Record<string, string>;
  mapGen: string;
  shroudGame: string;
  blockNumber: number;
  deployedAt: string;
}

export interface Deployed {
  deployment: Deployment;
  game: Contract;
  mapGen: Contract;
  poseidon: Contract[];
}

/** Deploys the Poseidon contracts (circomlibjs bytecode), MapGen and ShroudGame with `signer` (default: first). */
export async function deployShroud(ethers: HardhatEthers, signer?: Signer): Promise<Deployed> {
  const from = signer ?? (await ethers.getSigners())[0]!;
  const poseidon: Contract[] = [];
  for (const n of POSEIDON_ARITIES) {
    const factory = new ethers.ContractFactory(
      poseidonContract.generateABI(n) as never[],
      poseidonContract.createCode(n),
      from,
    );
    const c = (await factory.deploy()) as Contract;
    await c.waitForDeployment();
    poseidon.push(c);
  }
  const addrs = await Promise.all(poseidon.map((c) => c.getAddress()));
  const mapGen = await ethers.deployContract('MapGen', [addrs[1]], from);
  await mapGen.waitForDeployment();
  const game = await ethers.deployContract('ShroudGame', [addrs, await mapGen.getAddress()], from);
  await game.waitForDeployment();
  const network = await ethers.provider.getNetwork();
  const deployment: Deployment = {
    chainId: Number(network.chainId),
    deployer: await from.getAddress(),
    poseidon: Object.fromEntries(addrs.map((a, i) => [`poseidon${i + 1}`, a])),
    mapGen: await mapGen.getAddress(),
    shroudGame: await game.getAddress(),
    blockNumber: await ethers.provider.getBlockNumber(),
    deployedAt: new Date().toISOString(),
  };
  return { deployment, game, mapGen, poseidon };
}

/** Repository `deployments/` directory. */
export const DEPLOYMENTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'deployments');

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
