import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SUBGROUP_ORDER } from '../../core/babyjub.ts';
import { generateSealKey, sealPublicKey } from '../../core/sealed.ts';
import {
  ConfigError,
  checkStartupPolicy,
  DEMO_GAME_CONTRACT,
  DEMO_SEAL_KEY,
  type DealerConfig,
  dealerSealSecret,
  loadConfig,
} from '../../dealer/config.ts';
import { tempDir } from './fixture.ts';

const MAIN = new URL('../../dealer/main.ts', import.meta.url).pathname;
const DEFAULT = new URL('../../dealer/config.default.json', import.meta.url).pathname;
/** Hardhat account #1: the demo dealer's transaction key. */
const DEMO_TX_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const tmp = tempDir();
after(() => tmp.cleanup());

const demo = loadConfig(DEFAULT, {});
const fresh = () => `0x${randomBytes(32).toString('hex')}`;
const freshSeal = () => `0x${generateSealKey().secretKey.toString(16).padStart(64, '0')}`;
function with_(chainId: number, keys: Partial<DealerConfig['keys']> = {}): DealerConfig {
  return {
    ...demo,
    // A deployment of its own (the demo address is refused off 31337: see below).
    chain: { ...demo.chain, chainId, gameContract: `0x${'ab'.repeat(20)}` },
    keys: { dealerKey: freshSeal(), masterKey: fresh(), txKey: fresh(), ...keys },
  };
}

/** Writes `config` (JSON) to a temp file and loads it with `env`. */
function load(config: unknown, env: NodeJS.ProcessEnv = {}): DealerConfig {
  const file = join(tmp.dir, `c-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(config));
  return loadConfig(file, env);
}

/** Runs the real dealer process to the policy check; returns its exit code and stderr. */
function runMain(
  config: DealerConfig,
  env: Record<string, string>,
): Promise<{ code: number | null; err: string }> {
  const file = join(tmp.dir, `config-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify({ ...config, db: { path: join(tmp.dir, 'never.sqlite') } }));
  const child = spawn(process.execPath, [MAIN, '--config', file], {
    env: { ...process.env, NODE_ENV: '', SHROUD_TEST_PAUSE_AT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c) => {
    err += c;
  });
  child.stdout.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, err });
    }),
  );
}

