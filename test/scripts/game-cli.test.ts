/**
 * `npm run game -- create` as a real process: the CLI convention (--help exit 0; a bad flag, a missing
 * setting or a term the contract would refuse is one line naming it, exit 2), then games created on a
 * `hardhat node` (Shroud deployed with mock verifiers, the tiny ruleset registered): the id printed is a game
 * of the dealer with the players in order, the ruleset's durations and the stake; with --deployment; with
 * --dealer-url (the seal key read from a dealer, which must send from the same key); a refused createGame.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { network } from 'hardhat';
import { pino } from 'pino';
import { SHROUD_GAME_ABI } from '../../client/sdk/chain.ts';
import { deployShroud } from '../../contracts/ignition/deploy.ts';
import {
  DURATION_FIELDS,
  DURATION_FLOORS,
  loadHasher,
  rulesetHash,
  shippedRuleset,
} from '../../core/index.ts';
import { generateSealKey } from '../../core/sealed.ts';
import { buildApp } from '../../dealer/app.ts';
import { FakeChain } from '../../dealer/chain/fake.ts';
import { LobbyService } from '../../dealer/lobby.ts';
import { MapCache } from '../../dealer/maps.ts';
import { createMetrics } from '../../dealer/metrics.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import { UsageError } from '../../lib/cli.ts';
import { deployPlan } from '../../scripts/contracts/plan.ts';
import { createFromCli, parseGameArgs } from '../../scripts/game.ts';
import { HTTP } from '../dealer/fixture.ts';
import { freePort } from '../helpers/free-port.ts';
import { runNode } from '../helpers/run-node.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HARDHAT = path.join(ROOT, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js');
const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-game-cli-'));

/** Hardhat's dev accounts (local chain only): #0 deploys, #1 is the dealer's transaction key. */
const DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const TX_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const DEALER = new Wallet(TX_KEY).address;
const P1 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const P2 = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const SEAL = generateSealKey();
const SEAL_ARG = SEAL.publicKey.join(',');
const TINY = shippedRuleset('tiny');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const cleared = {
    RPC_URL: '',
    SHROUD_RPC_URL: '',
    SHROUD_TX_KEY: '',
    SHROUD_GAME_CONTRACT: '',
    SHROUD_DEALER_SEAL_PUBLIC_KEY: '',
  };
  return runNode('scripts/game.ts', args, { ...cleared, ...env }, 120_000);
}

/** One stderr line `game: …` matching `what`, exit `code`, nothing on stdout, no stack. */
function failed(r: Run, code: number, what: RegExp): void {
  const detail = `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
  assert.equal(r.code, code, detail);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line:\n${detail}`);
  assert.match(lines[0]!, /^game: /, detail);
  assert.match(lines[0]!, what, detail);
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
  assert.equal(r.stdout, '', detail);
}

const ENV = (o: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  RPC_URL: 'http://127.0.0.1:1',
  SHROUD_TX_KEY: TX_KEY,
  SHROUD_GAME_CONTRACT: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  SHROUD_DEALER_SEAL_PUBLIC_KEY: SEAL_ARG,
  ...o,
});
const CREATE = ['create', '--ruleset', 'tiny', '--players', `${P1},${P2}`];

/** Runs a batch two at a time (each is a Node process; the machine has 2 cores). */
async function pairs<T>(items: T[], f: (t: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 2) await Promise.all(items.slice(i, i + 2).map(f));
}

after(() => rmSync(tmp, { recursive: true, force: true }));

