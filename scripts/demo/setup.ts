/**
 * The demo's infrastructure steps: circuits + verifiers, contract build, a local Hardhat node, the
 * deployment, and the dealer process. Every process is a child tracked by procs.ts.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonRpcProvider } from 'ethers';
import type { Deployment } from '../../contracts/ignition/record.ts';
import { type GeneratedRuleset, PLAY_CIRCUITS } from '../contracts/rulesets.ts';
import { generateVerifiers } from '../contracts/verifiers.ts';
import type { Progress } from '../lib/progress.ts';
import { type Child, freePort, run, startChild, waitUntil } from './procs.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HARDHAT = path.join(ROOT, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js');

/**
 * Hardhat's well-known dev accounts (mnemonic "test test … junk"). Local chain only: #0 deploys, #1 is the
 * dealer's transaction key (it creates the game: the contract requires the dealer to call createGame),
 * #2.. are the players. The dealer's sealing key is a fresh random key per run (never a tx key).
 */
export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
] as const;

export type Log = (m: string) => void;

/**
 * Circuits (cached under build/circuits/<ruleset>/) and renamed verifiers into contracts/generated/: the play
 * circuits (spawn, turn, attack, combat), and maproot with `mapRoot` (the demo asks for it only when the cache
 * holds it; map-keys.ts builds map-proof keys in the background).
 */
export async function buildCircuitsAndVerifiers(
  ruleset: string,
  ptauDir: string | undefined,
  progress?: Progress,
  o: { mapRoot?: boolean } = {},
): Promise<GeneratedRuleset> {
  const m = await generateVerifiers({
    rulesets: [ruleset],
    circuits: o.mapRoot ? [...PLAY_CIRCUITS, 'maproot'] : PLAY_CIRCUITS,
    ...(ptauDir ? { ptauDir } : {}),
    log: () => {},
    ...(progress ? { progress } : {}),
  });
  const entry = m[ruleset];
  if (!entry) throw new Error(`no verifiers generated for ${ruleset}`);
  return entry;
}

/** `hardhat build --quiet` as a child process (the generated verifiers must exist first). */
export async function compileContracts(logDir: string): Promise<void> {
  await run('hardhat build', process.execPath, [HARDHAT, 'build', '--quiet'], {
    log: path.join(logDir, 'hardhat-build.log'),
    cwd: ROOT,
  });
}

export interface LocalChain {
  child: Child;
  url: string;
  port: number;
}

/** `hardhat node` on a free port (127.0.0.1), ready once eth_chainId answers 31337. */
export async function startChain(logDir: string): Promise<LocalChain> {
  const port = await freePort();
  const child = startChild(
    'hardhat node',
    process.execPath,
    [HARDHAT, 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    { log: path.join(logDir, 'chain.log'), cwd: ROOT },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    `local chain at ${url}`,
    async () => {
      const p = new JsonRpcProvider(url, 31337, { staticNetwork: true });
      try {
        return BigInt(await p.send('eth_chainId', [])) === 31337n;
      } finally {
        p.destroy();
      }
    },
    { timeoutMs: 60_000, child },
  );
  return { child, url, port };
}

/**
 * Deploys Shroud with `ruleset` registered (the deploy's Ignition modules) over HTTP to the local node. No journal:
 * the node is new every run, so a journal of the last one would only describe a chain that is gone. With
 * `mapRoot: false` the manifest's maproot verifier is left out (keys being rebuilt: map-keys.ts registers it later).
 */
export async function deploy(
  url: string,
  ruleset: string,
  o: { mapRoot?: boolean } = {},
): Promise<Deployment> {
  const { network } = await import('hardhat');
  const conn = await network.connect({
    network: 'testnet',
    override: { url, accounts: [DEV_KEYS[0]] },
  });
  try {
    const { deployShroud } = await import('../../contracts/ignition/deploy.ts');
    const { deployPlan } = await import('../contracts/plan.ts');
    const plan = await deployPlan([ruleset]);
    if (o.mapRoot === false) for (const r of plan.rulesets) delete r.verifiers.maproot;
    const { deployment } = await deployShroud(conn, plan);
    return deployment;
  } finally {
    await conn.close();
  }
}

export interface DealerProcess {
  child: Child;
  url: string;
  dealerKey: string;
  db: string;
}

/** The dealer (`node dealer/main.ts`) on a free port, with a fresh DB in the out dir, watching the game contract. */
export async function startDealer(o: {
  outDir: string;
  logDir: string;
  rpcUrl: string;
  gameContract: string;
  startBlock: number;
  dealerKey: string;
  /** Prove each game's map with the keys staged in `keysDir` and post it to `registry` (default: off). */
  mapProof?: { keysDir: string; registry: string };
}): Promise<DealerProcess> {
  const port = await freePort();
  const db = path.join(o.outDir, 'dealer.sqlite');
  for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  const base = JSON.parse(readFileSync(path.join(ROOT, 'dealer', 'config.default.json'), 'utf8'));
  const config = {
    ...base,
    http: { ...base.http, host: '127.0.0.1', port, docs: false, corsOrigins: [] },
    chain: {
      ...base.chain,
      kind: 'ethers',
      rpcUrl: o.rpcUrl,
      chainId: 31337,
      gameContract: o.gameContract,
      pollMs: 200,
      startBlock: o.startBlock,
      // Automine: a block per transaction, so a confirmation depth would stall the demo.
      confirmations: 0,
      ...(o.mapProof ? { mapProofRegistry: o.mapProof.registry } : {}),
    },
    // Without `mapProof` the background map proof is off: minutes of CPU, for tests that do not look at it.
    mapProof: o.mapProof
      ? { ...base.mapProof, enabled: true, buildDir: o.mapProof.keysDir }
      : { ...base.mapProof, enabled: false },
    db: { path: db },
    log: { level: 'info' },
  };
  mkdirSync(o.outDir, { recursive: true });
  const configFile = path.join(o.outDir, 'dealer.config.json');
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const child = startChild(
    'dealer',
    process.execPath,
    [path.join(ROOT, 'dealer', 'main.ts'), '--config', configFile],
    {
      log: path.join(o.logDir, 'dealer.log'),
      cwd: ROOT,
      // Keys only through the environment (never in a file).
      env: {
        ...process.env,
        SHROUD_TX_KEY: DEV_KEYS[1],
        SHROUD_DEALER_KEY: o.dealerKey,
        NODE_ENV: 'production',
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    `dealer at ${url}`,
    async () => {
      const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      return r.status < 500;
    },
    { timeoutMs: 60_000, child },
  );
  return { child, url, dealerKey: o.dealerKey, db };
}
