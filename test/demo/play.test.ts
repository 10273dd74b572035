/**
 * `npm run play` against a live chain and dealer (set up as test/demo/cli.test.ts does): a bot seat (its
 * connection from the environment) and an `--interactive` seat (`--deployment FILE`) whose stdin is a script
 * of commands, each line written when the player prompts for it. A tiny game to the end: one bad command
 * answered in one line, a move taken from the printed options, both players exit 0.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JsonRpcProvider, Wallet } from 'ethers';
import { shippedRuleset } from '../../core/index.ts';
import { createDemoGame } from '../../scripts/demo/game.ts';
import { stopAll } from '../../scripts/demo/procs.ts';
import { DEV_KEYS, ROOT } from '../../scripts/demo/setup.ts';
import { liveChain } from '../helpers/live-chain.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-play-'));
after(async () => {
  await stopAll();
  if (process.env.SHROUD_KEEP_LOGS) console.error(`logs kept in ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
});

/** What the player prompts with; each prompt takes one line. */
const PROMPT = /seat \d+ (spawn|turn \d+)> /g;

interface Run {
  code: number | null;
  out: string;
}

interface Player {
  proc: ChildProcessWithoutNullStreams;
  done: Promise<Run>;
}

/** `npm run play`'s script as a process (stdout and stderr into one log); killed after `ms`. */
function play(args: string[], env: NodeJS.ProcessEnv, onOut?: (out: string) => void, ms = 170_000): Player {
  const proc = spawn(process.execPath, [path.join(ROOT, 'client', 'cli.ts'), ...args], {
    cwd: ROOT,
    // State files in this test's folder, never the user's (a rerun reuses the same game ids).
    env: {
      ...process.env,
      RPC_URL: '',
      SHROUD_GAME_CONTRACT: '',
      SHROUD_DEALER_URL: '',
      XDG_STATE_HOME: path.join(tmp, 'state'),
      ...env,
    },
  });
  let out = '';
  const add = (d: Buffer) => {
    out += d;
    onOut?.(out);
  };
  proc.stdout.on('data', add);
  proc.stderr.on('data', add);
  const timer = setTimeout(() => proc.kill('SIGTERM'), ms);
  const done = new Promise<Run>((resolve) =>
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }),
  );
  return { proc, done };
}

/**
 * The interactive seat's script: lines per prompt kind, in order. The first turn moves the infantry (unit 1)
 * to the first destination its options line offers; prompts beyond the script pass.
 */
function script(out: string, prompt: string, turnsSeen: number): string[] {
  if (prompt === 'spawn') return ['help', 'end'];
  if (turnsSeen === 0) {
    const options = [...out.matchAll(/^ {2}unit 1 infantry \(speed \d+\): (\S+)/gm)].at(-1);
    return ['fly to the moon', options ? `move 1 ${options[1]}` : 'map', 'end'];
  }
  if (turnsSeen === 1) {
    // Attack a sighted zone when the options offer a target (they do when the bot's scout came near).
    const attack = [...out.matchAll(/^ {2}attack (\d+): .*; targets: /gm)].at(-1);
    return ['map', attack ? `attack ${attack[1]}` : 'map', 'end'];
  }
  return ['pass'];
}