describe('npm run game: the CLI convention', () => {
  it('--help and -h print the usage, exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await run([flag]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^usage: npm run game -- create --ruleset NAME --players/);
      assert.equal(r.stderr, '');
    }
  });

  it('a bad flag, a missing setting or a term the contract would refuse: one line naming it, exit 2', {
    timeout: 180_000,
  }, async () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['--bogus'], ENV(), /^game: unknown flag --bogus \(see --help\)$/],
      [CREATE, ENV({ SHROUD_TX_KEY: '' }), /SHROUD_TX_KEY is required/],
      [
        ['create', '--ruleset', 'tiny', '--players', `${P1},${P2},${DEALER}`],
        ENV(),
        /--players: seats: tiny seats 2\.\.2 players, not 3/,
      ],
      [[...CREATE, '--seal-key', '1,2'], ENV(), /--seal-key: sealKey: not on Baby Jubjub/],
    ];
    await pairs(cases, async ([args, env, what]) => failed(await run(args, env), 2, what));
  });

  it('every other usage error names its flag or variable (in-process: same code path)', async () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [[], ENV(), /^a command is required: create/],
      [['delete'], ENV(), /^unknown command "delete"/],
      [['create', '--players', `${P1},${P2}`], ENV(), /^--ruleset is required/],
      [['create', '--ruleset', 'nope', '--players', P1], ENV(), /^--ruleset nope: unknown; shipped: duel/],
      [['create', '--ruleset', 'tiny'], ENV(), /^--players is required/],
      [
        ['create', '--ruleset', 'tiny', '--players', `${P1},0x12`],
        ENV(),
        /^--players: "0x12" is not an address/,
      ],
      [[...CREATE, '--stake', '1.5'], ENV(), /^--stake must be a whole number of wei, got "1.5"/],
      [[...CREATE, '--max-turns', '0'], ENV(), /^--max-turns must be an integer in 1\.\./],
      [CREATE, ENV({ RPC_URL: '' }), /^RPC_URL \(or SHROUD_RPC_URL\) is required/],
      [CREATE, ENV({ SHROUD_TX_KEY: '0x12' }), /^SHROUD_TX_KEY: not a 32-byte hex key/],
      [
        CREATE,
        ENV({ SHROUD_GAME_CONTRACT: '' }),
        /^SHROUD_GAME_CONTRACT \(or --deployment FILE\) is required/,
      ],
      [CREATE, ENV({ SHROUD_GAME_CONTRACT: '0x1' }), /^SHROUD_GAME_CONTRACT: not an address/],
      [
        [...CREATE, '--deployment', '/nonexistent.json'],
        ENV(),
        /^--deployment \/nonexistent\.json: no such file/,
      ],
      [CREATE, ENV({ SHROUD_DEALER_SEAL_PUBLIC_KEY: '' }), /^the dealer’s seal key is required/],
      [[...CREATE, '--seal-key', 'x'], ENV(), /^--seal-key must be "X,Y"/],
      [
        [...CREATE, '--seal-key', SEAL_ARG, '--dealer-url', 'http://x'],
        ENV(),
        /^give --seal-key or --dealer-url/,
      ],
      [[...CREATE, '--dealer-url', 'ftp://x'], ENV(), /^--dealer-url ftp:\/\/x: not an http\(s\) URL/],
    ];
    for (const [args, env, what] of cases) {
      assert.throws(
        () => parseGameArgs(args, env),
        (e: unknown) => e instanceof UsageError && what.test(e.message),
        String(what),
      );
    }
    const refusedTerms: [string[], RegExp][] = [
      [[...CREATE, '--dispute-deposit', '5'], /^--dispute-deposit: disputeDeposit: 5 wei: must be between 0/],
      [[...CREATE, '--bond', '0'], /^--bond: bond: must be a positive uint96/],
      [
        ['create', '--ruleset', 'tiny', '--players', `${P1},${DEALER}`],
        /^--players: players\.1: .* is the dealer/,
      ],
      [
        ['create', '--ruleset', 'tiny', '--players', `${P1},${P1}`],
        /^--players: players\.1: .* is seated twice/,
      ],
    ];
    for (const [args, what] of refusedTerms) {
      // Refused before any connection: the RPC here answers nothing.
      await assert.rejects(
        createFromCli(parseGameArgs(args, ENV()), { log: () => {} }),
        (e: unknown) => e instanceof UsageError && what.test(e.message),
        String(what),
      );
    }
  });

  it('an unreachable chain is one line, exit 1', async () => {
    failed(await run(CREATE, ENV()), 1, /^game: RPC_URL http:\/\/127\.0\.0\.1:1: no chain answers there/);
  });
});

