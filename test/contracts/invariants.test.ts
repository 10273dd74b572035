/**
 * Runs the Solidity invariant tests of ShroudGame's phase machine and money (test/contracts/invariants/, run by
 * Hardhat 3's Solidity test runner: `npm run test:sol`) as part of `npm test`, failing with their output.
 *
 * `hardhat test solidity` is run without a file argument on purpose: it then builds every root (contracts and
 * tests). With a file argument Hardhat builds that test file only and the runner links ShroudGame's external
 * libraries from the artifacts of the last full build, which may be stale.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hardhat = join(
  dirname(createRequire(import.meta.url).resolve('hardhat/package.json')),
  'dist',
  'src',
  'cli.js',
);

test('Solidity invariant tests: funds conserved, no stuck game, failed dealers unpaid, consistent phases', {
  timeout: 600_000,
}, () => {
  const r = spawnSync(process.execPath, [hardhat, 'test', 'solidity'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  assert.equal(r.error, undefined, `could not run hardhat: ${r.error}`);
  assert.equal(r.status, 0, `hardhat test solidity failed (exit ${r.status}):\n${output}`);
  assert.match(output, /invariant_fundsConserved\(\) \(runs: \d+\)/, `no invariant run reported:\n${output}`);
});