describe('npm run play (tiny, live chain + dealer)', () => {
  let url = '';
  let contract = '';
  let dealerUrl = '';
  let deploymentFile = '';
  let gameId = 0n;
  const keys = [DEV_KEYS[6], DEV_KEYS[7]];

  before(async () => {
    const {
      url: chainUrl,
      deployment,
      dealerUrl: dealerAt,
      dealerKey,
    } = await liveChain({ tmp, ruleset: 'tiny' });
    // A deployments/<chainId>.json record, as `npm run deploy:*` writes it.
    deploymentFile = path.join(tmp, `${deployment.chainId}.json`);
    writeFileSync(deploymentFile, `${JSON.stringify(deployment, null, 2)}\n`);
    [url, contract, dealerUrl] = [chainUrl, deployment.shroudGame, dealerAt];
    const provider = new JsonRpcProvider(url, 31337, { staticNetwork: true, cacheTimeout: -1 });
    try {
      ({ gameId } = await createDemoGame({
        provider,
        ruleset: shippedRuleset('tiny'),
        gameContract: contract,
        dealerKey,
        players: keys.map((k) => new Wallet(k).address),
        maxTurns: 8, // each seat: its spawn and 3 turns
      }));
    } finally {
      provider.destroy();
    }
  });

  it('a deployment record of another chain is refused in one line naming --deployment, exit 2', async () => {
    const other = path.join(tmp, '1.json');
    writeFileSync(other, JSON.stringify({ chainId: 1, shroudGame: contract }));
    const p = play(['--game', `${gameId}`, '--rpc', url, '--deployment', other, '--dealer', dealerUrl], {
      SHROUD_PLAYER_KEY: keys[0],
    });
    p.proc.stdin.end();
    const r = await p.done;
    assert.equal(r.code, 2, r.out);
    assert.equal(
      r.out,
      `player: --deployment ${other}: a record of chain 1, but the RPC serves chain 31337\n`,
    );
  });

  it('a bot and an interactive player (stdin script) play to the end', { timeout: 200_000 }, async (t) => {
    const bot = play(['--game', `${gameId}`, '--seed', 'play-bot', '--poll-ms', '200'], {
      SHROUD_PLAYER_KEY: keys[0],
      RPC_URL: url,
      SHROUD_GAME_CONTRACT: contract,
      SHROUD_DEALER_URL: dealerUrl,
    });
    bot.proc.stdin.end();
    // Answer each new prompt with the script's next line for it (no sleeps: the prompt is the signal).
    let answered = 0;
    let pending: string[] = [];
    let turnsSeen = 0;
    let lastPrompt = '';
    const human = play(
      [
        '--game',
        `${gameId}`,
        '--rpc',
        url,
        '--deployment',
        deploymentFile,
        '--dealer',
        dealerUrl,
        '--interactive',
        '--poll-ms',
        '200',
      ],
      { SHROUD_PLAYER_KEY: keys[1] },
      (out) => {
        const prompts = [...out.matchAll(PROMPT)];
        while (answered < prompts.length) {
          const p = prompts[answered]![1]!;
          if (p !== lastPrompt) {
            if (lastPrompt.startsWith('turn')) turnsSeen++;
            pending = script(out.slice(0, prompts[answered]!.index), p.split(' ')[0]!, turnsSeen);
            lastPrompt = p;
          }
          human.proc.stdin.write(`${pending.shift() ?? 'pass'}\n`);
          answered++;
        }
      },
    );
    for (const p of [bot, human])
      void p.done.then((r) => {
        if (r.code !== 0) for (const q of [bot, human]) q.proc.kill('SIGTERM');
      });
    const [b, h] = await Promise.all([bot.done, human.done]);
    const report = `bot (exit ${b.code}):\n${b.out}\ninteractive (exit ${h.code}):\n${h.out}`;
    assert.equal(b.code, 0, report);
    assert.equal(h.code, 0, report);
    for (const r of [b, h]) assert.match(r.out, /game over: phase (Secrets|Audit) after turn 8/, report);
    assert.match(b.out, /seat 0 of 2/);
    assert.match(h.out, /seat 1 of 2/);
    // The map: the column header, hex rows offset, fog and terrain letters, own units by slot.
    assert.match(h.out, /^ {3}0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5$/m, report);
    assert.match(h.out, /^ 1 {2}[?.A-Za-z0-9]/m, 'odd rows offset');
    assert.match(h.out, /^ \d [ ?.A-Za-z0-9!+]*[WSGPDHM][ !]/m, 'terrain letters once tiles were served');
    assert.match(h.out, /^your units:\n {2}unit 0 hq hp 40\/40 at \d+,\d+/m);
    assert.match(h.out, /^moves \(move <unit> <col> <row>\):$/m);
    // The bad command: one line, then the prompt again.
    assert.match(
      h.out,
      /> fly to the moon\nerror: unknown command "fly" \([^\n]*\)\nseat 1 turn \d+> /,
      report,
    );
    assert.match(h.out, /^unit 1 infantry → \d+,\d+ \(end plays the turn\)$/m, report);
    assert.match(h.out, /^turn \d+ turn: moved 1, /m, 'the planned move was proven and played');
    assert.equal((h.out.match(/^turn \d+ turn: /gm) ?? []).length, 3, 'three turns after the spawn');
    assert.match(h.out, /^turn \d+ spawn: moved 3, /m);
    const attacked =
      /^seat 1 turn (\d+)> attack \d+\nunit \d+ attacks \d+,\d+ in zone \d+ \(proving…\)\nturn \1 attack \(\d+,\d+\) → seat 0\n/m.exec(
        h.out,
      );
    if (/> attack \d+\n/.test(h.out)) {
      assert.ok(attacked, `the attack was proven and sent:\n${report}`);
      assert.match(b.out, /^combat answered: (hit|fizzled)/m, 'the bot answered it');
      assert.match(
        h.out,
        new RegExp(`seat 1 turn ${attacked[1]}> end\n`),
        'the turn went on after the combat',
      );
      t.diagnostic(`the interactive player attacked on turn ${attacked[1]}`);
    } else t.diagnostic('no attack target this game: the attack was not exercised');
  });
});
