/**
 * Every dealer setting can come from the environment, and the doc and the example env file say so: the
 * config schema, the variable table (dealer/config-env.ts), docs/dealer-config.md and
 * dealer/config.production.example.env are checked against each other. Then a dealer started from the
 * environment alone (no --config) on a production chain id deals a game and serves verified tiles.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadHasher } from '../../core/index.ts';
import { sealPublicKey } from '../../core/sealed.ts';
import { FakeChain } from '../../dealer/chain/fake.ts';
import {
  CONFIG_SCHEMA,
  ConfigError,
  checkStartupPolicy,
  type DealerConfig,
  loadConfig,
  loadConfigSources,
} from '../../dealer/config.ts';
import { ENV_SETTINGS, GROUP_DEFAULTS } from '../../dealer/config-env.ts';
import { CONFIG_DOC_FILE, renderConfigDoc } from '../../dealer/ops/config-doc.ts';
import { generateDealerKeys } from '../../dealer/ops/keys.ts';
import { DEFAULT_CONFIG_FILE } from '../../dealer/ops/load-config.ts';
import {
  PROD_CHAIN_ID,
  PROD_CONTRACT,
  parseEnvFile,
  prodVars,
  revealVerified,
  runDealerCli,
  startDealerProcess,
  until,
} from './dealer-process.ts';
import { ALICE, duelLeaves, postTurn, runCeremony, tempDir } from './fixture.ts';

const tmp = tempDir();
after(() => tmp.cleanup());
const EXAMPLE = new URL('../../dealer/config.production.example.env', import.meta.url).pathname;
const DEFAULTS = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, 'utf8')) as Record<string, unknown>;

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
}

/** The dotted path of every leaf setting of the schema (objects are walked; arrays are one setting). */
function leaves(node: SchemaNode, prefix = ''): string[] {
  if (node.type !== 'object' || !node.properties) return [prefix];
  return Object.entries(node.properties)
    .filter(([k]) => k !== '$schema')
    .flatMap(([k, child]) => leaves(child, prefix ? `${prefix}.${k}` : k));
}

const valueAt = (obj: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);

/** A valid value for each variable, different from the default where the setting allows. */
const SAMPLES: Record<string, [string, unknown]> = {
  SHROUD_DEALER_HOST: ['0.0.0.0', '0.0.0.0'],
  SHROUD_DEALER_PORT: ['9000', 9000],
  SHROUD_BODY_LIMIT_BYTES: ['4096', 4096],
  SHROUD_CORS_ORIGINS: [' https://a.example , https://b.example', ['https://a.example', 'https://b.example']],
  SHROUD_RATE_LIMIT_MAX: ['99', 99],
  SHROUD_RATE_LIMIT_WINDOW_MS: ['1000', 1000],
  SHROUD_DOCS: ['false', false],
  SHROUD_TRUST_PROXY: ['127.0.0.1, 10.0.0.0/8', ['127.0.0.1', '10.0.0.0/8']],
  SHROUD_CHAIN_KIND: ['fake-file', 'fake-file'],
  SHROUD_RPC_URL: ['https://rpc.example/key', 'https://rpc.example/key'],
  SHROUD_CHAIN_ID: ['5', 5],
  SHROUD_GAME_CONTRACT: [PROD_CONTRACT, PROD_CONTRACT],
  SHROUD_FAKE_CHAIN_FILE: ['/tmp/chain.json', '/tmp/chain.json'],
  SHROUD_POLL_MS: ['250', 250],
  SHROUD_START_BLOCK: ['123456', 123456],
  SHROUD_CONFIRMATIONS: ['5', 5],
  SHROUD_MAP_PROOF_REGISTRY: [`0x${'ab'.repeat(20)}`, `0x${'ab'.repeat(20)}`],
  SHROUD_MAX_EXPIRY_SECONDS: ['60', 60],
  SHROUD_PLAYER_RATE_PER_SECOND: ['2.5', 2.5],
  SHROUD_PLAYER_RATE_BURST: ['7', 7],
  SHROUD_CACHE_MAPS: ['8', 8],
  SHROUD_CACHE_GAMES: ['100', 100],
  SHROUD_CACHE_OPENINGS: ['200', 200],
  SHROUD_CACHE_SIGNERS: ['16', 16],
  SHROUD_CACHE_SESSIONS: ['300', 300],
  SHROUD_CACHE_ENTRIES: ['5000', 5000],
  SHROUD_MAP_PROOF_ENABLED: ['0', false],
  SHROUD_MAP_PROOF_DIR: ['/srv/keys', '/srv/keys'],
  SHROUD_MAP_PROOF_WORKERS: ['3', 3],
  SHROUD_MAP_PROOF_QUEUE: ['0', false],
  SHROUD_MAP_PROOF_JOB_KEY: [`0x${'44'.repeat(32)}`, `0x${'44'.repeat(32)}`],
  SHROUD_MAP_PROOF_HEARTBEAT_SECONDS: ['12', 12],
  SHROUD_MAP_PROOF_ATTEMPTS: ['5', 5],
  SHROUD_ARTIFACTS_DIR: ['/srv/shroud/generated', '/srv/shroud/generated'],
  SHROUD_LOBBIES: [
    '[{"name":"tiny-duel","ruleset":"tiny","seats":2,"stake":"1000","disputeDeposit":"100","maxTurns":40,"bond":"1000000000000000000"}]',
    [
      {
        name: 'tiny-duel',
        ruleset: 'tiny',
        seats: 2,
        stake: '1000',
        disputeDeposit: '100',
        maxTurns: 40,
        bond: '1000000000000000000',
      },
    ],
  ],
  SHROUD_LOBBY_JOIN_AHEAD_SECONDS: ['300', 300],
  SHROUD_DB_DRIVER: ['sqlite', 'sqlite'],
  SHROUD_DB: ['/var/lib/shroud/x.sqlite', '/var/lib/shroud/x.sqlite'],
  SHROUD_DB_URL: ['postgres://u:p@h:5432/d', 'postgres://u:p@h:5432/d'],
  SHROUD_DEALER_KEY: [`0x${'11'.repeat(31)}`, `0x${'11'.repeat(31)}`],
  SHROUD_MASTER_KEY: [`0x${'22'.repeat(32)}`, `0x${'22'.repeat(32)}`],
  SHROUD_TX_KEY: [`0x${'33'.repeat(32)}`, `0x${'33'.repeat(32)}`],
  SHROUD_LOG_LEVEL: ['warn', 'warn'],
  SHROUD_LOBBY_MAX_PENDING_GAMES: ['3', 3],
};

