/**
 * One CLI convention (lib/cli.ts) for every command: `--help` prints the usage and exits 0; a bad
 * flag, a missing file or an unwritable path is one line `<cli>: …` naming the flag, exit 2, no stack trace.
 * Each CLI runs as a real process here.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseErrorLine } from '../../lib/cli.ts';
import { type NodeRun, runNode } from '../helpers/run-node.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const aFile = path.join(tmp, 'a-file');
writeFileSync(aFile, 'x');

/** Every CLI: its error prefix and script, then any subcommand (run with `node`, as the package scripts do). */
const CLIS: Record<string, string> = {
  map: 'scripts/map.ts',
  dealer: 'dealer/main.ts',
  'dealer keys': 'dealer/main.ts keys',
  'dealer check': 'dealer/main.ts check',
  'dealer backup': 'dealer/main.ts backup',
  'dealer restore': 'dealer/main.ts restore',
  'dealer-config-doc': 'scripts/dealer-config-doc.ts',
  deploy: 'scripts/deploy.ts',
  audit: 'scripts/audit.ts',
  bench: 'scripts/bench.ts',
  demo: 'scripts/demo.ts',
  player: 'client/cli.ts',
  'circuits:build': 'scripts/circuits/build.ts',
  'circuits bench': 'scripts/circuits/bench.ts',
  verifiers: 'scripts/contracts/verifiers.ts',
  abi: 'scripts/contracts/abi.ts',
  devptau: 'scripts/circuits/devptau.ts',
  devzkey: 'scripts/circuits/devzkey.ts',
  'artifacts:export': 'scripts/artifacts-export.ts',
  game: 'scripts/game.ts',
  ceremony: 'scripts/ceremony/main.ts',
  'build:web': 'scripts/build-web.ts',
  'build:packages': 'scripts/packages/build.ts',
  vectors: 'scripts/vectors.ts',
  'map-params': 'scripts/circuits/map-params.ts',
};

type Run = NodeRun;

/** `script` is `file [subcommand…]`, as CLIS lists it. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const [file, ...subcommand] = script.split(' ');
  return runNode(file!, [...subcommand, ...args], env);
}

/** Exit 2 and exactly one stderr line `<cli>: …` matching `what`, nothing on stdout, no stack. */
function usageError(r: Run, cli: string, what: RegExp): void {
  const detail = `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
  assert.equal(r.code, 2, detail);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line:\n${detail}`);
  assert.ok(lines[0]!.startsWith(`${cli}: `), detail);
  assert.match(lines[0]!, what, detail);
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
  assert.equal(r.stdout, '', detail);
}

/** Runs a batch two at a time (each is a Node process; the machine has 2 cores). */
async function pairs<T>(items: T[], f: (t: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 2) await Promise.all(items.slice(i, i + 2).map(f));
}

/** The player (`npm run play`): its connection flags and their environment variables. */
function playerCases(): [string, string[], RegExp, NodeJS.ProcessEnv][] {
  const env = {
    SHROUD_PLAYER_KEY: `0x${'11'.repeat(32)}`,
    RPC_URL: '',
    SHROUD_GAME_CONTRACT: '',
    SHROUD_DEALER_URL: '',
  };
  const game = ['--game', '1'];
  const rpc = [...game, '--rpc', 'http://127.0.0.1:1'];
  const addr = `0x${'ab'.repeat(20)}`;
  const dealer = ['--dealer', 'http://127.0.0.1:2'];
  return [
    ['player', ['--game', 'x'], /--game x: not a decimal or 0x-hex id/, env],
    ['player', [...game, '--deployment'], /--deployment needs a value/, env],
    ['player', [...game, '--interactive=yes'], /--interactive takes no value/, env],
    ['player', [...rpc, ...dealer], /--contract \(or SHROUD_GAME_CONTRACT\) is required/, env],
    [
      'player',
      [...game, '--rpc', 'localhost:8545'],
      /--rpc localhost:8545: not an http\(s\) or ws\(s\) URL/,
      env,
    ],
    [
      'player',
      [...rpc, '--contract', 'nope', ...dealer],
      /--contract nope: not a 0x-hex contract address/,
      env,
    ],
    ['player', [...rpc, '--contract', addr], /--dealer \(or SHROUD_DEALER_URL\) is required/, env],
    [
      'player',
      [...rpc, ...dealer],
      /SHROUD_GAME_CONTRACT=0x12: not a 0x-hex contract address/,
      { ...env, SHROUD_GAME_CONTRACT: '0x12' },
    ],
    [
      'player',
      [...rpc, ...dealer, '--deployment', '/nonexistent.json'],
      /--deployment \/nonexistent\.json: no such file/,
      env,
    ],
    ['player', [...rpc, ...dealer, '--deployment', aFile], /--deployment .*: not JSON/, env],
    ['player', [...rpc, ...dealer, '--deployment', tmp], /--deployment .*: is a folder/, env],
    ['player', [...rpc, '--contract', addr, '--deployment', aFile], /--contract and --deployment both/, env],
    [
      'player',
      [...rpc, '--contract', addr, ...dealer],
      /SHROUD_PLAYER_KEY: not a 0x-hex 32-byte/,
      { ...env, SHROUD_PLAYER_KEY: '0x01' },
    ],
  ];
}

