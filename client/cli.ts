/**
 * A CLI player: joins a game by id on a running chain + dealer and plays it with the exploring bot, from
 * the ceremony to the turn limit (the same BotPlayer/GamePlayer code as the demo).
 *
 *   SHROUD_PLAYER_KEY=0x… node client/cli.ts --rpc http://127.0.0.1:8545 --contract 0xGame \
 *       --dealer http://127.0.0.1:8787 --game <id> [--artifacts contracts/generated/<ruleset>] [--seed S]
 *
 * The ruleset is the shipped one whose hash the game carries; proving artifacts default to the generated
 * ones (contracts/generated/<ruleset>/{spawn,turn,attack,combat}.{wasm,zkey}), which must match the
 * verifiers the contract was deployed with.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonRpcProvider, Wallet } from 'ethers';
import { loadHasher, shippedRuleset, shippedRulesetNames } from '../core/index.ts';
import { rulesetHash } from '../core/ruleset/hash.ts';
import { cliArgs, inputDir, intFlag, required, UsageError } from '../scripts/lib/cli.ts';
import { BotPlayer } from './bot-player.ts';
import { GameChain } from './sdk/chain.ts';
import { DealerClient } from './sdk/dealer-client.ts';
import { GamePlayer } from './sdk/game-player.ts';
import { SnarkjsProver } from './sdk/prover.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: SHROUD_PLAYER_KEY=0x… node client/cli.ts --rpc URL --contract 0xGAME --dealer URL --game ID [--artifacts DIR] [--seal-artifacts DIR] [--seed S] [--poll-ms N]

Joins game ID as the player of SHROUD_PLAYER_KEY and plays it with the exploring bot to the end.
  --artifacts DIR  proving keys (default contracts/generated/<ruleset>, matching the deployed verifiers)
  --seal-artifacts DIR  the sealed-share proving key (default contracts/generated/seal)
  --seed S         the bot's random seed (default: the player's address)
  --poll-ms N      how often to poll the chain while waiting (default 500)`;

function die(msg: string, code = 1): never {
  console.error(`player: ${msg}`);
  process.exit(code);
}

const { key, rpc, contract, dealerUrl, gameId, pollMs, values } = cliArgs(
  {
    name: 'player',
    usage: USAGE,
    options: {
      rpc: { type: 'string' },
      contract: { type: 'string' },
      dealer: { type: 'string' },
      game: { type: 'string' },
      artifacts: { type: 'string' },
      'seal-artifacts': { type: 'string' },
      seed: { type: 'string' },
      'poll-ms': { type: 'string', default: '500' },
    },
  },
  ({ values }) => {
    const game = required('game', values.game);
    if (!/^(0x[0-9a-f]+|\d+)$/i.test(game))
      throw new UsageError(`--game ${game}: not a decimal or 0x-hex id`);
    if (values.artifacts) inputDir('artifacts', values.artifacts);
    if (values['seal-artifacts']) inputDir('seal-artifacts', values['seal-artifacts']);
    const key = process.env.SHROUD_PLAYER_KEY;
    if (!key) throw new UsageError('SHROUD_PLAYER_KEY is required (see --help)');
    return {
      key,
      rpc: required('rpc', values.rpc),
      contract: required('contract', values.contract),
      dealerUrl: required('dealer', values.dealer),
      gameId: BigInt(game),
      pollMs: intFlag('poll-ms', values['poll-ms']!, 10, 60_000),
      values,
    };
  },
);

const provider = new JsonRpcProvider(rpc, undefined, { cacheTimeout: -1, pollingInterval: 500 });
try {
  const wallet = new Wallet(key, provider);
  const chain = new GameChain(contract, wallet);
  const chainId = await chain.chainId();
  const cfg = await chain.config(gameId);
  const name = shippedRulesetNames.find(
    (n) => rulesetHash(shippedRuleset(n)).toLowerCase() === cfg.rulesetHash,
  );
  if (!name) die(`game ${gameId} plays ruleset ${cfg.rulesetHash}, which is not a shipped ruleset`);
  const ruleset = shippedRuleset(name);
  const dir = path.resolve(
    (values.artifacts as string | undefined) ?? path.join(ROOT, 'contracts', 'generated', name),
  );
  const art = (c: string, from = dir) => {
    const wasm = path.join(from, `${c}.wasm`);
    const zkey = path.join(from, `${c}.zkey`);
    if (!existsSync(wasm) || !existsSync(zkey)) die(`no ${c}.wasm/${c}.zkey in ${from} (--artifacts)`);
    return { wasm, zkey };
  };
  const prover = new SnarkjsProver({
    seal: art(
      'seal',
      path.resolve(
        (values['seal-artifacts'] as string | undefined) ?? path.join(ROOT, 'contracts', 'generated', 'seal'),
      ),
    ),
    spawn: art('spawn'),
    turn: art('turn'),
    attack: art('attack'),
    combat: art('combat'),
  });
  const player = await GamePlayer.join({
    chain,
    dealer: new DealerClient({ baseUrl: dealerUrl, chainId, gameContract: contract, signer: wallet }),
    prover,
    h: await loadHasher(),
    ruleset,
    gameId,
  });
  const bot = new BotPlayer(player, (values.seed as string | undefined) ?? wallet.address);
  console.log(
    `player ${wallet.address}: seat ${player.seat} of ${player.players.length} in game ${gameId} (${name})`,
  );
  for (;;) {
    const g = await chain.game(gameId);
    if (
      !['Commit', 'Reveal', 'Deal', 'Play', 'Combat', 'Dispute', 'ForceOpen', 'OpenRoot'].includes(g.phase)
    ) {
      console.log(`game over: phase ${g.phase} after turn ${g.turn}`);
      break;
    }
    const a = await bot.act();
    if (!a) {
      await new Promise((r) => setTimeout(r, pollMs));
      continue;
    }
    switch (a.kind) {
      case 'commit':
      case 'seal':
      case 'dispute':
      case 'share':
        console.log(`${a.kind}: gas ${a.gas}`);
        break;
      case 'follow':
        console.log(`${a.what.kind}${'index' in a.what ? ` (tile ${a.what.index})` : ''}`);
        break;
      case 'spawn':
      case 'turn': {
        const t = a.report;
        console.log(
          `turn ${t.turn} ${a.kind}: moved ${t.moved}${t.provedPassable ? ' (destinations proven passable)' : ''}, ${t.tilesRevealed} tiles verified against the on-chain root, ${t.zoneReveals} zone reveals, proof ${Math.round(t.proofMs)} ms, gas ${t.gas}`,
        );
        break;
      }
      case 'attack':
        console.log(
          `turn ${a.report.turn} attack (${a.report.target.col},${a.report.target.row}) → seat ${a.report.defender}`,
        );
        break;
      case 'combat':
        console.log(`combat answered: ${a.report.present ? `hit (hp ${a.report.hpBefore})` : 'fizzled'}`);
        break;
    }
  }
  const served = player.served.length;
  console.log(`served and verified: ${served} tiles`);
} catch (e) {
  die((e as Error).message);
} finally {
  provider.destroy();
  await SnarkjsProver.terminate();
}
