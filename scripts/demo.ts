/**
 * The Shroud demo: a whole game on a real local chain, with real Groth16 proofs and the real dealer process.
 *
 *   npm run demo -- [--turns N (14)] [--players N (2)] [--out DIR (./demo-out)] [--ruleset NAME (duel)] [--ptau-dir DIR] [--no-map-proof]
 *
 * Builds the ruleset's play circuits and verifiers (cached; the long steps under a progress display with
 * estimates, third-party output in log files), compiles the contracts, starts `hardhat node` on a free port,
 * deploys, starts the dealer, creates a game as the dealer and plays N bots (2 by default): each spawns, then plays N
 * turns; each turn is planned by the bot, proven, submitted, and its revealed tiles fetched from the dealer
 * and verified against the on-chain root. Meanwhile the dealer proves the map (its keys built in the background
 * the first time: demo/map-keys.ts) and posts the root proof on-chain, and each bot verifies the whole proof as
 * soon as it is there; the demo waits for every bot's verification (`--no-map-proof`: none of it). At the end the
 * dealer publishes its secrets and the demo audits the root and every served tile, then writes one viewer page
 * per player. Every child process is stopped on success, failure and Ctrl-C; a usage error exits 2, any other
 * failure 1.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Deployment } from '../contracts/ignition/record.ts';
import { loadHasher } from '../core/index.ts';
import { shippedRuleset, shippedRulesetNames } from '../core/ruleset/shipped.ts';
import { generateSealKey } from '../core/sealed.ts';
import { inputDir, intFlag, outputDir, parseCli, runCli, UsageError } from '../lib/cli.ts';
import { circuitsCached } from './circuits/build.ts';
import { userPtauDir } from './circuits/ptau.ts';
import { checkPlayers, DEMO_TURNS, MAX_DEMO_PLAYERS, playDemoGame } from './demo/game.ts';
import { prepareMapKeys } from './demo/map-keys.ts';
import { installCleanup, stopAll } from './demo/procs.ts';
import {
  buildCircuitsAndVerifiers,
  compileContracts,
  deploy,
  startChain,
  startDealer,
} from './demo/setup.ts';
import { consoleProgress, fmtDuration, type Progress } from './lib/progress.ts';

const playable = shippedRulesetNames.filter((n) => shippedRuleset(n).players.min <= MAX_DEMO_PLAYERS);
const USAGE = `usage: npm run demo -- [--turns N] [--players N] [--ruleset NAME] [--out DIR] [--ptau-dir DIR] [--no-map-proof]

Plays a game between bots on a local chain with real proofs, audits the dealer, writes viewers. The dealer
proves the map in the background and every bot verifies the proof as soon as it is on-chain; the demo
waits for it before the audit.
  --turns N        turns per player after the spawns (default ${DEMO_TURNS}): players × (1 + N) proven turns on-chain
  --players N      seats, 2 to the ruleset's maximum (default 2; ${playable.map((n) => `${n} ≤ ${Math.min(shippedRuleset(n).players.max, MAX_DEMO_PLAYERS)}`).join(', ')})
  --ruleset NAME   ${playable.join(', ')} (default duel)
  --out DIR        viewers, logs and the dealer's database (default ./demo-out)
  --ptau-dir DIR   prepared powers of tau (also $SHROUD_PTAU_DIR); default: an INSECURE development
                   ptau made in build/circuits/ptau (fine for the local chain)
  --no-map-proof   no map proof: the dealer does not prove the map, nobody waits for it (a quick run)
The first run builds the play circuits and keys (about 3 minutes on 2 cores), then the map proof's keys
in the background while the bots play (minutes more before the proof; all cached in build/).`;

const started = Date.now();
const ptauChoice = (dir: string | undefined) => (dir ? { ptauDir: dir } : {});
const rel = (p: string) => {
  const r = path.relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
};
const elapsed = () => fmtDuration(Date.now() - started);

await runCli('demo', async () => {
  const { values } = parseCli({
    name: 'demo',
    usage: USAGE,
    options: {
      turns: { type: 'string', default: String(DEMO_TURNS) },
      out: { type: 'string', default: './demo-out' },
      ruleset: { type: 'string', default: 'duel' },
      players: { type: 'string', default: '2' },
      'ptau-dir': { type: 'string' },
      'no-map-proof': { type: 'boolean' },
    },
  });
  const turns = intFlag('turns', values.turns!, 1, 500);
  const rulesetName = values.ruleset!;
  if (!shippedRulesetNames.includes(rulesetName))
    throw new UsageError(`--ruleset ${rulesetName}: unknown; shipped: ${shippedRulesetNames.join(', ')}`);
  const players = intFlag('players', values.players!, 2, MAX_DEMO_PLAYERS);
  const bad = checkPlayers(shippedRuleset(rulesetName), players);
  if (bad) throw new UsageError(`--players ${players}: ${bad}`);
  const outDir = path.resolve(outputDir('out', values.out!));
  const envDir = userPtauDir();
  if (!values['ptau-dir'] && envDir && !existsSync(envDir))
    throw new UsageError(`SHROUD_PTAU_DIR=${process.env.SHROUD_PTAU_DIR}: no such folder`);
  const ptauDir = values['ptau-dir'] ? path.resolve(inputDir('ptau-dir', values['ptau-dir'])) : envDir;
  await play({ turns, players, rulesetName, outDir, ptauDir, mapProof: !values['no-map-proof'] });
});

async function play(o: {
  turns: number;
  players: number;
  rulesetName: string;
  outDir: string;
  ptauDir: string | undefined;
  mapProof: boolean;
}) {
  const ruleset = shippedRuleset(o.rulesetName);
  const logDir = path.join(o.outDir, 'logs');
  // Every child inherits this marker, so a test (or a user) can find any process a run left behind.
  process.env.SHROUD_DEMO_OUT = o.outDir;
  mkdirSync(logDir, { recursive: true });
  const progress = consoleProgress();
  const log = (m: string) => progress.line(`· ${m}`);

  installCleanup((signal) =>
    console.error(`\ndemo interrupted (${signal}): stopping the chain and the dealer…`),
  );
  process.on('unhandledRejection', (e) => {
    console.error(`demo: ${(e as Error)?.message ?? e}`);
    void stopAll().finally(() => process.exit(1));
  });

  try {
    log(
      `ruleset ${o.rulesetName}: circuits and verifiers (cached under build/circuits/${o.rulesetName}, tool output in <circuit>/build.log)${o.ptauDir ? ` with ptau from ${o.ptauDir}` : ''}`,
    );
    // The maproot verifier goes into this deployment only when its keys are cached; else it is registered later.
    const mapRoot =
      o.mapProof &&
      circuitsCached({ ruleset: o.rulesetName, circuits: ['maproot'], ...ptauChoice(o.ptauDir) });
    const artifacts = await buildCircuitsAndVerifiers(o.rulesetName, o.ptauDir, progress, { mapRoot });
    let chainUp: (c: { rpcUrl: string; deployment: Deployment }) => void = () => {};
    let chainDown: (e: Error) => void = () => {};
    const chainReady = new Promise<{ rpcUrl: string; deployment: Deployment }>((res, rej) => {
      chainUp = res;
      chainDown = rej;
    });
    chainReady.catch(() => {});
    // Started now: on a first run the keys build while the contracts compile and the bots play.
    const keys = o.mapProof
      ? prepareMapKeys({
          ruleset: o.rulesetName,
          ptauDir: o.ptauDir,
          outDir: o.outDir,
          logDir,
          chain: chainReady,
          rootRegistered: mapRoot,
          log,
        })
      : null;
    let chain: Awaited<ReturnType<typeof startChain>>;
    let deployment: Deployment;
    try {
      await step(progress, 'compiling contracts (hardhat build)', () => compileContracts(logDir));
      chain = await step(progress, 'starting a local chain (hardhat node)', () => startChain(logDir));
      deployment = await step(progress, `deploying Shroud with ruleset ${o.rulesetName}`, () =>
        deploy(chain.url, o.rulesetName, o.mapProof ? { mapRoot } : {}),
      );
      chainUp({ rpcUrl: chain.url, deployment });
    } catch (e) {
      chainDown(e as Error);
      throw e;
    }
    log(`chain at ${chain.url}; ShroudGame at ${deployment.shroudGame} (block ${deployment.blockNumber})`);
    // A fresh Baby Jubjub seal key per demo (the dealer's secret; players seal their shares to its public key).
    const dealerKey = `0x${generateSealKey().secretKey.toString(16).padStart(64, '0')}`;
    const dealer = await step(progress, 'starting the dealer', () =>
      startDealer({
        outDir: o.outDir,
        logDir,
        rpcUrl: chain.url,
        gameContract: deployment.shroudGame,
        startBlock: deployment.blockNumber,
        dealerKey,
        ...(keys ? { mapProof: { keysDir: keys.dir, registry: deployment.mapProofRegistry } } : {}),
      }),
    );
    log(
      `dealer at ${dealer.url} (db ${rel(dealer.db)}, log ${rel(path.join(logDir, 'dealer.log'))}) [${elapsed()}]`,
    );
    const h = await loadHasher();
    let first = true;
    const result = await playDemoGame({
      h,
      ruleset,
      artifacts,
      rpcUrl: chain.url,
      gameContract: deployment.shroudGame,
      dealerUrl: dealer.url,
      dealerKey,
      turns: o.turns,
      players: o.players,
      outDir: o.outDir,
      log,
      print: (l) => progress.line(l),
      onTurnVerified: () => {
        if (first) log(`first verified turn after ${elapsed()}`);
        first = false;
      },
      ...(keys
        ? {
            mapProof: {
              registry: deployment.mapProofRegistry,
              keys: keys.ready,
              vkeys: () => keys.vkeys(),
              startedAt: started,
              progress,
            },
          }
        : {}),
    });
    for (const v of result.viewers) progress.line(`viewer: ${rel(v)}`);
    await stopAll();
    const fights = result.combat.seats(o.players);
    const hits = fights.reduce((n, s) => n + s.hits, 0);
    const lost = fights.reduce((n, s) => n + s.lost.length, 0);
    progress.line(
      `demo ok: ${o.turns} turns per player after the spawns (${result.turns} proven turns on-chain), ${result.attacks} attack${result.attacks === 1 ? '' : 's'} (${hits} hit${hits === 1 ? '' : 's'}, ${result.attacks - hits} fizzled, ${lost} unit${lost === 1 ? '' : 's'} lost), ${result.servedTiles} tiles served and audited${ruleset.provePassability ? `, ${result.passableMoves} moves proven passable` : ''}${result.mapProof ? ', map proof verified by every seat' : ''} in ${elapsed()}`,
    );
    process.exit(0);
  } catch (e) {
    console.error(`demo: logs in ${rel(logDir)}`);
    await stopAll();
    throw e;
  }
}

/** A short step under the progress display (elapsed time; no estimate needed). */
async function step<T>(progress: Progress, label: string, fn: () => Promise<T>): Promise<T> {
  const s = progress.step(label);
  try {
    const v = await fn();
    s.done();
    return v;
  } catch (e) {
    s.fail();
    throw e;
  }
}
