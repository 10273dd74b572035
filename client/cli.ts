/**
 * The player CLI (`npm run play`): joins a game on a running chain + dealer as the player of
 * SHROUD_PLAYER_KEY and plays it from the ceremony to the end, with the exploring bot or, with
 * `--interactive`, a human at this terminal (client/terminal/). `--help` lists the flags (client/play/args.ts).
 *
 * The ruleset is the shipped one whose hash the game carries. Proving artifacts are downloaded from the dealer
 * (or static hosts) and checked against the SHA-256 the registry holds beside each verifier before any proof
 * (client/sdk/artifacts.ts), cached; `--artifacts DIR` uses local files instead.
 *
 * The seat's hidden state lives in a state file (client/play/state.ts), encrypted under a key the player's wallet
 * derives; a rerun of the same command resumes from it.
 *
 * With `--map-proof-keys DIR` the seat checks the game's ZK map proof with the player's own verification keys
 * (client/play/map-proof.ts); the loop prints the outcome (`map-proof` / `map-proof-refused`). Without it one line
 * says the proof is not checked.
 */
import { writeFileSync } from 'node:fs';
import { JsonRpcProvider, Wallet } from 'ethers';
import { isLivePhase } from '../core/game-phases.ts';
import { loadHasher, shippedRuleset, shippedRulesetNames } from '../core/index.ts';
import { rulesetHash } from '../core/ruleset/hash.ts';
import { exitUsage, UsageError } from '../lib/cli.ts';
import { BotPlayer } from './bot-player.ts';
import { proverFromDealer } from './node/artifacts.ts';
import { defaultStateFile } from './node/file-store.ts';
import { parsePlayArgs } from './play/args.ts';
import { proverArtifacts } from './play/artifacts.ts';
import { resolveGameId } from './play/game-id.ts';
import { closeToEnd, playToEnd } from './play/loop.ts';
import {
  checkMapProofKeys,
  checkMapProofKeysOnChain,
  checkMapProofRegistry,
  mapProofOptions,
  mapProofOutcomeLine,
  mapProofStatusLine,
} from './play/map-proof.ts';
import { exportState, joinWithState, openStateFile, restoreState } from './play/state.ts';
import { servedTilesJson } from './play/tiles.ts';
import { GameChain, type Prover } from './sdk/chain.ts';
import { DealerClient } from './sdk/dealer-client.ts';
import { LobbyClient } from './sdk/lobby-client.ts';
import { SnarkjsProver } from './sdk/prover.ts';
import { type LineTerminal, lineTerminal } from './terminal/io.ts';
import { QuitRequested, TerminalPlanner } from './terminal/planner.ts';

