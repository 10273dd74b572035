/**
 * Against a live chain and dealer started by the demo's setup functions: two CLI players (`client/cli.ts`,
 * one process per seat) play a tiny game from the ceremony to the end; and a scripted SDK game where an
 * attack hits, so the combat proof of presence, the damage and the attacker's exact sighting are exercised.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JsonRpcProvider, Wallet } from 'ethers';
import { GameChain } from '../../client/sdk/chain.ts';
import { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { SnarkjsProver } from '../../client/sdk/prover.ts';
import { loadHasher, shippedRuleset } from '../../core/index.ts';
import { readManifest, readSealArtifacts } from '../../scripts/contracts/rulesets.ts';
import { createDemoGame } from '../../scripts/demo/game.ts';
import { stopAll } from '../../scripts/demo/procs.ts';
import { DEV_KEYS, ROOT } from '../../scripts/demo/setup.ts';
import { liveChain } from '../helpers/live-chain.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-cli-'));
after(async () => {
  await stopAll();
  // SHROUD_KEEP_LOGS=1 keeps the chain's and the dealer's logs (under logs/) for a failure to be read.
  if (process.env.SHROUD_KEEP_LOGS) console.error(`logs kept in ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
});

interface Player {
  done: Promise<{ code: number | null; out: string }>;
  kill(): void;
}

function runCli(args: string[], key: string): Player {
  const p = spawn(process.execPath, [path.join(ROOT, 'client', 'cli.ts'), ...args], {
    cwd: ROOT,
    // The players' state files (client/play/state.ts) go under the test's folder, not the user's.
    env: { ...process.env, SHROUD_PLAYER_KEY: key, XDG_STATE_HOME: path.join(tmp, 'state') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  p.stdout.on('data', (d) => {
    out += d;
  });
  p.stderr.on('data', (d) => {
    out += d;
  });
  const timer = setTimeout(() => p.kill('SIGTERM'), 180_000);
  const done = new Promise<{ code: number | null; out: string }>((resolve) =>
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }),
  );
  return { done, kill: () => p.kill('SIGTERM') };
}

interface Live {
  url: string;
  game: string;
  dealerUrl: string;
  dealerKey: string;
}

/** Chain, deployment and dealer, once for the file (the demo's own setup functions). */
async function live(): Promise<Live> {
  const c = await liveChain({ tmp, ruleset: 'tiny' });
  return { url: c.url, game: c.deployment.shroudGame, dealerUrl: c.dealerUrl, dealerKey: c.dealerKey };
}

async function newGame(env: Live, keys: string[], maxTurns: number): Promise<bigint> {
  const provider = new JsonRpcProvider(env.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const { gameId } = await createDemoGame({
      provider,
      ruleset: shippedRuleset('tiny'),
      gameContract: env.game,
      dealerKey: env.dealerKey,
      players: keys.map((k) => new Wallet(k).address),
      maxTurns,
    });
    return gameId;
  } finally {
    provider.destroy();
  }
}

