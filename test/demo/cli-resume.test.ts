/**
 * A CLI player survives a crash (issue 14): against a live chain and dealer (the demo's setup functions), two CLI
 * players start a tiny game; once player 0 has played a turn after its spawn it is killed with SIGKILL, then started
 * again with the same command and state file. It resumes from the file and both play the game to the end. Then the
 * state is exported and restored elsewhere with the player's key.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JsonRpcProvider, Wallet } from 'ethers';
import { shippedRuleset } from '../../core/index.ts';
import { createDemoGame } from '../../scripts/demo/game.ts';
import { stopAll } from '../../scripts/demo/procs.ts';
import { DEV_KEYS, ROOT } from '../../scripts/demo/setup.ts';
import { liveChain } from '../helpers/live-chain.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-cli-resume-'));
after(async () => {
  await stopAll();
  if (process.env.SHROUD_KEEP_LOGS) console.error(`logs kept in ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
});

interface Run {
  proc: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  out: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>;
  /** Resolves once the output matches `re`. */
  printed(re: RegExp): Promise<void>;
}

/** `client/cli.ts` with the player key, its state folder under the test's tmp (never the user's). */
function runCli(args: string[], key: string): Run {
  const proc = spawn(process.execPath, [path.join(ROOT, 'client', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, SHROUD_PLAYER_KEY: key, XDG_STATE_HOME: path.join(tmp, 'xdg-state') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  const onData = (d: Buffer) => {
    out += d;
    for (const w of [...waiters])
      if (w.re.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const timer = setTimeout(() => proc.kill('SIGTERM'), 240_000);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      for (const w of waiters) w.resolve();
      resolve({ code, signal, out });
    }),
  );
  return {
    proc,
    out: () => out,
    done,
    printed: (re) =>
      re.test(out) || proc.exitCode !== null
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ re, resolve })),
  };
}

interface Live {
  url: string;
  game: string;
  dealerUrl: string;
  dealerKey: string;
}

/** Chain, deployment and dealer (as test/demo/cli.test.ts). */
async function live(): Promise<Live> {
  const c = await liveChain({ tmp, ruleset: 'tiny' });
  return { url: c.url, game: c.deployment.shroudGame, dealerUrl: c.dealerUrl, dealerKey: c.dealerKey };
}

describe('CLI player: SIGKILL mid-game, then the same command resumes (tiny)', () => {
  let env: Live;
  before(async () => {
    env = await live();
  });

  it('player 0 is killed after its first turn, restarted from its state file, and both finish', {
    timeout: 300_000,
  }, async () => {
    const keys = [DEV_KEYS[6]!, DEV_KEYS[7]!] as const;
    const provider = new JsonRpcProvider(env.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
    let gameId: bigint;
    try {
      ({ gameId } = await createDemoGame({
        provider,
        ruleset: shippedRuleset('tiny'),
        gameContract: env.game,
        dealerKey: env.dealerKey,
        players: keys.map((k) => new Wallet(k).address),
        maxTurns: 6,
      }));
    } finally {
      provider.destroy();
    }
    const base = ['--rpc', env.url, '--contract', env.game, '--dealer', env.dealerUrl, '--game', `${gameId}`];
    const stateFile = path.join(tmp, 'seat0', 'state.json');
    const args0 = [
      ...base,
      '--seed',
      'resume-0',
      '--state',
      stateFile,
      '--tiles-out',
      path.join(tmp, 'tiles0.json'),
    ];
    const first = runCli(args0, keys[0]);
    const other = runCli([...base, '--seed', 'resume-1'], keys[1]);
    const report = (runs: Run[]) => runs.map((r, i) => `run ${i}:\n${r.out()}`).join('\n');
    try {
      await first.printed(/turn \d+ turn: /);
      assert.equal(first.proc.exitCode, null, report([first, other]));
      first.proc.kill('SIGKILL');
      const killed = await first.done;
      assert.equal(killed.signal, 'SIGKILL');
      assert.equal(statSync(stateFile).mode & 0o777, 0o600, 'the state file is private');
      const tilesBefore = [...killed.out.matchAll(/, (\d+) tiles verified/g)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      );
      assert.ok(tilesBefore > 0, killed.out);

      const second = runCli(args0, keys[0]);
      const [a, b] = await Promise.all([second.done, other.done]);
      const all = report([first, second, other]);
      assert.equal(a.code, 0, all);
      assert.equal(b.code, 0, all);
      assert.match(
        a.out,
        new RegExp(`resumed from ${stateFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ tiles, spawned`),
      );
      assert.doesNotMatch(a.out, /spawn: /, 'the resumed player did not spawn again');
      for (const r of [a, b]) assert.match(r.out, /game over: phase (Secrets|Audit) after turn 6/, all);
      // Everything served before the kill is still held (and handed to the audit).
      const served = Number(/served and verified: (\d+) tiles/.exec(a.out)?.[1]);
      assert.ok(served >= tilesBefore, `${served} tiles after the resume, ${tilesBefore} before the kill`);
      assert.equal(JSON.parse(readFileSync(path.join(tmp, 'tiles0.json'), 'utf8')).length, served);

      // Export, then restore into another state file: the same seat opens it (the game is over: nothing to play).
      const exported = path.join(tmp, 'exported.json');
      const ex = await runCli([...args0, '--export-state', exported], keys[0]).done;
      assert.equal(ex.code, 0, ex.out);
      assert.equal(statSync(exported).mode & 0o777, 0o600);
      const restoredFile = path.join(tmp, 'elsewhere', 'state.json');
      const re = await runCli([...base, '--state', restoredFile, '--restore-state', exported], keys[0]).done;
      assert.equal(re.code, 0, re.out);
      assert.match(re.out, /state restored from .*\nresumed from/s);
      // Another seat's key cannot take it.
      const thief = await runCli(
        [...base, '--state', path.join(tmp, 'thief.json'), '--restore-state', exported],
        keys[1],
      ).done;
      assert.equal(thief.code, 1, thief.out);
      assert.match(thief.out, /^player: player state vault: this state belongs to seat address 0x/m);
    } finally {
      first.proc.kill('SIGKILL');
      other.proc.kill('SIGKILL');
    }
  });
});
