/**
 * The map proof's keys in the demo. The dealer proves with the ruleset's `mapchunk` and `maproot` keys, staged
 * under `<out>/mapproof-keys/<ruleset>/<circuit>/` (the layout dealer/mapproof/service.ts reads; each file copied
 * then renamed, the vkey last, so the dealer never sees half a key), and posts the root proof to the
 * MapProofRegistry, which needs the maproot verifier registered. When the build cache holds both keys, all of it
 * happens before play. Otherwise play does not wait: a child process builds them in the background at the lowest
 * CPU priority, then the maproot verifier is generated, compiled, deployed and registered (as the registry's
 * owner) and the keys are staged; the dealer, which waits for keys it lacks, then proves the game.
 */
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import type { MapProofKeys } from '../../client/sdk/mapproof.ts';
import { typedContract } from '../../client/sdk/typed-contract.ts';
import type { Deployment } from '../../contracts/ignition/record.ts';
import { VERIFIER_REGISTRY_ABI } from '../../core/abi/verifier-registry.ts';
import { buildCircuits, circuitsCached } from '../circuits/build.ts';
import { deployPlan } from '../contracts/plan.ts';
import { readManifest } from '../contracts/rulesets.ts';
import { generateVerifiers } from '../contracts/verifiers.ts';
import { fmtDuration } from '../lib/progress.ts';
import { startChild, tail } from './procs.ts';
import { compileContracts, DEV_KEYS, type Log, ROOT } from './setup.ts';

const MAP_CIRCUITS = ['maproot', 'mapchunk'] as const;
type MapCircuit = (typeof MAP_CIRCUITS)[number];

/** True when the build cache holds both map-proof keys of `ruleset` (nothing to compile or set up). */
export function mapKeysCached(ruleset: string, ptauDir: string | undefined): boolean {
  return circuitsCached({ ruleset, circuits: MAP_CIRCUITS, ...(ptauDir ? { ptauDir } : {}) });
}

/** The dealer's key folder of a demo run (its `mapProof.buildDir`). */
export const mapKeysDir = (outDir: string) => path.join(outDir, 'mapproof-keys');

interface KeyFiles {
  wasm: string;
  zkey: string;
  vkey: string;
}

/** Copies one circuit's files into the dealer's layout: each to a temporary name then renamed, the vkey last. */
function stage(keysDir: string, ruleset: string, circuit: MapCircuit, from: KeyFiles): KeyFiles {
  const dir = path.join(keysDir, ruleset, circuit);
  mkdirSync(path.join(dir, `${circuit}_js`), { recursive: true });
  const to: KeyFiles = {
    wasm: path.join(dir, `${circuit}_js`, `${circuit}.wasm`),
    zkey: path.join(dir, `${circuit}.zkey`),
    vkey: path.join(dir, `${circuit}.vkey.json`),
  };
  for (const k of ['wasm', 'zkey', 'vkey'] as const) {
    const tmp = `${to[k]}.${process.pid}.tmp`;
    copyFileSync(from[k], tmp);
    renameSync(tmp, to[k]);
  }
  return to;
}

export interface MapKeys {
  /** The dealer's `mapProof.buildDir`. */
  dir: string;
  /** Resolves once the keys are staged and the maproot verifier registered; rejects when that failed. */
  ready: Promise<void>;
  /** Set once `ready` settled: how it went, for the summary. */
  outcome: { ms: number; built: boolean; error?: Error } | null;
  /** The verification keys the demo's players check the proof with (the staged ones: read once ready). */
  vkeys(): Promise<MapProofKeys>;
}

export interface MapKeysOptions {
  ruleset: string;
  ptauDir: string | undefined;
  outDir: string;
  logDir: string;
  /** The chain and deployment, once up (the keys may start building before). */
  chain: Promise<{ rpcUrl: string; deployment: Deployment }>;
  /** Whether the deployment registers this ruleset's maproot verifier (made from the manifest's maproot keys). */
  rootRegistered: boolean;
  log: Log;
}

/**
 * Stages the keys as soon as the chain is up when they are built and the maproot verifier registered; otherwise
 * starts building them in the background at once. Never throws: a failure is `ready`'s rejection.
 */
