/**
 * `npm run deploy:testnet` against a real node over HTTP (`hardhat node`, chain 31337, started here on a free
 * port): the deployment is journaled; an RPC that goes away mid-way stops it with one line saying how to resume;
 * the same command resumes it, and after the process is killed mid-way, resumes again and finishes without
 * redeploying anything; a last run sends nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { getCreateAddress, JsonRpcProvider } from 'ethers';
import { network } from 'hardhat';
import { deployShroud } from '../../contracts/ignition/deploy.ts';
import type { Deployment } from '../../contracts/ignition/record.ts';
import { deployPlan } from '../../scripts/contracts/plan.ts';
import { freePort, stopAll } from '../../scripts/demo/procs.ts';
import { DEV_KEYS, type LocalChain, startChain } from '../../scripts/demo/setup.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run deploy:testnet -- args` (or `node scripts/deploy.ts`) with RPC_URL and DEPLOYER_KEY; `started` gets
 * a function that kills it.
 */
function deploy(
  rpcUrl: string,
  args: string[],
  o: { viaNpm?: boolean; started?: (kill: () => void) => void } = {},
): Promise<Run> {
  const viaNpm = o.viaNpm ?? false;
  const [cmd, argv] = viaNpm
    ? ['npm', ['run', '-s', 'deploy:testnet', '--', ...args]]
    : [process.execPath, ['scripts/deploy.ts', '--network', 'testnet', ...args]];
  return new Promise((resolve) => {
    const p = spawn(cmd, argv, {
      cwd: ROOT,
      env: { ...process.env, RPC_URL: rpcUrl, DEPLOYER_KEY: DEV_KEYS[0], SHROUD_DEBUG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    o.started?.(() => p.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    p.on('exit', (code, signal) =>
      resolve({ code: code ?? (signal === 'SIGKILL' ? -9 : null), stdout, stderr }),
    );
  });
}

/**
 * A JSON-RPC proxy to the node. Once `failAfterSends` transactions went through it answers only errors; once
 * `killAfterSends` did, the next request kills the client (`kill`) and is never answered.
 */
async function proxy(target: string) {
  const state = {
    failAfterSends: Number.POSITIVE_INFINITY,
    killAfterSends: Number.POSITIVE_INFINITY,
    kill: () => {},
    sent: 0,
  };
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const calls = [JSON.parse(body)].flat() as { id: number; method: string }[];
    if (state.sent >= state.killAfterSends) {
      state.kill();
      res.destroy();
      return;
    }
    if (state.sent >= state.failAfterSends) {
      const errors = calls.map((c) => ({
        jsonrpc: '2.0',
        id: c.id,
        error: { code: -32603, message: 'RPC down' },
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(JSON.parse(body)) ? errors : errors[0]));
      return;
    }
    const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    state.sent += calls.filter(
      (c) => c.method === 'eth_sendTransaction' || c.method === 'eth_sendRawTransaction',
    ).length;
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(await r.text());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, state, close: () => new Promise((r) => server.close(r)) };
}

describe('deploy:testnet against a node', { timeout: 300_000 }, () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-deploy-node-'));
  let chain: LocalChain;
  let rpc: JsonRpcProvider;
  before(async () => {
    chain = await startChain(tmp);
    rpc = new JsonRpcProvider(chain.url, 31337, { staticNetwork: true });
  });
  after(async () => {
    rpc?.destroy();
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('journals, stops on an RPC failure or a kill, resumes without redeploying, then sends nothing', async () => {
    const p = await proxy(chain.url);
    const ignition = path.join(tmp, 'ignition');
    const journal = path.join(ignition, 'deployments', 'chain-31337');
    const args = ['--ruleset', 'tiny', '--ignition-dir', ignition, '--out', tmp];
    try {
      // 1. The RPC goes away after 12 transactions.
      p.state.failAfterSends = 12;
      const failed = await deploy(p.url, args);
      assert.equal(failed.code, 1, failed.stderr);
      const last = failed.stderr.trimEnd().split('\n').at(-1)!;
      assert.match(
        last,
        /^deploy: .*RPC down.*the journal .*chain-31337 keeps what was done: run the same command again to resume/,
      );
      assert.doesNotMatch(failed.stderr, /^\s+at /m, 'no stack trace');
      assert.ok(existsSync(path.join(journal, 'journal.jsonl')), 'journaled');
      assert.equal(await rpc.getTransactionCount(DEPLOYER), 12);

      // 2. The same command, the RPC back: the process is killed after 24 transactions in all.
      p.state.failAfterSends = Number.POSITIVE_INFINITY;
      p.state.killAfterSends = 24;
      const killed = await deploy(p.url, args, {
        started: (kill) => {
          p.state.kill = kill;
        },
      });
      assert.equal(killed.code, -9, killed.stderr);
      assert.equal(await rpc.getTransactionCount(DEPLOYER), 24);
      // What the two runs deployed: the contracts their transactions created.
      const created: string[] = [];
      for (let nonce = 0; nonce < 24; nonce++) {
        const a = getCreateAddress({ from: DEPLOYER, nonce });
        if ((await rpc.getCode(a)) !== '0x') created.push(a);
      }

      // 3. The same command again: it finishes, keeping what was deployed.
      p.state.killAfterSends = Number.POSITIVE_INFINITY;
      const resumed = await deploy(p.url, args);
      assert.equal(resumed.code, 0, resumed.stderr);
      const d = JSON.parse(resumed.stdout) as Deployment;
      assert.deepEqual(JSON.parse(readFileSync(path.join(tmp, '31337.json'), 'utf8')), d, 'recorded');
      assert.match(resumed.stderr, /journal .*chain-31337/);
      const addresses = JSON.parse(readFileSync(path.join(journal, 'deployed_addresses.json'), 'utf8'));
      for (const a of created) assert.ok(Object.values(addresses).includes(a), `${a} kept, not redeployed`);
      assert.equal(addresses['Shroud#ShroudGame'], d.shroudGame);
      assert.equal(d.chainId, 31337);
      assert.equal(d.deployer, DEPLOYER);
      assert.deepEqual(Object.keys(d.rulesets['tiny']!.verifiers).sort(), [
        'attack',
        'combat',
        'maproot',
        'spawn',
        'turn',
      ]);
      assert.equal(Object.keys(d.artifacts).length, 6, 'five tiny verifiers and the seal verifier');
      const game = await rpc.getTransactionReceipt((await rpc.getBlock(d.blockNumber))!.transactions[0]!);
      assert.equal(game!.contractAddress, d.shroudGame, 'blockNumber: ShroudGame was deployed there');
      const sent = await rpc.getTransactionCount(DEPLOYER);

      // Every transaction once: as many as a clean deployment on a chain of its own.
      const clean = await network.connect();
      await deployShroud(clean, await deployPlan(['tiny']));
      assert.equal(sent, await clean.ethers.provider.getTransactionCount(DEPLOYER), 'nothing sent twice');

      // 4. npm run deploy:testnet, once more: nothing to do, the same record.
      const again = await deploy(p.url, args, { viaNpm: true });
      assert.equal(again.code, 0, again.stderr);
      assert.equal(await rpc.getTransactionCount(DEPLOYER), sent, 'no transaction');
      assert.deepEqual({ ...JSON.parse(again.stdout), deployedAt: '' }, { ...d, deployedAt: '' });
    } finally {
      await p.close();
    }
  });
});