describe('startup policy', () => {
  it('refuses the well-known demo seal key off the demo chain (however written), and allows it on 31337', () => {
    assert.equal(demo.keys.dealerKey, DEMO_SEAL_KEY, 'config.default.json ships the demo seal key');
    assert.ok(BigInt(DEMO_SEAL_KEY) < SUBGROUP_ORDER);
    assert.throws(() => checkStartupPolicy(with_(1, { dealerKey: DEMO_SEAL_KEY }), {}), /keys\.dealerKey/);
    for (const spelling of [DEMO_SEAL_KEY.slice(2), `0x1${'0'.repeat(62)}`, `0x0${DEMO_SEAL_KEY.slice(2)}`]) {
      assert.throws(
        () => checkStartupPolicy(with_(11155111, { dealerKey: spelling }), {}),
        /keys\.dealerKey is the well-known demo key/,
        spelling,
      );
    }
    assert.throws(() => checkStartupPolicy(with_(1, { txKey: DEMO_TX_KEY }), {}), /keys\.txKey/);
    assert.doesNotThrow(() => checkStartupPolicy(with_(31337, { dealerKey: DEMO_SEAL_KEY }), {}));
    assert.doesNotThrow(() => checkStartupPolicy(with_(1), {}));
    assert.throws(
      () => checkStartupPolicy(with_(1, { masterKey: `0x${'00'.repeat(32)}` }), {}),
      /keys\.masterKey/,
    );
  });

  it("refuses the demo game contract address off the demo chain (anyone can deploy there with Hardhat's public key)", () => {
    const at = (chainId: number, gameContract: string) => ({
      ...with_(chainId),
      chain: { ...with_(chainId).chain, gameContract },
    });
    assert.equal(demo.chain.gameContract.toLowerCase(), DEMO_GAME_CONTRACT);
    for (const spelling of [
      demo.chain.gameContract,
      DEMO_GAME_CONTRACT,
      DEMO_GAME_CONTRACT.toUpperCase().replace('0X', '0x'),
    ])
      assert.throws(
        () => checkStartupPolicy(at(1, spelling), {}),
        /chain\.gameContract is the local demo address/,
      );
    assert.doesNotThrow(() => checkStartupPolicy(at(31337, demo.chain.gameContract), {}));
  });

  it('enables SHROUD_TEST_PAUSE_AT only with NODE_ENV=test on chain 31337', () => {
    const hook = { SHROUD_TEST_PAUSE_AT: 'root-computed' };
    assert.equal(checkStartupPolicy(with_(31337), { ...hook, NODE_ENV: 'test' }).pauseAt, 'root-computed');
    assert.equal(checkStartupPolicy(with_(31337), { NODE_ENV: 'test' }).pauseAt, undefined);
    assert.throws(() => checkStartupPolicy(with_(31337), hook), /test hook/);
    assert.throws(() => checkStartupPolicy(with_(31337), { ...hook, NODE_ENV: 'production' }), /test hook/);
    assert.throws(() => checkStartupPolicy(with_(1), { ...hook, NODE_ENV: 'test' }), /test hook/);
    assert.throws(
      () => checkStartupPolicy(with_(31337), { SHROUD_TEST_PAUSE_AT: 'never', NODE_ENV: 'test' }),
      /not one of/,
    );
  });

  it('refuses a txKey equal to the seal key, by value', () => {
    const k = freshSeal();
    assert.throws(() => checkStartupPolicy(with_(1, { dealerKey: k, txKey: k }), {}), /must differ/);
    const padded = `0x${BigInt(k).toString(16).padStart(64, '0')}`;
    assert.throws(
      () => checkStartupPolicy(with_(1, { dealerKey: k.slice(2), txKey: padded }), {}),
      /must differ/,
    );
  });

  it('the real process exits 2 on the demo seal key off-chain 31337, without echoing the key', async () => {
    const r = await runMain(with_(1, { dealerKey: DEMO_SEAL_KEY }), {});
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /keys\.dealerKey is the well-known demo key/);
    assert.ok(!r.err.includes(DEMO_SEAL_KEY.slice(2)), 'key not echoed');
  });

  it('the real process exits 2 on a dealerKey that is no seal secret, naming the field only', async () => {
    const secp = `0x${'f'.repeat(63)}1`; // a fine secp256k1 key, far above l
    const r = await runMain(with_(1, { dealerKey: secp }), {});
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /config keys\.dealerKey: not a Baby Jubjub seal secret/);
    assert.ok(!r.err.includes(secp.slice(2)), 'key not echoed');
  });

  it('--new-seal-key prints a seal secret the config accepts, and its public sealKey', async () => {
    const child = spawn(process.execPath, [MAIN, '--new-seal-key'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 0);
    const j = JSON.parse(out) as { dealerKey: string; sealKey: string[] };
    const d = dealerSealSecret(with_(1, { dealerKey: j.dealerKey }));
    assert.deepEqual(sealPublicKey(d).map(String), j.sealKey);
    assert.doesNotThrow(() => load({ ...demo, keys: { ...demo.keys, dealerKey: j.dealerKey } }));
  });

  it('the real process exits 2 when the pause hook is set outside tests', async () => {
    const r = await runMain(with_(31337), { SHROUD_TEST_PAUSE_AT: 'root-computed', NODE_ENV: 'production' });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /SHROUD_TEST_PAUSE_AT/);
  });
});

