/** `npm run play:web`: --help, and a bad flag or value is one line naming it (exit 2), as every Shroud CLI. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../client/web/build.ts';

const run = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, 'client', 'web', 'serve.ts'), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });

test('play:web --help and bad flags', () => {
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: npm run play:web -- --dealer URL/);
  for (const [args, line] of [
    [['--bogus'], 'play:web: unknown flag --bogus (see --help)'],
    [[], 'play:web: --dealer is required (see --help)'],
    [['--dealer', 'ftp://x'], 'play:web: --dealer ftp://x: not an http(s) URL'],
    [['--dealer', 'http://x', '--rpc', 'nope'], 'play:web: --rpc nope: not an http(s) URL'],
    [
      ['--dealer', 'http://x', '--port', '99999'],
      'play:web: --port must be an integer in 0..65535, got "99999"',
    ],
    [
      ['--dealer', 'http://x', '--contract', '0x12'],
      'play:web: --contract 0x12: not an address (0x + 40 hex digits)',
    ],
  ] as const) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr.trim(), line);
  }
});