const args = parsePlayArgs();
const provider = new JsonRpcProvider(args.rpc, undefined, { cacheTimeout: -1, pollingInterval: 500 });
const print = (line: string) => console.log(line);
let terminal: LineTerminal | null = null;
let code = 0;
try {
  const wallet = new Wallet(args.key, provider);
  const chain = new GameChain(args.contract, wallet);
  const chainId = await chain.chainId();
  if (args.deployment && BigInt(args.deployment.chainId) !== chainId)
    throw new UsageError(
      `--deployment ${args.deployment.file}: a record of chain ${args.deployment.chainId}, but the RPC serves chain ${chainId}`,
    );
  if (args.mapProof) {
    await checkMapProofRegistry(args.mapProof, provider, args.contract);
    // A lobby names its ruleset: keys of another one are refused before a seat is taken (review 35).
    if (args.target.kind === 'lobby') {
      const target = args.target.lobby;
      const open = await new LobbyClient(args.dealerUrl, { chainId, gameContract: args.contract }).lobbies();
      const l = open.find((x) => x.id === target) ?? open.find((x) => x.kind === target);
      if (l && shippedRulesetNames.includes(l.ruleset)) {
        await checkMapProofKeys(args.mapProof, shippedRuleset(l.ruleset), l.ruleset, chainId);
        await checkMapProofKeysOnChain(args.mapProof, chain, provider, l.rulesetHash, l.ruleset);
      }
    }
  }
  const gameId = await resolveGameId(args.target, {
    signer: wallet,
    dealerUrl: args.dealerUrl,
    chainId,
    gameContract: args.contract,
    chain,
    pollMs: args.pollMs,
    print,
  });
  const cfg = await chain.config(gameId);
  const name = shippedRulesetNames.find(
    (n) => rulesetHash(shippedRuleset(n)).toLowerCase() === cfg.rulesetHash,
  );
  if (!name)
    throw new Error(`game ${gameId} plays ruleset ${cfg.rulesetHash}, which is not a shipped ruleset`);
  const ruleset = shippedRuleset(name);
  // Keys of another ruleset would refuse every honest proof: a usage error now, before anything is committed.
  if (args.mapProof) {
    await checkMapProofKeys(args.mapProof, ruleset, name, chainId);
    await checkMapProofKeysOnChain(args.mapProof, chain, provider, cfg.rulesetHash, name);
  }
  const stateFile =
    args.stateFile ?? defaultStateFile({ chainId, contract: args.contract, gameId, player: wallet.address });
  const vault = await openStateFile({
    file: stateFile,
    signer: wallet,
    chainId,
    contract: args.contract,
    gameId,
  });
  if (args.exportState) {
    await exportState(vault, stateFile, args.exportState);
    print(`state of game ${gameId} (seat ${wallet.address}) exported to ${args.exportState}`);
    process.exit(0);
  }
  if (args.restoreState) {
    await restoreState(vault, args.restoreState, ruleset);
    print(`state restored from ${args.restoreState} into ${stateFile}`);
  }
  // A game already over (coming back with --settle) needs no proof: no keys to fetch from a dealer that may be gone.
  const over = !isLivePhase((await chain.game(gameId)).phase);
  const prover: Prover = over
    ? {
        prove: async () => {
          throw new Error('the game is over: there is no proof to make');
        },
      }
    : args.artifacts || args.sealArtifacts
      ? new SnarkjsProver(proverArtifacts(name, args.artifacts, args.sealArtifacts))
      : await proverFromDealer({
          chain,
          gameId,
          dealerUrl: args.dealerUrl,
          mirrors: args.artifactUrls,
          ...(args.artifactCache ? { cacheDir: args.artifactCache } : {}),
          onEvent: (e) => {
            if (e.type === 'download')
              print(
                `${e.circuit} ${e.kind}: ${(e.bytes / 1e6).toFixed(1)} MB downloaded and checked on-chain`,
              );
          },
        });
  const player = await joinWithState(
    {
      chain,
      dealer: new DealerClient({
        baseUrl: args.dealerUrl,
        chainId,
        gameContract: args.contract,
        signer: wallet,
      }),
      prover,
      h: await loadHasher(),
      ruleset,
      gameId,
      // Checked when committing: never more than the player agreed to stake through --max-stake.
      ...(args.target.maxStake !== undefined ? { terms: { maxStake: args.target.maxStake } } : {}),
      persist: vault,
      ...(args.mapProof ? { mapProof: mapProofOptions(args.mapProof) } : {}),
    },
    stateFile,
    print,
  );
  const seed = args.seed ?? wallet.address;
  if (args.interactive) terminal = lineTerminal();
  const seat = new BotPlayer(player, seed, terminal ? new TerminalPlanner(terminal, seed) : undefined);
  print(
    `player ${wallet.address}: seat ${player.seat} of ${player.players.length} in game ${gameId} (${name})`,
  );
  print(
    player.resumed
      ? `resumed from ${stateFile}: ${player.served.length} tiles, ${player.model ? 'spawned' : 'not spawned'}`
      : `state: ${stateFile}`,
  );
  print(mapProofStatusLine(args.mapProof));
  const end = await playToEnd(seat, { chain, gameId, pollMs: args.pollMs, print, narrate: args.interactive });
  print(`game over: phase ${end.phase} after turn ${end.turn}`);
  print(`served and verified: ${player.served.length} tiles`);
  const proofLine = mapProofOutcomeLine(args.mapProof, seat);
  if (proofLine) print(proofLine);
  if (args.tilesOut) {
    writeFileSync(args.tilesOut, servedTilesJson(player.served));
    print(`tiles: ${args.tilesOut} (npm run audit -- --game ${gameId} --tiles ${args.tilesOut})`);
  }
  const closed = await closeToEnd(seat, { chain, gameId, pollMs: args.pollMs, print, wait: args.settle });
  if (closed.phase === 'Settled' || closed.phase === 'Cancelled') print(`game closed: ${closed.phase}`);
} catch (e) {
  if (e instanceof UsageError) exitUsage('player', e.message);
  if (e instanceof QuitRequested) {
    // Leaving is the player's call, not a failure; the seat's deadlines then run out on-chain.
    print(`left the game (${e.message}): your seat will run out of time`);
  } else {
    if (process.env.SHROUD_DEBUG) console.error((e as Error).stack);
    console.error(`player: ${(e as Error).message.split('\n')[0]}`);
    code = 1;
  }
} finally {
  terminal?.close();
  provider.destroy();
  await SnarkjsProver.terminate();
}
process.exitCode = code;
