/**
 * The Shroud demo: a whole game on a real local chain, with real Groth16 proofs and the real dealer process.
 *
 *   npm run demo -- [--turns N (10)] [--out DIR (./demo-out)] [--ruleset NAME (duel)] [--ptau-dir DIR]
 *
 * Builds the ruleset's circuits and verifiers (cached), compiles the contracts, starts `hardhat node` on a
 * free port, deploys, starts the dealer, creates a game as the dealer and plays two bots to the turn limit:
 * each turn is planned by the bot, proven, submitted, and its revealed tiles fetched from the dealer and
 * verified against the on-chain root. At the end the dealer publishes its secrets and the demo audits the
 * root and every served tile, then writes one viewer page per player. Every child process is stopped on
 * success, failure and Ctrl-C; any failure exits non-zero.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadHasher } from '../core/index.ts';
import { shippedRuleset, shippedRulesetNames } from '../core/ruleset/shipped.ts';
import { generateSealKey } from '../core/sealed.ts';
import { playDemoGame } from './demo/game.ts';
import { installCleanup, stopAll } from './demo/procs.ts';
import {
  buildCircuitsAndVerifiers,
  compileContracts,
  deploy,
  ptauDirFor,
  startChain,
  startDealer,
} from './demo/setup.ts';

// The viewer bundler uses node:module's stripTypeScriptTypes; its "experimental" warning is noise here.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((w: string | Error, ...rest: unknown[]) => {
  const text = typeof w === 'string' ? w : w.message;
  if (/stripTypeScriptTypes/.test(text)) return;
  (emitWarning as (...a: unknown[]) => void)(w, ...rest);
}) as typeof process.emitWarning;

const started = Date.now();
const rel = (p: string) => {
  const r = path.relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
};
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const log = (m: string) => console.log(`· ${m}`);

function fail(message: string, code = 1): never {
  console.error(`demo failed: ${message}`);
  process.exit(code);
}

let args: ReturnType<typeof parse>;
function parse() {
  const { values } = parseArgs({
    options: {
      turns: { type: 'string', default: '10' },
      out: { type: 'string', default: './demo-out' },
      ruleset: { type: 'string', default: 'duel' },
      'ptau-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  return values;
}
try {
  args = parse();
} catch (e) {
  fail(
    `${(e as Error).message}\nusage: npm run demo -- [--turns N] [--out DIR] [--ruleset NAME] [--ptau-dir DIR]`,
    2,
  );
}
if (args.help) {
  console.log(
    'usage: npm run demo -- [--turns N (10)] [--out DIR (./demo-out)] [--ruleset NAME (duel)] [--ptau-dir DIR]',
  );
  process.exit(0);
}
const turns = Number(args.turns);
if (!Number.isInteger(turns) || turns < 1 || turns > 500)
  fail(`--turns must be an integer in 1..500, got "${args.turns}"`, 2);
const rulesetName = args.ruleset!;
if (!shippedRulesetNames.includes(rulesetName)) {
  fail(`unknown ruleset "${rulesetName}" (--ruleset); shipped: ${shippedRulesetNames.join(', ')}`, 2);
}
const ruleset = shippedRuleset(rulesetName);
if (ruleset.players.min !== 2)
  fail(`the demo plays two bots; ruleset ${rulesetName} needs ${ruleset.players.min} players`, 2);
const outDir = path.resolve(args.out!);
const logDir = path.join(outDir, 'logs');
// Every child inherits this marker, so a test (or a user) can find any process a run left behind.
process.env.SHROUD_DEMO_OUT = outDir;
mkdirSync(logDir, { recursive: true });

installCleanup((signal) =>
  console.error(`\ndemo interrupted (${signal}): stopping the chain and the dealer…`),
);
process.on('unhandledRejection', (e) => {
  console.error(`demo failed: ${(e as Error)?.stack ?? e}`);
  void stopAll().finally(() => process.exit(1));
});

try {
  const ptauDir = ptauDirFor(args['ptau-dir']);
  log(
    `ruleset ${rulesetName}: building circuits and verifiers (cached under build/circuits/${rulesetName})${ptauDir ? ` with ptau from ${ptauDir}` : ''}…`,
  );
  const artifacts = await buildCircuitsAndVerifiers(rulesetName, ptauDir, (m) => {
    if (/^\S/.test(m) || /generating|contribute|beacon|phase2|setup/i.test(m)) log(`  ${m.trim()}`);
  });
  log(`compiling contracts (hardhat build)… [${elapsed()}]`);
  await compileContracts(logDir);
  log(`starting a local chain (hardhat node)… [${elapsed()}]`);
  const chain = await startChain(logDir);
  log(`chain at ${chain.url}; deploying Shroud with ruleset ${rulesetName}…`);
  const deployment = await deploy(chain.url, rulesetName);
  log(`ShroudGame at ${deployment.shroudGame} (block ${deployment.blockNumber}) [${elapsed()}]`);
  // A fresh Baby Jubjub seal key per demo (the dealer's secret; players seal their shares to its public key).
  const dealerKey = `0x${generateSealKey().secretKey.toString(16).padStart(64, '0')}`;
  const dealer = await startDealer({
    outDir,
    logDir,
    rpcUrl: chain.url,
    gameContract: deployment.shroudGame,
    startBlock: deployment.blockNumber,
    dealerKey,
  });
  log(
    `dealer at ${dealer.url} (db ${rel(dealer.db)}, log ${rel(path.join(logDir, 'dealer.log'))}) [${elapsed()}]`,
  );
  const h = await loadHasher();
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
    log,
    print: (l) => console.log(l),
  });
  for (const v of result.viewers) console.log(`viewer: ${rel(v)}`);
  await stopAll();
  console.log(
    `demo ok: ${result.summaries.filter((l) => / turn /.test(l) && !/attack|combat/.test(l)).length} turns, ${result.attacks} attacks, ${result.servedTiles} tiles served and audited${ruleset.provePassability ? `, ${result.passableMoves} moves proven passable` : ''} in ${elapsed()}`,
  );
  process.exit(0);
} catch (e) {
  const err = e as Error;
  console.error(`demo failed: ${err?.message ?? err}`);
  if (process.env.SHROUD_DEMO_DEBUG) console.error(err?.stack);
  console.error(`logs: ${rel(logDir)}`);
  await stopAll();
  process.exit(1);
}
