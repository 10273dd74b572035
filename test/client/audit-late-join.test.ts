/**
 * The audit from a fresh state (found by review 31): the SDK's audit read the game's logs from the block its
 * GamePlayer was created at ("now − 1" for a join without a saved state), so a player that closes a finished game
 * from another machine or another state file (`npm run play -- --game ID --settle`) never saw the dealer's
 * `SecretsPublished` log and never challenged a lying root. It reads from the root's block now (`rootBlock`).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { BotPlayer } from '../../client/bot-player.ts';
import { closeToEnd } from '../../client/play/loop.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { judgeRoot } from '../../core/audit.ts';
import { commitMap, generateMap, masterCommitment } from '../../core/index.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { Terrain } from '../../core/tile.ts';
import type { Env } from '../contracts/helpers.ts';
import { type MockGame, mockEnv, mockGame } from './resume-fixture.ts';

let env: Env;
before(async () => {
  env = await mockEnv(['tiny']);
});

const bot = (g: MockGame, i: number) => g.seats[i]!.bot;
const phase = async (g: MockGame) => (await bot(g, 0).player.chain.game(g.gameId)).phase;

/** A dealer whose tree is Gen(seed) with one far tile changed (nobody is ever served it). */
async function lyingDeal(g: MockGame) {
  const r = g.ruleset;
  const seed = env.h.hash(g.seats.map((s) => s.bot.player.share!));
  const honest = generateMap(env.h, r.board, seed);
  const tiles = honest.map((t) => ({ ...t }));
  const far = tiles.length - 1;
  tiles[far]!.terrain = tiles[far]!.terrain === Terrain.MOUNTAINS ? Terrain.PLAINS : Terrain.MOUNTAINS;
  const commitment = commitMap(env.h, r.board, tiles, 4242n);
  await (
    await (env.game.connect(env.dealer) as Contract).getFunction('postRoot')(
      g.gameId,
      commitment.tree.root,
      masterCommitment(env.h, 4242n),
      zoneRoots(commitment, r.board),
    )
  ).wait();
  g.map = { h: env.h, ruleset: r, board: r.board, tiles, commitment, root: commitment.tree.root };
  return { seed, honest, commitment };
}

describe('auditing a finished game from a fresh state', () => {
  it('a lying root is challenged by a player that comes back after the secrets with no saved state', async () => {
    const g = await mockGame(env, 'tiny', { maxTurns: 4 });
    for (const want of ['commit', 'seal'])
      for (let i = 0; i < 2; i++) assert.equal((await bot(g, i).act())?.kind, want);
    const { seed, commitment } = await lyingDeal(g);
    for (let step = 0; step < 100 && (await phase(g)) !== 'Secrets'; step++)
      for (let i = 0; i < 2; i++) await bot(g, i).act();
    assert.equal(await phase(g), 'Secrets');
    await (
      await (env.game.connect(env.dealer) as Contract).getFunction('publishSecrets')(
        g.gameId,
        4242n,
        g.seats.map((s) => s.bot.player.share!),
      )
    ).wait();
    assert.equal(await phase(g), 'Audit');
    const finding = judgeRoot(
      env.h,
      g.ruleset.board,
      commitment.tree.root,
      zoneRoots(commitment, g.ruleset.board),
      commitMap(env.h, g.ruleset.board, generateMap(env.h, g.ruleset.board, seed), 4242n),
    );
    assert.equal(finding.kind, 'zone', 'the root is a lie the audit can prove');

    // Some blocks later (an hour of a day-long audit window):
    for (let k = 0; k < 3; k++) await env.ethers.provider.send('evm_mine', []);
    // Seat 0 comes back with `npm run play -- --game ID --settle` and no state (another machine): a fresh join.
    const fresh = await GamePlayer.join({ ...g.seats[0]!.options });
    const lines: string[] = [];
    await closeToEnd(new BotPlayer(fresh, 'x'), {
      chain: fresh.chain,
      gameId: g.gameId,
      pollMs: 10,
      print: (l) => lines.push(l),
      wait: false,
    });
    assert.equal((await env.game.getFunction('getAudit')(g.gameId)).open, 1n, 'its challenge is open');
    assert.ok(
      lines.some((l) => /zone \d+ challenged on-chain/.test(l)),
      `the fresh player did not challenge the lying root (its logs start at block ${fresh.joinedBlock}): ${lines.join(' | ')}`,
    );
  });
});