describe('config: bad input names the setting, never the value', () => {
  const refuses = (config: unknown, path: RegExp, env: NodeJS.ProcessEnv = {}) => {
    assert.throws(
      () => load(config, env),
      (e: Error) => e instanceof ConfigError && path.test(e.message),
    );
  };

  it('keys.dealerKey must be a Baby Jubjub seal secret: 1 ≤ d < l, hex', () => {
    for (const bad of [
      '0x0',
      `0x${'00'.repeat(32)}`,
      `0x${SUBGROUP_ORDER.toString(16)}`, // = l
      `0x${(SUBGROUP_ORDER + 5n).toString(16)}`,
      `0x${'ff'.repeat(32)}`,
      `0x${'1'.repeat(65)}`, // too long
      '0xzz',
      '',
    ]) {
      let err: unknown;
      try {
        load({ ...demo, keys: { ...demo.keys, dealerKey: bad } });
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof ConfigError, `refused: ${bad}`);
      assert.match(err.message, /keys\.dealerKey/);
      if (bad.length > 4) assert.ok(!err.message.includes(bad.slice(2)), 'value not echoed');
    }
    refuses(
      { ...demo, keys: { ...demo.keys, dealerKey: `0x${'ff'.repeat(32)}` } },
      /not a Baby Jubjub seal secret/,
    );
    // Through the environment too.
    refuses(demo, /keys\.dealerKey/, { SHROUD_DEALER_KEY: `0x${(SUBGROUP_ORDER + 1n).toString(16)}` });
    const top = `0x${(SUBGROUP_ORDER - 1n).toString(16)}`;
    assert.equal(dealerSealSecret(load(demo, { SHROUD_DEALER_KEY: top })), SUBGROUP_ORDER - 1n);
    assert.equal(dealerSealSecret(load({ ...demo, keys: { ...demo.keys, dealerKey: '1' } })), 1n);
  });

  it('reveals.playerRateLimit: positive rate, integer burst ≥ 1, nothing else', () => {
    const rl = (playerRateLimit: unknown) => ({ ...demo, reveals: { ...demo.reveals, playerRateLimit } });
    assert.deepEqual(demo.reveals.playerRateLimit, { perSecond: 10, burst: 40 }, 'documented defaults');
    for (const bad of [
      { perSecond: 0, burst: 5 },
      { perSecond: -1, burst: 5 },
      { perSecond: '5', burst: 5 },
      { perSecond: 5, burst: 0 },
      { perSecond: 5, burst: 1.5 },
      { perSecond: 5 },
      { perSecond: 5, burst: 5, window: 1 },
      5,
    ]) {
      refuses(rl(bad), /config reveals\.playerRateLimit/);
    }
    assert.deepEqual(load(rl({ perSecond: 0.5, burst: 2 })).reveals.playerRateLimit, {
      perSecond: 0.5,
      burst: 2,
    });
    const { playerRateLimit: _, ...noLimit } = demo.reveals;
    assert.equal(load({ ...demo, reveals: noLimit }).reveals.playerRateLimit, undefined, 'optional');
  });

  it('SHROUD_PLAYER_RATE_PER_SECOND / _BURST: numbers only; one alone keeps the other default', () => {
    refuses(demo, /SHROUD_PLAYER_RATE_PER_SECOND: not a number/, { SHROUD_PLAYER_RATE_PER_SECOND: 'fast' });
    refuses(demo, /SHROUD_PLAYER_RATE_PER_SECOND/, { SHROUD_PLAYER_RATE_PER_SECOND: '-1' });
    refuses(demo, /config reveals\.playerRateLimit\.perSecond/, { SHROUD_PLAYER_RATE_PER_SECOND: '0' });
    refuses(demo, /SHROUD_PLAYER_RATE_BURST: not an integer/, { SHROUD_PLAYER_RATE_BURST: '2.5' });
    assert.deepEqual(load(demo, { SHROUD_PLAYER_RATE_PER_SECOND: '2.5' }).reveals.playerRateLimit, {
      perSecond: 2.5,
      burst: 40,
    });
    const { playerRateLimit: _, ...noLimit } = demo.reveals;
    assert.deepEqual(
      load({ ...demo, reveals: noLimit }, { SHROUD_PLAYER_RATE_BURST: '7' }).reveals.playerRateLimit,
      {
        perSecond: 10,
        burst: 7,
      },
    );
    // A half-written file section is an error, not silently completed.
    refuses({ ...demo, reveals: { ...demo.reveals, playerRateLimit: { burst: 3 } } }, /perSecond/);
  });
});
