import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HardhatEthers } from '@nomicfoundation/hardhat-ethers/types';
import { poseidonContract } from 'circomlibjs';
import type { Contract, Signer } from 'ethers';
import type { ArtifactHashes } from '../core/artifacts.ts';
import {
  artifactHashesOf,
  CIRCUIT_ID,
  PLAY_CIRCUITS,
  readManifest,
  readSealArtifacts,
  rulesetHash,
  rulesetInfo,
} from '../scripts/contracts/rulesets.ts';

/** Poseidon arities deployed: 1 to 6 (masterCommitment, tree/salt/lattice, C_i, leaf, seed of 2..6 shares). */
export const POSEIDON_ARITIES = [1, 2, 3, 4, 5, 6] as const;

export interface Deployment {
  chainId: number;
  deployer: string;
  /** circomlibjs Poseidon contract per arity, keyed `poseidon1`..`poseidon6`. */
  poseidon: Record<string, string>;
  mapGen: string;
  /** The libraries linked into ShroudGame, one per protocol concern. */
  libraries: Record<(typeof GAME_LIBRARIES)[number], string>;
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
  blockNumber: number;
  deployedAt: string;
}

/** The generated sealed-share verifier contract (scripts/contracts/verifiers.ts writes contracts/generated/SealVerifier.sol). */
const SEAL_VERIFIER = 'SealVerifier';

/** ShroudGame's linked libraries (contracts/game/), each a concern of the protocol. */
export const GAME_LIBRARIES = [
  'ShroudCeremony',
  'ShroudDisputes',
  'ShroudForceOpen',
  'ShroudSettlement',
] as const;

export interface DeployOptions {
  /**
   * The sealed-share verifier: an address already deployed, `'mock'` (contracts/harness/MockVerifier.sol, for
   * contract tests that craft their own "proofs"), or by default the generated `SealVerifier`
   * (`node scripts/contracts/verifiers.ts` writes it, then `hardhat build`).
   */
  sealVerifier?: string;
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
 * Deploys the Poseidon contracts (circomlibjs bytecode), MapGen, the VerifierRegistry, the sealed-share verifier,
 * ShroudGame's libraries, ShroudGame (linked to them) and the MapProofRegistry with `signer` (default: first),
 * then registers `rulesets` (shipped names) with their generated verifiers
 * (`node scripts/contracts/verifiers.ts --ruleset NAME` must have run before `hardhat build`).
 */
export async function deployShroud(
  ethers: HardhatEthers,
  signer?: Signer,
  rulesets: readonly string[] = [],
  opts: DeployOptions = {},
): Promise<Deployed> {
  const from = signer ?? (await ethers.getSigners())[0]!;
  const deploy = async (name: string, args: unknown[] = [], libraries?: Record<string, string>) => {
    const c = await ethers.deployContract(name, args, libraries ? { signer: from, libraries } : from);
    await c.waitForDeployment();
    return c as unknown as Contract;
  };
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
  const mapGen = await deploy('MapGen', [addrs[1]]);
  const registry = await deploy('VerifierRegistry', [await from.getAddress()]);
  const sealVerifier =
    opts.sealVerifier && opts.sealVerifier !== 'mock'
      ? opts.sealVerifier
      : await (await deploy(opts.sealVerifier === 'mock' ? 'MockVerifier' : SEAL_VERIFIER)).getAddress();
  const artifacts: Deployment['artifacts'] = {};
  if (opts.sealVerifier === undefined)
    artifacts[sealVerifier] = await registerArtifacts(registry, from, sealVerifier, readSealArtifacts());
  const libraries = {} as Deployment['libraries'];
  for (const name of GAME_LIBRARIES) libraries[name] = await (await deploy(name)).getAddress();
  const game = await deploy(
    'ShroudGame',
    [addrs, await mapGen.getAddress(), await registry.getAddress(), sealVerifier],
    libraries,
  );
  const mapProofs = await deploy('MapProofRegistry', [await game.getAddress(), await registry.getAddress()]);
  const registered: Deployment['rulesets'] = {};
  for (const name of rulesets) {
    const r = await registerRuleset(ethers, registry, name, from);
    registered[name] = { hash: r.hash, verifiers: r.verifiers };
    Object.assign(artifacts, r.artifacts);
  }
  const network = await ethers.provider.getNetwork();
  const deployment: Deployment = {
    chainId: Number(network.chainId),
    deployer: await from.getAddress(),
    poseidon: Object.fromEntries(addrs.map((a, i) => [`poseidon${i + 1}`, a])),
    mapGen: await mapGen.getAddress(),
    libraries,
    sealVerifier,
    registry: await registry.getAddress(),
    shroudGame: await game.getAddress(),
    mapProofRegistry: await mapProofs.getAddress(),
    rulesets: registered,
    artifacts,
    blockNumber: await ethers.provider.getBlockNumber(),
    deployedAt: new Date().toISOString(),
  };
  return { deployment, game, mapProofs, mapGen, registry, poseidon };
}

/**
 * Deploys a shipped ruleset's generated verifiers (contracts/generated/manifest.json) and registers the ruleset
 * (board, seats, damage, passability, reveal-list size) and each verifier (address, selector, public-signal count) in the registry: spawn, turn,
 * attack, combat and (when generated) maproot, circuit id 4.
 */
export async function registerRuleset(
  ethers: HardhatEthers,
  registry: Contract,
  name: string,
  signer?: Signer,
): Promise<{ hash: string; verifiers: Record<string, string>; artifacts: Record<string, ArtifactHashes> }> {
  const from = signer ?? (await ethers.getSigners())[0]!;
  const m = readManifest()[name];
  if (!m)
    throw new Error(
      `no generated verifiers for ruleset ${name}: run node scripts/contracts/verifiers.ts --ruleset ${name}`,
    );
  const hash = rulesetHash(name);
  if (m.hash !== hash) throw new Error(`contracts/generated is stale for ${name}: regenerate the verifiers`);
  const info = rulesetInfo(name);
  const reg = registry.connect(from) as Contract;
  await (
    await reg.getFunction('registerRuleset')(
      hash,
      info.kind,
      info.width,
      info.height,
      info.maxPlayers,
      info.damage,
      info.passability,
      info.maxRevealedTiles,
    )
  ).wait();
  const verifiers: Record<string, string> = {};
  const artifacts: Record<string, ArtifactHashes> = {};
  for (const c of [...PLAY_CIRCUITS, 'maproot'] as const) {
    const v = m.verifiers[c];
    if (!v) {
      // Manifests generated before the map proof had no maproot verifier: the game still plays without it.
      if (c === 'maproot') continue;
      throw new Error(`${name}: no ${c} verifier in the manifest`);
    }
    const contract = await ethers.deployContract(v.contract, [], from);
    await contract.waitForDeployment();
    const addr = await contract.getAddress();
    await (await reg.getFunction('setVerifier')(hash, CIRCUIT_ID[c], addr, v.selector, v.nPublic)).wait();
    verifiers[c] = addr;
    artifacts[addr] = await registerArtifacts(registry, from, addr, v);
  }
  return { hash, verifiers, artifacts };
}

/** Registers the SHA-256 of a verifier's zkey and wasm (checked against the manifest) beside it in the registry. */
async function registerArtifacts(
  registry: Contract,
  from: Signer,
  verifier: string,
  files: Parameters<typeof artifactHashesOf>[0],
): Promise<ArtifactHashes> {
  const a = await artifactHashesOf(files);
  await (
    await (registry.connect(from) as Contract).getFunction('registerArtifacts')(verifier, a.zkey, a.wasm)
  ).wait();
  return a;
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