describe('npm run game -- create on a hardhat node', () => {
  let node: ChildProcess;
  let url = '';
  let provider: JsonRpcProvider;
  let game: Contract;
  let gameContract = '';

  before(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    node = spawn(process.execPath, [HARDHAT, 'node', '--hostname', '127.0.0.1', '--port', String(port)], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    provider = new JsonRpcProvider(url, 31337, { staticNetwork: true, cacheTimeout: -1 });
    const until = Date.now() + 60_000;
    for (;;) {
      try {
        if (BigInt(await provider.send('eth_chainId', [])) === 31337n) break;
      } catch {}
      if (Date.now() > until) throw new Error(`no hardhat node at ${url}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const conn = await network.connect({ network: 'testnet', override: { url, accounts: [DEPLOYER_KEY] } });
    try {
      const [signer] = await conn.ethers.getSigners();
      const d = await deployShroud(conn, await deployPlan([], { seal: 'mock' }));
      gameContract = d.deployment.shroudGame;
      const reg = d.registry.connect(signer!) as Contract;
      const b = TINY.board;
      await (
        await reg.getFunction('registerRuleset')(rulesetHash(TINY), 0, b.width, b.height, 2, 4, false, 8)
      ).wait();
    } finally {
      await conn.close();
    }
    game = new Contract(gameContract, SHROUD_GAME_ABI, provider);
  });
  after(() => {
    provider?.destroy();
    node?.kill('SIGTERM');
  });

  const env = (o: NodeJS.ProcessEnv = {}) => ENV({ RPC_URL: url, SHROUD_GAME_CONTRACT: gameContract, ...o });

  /** The game id the CLI printed, checked to be a game of the dealer with `players`, tiny's durations, `stake`. */
  async function created(r: Run, players: string[], stake: bigint): Promise<bigint> {
    assert.equal(r.code, 0, `exit ${r.code}\n${r.stderr}`);
    assert.match(r.stdout, /^[0-9]+\n$/, 'the game id alone on stdout');
    assert.match(r.stderr, /^game [0-9]+ created on 0x[0-9a-fA-F]{40} \(chain 31337\): tiny, players /);
    const gameId = BigInt(r.stdout.trim());
    const g = await game.getFunction('getGame')(gameId);
    assert.equal(g.dealer, DEALER);
    assert.equal(g.nPlayers, BigInt(players.length));
    const cfg = await game.getFunction('getGameConfig')(gameId);
    assert.equal(cfg.rulesetHash, rulesetHash(TINY));
    assert.equal(cfg.stake, stake);
    assert.deepEqual([cfg.sealKey[0], cfg.sealKey[1]], [...SEAL.publicKey]);
    for (const f of DURATION_FIELDS) {
      assert.equal(Number(cfg.durations[f]), TINY.deadlines[f]);
      assert.ok(Number(cfg.durations[f]) >= DURATION_FLOORS[f]);
    }
    for (const [i, p] of players.entries()) {
      assert.equal((await game.getFunction('getSeat')(gameId, i)).player, p, `seat ${i}`);
    }
    return gameId;
  }

  it('creates a game from the environment and prints its id', { timeout: 120_000 }, async () => {
    const r = await run(
      [...CREATE, '--stake', '1000', '--dispute-deposit', '10', '--max-turns', '30'],
      env(),
    );
    const gameId = await created(r, [P1, P2], 1000n);
    const cfg = await game.getFunction('getGameConfig')(gameId);
    assert.deepEqual([cfg.disputeDeposit, cfg.board.maxTurns], [10n, 30n]);
    assert.equal((await game.getFunction('getGame')(gameId)).bond, 10n ** 18n, 'the default bond');
  });

  it('reads the contract from --deployment', { timeout: 120_000 }, async () => {
    const file = path.join(tmp, '31337.json');
    writeFileSync(file, JSON.stringify({ chainId: 31337, shroudGame: gameContract }));
    const r = await run(
      ['create', '--ruleset', 'tiny', '--players', `${P2},${P1}`, '--deployment', file, '--bond', '5'],
      env({ SHROUD_GAME_CONTRACT: '' }),
    );
    const gameId = await created(r, [P2, P1], 0n);
    assert.equal((await game.getFunction('getGame')(gameId)).bond, 5n);
    const other = path.join(tmp, '1.json');
    writeFileSync(other, JSON.stringify({ chainId: 1, shroudGame: gameContract }));
    failed(
      await run([...CREATE, '--deployment', other], env({ SHROUD_GAME_CONTRACT: '' })),
      1,
      /is for chain 1, the RPC is chain 31337$/,
    );
  });

  it('reads the seal key from the dealer (--dealer-url), which must send from SHROUD_TX_KEY', {
    timeout: 120_000,
  }, async () => {
    const h = await loadHasher();
    const start = async (dealer: string) => {
      const store = new SqliteStore(path.join(tmp, `d-${dealer}.sqlite`), secretBox(new Uint8Array(32)));
      const chain = new FakeChain({ dealer, contract: gameContract });
      const lobbies = new LobbyService({
        store,
        creator: chain,
        chainId: 31337n,
        gameContract,
        sealKey: SEAL.publicKey,
        kinds: [],
        log: pino({ level: 'silent' }),
        maxJoinAheadSeconds: 600,
        now: () => Math.floor(Date.now() / 1000),
      });
      await lobbies.start();
      const app = await buildApp({
        h,
        chain,
        store,
        maps: new MapCache(h, store),
        metrics: createMetrics(),
        chainId: 31337n,
        logger: pino({ level: 'silent' }),
        http: HTTP,
        lobbies,
      });
      const at = await app.listen({ host: '127.0.0.1', port: 0 });
      return {
        url: at,
        close: async () => {
          await lobbies.stop();
          await app.close();
          await store.close();
        },
      };
    };
    const ours = await start(DEALER);
    const theirs = await start(P2);
    try {
      const r = await run([...CREATE, '--dealer-url', ours.url], env({ SHROUD_DEALER_SEAL_PUBLIC_KEY: '' }));
      await created(r, [P1, P2], 0n);
      failed(
        await run([...CREATE, '--dealer-url', theirs.url], env({ SHROUD_DEALER_SEAL_PUBLIC_KEY: '' })),
        1,
        new RegExp(`sends from ${P2}, SHROUD_TX_KEY is ${DEALER}: it would not deal this game$`),
      );
    } finally {
      await ours.close();
      await theirs.close();
    }
  });

  it('a createGame the contract refuses (a ruleset it does not know) is one line, exit 1', {
    timeout: 120_000,
  }, async () => {
    const before = (await game.getFunction('gameCount')()) as bigint;
    failed(
      await run(['create', '--ruleset', 'duel', '--players', `${P1},${P2}`], env()),
      1,
      /^game: createGame reverted: UnknownRuleset$/,
    );
    assert.equal(await game.getFunction('gameCount')(), before);
  });
});