function configFile(obj: unknown): string {
  const file = join(tmp.dir, `c-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(obj));
  return file;
}

describe('every setting has an environment variable, in the doc and the example env file', () => {
  const schemaLeaves = leaves(CONFIG_SCHEMA as SchemaNode);

  it('the variable table covers exactly the schema, one SHROUD_ variable per setting', () => {
    assert.ok(schemaLeaves.length >= 29, `the walk found the settings (${schemaLeaves.length})`);
    assert.deepEqual(ENV_SETTINGS.map((s) => s.path).sort(), [...schemaLeaves].sort());
    const names = ENV_SETTINGS.map((s) => s.env);
    assert.equal(new Set(names).size, names.length, 'no variable twice');
    for (const n of names) assert.match(n, /^SHROUD_[A-Z0-9_]+$/);
  });

  it('each variable sets its setting (and only from a non-empty value)', () => {
    assert.deepEqual(Object.keys(SAMPLES).sort(), ENV_SETTINGS.map((s) => s.env).sort());
    for (const s of ENV_SETTINGS) {
      const [text, value] = SAMPLES[s.env]!;
      const { config, fromEnv } = loadConfigSources(DEFAULT_CONFIG_FILE, { [s.env]: text });
      assert.deepEqual(valueAt(config, s.path), value, s.env);
      assert.deepEqual(fromEnv, [s.env]);
      const unset = loadConfigSources(DEFAULT_CONFIG_FILE, { [s.env]: '' });
      assert.deepEqual(unset.fromEnv, [], `${s.env}= (empty) is unset`);
    }
    assert.deepEqual(loadConfig(DEFAULT_CONFIG_FILE, { SHROUD_CORS_ORIGINS: 'none' }).http.corsOrigins, []);
  });

  it('bad values name the variable, never the value', () => {
    for (const [name, bad] of [
      ['SHROUD_DOCS', 'maybe-s3cret'],
      ['SHROUD_START_BLOCK', '-1-s3cret'],
      ['SHROUD_PLAYER_RATE_PER_SECOND', 'fast-s3cret'],
    ] as const) {
      assert.throws(
        () => loadConfig(DEFAULT_CONFIG_FILE, { [name]: bad }),
        (e: Error) => e instanceof ConfigError && e.message.startsWith(name) && !e.message.includes('s3cret'),
      );
    }
  });

  it('a group the file leaves out, partly set by the environment, takes its defaults for the rest', () => {
    for (const [group, defaults] of Object.entries(GROUP_DEFAULTS))
      assert.deepEqual(valueAt(DEFAULTS, group), defaults, `${group}: the shipped defaults`);
    const { mapProof: _m, ...noProof } = DEFAULTS;
    const reveals = { maxExpirySeconds: 600 };
    const c = loadConfig(configFile({ ...noProof, reveals }), {
      SHROUD_MAP_PROOF_WORKERS: '3',
      SHROUD_PLAYER_RATE_BURST: '9',
    });
    assert.deepEqual(c.mapProof, { ...GROUP_DEFAULTS.mapProof, workers: 3 });
    assert.deepEqual(c.reveals.playerRateLimit, { perSecond: 10, burst: 9 });
    assert.equal(loadConfig(configFile({ ...noProof, reveals }), {}).mapProof, undefined, 'absent: off');
  });

  it('docs/dealer-config.md is current (node scripts/dealer-config-doc.ts) and lists every setting', () => {
    const doc = readFileSync(CONFIG_DOC_FILE, 'utf8');
    const want = renderConfigDoc().split('\n');
    const line = doc.split('\n').findIndex((l, i) => l !== want[i]);
    if (line >= 0 || doc.split('\n').length !== want.length)
      assert.fail(`docs/dealer-config.md is stale (line ${line + 1}): run node scripts/dealer-config-doc.ts`);
    for (const s of ENV_SETTINGS) assert.ok(doc.includes(`| \`${s.path}\` | \`${s.env}\` |`), s.path);
  });

  it('the production example env file lists every variable once, and loads on its chain once keys are in', () => {
    const text = readFileSync(EXAMPLE, 'utf8');
    const assigned = [...text.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]);
    assert.deepEqual([...assigned].sort(), ENV_SETTINGS.map((s) => s.env).sort());
    const env = parseEnvFile(text);
    // As shipped it is refused (no keys, no contract): it cannot start by accident with demo values.
    assert.throws(() => checkStartupPolicy(loadConfig(DEFAULT_CONFIG_FILE, env), env), ConfigError);
    const { keys } = generateDealerKeys();
    const filled = {
      ...env,
      SHROUD_DEALER_KEY: keys.dealerKey,
      SHROUD_TX_KEY: keys.txKey,
      SHROUD_MASTER_KEY: keys.masterKey,
      SHROUD_GAME_CONTRACT: PROD_CONTRACT,
    };
    const c: DealerConfig = loadConfig(DEFAULT_CONFIG_FILE, filled);
    assert.doesNotThrow(() => checkStartupPolicy(c, filled));
    assert.notEqual(c.chain.chainId, 31337);
    assert.equal(c.db.path, '/var/lib/shroud/dealer.sqlite');
  });
});

