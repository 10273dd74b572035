/**
 * `npm run dealer -- keys`: three fresh, valid, distinct secrets in a new 0600 file (whatever the umask),
 * never over an existing one, never on stdout; the public parts printed match them; the dealer starts
 * from that file on a production chain.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { computeAddress } from 'ethers';
import { SUBGROUP_ORDER } from '../../core/babyjub.ts';
import { sealPublicKey, sealSecretKey } from '../../core/sealed.ts';
import { checkStartupPolicy, loadConfig } from '../../dealer/config.ts';
import { KEY_ENV } from '../../dealer/ops/keys.ts';
import { DEFAULT_CONFIG_FILE } from '../../dealer/ops/load-config.ts';
import {
  cleanEnv,
  MAIN,
  PROD_CHAIN_ID,
  PROD_CONTRACT,
  parseEnvFile,
  runDealerCli,
} from './dealer-process.ts';
import { tempDir } from './fixture.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

/** The printed public parts. */
function printed(stdout: string): { sealKey: string[]; txAddress: string } {
  return {
    sealKey: /seal public key[^:]*: (\d+), (\d+)/.exec(stdout)!.slice(1),
    txAddress: /transaction address[^:]*: (0x[0-9a-fA-F]{40})/.exec(stdout)![1]!,
  };
}

describe('dealer keys', () => {
  it('writes three valid, distinct keys to a new 0600 file even under umask 000, and prints only public parts', () => {
    const file = join(tmp.dir, 'dealer.env');
    // Through bash for the umask: the file mode must not depend on it.
    const r = spawnSync(
      'bash',
      ['-c', `umask 000; exec "${process.execPath}" "${MAIN}" keys --out "${file}"`],
      {
        env: cleanEnv({}),
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const env = parseEnvFile(readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(env).sort(), Object.values(KEY_ENV).sort());
    const d = sealSecretKey(env.SHROUD_DEALER_KEY!);
    assert.ok(d >= 1n && d < SUBGROUP_ORDER, 'seal secret below the subgroup order');
    assert.match(env.SHROUD_TX_KEY!, /^0x[0-9a-f]{64}$/);
    assert.match(env.SHROUD_MASTER_KEY!, /^0x[0-9a-f]{64}$/);
    const values = Object.values(env).map((v) => BigInt(v));
    assert.equal(new Set(values).size, 3, 'distinct');
    const pub = printed(r.stdout);
    assert.deepEqual(pub.sealKey, sealPublicKey(d).map(String));
    assert.equal(pub.txAddress, computeAddress(env.SHROUD_TX_KEY!));
    for (const v of Object.values(env)) {
      for (const form of [v, v.slice(2), v.slice(2).toUpperCase(), BigInt(v).toString()]) {
        assert.ok(!r.stdout.includes(form), 'no secret on stdout');
      }
    }
    // The dealer takes them as they are, on a chain where the demo keys are refused.
    const config = loadConfig(DEFAULT_CONFIG_FILE, {
      ...env,
      SHROUD_CHAIN_ID: PROD_CHAIN_ID.toString(),
      SHROUD_GAME_CONTRACT: PROD_CONTRACT,
    });
    assert.doesNotThrow(() => checkStartupPolicy(config, {}));
  });

  it('refuses to overwrite an existing file (exit 2, one line) and leaves it as it was', async () => {
    const file = join(tmp.dir, 'existing.env');
    writeFileSync(file, 'SHROUD_MASTER_KEY=keep-me\n', { mode: 0o600 });
    const r = await runDealerCli(['keys', '--out', file], {});
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^dealer keys: --out .*existing\.env: already exists \(refusing to overwrite it\)\n$/,
    );
    assert.equal(r.stdout, '');
    assert.equal(readFileSync(file, 'utf8'), 'SHROUD_MASTER_KEY=keep-me\n');
  });

  it('defaults to ./dealer-keys.env; --json writes a config "keys" section', async () => {
    const dir = join(tmp.dir);
    const r = await runDealerCli(['keys'], {}, { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(statSync(join(dir, 'dealer-keys.env')).mode & 0o777, 0o600);
    const j = await runDealerCli(['keys', '--json'], {}, { cwd: dir });
    assert.equal(j.code, 0, j.stderr);
    const keys = JSON.parse(readFileSync(join(dir, 'dealer-keys.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(keys).sort(), ['dealerKey', 'masterKey', 'txKey']);
    assert.equal(statSync(join(dir, 'dealer-keys.json')).mode & 0o777, 0o600);
    assert.equal(printed(j.stdout).txAddress, computeAddress(keys.txKey!));
    for (const v of Object.values(keys)) assert.ok(!j.stdout.includes(v.slice(2)), 'no secret on stdout');
  });

  it('a missing folder is a usage error naming --out', async () => {
    const r = await runDealerCli(['keys', '--out', join(tmp.dir, 'nope', 'k.env')], {});
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^dealer keys: --out .*: folder .* does not exist\n$/);
  });
});