/**
 * Each case is a real process loading its CLI (up to ~1 s of CPU for the dealer's): over a hundred of them. On a
 * loaded 2-core CI machine the slowest test took over 180 s; the bound is for a hung process, not a budget.
 */
const TIMEOUT = 600_000;

describe('CLI convention', () => {
  it('every CLI answers --help and -h with its usage, exit 0', { timeout: TIMEOUT }, async () => {
    await pairs(Object.entries(CLIS), async ([cli, script]) => {
      for (const flag of ['--help', '-h']) {
        const r = await run(script, [flag]);
        assert.equal(r.code, 0, `${cli} ${flag}: exit ${r.code}\n${r.stderr}`);
        assert.match(r.stdout, /^usage: /, `${cli} ${flag}`);
        assert.equal(r.stderr, '', `${cli} ${flag}: ${r.stderr}`);
      }
    });
  });

  it('every CLI answers an unknown flag with one line naming it, exit 2', { timeout: TIMEOUT }, async () => {
    await pairs(Object.entries(CLIS), async ([cli, script]) => {
      usageError(await run(script, ['--bogus']), cli, /unknown flag --bogus/);
    });
  });

  it('missing values, missing files and unwritable paths name the flag, exit 2', {
    timeout: TIMEOUT,
  }, async () => {
    const cases: [string, string[], RegExp, NodeJS.ProcessEnv?][] = [
      ['map', ['--ruleset'], /--ruleset needs a value/],
      ['map', ['--ruleset', 'duel'], /--seed is required/],
      [
        'map',
        ['--ruleset', 'duel', '--seed', '5eed', '--revealed', '/nonexistent.json'],
        /--revealed .*no such file/,
      ],
      [
        'map',
        ['--ruleset', 'duel', '--seed', '5eed', '--svg', '/nonexistent/x.svg'],
        /--svg .*does not exist/,
      ],
      ['map', ['--ruleset', 'duel', '--seed', '5eed', '--json', tmp], /--json .*is a folder/],
      ['map', ['--ruleset', 'duel', '--seed', '5eed', '--json', `${aFile}/x.json`], /--json /],
      ['map', ['--ruleset', 'nope', '--seed', '5eed'], /unknown ruleset "nope"/],
      ['map', ['--ruleset', 'duel', '--seed', 'zz'], /seed/],
      ['dealer', ['--config', '/nonexistent.json'], /--config \/nonexistent\.json: no such file/],
      ['dealer', ['--config'], /--config needs a value/],
      ['dealer', ['serve'], /unexpected argument "serve"/],
      [
        'dealer keys',
        ['--out', '/nonexistent/k.env'],
        /--out \/nonexistent\/k\.env: folder .* does not exist/,
      ],
      ['dealer keys', ['--out', aFile], /--out .*: already exists/],
      ['dealer check', ['--config', '/nonexistent.json'], /--config \/nonexistent\.json: no such file/],
      ['dealer backup', [], /--out is required/],
      ['dealer restore', ['--from', '/nonexistent.sqlite'], /--from \/nonexistent\.sqlite: no such file/],
      ['dealer restore', ['--from', aFile], /neither a SQLite database nor a pg_dump custom archive/],
      ['deploy', ['--network', 'mainnet'], /--network must be local or testnet/],
      ['deploy', ['--ruleset', 'nope'], /--ruleset nope: unknown/],
      ['deploy', ['--min-contributions', 'x'], /--min-contributions must be an integer/],
      ['deploy', ['--deployment-id', 'x'], /--deployment-id: the in-process chain .* keeps no journal/],
      [
        'deploy',
        ['--network', 'testnet', '--deployment-id', '1x'],
        /--deployment-id 1x: letters/,
        { RPC_URL: 'http://127.0.0.1:9', DEPLOYER_KEY: '0x01' },
      ],
      [
        'deploy',
        ['--network', 'testnet', '--ignition-dir', `${aFile}/ignition`],
        /--ignition-dir .*is a file/,
        { RPC_URL: 'http://127.0.0.1:9', DEPLOYER_KEY: '0x01' },
      ],
      ['audit', ['--game', '1', '--tiles', '/nonexistent.json'], /--tiles .*no such file/],
      ['audit', [], /--game ID is required/],
      ['bench', ['core', '--json', '/nonexistent/m.json'], /--json .*does not exist/],
      ['bench', ['nope'], /unknown suite "nope"/],
      ['bench', [], /a suite is required/],
      ['demo', ['--turns', 'x'], /--turns must be an integer/],
      ['demo', ['--out', `${aFile}/out`], /--out .*is a file/],
      ['demo', ['--ptau-dir', '/nonexistent'], /--ptau-dir \/nonexistent: no such folder/],
      ['demo', [], /SHROUD_PTAU_DIR=\/nonexistent: no such folder/, { SHROUD_PTAU_DIR: '/nonexistent' }],
      [
        'player',
        ['--game', '1'],
        /--rpc \(or RPC_URL\) is required/,
        { SHROUD_PLAYER_KEY: '0x01', RPC_URL: '' },
      ],
      [
        'player',
        ['--rpc', 'x', '--contract', 'y', '--dealer', 'z', '--game', '1', '--artifacts', '/nonexistent'],
        /--artifacts \/nonexistent: no such folder/,
        { SHROUD_PLAYER_KEY: '0x01' },
      ],
      ...playerCases(),
      ['circuits:build', ['--ruleset', 'tiny', '--ptau', '/nonexistent.ptau'], /--ptau .*no such file/],
      ['circuits:build', ['--ruleset', 'tiny', '--circuits', 'nope'], /--circuits nope: unknown/],
      ['circuits:build', [], /--ruleset is required/],
      ['verifiers', ['--ruleset', 'tiny', '--ptau-dir', '/nonexistent'], /--ptau-dir .*no such folder/],
      ['circuits bench', ['--ruleset', 'nope'], /--ruleset nope: unknown/],
      ['devptau', ['--power', '99'], /--power must be an integer in 1\.\.20/],
      ['devptau', ['--power', '4', '--out', '/nonexistent/p.ptau'], /--out .*does not exist/],
      ['devzkey', ['--power', '4', '--out', 'k.zkey'], /--r1cs, --power and --out are required/],
      [
        'devzkey',
        ['--r1cs', '/nonexistent.r1cs', '--power', '4', '--out', 'k.zkey'],
        /--r1cs .*no such file/,
      ],
      [
        'devzkey',
        ['--r1cs', aFile, '--power', '4', '--out', 'k.zkey', '--beacon', 'xyz'],
        /--beacon xyz: 1 to 255/,
      ],
      [
        'devzkey',
        ['--r1cs', aFile, '--power', '4', '--out', '/nonexistent/k.zkey'],
        /--out .*does not exist/,
      ],
      ['devzkey', ['--r1cs', aFile, '--power', '4', '--out', 'k.zkey'], /--r1cs .*: not an r1cs file/],
      ['artifacts:export', [], /--out is required/],
      ['artifacts:export', ['--out', tmp, '--from', '/nonexistent'], /--from \/nonexistent: no such folder/],
      [
        'ceremony',
        ['init', '--ptau', '/nonexistent.ptau', '--ruleset', 'tiny', '--dir', tmp],
        /--ptau .*no such file/,
      ],
      ['ceremony', ['verify'], /--dir is required/],
    ];
    await pairs(cases, async ([cli, args, what, env]) => {
      usageError(await run(CLIS[cli]!, args, env), cli, what);
    });
  });

  it("shortens node:util's parse errors to one line naming the flag", () => {
    const e = (code: string, message: string) => Object.assign(new Error(message), { code });
    assert.equal(
      parseErrorLine(e('ERR_PARSE_ARGS_UNKNOWN_OPTION', "Unknown option '--x'. To specify a positional…")),
      'unknown flag --x (see --help)',
    );
    assert.equal(
      parseErrorLine(e('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', "Option '--svg <value>' argument missing")),
      '--svg needs a value',
    );
    assert.equal(
      parseErrorLine(
        e('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', "Option '--svg <value>' argument is ambiguous."),
      ),
      '--svg needs a value',
    );
    assert.equal(
      parseErrorLine(e('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', "Option '--json' does not take an argument")),
      '--json takes no value (see --help)',
    );
    assert.equal(
      parseErrorLine(e('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', "Unexpected argument 'foo'. This command…")),
      'unexpected argument "foo" (see --help)',
    );
  });
});