describe('a dealer configured by the environment alone (no --config)', () => {
  it('check passes, printing no secret; the service deals a game and serves verified tiles', async () => {
    const h = await loadHasher();
    const { keys } = generateDealerKeys();
    const chainFile = join(tmp.dir, 'chain.json');
    const chain = new FakeChain({ chainId: PROD_CHAIN_ID, file: chainFile, create: true });
    const vars = {
      ...prodVars({ chainFile, keys, db: { path: join(tmp.dir, 'env-only.sqlite') } }),
      SHROUD_CORS_ORIGINS: 'https://game.example',
      SHROUD_DOCS: 'false',
      SHROUD_LOG_LEVEL: 'info',
    };

    const check = await runDealerCli(['check'], vars, { cwd: tmp.dir });
    assert.equal(check.code, 0, check.stderr);
    const report = JSON.parse(check.stdout) as { config: DealerConfig; fromEnv: string[] };
    assert.equal(report.config.chain.chainId, Number(PROD_CHAIN_ID));
    assert.deepEqual(report.config.keys, { dealerKey: '[set]', masterKey: '[set]', txKey: '[set]' });
    for (const v of Object.values(keys)) assert.ok(!check.stdout.includes(v.slice(2)), 'no secret printed');

    const { gameId } = runCeremony(h, chain, sealPublicKey(BigInt(keys.dealerKey)), {
      contract: PROD_CONTRACT,
    });
    const dealer = await startDealerProcess(vars, tmp.dir);
    try {
      await until(() => chain.mapRoot(gameId));
      const leaves = duelLeaves();
      const blinding = postTurn(h, chain, gameId, ALICE, 1, leaves);
      const r = await revealVerified(h, chain, dealer.url, ALICE, { gameId, turn: 1, leaves, blinding });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.tiles!.length, leaves.length);
      const cors = await fetch(`${dealer.url}/health`, { headers: { origin: 'https://game.example' } });
      assert.equal(cors.headers.get('access-control-allow-origin'), 'https://game.example');
      assert.equal((await fetch(`${dealer.url}/docs/json`)).status, 404, 'SHROUD_DOCS=false');
    } finally {
      assert.equal(await dealer.stop(), 0);
    }
  });
});
