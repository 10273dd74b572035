/**
 * From a fresh deployment to an audited game, every role its own process, on a chain this test does not
 * configure by hand (a `hardhat node` standing in for a testnet), running exactly the README's commands:
 *
 *   deployer  RPC_URL=… DEPLOYER_KEY=0x… npm run deploy:testnet -- --ruleset tiny --out DIR --ignition-dir DIR
 *   operator  npm run dealer -- keys --out dealer-keys.env; fund the printed address; npm run dealer (environment only,
 *             with a lobby); the proving artifacts come from contracts/generated, served at /v1/artifacts
 *   players   SHROUD_PLAYER_KEY=0x… npm run play -- --lobby tiny-duel --max-stake 1000 --rpc … --deployment … --dealer …
 *             (two processes: they join the lobby, download and check the proving keys against the chain, play
 *             tiny to the end and write the tiles they were served)
 *   anyone    npm run audit -- --game ID --rpc … --deployment … --tiles FILE
 *
 * Nothing here comes from scripts/demo/ (checked below).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { JsonRpcProvider, parseEther, Wallet } from 'ethers';
import { typedContract } from '../../client/sdk/typed-contract.ts';
import { SHROUD_GAME_ABI } from '../../core/abi/shroud-game.ts';
import { freePort } from '../helpers/free-port.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HARDHAT = path.join(ROOT, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js');
/** Hardhat's public development accounts: #0 deploys, #1 funds the operator, #3 and #4 play. */
const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
] as const;
const LOBBY = {
  name: 'tiny-duel',
  ruleset: 'tiny',
  seats: 2,
  stake: '1000',
  disputeDeposit: '100',
  maxTurns: 3,
  bond: parseEther('1').toString(),
};

interface Ran {
  code: number | null;
  out: string;
}

const procs: ChildProcess[] = [];

