/** `npm run dealer -- prover`: its usage, and one line (exit 2) for each way it cannot start. No server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runDealerCli } from '../dealer/dealer-process.ts';

const PG = { SHROUD_DB_DRIVER: 'postgres', SHROUD_DB_URL: 'postgres://u:s3cret@127.0.0.1:1/shroud' };
const KEY = { SHROUD_MAP_PROOF_JOB_KEY: `0x${'5a'.repeat(32)}` };

describe('dealer prover: usage and refusals', () => {
  it('--help prints the usage; a bad flag or setting is one line naming it, exit 2', async () => {
    const help = await runDealerCli(['prover', '--help'], {});
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: npm run dealer -- prover/);
    for (const [args, vars, why] of [
      [['--bogus'], {}, /unknown flag --bogus/],
      [['--concurrency', '0'], { ...PG, ...KEY }, /--concurrency must be an integer in 1\.\.64/],
      [[], {}, /SHROUD_DB_DRIVER=postgres/],
      [[], PG, /SHROUD_MAP_PROOF_JOB_KEY/],
      [[], { ...PG, ...KEY, SHROUD_MAP_PROOF_DIR: '/nonexistent' }, /no mapchunk keys under \/nonexistent/],
    ] as const) {
      const r = await runDealerCli(['prover', ...args], vars);
      assert.equal(r.code, 2, `${args} ${r.stderr}`);
      assert.match(r.stderr, why);
      assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
      assert.ok(!r.stderr.includes('s3cret'));
    }
  });
});