describe('live chain + dealer (tiny)', () => {
  let env: Live;
  before(async () => {
    env = await live();
  });

  it('two CLI players play a game against the real dealer to the end', { timeout: 240_000 }, async () => {
    const keys = [DEV_KEYS[2], DEV_KEYS[3]];
    const gameId = await newGame(env, keys, 6);
    const args = ['--rpc', env.url, '--contract', env.game, '--dealer', env.dealerUrl, '--game', `${gameId}`];
    const players = keys.map((k, i) => runCli([...args, '--seed', `cli-${i}`], k));
    // A player that fails leaves the other waiting for a phase that never comes: stop it at once.
    for (const p of players)
      void p.done.then((r) => {
        if (r.code !== 0) for (const q of players) q.kill();
      });
    const runs = await Promise.all(players.map((p) => p.done));
    const report = runs.map((r, i) => `player ${i} (exit ${r.code}):\n${r.out}`).join('\n');
    for (const [i, r] of runs.entries()) {
      assert.equal(r.code, 0, report);
      assert.match(r.out, new RegExp(`seat ${i} of 2`));
      assert.match(r.out, /turn \d+ spawn: .* tiles verified against the on-chain root/);
      assert.match(r.out, /game over: phase (Secrets|Audit) after turn 6/);
      assert.match(r.out, /the (Secrets|Audit) phase ends at .*: then run again with --settle/);
    }
    // A day later (the audit window, fast-forwarded), one player comes back with --settle: with the dealer gone
    // (no proving keys needed for a game that is over) it closes the game and leaves.
    const provider = new JsonRpcProvider(env.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
    try {
      const game = new GameChain(env.game, provider);
      for (let i = 0; i < 100 && (await game.game(gameId)).phase !== 'Audit'; i++)
        await new Promise((r) => setTimeout(r, 200));
      const g = await game.game(gameId);
      assert.equal(g.phase, 'Audit', 'the dealer published its secrets');
      const now = (await provider.getBlock('latest'))!.timestamp;
      await provider.send('evm_increaseTime', [g.deadline - now + 1]);
      await provider.send('evm_mine', []);
    } finally {
      provider.destroy();
    }
    const dead = [
      '--rpc',
      env.url,
      '--contract',
      env.game,
      '--dealer',
      'http://127.0.0.1:9',
      '--game',
      `${gameId}`,
    ];
    const back = await runCli([...dead, '--settle'], keys[0]!).done;
    assert.equal(back.code, 0, back.out);
    assert.match(back.out, /game closed: Settled/, back.out);
  });

  it('SDK: a scripted attack hits, the defender proves it, both models update', {
    timeout: 240_000,
  }, async () => {
    const r = shippedRuleset('tiny');
    const keys = [DEV_KEYS[4], DEV_KEYS[5]];
    const gameId = await newGame(env, keys, 20);
    const provider = new JsonRpcProvider(env.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
    const v = readManifest().tiny!.verifiers;
    const art = (c: 'spawn' | 'turn' | 'attack' | 'combat') => ({ wasm: v[c]!.wasm, zkey: v[c]!.zkey });
    const seal = readSealArtifacts();
    const prover = new SnarkjsProver({
      seal: { wasm: seal.wasm, zkey: seal.zkey },
      spawn: art('spawn'),
      turn: art('turn'),
      attack: art('attack'),
      combat: art('combat'),
    });
    const h = await loadHasher();
    try {
      const players: GamePlayer[] = [];
      for (const k of keys) {
        const w = new Wallet(k, provider);
        players.push(
          await GamePlayer.join({
            chain: new GameChain(env.game, w),
            dealer: new DealerClient({
              baseUrl: env.dealerUrl,
              chainId: 31337n,
              gameContract: env.game,
              signer: w,
            }),
            prover,
            h,
            ruleset: r,
            gameId,
          }),
        );
      }
      const [a, b] = players as [GamePlayer, GamePlayer];
      for (const p of players) await p.commitShare();
      for (const p of players) await p.sealShare();
      for (const p of players) await p.waitForRoot({ timeoutMs: 60_000 });
      // hq, infantry, scout: the infantry walk towards each other along row 5 (as the contract e2e test).
      await a.spawn([
        { col: 3, row: 4 },
        { col: 5, row: 5 },
        { col: 4, row: 6 },
      ]);
      await b.syncEvents();
      await b.spawn([
        { col: 12, row: 4 },
        { col: 10, row: 5 },
        { col: 11, row: 6 },
      ]);
      const move = async (p: GamePlayer, dc: number) => {
        await p.syncEvents();
        const moves = p.units.map((u, i) => (u && i === 1 ? { col: u.col + dc, row: u.row } : null));
        return p.playTurn({ moves, reveal: [] });
      };
      await move(a, 2); // (5,5) → (7,5)
      await move(b, -1); // (10,5) → (9,5)
      await move(a, 1); // (7,5) → (8,5)
      const t = await move(b, 0);
      assert.ok(t.zoneReveals >= 0);
      await a.syncEvents();
      const atk = await a.attack(1, { col: 9, row: 5 });
      assert.equal(atk.defender, 1);
      assert.equal(await b.mustRespond(), true);
      assert.equal((await a.chain.combat(gameId)).pending, true);
      const hit = await b.respondCombat();
      assert.equal(hit.present, true);
      // The contract deletes the resolved record; its zeros must not read as a combat against seat 0.
      assert.equal((await a.chain.combat(gameId)).pending, false);
      assert.equal(await a.mustRespond(), false);
      assert.equal(r.unitTypes[hit.unitType]!.name, 'infantry');
      assert.equal(hit.hpBefore, r.unitTypes[hit.unitType]!.hp);
      assert.equal(b.units[1]!.hp, hit.hpBefore - (await b.chain.damage(gameId)), 'the defender lost hp');
      assert.equal((await b.chain.seat(gameId, 1)).playCommitment !== 0n, true);
      await a.syncEvents();
      const seen = a.model!.lastSeen().find((s) => s.col === 9 && s.row === 5);
      assert.ok(seen, 'the attacker remembers the exact tile of the revealed unit');
      // Play resumes with the attacker's turn; the hurt infantry then moves on.
      await move(a, 0);
      await move(b, 1);
      assert.equal((await a.chain.game(gameId)).turn, 8);
    } finally {
      provider.destroy();
      await SnarkjsProver.terminate();
    }
  });
});