/** `npm run <args>` in the clone with `env` added; resolves when it exits, with its output. */
function npm(args: string[], env: Record<string, string>, o: { timeoutMs?: number } = {}): Promise<Ran> {
  const child = spawnNpm(args, env);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm ${args.join(' ')}: no exit after ${o.timeoutMs} ms\n${out}`));
    }, o.timeoutMs ?? 300_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

function spawnNpm(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn('npm', args, {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_OPTIONS: '', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  procs.push(child);
  return child;
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch {}
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `KEY=value` lines (the dealer's key file). */
function envFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

describe('end to end: deployer, operator and two players as processes on a node the test did not configure', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shroud-e2e-'));
  let rpc = '';
  let provider: JsonRpcProvider;

  before(async () => {
    const port = await freePort();
    rpc = `http://127.0.0.1:${port}`;
    const node = spawn(process.execPath, [HARDHAT, 'node', '--hostname', '127.0.0.1', '--port', `${port}`], {
      cwd: ROOT,
      stdio: 'ignore',
      detached: true,
    });
    procs.push(node);
    provider = new JsonRpcProvider(rpc, undefined, { staticNetwork: true, cacheTimeout: -1 });
    await until('the hardhat node', 60_000, async () =>
      (await provider.getBlockNumber()) >= 0 ? true : undefined,
    );
  });

  after(() => {
    for (const p of procs) {
      try {
        if (p.exitCode === null && p.pid) process.kill(-p.pid, 'SIGKILL');
      } catch {}
    }
    provider?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deploys, deals a lobby game to two CLI players with artifacts checked on-chain, and audits it', async () => {
    // Deployer.
    const deployed = await npm(
      [
        'run',
        'deploy:testnet',
        '--',
        '--ruleset',
        'tiny',
        '--out',
        dir,
        '--ignition-dir',
        path.join(dir, 'ignition'),
      ],
      { RPC_URL: rpc, DEPLOYER_KEY: DEV_KEYS[0] },
    );
    assert.equal(deployed.code, 0, deployed.out);
    const record = path.join(dir, '31337.json');
    const d = JSON.parse(readFileSync(record, 'utf8'));
    assert.ok(
      Object.keys(d.artifacts).length >= 6,
      'artifact hashes registered for 5 tiny circuits and seal',
    );

    // Operator: keys, funding, the dealer from the environment alone.
    const keysFile = path.join(dir, 'dealer-keys.env');
    const keys = await npm(['run', 'dealer', '--', 'keys', '--out', keysFile], {});
    assert.equal(keys.code, 0, keys.out);
    const k = envFile(keysFile);
    for (const secret of [k.SHROUD_DEALER_KEY!, k.SHROUD_TX_KEY!, k.SHROUD_MASTER_KEY!])
      assert.ok(!keys.out.includes(secret.slice(2)), 'no secret on the terminal');
    const txAddress = new Wallet(k.SHROUD_TX_KEY!).address;
    const funder = new Wallet(DEV_KEYS[1], provider);
    await (await funder.sendTransaction({ to: txAddress, value: parseEther('10') })).wait();
    const dealerPort = await freePort();
    const dealerUrl = `http://127.0.0.1:${dealerPort}`;
    const dealer = spawnNpm(['run', 'dealer'], {
      ...k,
      SHROUD_RPC_URL: rpc,
      SHROUD_CHAIN_ID: '31337',
      SHROUD_GAME_CONTRACT: d.shroudGame,
      SHROUD_START_BLOCK: String(d.blockNumber),
      SHROUD_MAP_PROOF_REGISTRY: d.mapProofRegistry,
      SHROUD_MAP_PROOF_ENABLED: 'false',
      SHROUD_DB: path.join(dir, 'dealer.sqlite'),
      SHROUD_DEALER_HOST: '127.0.0.1',
      SHROUD_DEALER_PORT: String(dealerPort),
      SHROUD_LOBBIES: JSON.stringify([LOBBY]),
    });
    let dealerLog = '';
    dealer.stdout!.on('data', (x) => (dealerLog += x));
    dealer.stderr!.on('data', (x) => (dealerLog += x));
    await until('the dealer', 60_000, async () => {
      if (dealer.exitCode !== null) throw new Error(`dealer exited ${dealer.exitCode}\n${dealerLog}`);
      return (await fetch(`${dealerUrl}/health`)).ok ? true : undefined;
    }).catch((e) => {
      throw new Error(`${(e as Error).message}\n${dealerLog}`);
    });

    // Two players, each its own process, joining the lobby.
    const player = (i: 3 | 4) =>
      npm(
        [
          'run',
          'play',
          '--',
          '--lobby',
          LOBBY.name,
          '--max-stake',
          LOBBY.stake,
          '--rpc',
          rpc,
          '--deployment',
          record,
          '--dealer',
          dealerUrl,
          '--tiles-out',
          path.join(dir, `tiles-${i}.json`),
        ],
        {
          SHROUD_PLAYER_KEY: DEV_KEYS[i],
          XDG_CACHE_HOME: path.join(dir, `cache-${i}`),
          // The players' state files in this test's folder, never the user's (a rerun reuses the same game ids).
          XDG_STATE_HOME: path.join(dir, `state-${i}`),
        },
        { timeoutMs: 900_000 },
      );
    const [a, b] = await Promise.all([player(3), player(4)]);
    for (const p of [a, b]) {
      assert.equal(p.code, 0, `${p.out}\n--- dealer ---\n${dealerLog}`);
      assert.match(p.out, /joined lobby tiny-duel/);
      assert.match(p.out, /turn zkey: [\d.]+ MB downloaded and checked on-chain/);
      assert.match(p.out, /game over: phase/);
    }
    const gameId = /in game (\d+)/.exec(a.out)?.[1];
    assert.ok(gameId, a.out);
    assert.equal(/in game (\d+)/.exec(b.out)?.[1], gameId, 'both seats in the same game');

    // Anyone: once the dealer published its secrets, the audit checks the root and every served tile.
    const game = typedContract(d.shroudGame, SHROUD_GAME_ABI, provider);
    await until('the dealer to publish its secrets', 120_000, async () =>
      (await game.queryFilter(game.filters.SecretsPublished(BigInt(gameId)), d.blockNumber)).length > 0
        ? true
        : undefined,
    );
    for (const i of [3, 4]) {
      const audit = await npm(
        [
          'run',
          'audit',
          '--',
          '--game',
          gameId,
          '--rpc',
          rpc,
          '--deployment',
          record,
          '--tiles',
          path.join(dir, `tiles-${i}.json`),
        ],
        {},
      );
      assert.equal(audit.code, 0, audit.out);
      assert.match(audit.out, /root: MATCH/);
      assert.match(audit.out, /tiles: [1-9]\d* checked, 0 mismatching, 0 not under the posted root/);
    }
  });

  it('imports nothing from scripts/demo/', () => {
    const src = readFileSync(fileURLToPath(import.meta.url), 'utf8');
    assert.doesNotMatch(src, /from '[^']*scripts\/demo\//);
  });
});
