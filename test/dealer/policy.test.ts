import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkStartupPolicy, type DealerConfig, loadConfig } from '../../dealer/config.ts';
import { tempDir } from './fixture.ts';

const MAIN = new URL('../../dealer/main.ts', import.meta.url).pathname;
const DEFAULT = new URL('../../dealer/config.default.json', import.meta.url).pathname;
const DEMO_DEALER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const tmp = tempDir();
after(() => tmp.cleanup());

const demo = loadConfig(DEFAULT, {});
const fresh = () => `0x${randomBytes(32).toString('hex')}`;
function with_(chainId: number, keys: Partial<DealerConfig['keys']> = {}): DealerConfig {
  return {
    ...demo,
    chain: { ...demo.chain, chainId },
    keys: { dealerKey: fresh(), masterKey: fresh(), txKey: fresh(), ...keys },
  };
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
  it('refuses the well-known demo dealer key off the demo chain, and allows it on 31337', () => {
    assert.throws(() => checkStartupPolicy(with_(1, { dealerKey: DEMO_DEALER_KEY }), {}), /keys\.dealerKey/);
    assert.throws(
      () => checkStartupPolicy(with_(11155111, { dealerKey: DEMO_DEALER_KEY.slice(2).toUpperCase() }), {}),
      /keys\.dealerKey/,
    );
    assert.doesNotThrow(() => checkStartupPolicy(with_(31337, { dealerKey: DEMO_DEALER_KEY }), {}));
    assert.doesNotThrow(() => checkStartupPolicy(with_(1), {}));
    assert.throws(
      () => checkStartupPolicy(with_(1, { masterKey: `0x${'00'.repeat(32)}` }), {}),
      /keys\.masterKey/,
    );
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

  it('the real process exits 2 on the demo dealer key off-chain 31337, without echoing the key', async () => {
    const r = await runMain(with_(1, { dealerKey: DEMO_DEALER_KEY }), {});
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /keys\.dealerKey is the well-known demo key/);
    assert.ok(!r.err.includes(DEMO_DEALER_KEY.slice(2)), 'key not echoed');
  });

  it('the real process exits 2 when the pause hook is set outside tests', async () => {
    const r = await runMain(with_(31337), { SHROUD_TEST_PAUSE_AT: 'root-computed', NODE_ENV: 'production' });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /SHROUD_TEST_PAUSE_AT/);
  });
});
