/**
 * Combat in the demo game, measured: `games` demo games (the demo's setup and game code: a local Hardhat node,
 * the dealer process, real Groth16 proofs) between the bots seeded `bench-<k>`, each on a fresh map (the map
 * comes from the players' random shares). Every attack is scored against a uniform guess over the revealed
 * zone's tiles, which would hit with the odds the bot recorded (revealed enemy units there / the zone's tiles).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateMap, loadHasher } from '../core/index.ts';
import { shippedRuleset } from '../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../core/ruleset/validate.ts';
import { generateSealKey } from '../core/sealed.ts';
import { UsageError } from '../lib/cli.ts';
import type { AttackRecord } from './demo/combat-tally.ts';
import { DEMO_TURNS, playDemoGame } from './demo/game.ts';
import { installCleanup, stopAll } from './demo/procs.ts';
import {
  buildCircuitsAndVerifiers,
  compileContracts,
  deploy,
  startChain,
  startDealer,
} from './demo/setup.ts';
import { simulateGame } from './demo/sim.ts';
import { consoleProgress } from './lib/progress.ts';
import { median, round } from './lib/stats.ts';

export interface DemoBenchOptions {
  ruleset?: string;
  /** Games, one per bot seed (default 10). */
  games?: number;
  /** Turns per player after the spawns (default the demo's). */
  turns?: number;
  ptauDir?: string;
  /** Play the bots in the in-process game (`demo/sim.ts`: the same rules, no chain or proofs) instead. */
  sim?: boolean;
}

/**
 * The attacker's own turn (1 = its first after the spawns) of a game turn: the spawns are game turns
 * 0..players − 1, then the seats take turns in order.
 */
export const ownTurn = (turn: number, players: number) => Math.floor((turn - players) / players) + 1;

/** The flat metrics of a set of answered attacks, grouped by game (`players` seats each). */
export function combatMetrics(
  games: readonly (readonly AttackRecord[])[],
  players = 2,
): Record<string, number> {
  const all = games.flat();
  const hits = all.filter((a) => a.hit).length;
  const rate = all.length ? hits / all.length : 0;
  const uniform = all.length ? all.reduce((s, a) => s + (a.uniform ?? 0), 0) / all.length : 0;
  const predicted = all.length ? all.reduce((s, a) => s + (a.p ?? 0), 0) / all.length : 0;
  const perGame = games.map((g) => g.filter((a) => a.hit).length);
  // First contact: each game's first attack, as its attacker's own turn.
  const first = games.flatMap((g) => (g.length ? [ownTurn(Math.min(...g.map((a) => a.turn)), players)] : []));
  return {
    seeds: games.length,
    attacks: all.length,
    hits,
    fizzles: all.length - hits,
    kills: all.filter((a) => a.killed).length,
    attack_hit_rate: round(rate, 4),
    attack_hit_rate_uniform: round(uniform, 4),
    attack_hit_rate_ratio: uniform > 0 ? round(rate / uniform, 2) : 0,
    attack_hit_rate_predicted: round(predicted, 4),
    hits_per_game_median: median(perGame.length ? perGame : [0]),
    games_with_a_hit: perGame.filter((h) => h > 0).length,
    games_with_an_attack: first.length,
    first_attack_turn_median: first.length ? median(first) : 0,
    first_attack_turn_max: first.length ? Math.max(...first) : 0,
  };
}

/** The same bots and seeds in the in-process game, each on the map of seed k + 1: seconds instead of minutes. */
async function benchSim(
  ruleset: ValidRuleset,
  games: number,
  turns: number,
): Promise<Record<string, number>> {
  const h = await loadHasher();
  const played: AttackRecord[][] = [];
  for (let k = 0; k < games; k++) {
    const tiles = generateMap(h, ruleset.board, BigInt(k + 1));
    const { attacks } = await simulateGame({ ruleset, tiles, turns, seed: `bench-${k}` });
    played.push(attacks.map((a) => ({ ...a, defender: 1 - a.seat })));
  }
  return { ...combatMetrics(played), turns, in_process: 1 };
}

export async function benchDemo(o: DemoBenchOptions = {}): Promise<Record<string, number>> {
  const name = o.ruleset ?? 'duel';
  const ruleset = shippedRuleset(name);
  if (ruleset.players.min !== 2) throw new UsageError(`--ruleset ${name}: the demo plays two bots`);
  const games = o.games ?? 10;
  const turns = o.turns ?? DEMO_TURNS;
  if (o.sim) return benchSim(ruleset, games, turns);
  const progress = consoleProgress({ out: process.stderr });
  const log = (m: string) => progress.line(`· ${m}`);
  const outDir = mkdtempSync(path.join(tmpdir(), 'shroud-bench-demo-'));
  const logDir = path.join(outDir, 'logs');
  installCleanup(() => console.error('bench demo interrupted: stopping the chain and the dealer…'));
  try {
    mkdirSync(logDir, { recursive: true });
    const artifacts = await buildCircuitsAndVerifiers(name, o.ptauDir, progress);
    await compileContracts(logDir);
    const chain = await startChain(logDir);
    const deployment = await deploy(chain.url, name);
    const dealerKey = `0x${generateSealKey().secretKey.toString(16).padStart(64, '0')}`;
    const dealer = await startDealer({
      outDir,
      logDir,
      rpcUrl: chain.url,
      gameContract: deployment.shroudGame,
      startBlock: deployment.blockNumber,
      dealerKey,
    });
    const h = await loadHasher();
    const played: AttackRecord[][] = [];
    const seconds: number[] = [];
    for (let k = 0; k < games; k++) {
      const t0 = Date.now();
      const result = await playDemoGame({
        h,
        ruleset,
        artifacts,
        rpcUrl: chain.url,
        gameContract: deployment.shroudGame,
        dealerUrl: dealer.url,
        dealerKey,
        turns,
        outDir,
        seed: `bench-${k}`,
        viewers: false,
        settle: false,
        log: () => {},
        print: () => {},
      });
      seconds.push((Date.now() - t0) / 1000);
      played.push(result.combat.attacks);
      const hits = result.combat.attacks.filter((a) => a.hit).length;
      log(
        `game ${k + 1}/${games} (seed bench-${k}): ${result.combat.attacks.length} attacks, ${hits} hits in ${Math.round(seconds.at(-1)!)} s`,
      );
    }
    return { ...combatMetrics(played), turns, game_s_median: round(median(seconds), 1) };
  } finally {
    await stopAll();
    rmSync(outDir, { recursive: true, force: true });
  }
}