export function prepareMapKeys(o: MapKeysOptions): MapKeys {
  const dir = mapKeysDir(o.outDir);
  // A fresh chain each run: keys staged by an earlier run may not match this run's maproot verifier.
  rmSync(dir, { recursive: true, force: true });
  const started = Date.now();
  const built = !(o.rootRegistered && mapKeysCached(o.ruleset, o.ptauDir));
  const keys: MapKeys = {
    dir,
    outcome: null,
    ready: Promise.resolve(),
    async vkeys() {
      await keys.ready;
      const read = (c: MapCircuit) =>
        JSON.parse(readFileSync(path.join(dir, o.ruleset, c, `${c}.vkey.json`), 'utf8'));
      return { mapchunk: read('mapchunk'), maproot: read('maproot') };
    },
  };
  keys.ready = (async () => {
    if (built) {
      const log = path.join(o.logDir, 'mapproof-keys.log');
      o.log(
        `map proof: building the ${o.ruleset} map-proof keys in the background at low priority (log ${path.relative(process.cwd(), log)}); play goes on, the dealer proves once they are ready`,
      );
      await buildInBackground(o, log);
    }
    const chain = await o.chain;
    if (!o.rootRegistered) await registerMapRoot(o, chain);
    const root = readManifest()[o.ruleset]?.verifiers.maproot;
    if (!root) throw new Error(`map proof: no ${o.ruleset} maproot verifier in the manifest`);
    stage(dir, o.ruleset, 'maproot', root);
    const chunk = (
      await buildCircuits({
        ruleset: o.ruleset,
        circuits: ['mapchunk'],
        ...(o.ptauDir ? { ptauDir: o.ptauDir } : {}),
        log: () => {},
      })
    ).mapchunk!;
    stage(dir, o.ruleset, 'mapchunk', { wasm: chunk.wasm, zkey: chunk.zkey!, vkey: chunk.vkey! });
    if (built)
      o.log(`map proof: keys ready after ${fmtDuration(Date.now() - started)}; the dealer is proving`);
  })().then(
    () => {
      keys.outcome = { ms: Date.now() - started, built };
    },
    (e: Error) => {
      keys.outcome = { ms: Date.now() - started, built, error: e };
      throw e;
    },
  );
  // Reported where it is awaited (before the audit); never an unhandled rejection meanwhile.
  keys.ready.catch(() => {});
  return keys;
}

/** `npm run circuits:build` for both map circuits as a child (killed with the demo's others), niced. */
async function buildInBackground(o: MapKeysOptions, log: string): Promise<void> {
  const child = startChild(
    'map-proof keys',
    process.execPath,
    [
      path.join(ROOT, 'scripts', 'circuits', 'build.ts'),
      '--ruleset',
      o.ruleset,
      '--circuits',
      MAP_CIRCUITS.join(','),
      ...(o.ptauDir ? ['--ptau-dir', o.ptauDir] : []),
    ],
    { log, cwd: ROOT },
  );
  // Lowest priority: the play's own proofs come first. circom and snarkjs, its children, inherit it.
  try {
    if (child.proc.pid !== undefined) setPriority(child.proc.pid, 19);
  } catch {}
  const code = await child.exited;
  if (code !== 0) throw new Error(`map proof: building the keys failed (${code}); log ${log}:\n${tail(log)}`);
}

/**
 * The maproot verifier of keys built after the deployment: generated (the seal's left as they are), compiled,
 * deployed and registered with its artifact hashes, as the deployment would have (the deployer owns the registry).
 */
async function registerMapRoot(
  o: MapKeysOptions,
  chain: { rpcUrl: string; deployment: Deployment },
): Promise<void> {
  await generateVerifiers({
    rulesets: [o.ruleset],
    circuits: ['maproot'],
    seal: false,
    ...(o.ptauDir ? { ptauDir: o.ptauDir } : {}),
    log: () => {},
  });
  await compileContracts(o.logDir);
  const plan = (await deployPlan([o.ruleset])).rulesets[0]!;
  const v = plan.verifiers.maproot;
  if (!v) throw new Error(`map proof: no ${o.ruleset} maproot verifier generated`);
  const artifact = JSON.parse(
    readFileSync(
      path.join(ROOT, 'artifacts', 'contracts', 'generated', `${v.contract}.sol`, `${v.contract}.json`),
      'utf8',
    ),
  ) as { abi: []; bytecode: string };
  const provider = new JsonRpcProvider(chain.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const owner = new Wallet(DEV_KEYS[0], provider);
    const verifier = await new ContractFactory(artifact.abi, artifact.bytecode, owner).deploy();
    await verifier.waitForDeployment();
    const at = await verifier.getAddress();
    const registry = typedContract(chain.deployment.registry, VERIFIER_REGISTRY_ABI, owner);
    await (await registry.setVerifier(plan.hash, v.circuitId, at, v.selector, v.nPublic)).wait();
    await (await registry.registerArtifacts(at, v.artifacts.zkey, v.artifacts.wasm)).wait();
  } finally {
    provider.destroy();
  }
}
