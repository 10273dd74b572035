/**
 * The operator's game CLI:
 *
 *   npm run game -- create --ruleset NAME --players 0xA,0xB [--stake WEI] [--dispute-deposit WEI]
 *                          [--max-turns N] [--bond WEI] [--deployment FILE] [--seal-key X,Y | --dealer-url URL]
 *
 * Creates a game as the dealer (from its transaction key SHROUD_TX_KEY, so the dealer's watcher deals it),
 * with the durations of the ruleset's `deadlines` and the dealer's seal public key, and prints the game id on
 * stdout. The parameters are built by dealer/chain/create-game.ts, the same code the dealer's lobbies use.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAddress, JsonRpcProvider, type Provider, Wallet } from 'ethers';
import { readText } from '../client/sdk/http-body.ts';
import type { Point } from '../core/babyjub.ts';
import { InputError } from '../core/errors.ts';
import { shippedRuleset, shippedRulesetNames } from '../core/ruleset/shipped.ts';
import { checkSealPublicKey } from '../core/sealed.ts';
import { createGame, createGameParams } from '../dealer/chain/create-game.ts';
import { EthersChain } from '../dealer/chain/ethers.ts';
import { inputFile, parseCli, runCli, UsageError } from '../lib/cli.ts';

export const GAME_USAGE = `usage: npm run game -- create --ruleset NAME --players 0xA,0xB[,…] [--stake WEI] [--dispute-deposit WEI]
                              [--max-turns N] [--bond WEI] [--deployment FILE] [--seal-key X,Y | --dealer-url URL]

Creates a game as the dealer and prints its id. The game is sent from the dealer's transaction key, so the
dealer running with that key (and the seal key given here) deals it; the players then commit their stakes.
  --ruleset NAME         a shipped ruleset (${shippedRulesetNames.join(', ')}), registered with the contract;
                         the game's phase durations are its deadlines (checked against the protocol's floors)
  --players LIST         the seats in order, comma-separated addresses
  --stake WEI            each player's stake (default 0)
  --dispute-deposit WEI  paid to open a reveal dispute, at most the stake (default 0)
  --max-turns N          the turn limit, spawns included (default 20 per player)
  --bond WEI             the dealer's bond, locked until settlement (default 10^18)
  --deployment FILE      read the game contract (and chain id) from deployments/<chainId>.json
  --seal-key X,Y         the dealer's seal public key (decimal or 0x-hex coordinates)
  --dealer-url URL       read the seal key from the dealer (GET /v1/lobbies), checking it sends from SHROUD_TX_KEY
Environment:
  RPC_URL (or SHROUD_RPC_URL)     the chain's JSON-RPC endpoint
  SHROUD_TX_KEY                   the dealer's transaction key: the game's dealer, pays the bond
  SHROUD_GAME_CONTRACT            the ShroudGame address (or --deployment)
  SHROUD_DEALER_SEAL_PUBLIC_KEY   "X,Y" (or --seal-key / --dealer-url)`;

export interface GameCreateOptions {
  ruleset: string;
  players: string[];
  stake: bigint;
  disputeDeposit: bigint;
  maxTurns: number | undefined;
  bond: bigint;
  rpcUrl: string;
  txKey: string;
  gameContract: string | undefined;
  deployment: string | undefined;
  sealKey: Point | undefined;
  dealerUrl: string | undefined;
}

const wei = (flag: string, v: string): bigint => {
  if (!/^[0-9]{1,30}$/.test(v)) throw new UsageError(`--${flag} must be a whole number of wei, got "${v}"`);
  return BigInt(v);
};

/** "X,Y" → a seal public key on the curve and in the subgroup; `what` names the flag or variable. */
export function parseSealKey(what: string, v: string): Point {
  const parts = v.split(',').map((s) => s.trim());
  if (parts.length !== 2 || !parts.every((p) => /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(p))) {
    throw new UsageError(`${what} must be "X,Y" (two decimal or 0x-hex coordinates)`);
  }
  const key: Point = [BigInt(parts[0]!), BigInt(parts[1]!)];
  try {
    checkSealPublicKey(key);
  } catch (e) {
    if (e instanceof InputError) throw new UsageError(`${what}: ${e.message}`);
    throw e;
  }
  return key;
}

/** Parses the arguments and the environment (throws a UsageError naming the flag or variable). */
export function parseGameArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): GameCreateOptions {
  const { values, positionals } = parseCli(
    {
      name: 'game',
      usage: GAME_USAGE,
      positionals: true,
      options: {
        ruleset: { type: 'string' },
        players: { type: 'string' },
        stake: { type: 'string', default: '0' },
        'dispute-deposit': { type: 'string', default: '0' },
        'max-turns': { type: 'string' },
        bond: { type: 'string', default: (10n ** 18n).toString() },
        deployment: { type: 'string' },
        'seal-key': { type: 'string' },
        'dealer-url': { type: 'string' },
      },
    },
    [...argv],
  );
  if (positionals.length === 0) throw new UsageError('a command is required: create (see --help)');
  if (positionals[0] !== 'create' || positionals.length > 1) {
    throw new UsageError(`unknown command "${positionals.join(' ')}" (see --help)`);
  }
  if (!values.ruleset) throw new UsageError('--ruleset is required (see --help)');
  if (!shippedRulesetNames.includes(values.ruleset)) {
    throw new UsageError(`--ruleset ${values.ruleset}: unknown; shipped: ${shippedRulesetNames.join(', ')}`);
  }
  if (!values.players) throw new UsageError('--players is required (see --help)');
  const players = values.players.split(',').map((p) => p.trim());
  for (const p of players) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(p)) throw new UsageError(`--players: "${p}" is not an address`);
  }
  let maxTurns: number | undefined;
  if (values['max-turns'] !== undefined) {
    maxTurns = Number(values['max-turns']);
    if (!/^[0-9]{1,10}$/.test(values['max-turns']) || maxTurns < 1 || maxTurns > 2 ** 32 - 1) {
      throw new UsageError(
        `--max-turns must be an integer in 1..${2 ** 32 - 1}, got "${values['max-turns']}"`,
      );
    }
  }
  const rpcUrl = env.RPC_URL || env.SHROUD_RPC_URL;
  if (!rpcUrl) throw new UsageError('RPC_URL (or SHROUD_RPC_URL) is required in the environment');
  const txKey = env.SHROUD_TX_KEY;
  if (!txKey)
    throw new UsageError('SHROUD_TX_KEY is required in the environment (the dealer’s transaction key)');
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(txKey)) throw new UsageError('SHROUD_TX_KEY: not a 32-byte hex key');
  const deployment = values.deployment ? inputFile('deployment', values.deployment) : undefined;
  const gameContract = deployment ? undefined : env.SHROUD_GAME_CONTRACT;
  if (!deployment && !gameContract) {
    throw new UsageError('SHROUD_GAME_CONTRACT (or --deployment FILE) is required');
  }
  if (gameContract && !/^0x[0-9a-fA-F]{40}$/.test(gameContract)) {
    throw new UsageError('SHROUD_GAME_CONTRACT: not an address');
  }
  if (values['seal-key'] && values['dealer-url'])
    throw new UsageError('give --seal-key or --dealer-url, not both');
  let sealKey: Point | undefined;
  if (values['seal-key']) sealKey = parseSealKey('--seal-key', values['seal-key']);
  else if (!values['dealer-url'] && env.SHROUD_DEALER_SEAL_PUBLIC_KEY) {
    sealKey = parseSealKey('SHROUD_DEALER_SEAL_PUBLIC_KEY', env.SHROUD_DEALER_SEAL_PUBLIC_KEY);
  }
  if (!sealKey && !values['dealer-url']) {
    throw new UsageError(
      'the dealer’s seal key is required: --seal-key X,Y, --dealer-url URL or SHROUD_DEALER_SEAL_PUBLIC_KEY',
    );
  }
  if (values['dealer-url'] && !/^https?:\/\//.test(values['dealer-url'])) {
    throw new UsageError(`--dealer-url ${values['dealer-url']}: not an http(s) URL`);
  }
  return {
    ruleset: values.ruleset,
    players,
    stake: wei('stake', values.stake!),
    disputeDeposit: wei('dispute-deposit', values['dispute-deposit']!),
    maxTurns,
    bond: wei('bond', values.bond!),
    rpcUrl,
    txKey: txKey.startsWith('0x') ? txKey : `0x${txKey}`,
    gameContract,
    deployment,
    sealKey,
    dealerUrl: values['dealer-url'],
  };
}

/** The flag a core InputError field came from. */
const FLAG_OF: Record<string, string> = {
  seats: '--players',
  players: '--players',
  stake: '--stake',
  disputeDeposit: '--dispute-deposit',
  maxTurns: '--max-turns',
  bond: '--bond',
  sealKey: '--seal-key',
};

/** The game contract from --deployment (its chain must be the RPC's). */
function contractFrom(o: GameCreateOptions, chainId: bigint): string {
  if (o.gameContract) return o.gameContract;
  let d: { shroudGame?: string; chainId?: number };
  try {
    d = JSON.parse(readFileSync(o.deployment!, 'utf8')) as typeof d;
  } catch {
    throw new UsageError(`--deployment ${o.deployment}: not a JSON deployment record`);
  }
  if (!d.shroudGame) throw new UsageError(`--deployment ${o.deployment}: no shroudGame address`);
  if (d.chainId !== undefined && BigInt(d.chainId) !== chainId) {
    throw new Error(`${o.deployment} is for chain ${d.chainId}, the RPC is chain ${chainId}`);
  }
  return d.shroudGame;
}

/** The dealer's seal key and address from its `GET /v1/lobbies`. */
async function fromDealer(url: string): Promise<{ sealKey: Point; dealer: string; gameContract: string }> {
  let res: Response;
  try {
    res = await fetch(`${url.replace(/\/+$/, '')}/v1/lobbies`, { signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    throw new Error(`--dealer-url ${url}: unreachable (${(e as Error).message})`);
  }
  if (!res.ok) throw new Error(`--dealer-url ${url}: GET /v1/lobbies answered HTTP ${res.status}`);
  let b: { sealKey?: string[]; dealer?: string; gameContract?: string };
  try {
    b = JSON.parse(await readText(res));
  } catch (e) {
    throw new Error(`--dealer-url ${url}: not a Shroud dealer's lobby listing (${(e as Error).message})`);
  }
  if (!Array.isArray(b?.sealKey) || typeof b.dealer !== 'string' || typeof b.gameContract !== 'string') {
    throw new Error(`--dealer-url ${url}: not a Shroud dealer's lobby listing`);
  }
  return {
    sealKey: parseSealKey('--dealer-url seal key', b.sealKey.join(',')),
    dealer: b.dealer,
    gameContract: b.gameContract,
  };
}

/** `eth_chainId` at `url` (one request, 10 s timeout). */
async function rpcChainId(url: string): Promise<number> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(10_000),
    });
    const b = JSON.parse(await readText(res)) as { result?: string };
    if (typeof b.result !== 'string') throw new Error(`HTTP ${res.status}, no chain id`);
    return Number(BigInt(b.result));
  } catch (e) {
    throw new Error(`RPC_URL ${url}: no chain answers there (${(e as Error).message})`);
  }
}

/** Creates the game; returns its id. `provider` replaces the RPC (tests). */
export async function createFromCli(
  o: GameCreateOptions,
  io: { provider?: Provider; log?: (line: string) => void } = {},
): Promise<bigint> {
  const log = io.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const ruleset = shippedRuleset(o.ruleset);
  const dealer = new Wallet(o.txKey).address;
  let sealKey = o.sealKey;
  let dealerContract: string | undefined;
  if (o.dealerUrl) {
    const d = await fromDealer(o.dealerUrl);
    if (d.dealer.toLowerCase() !== dealer.toLowerCase()) {
      throw new Error(
        `the dealer at ${o.dealerUrl} sends from ${getAddress(d.dealer)}, SHROUD_TX_KEY is ${dealer}: ` +
          'it would not deal this game',
      );
    }
    sealKey = d.sealKey;
    dealerContract = d.gameContract;
  }
  let params: ReturnType<typeof createGameParams>;
  try {
    params = createGameParams(ruleset, {
      players: o.players,
      sealKey: sealKey!,
      stake: o.stake,
      disputeDeposit: o.disputeDeposit,
      maxTurns: o.maxTurns ?? 20 * o.players.length,
      bond: o.bond,
      dealer,
    });
  } catch (e) {
    if (e instanceof InputError) {
      const flag = FLAG_OF[e.field.split('.')[0]!];
      throw flag ? new UsageError(`${flag}: ${e.message}`) : e;
    }
    throw e;
  }
  // staticNetwork: an unreachable RPC is one error, not ethers' endless network-detection retries.
  const provider =
    io.provider ?? new JsonRpcProvider(o.rpcUrl, await rpcChainId(o.rpcUrl), { staticNetwork: true });
  try {
    const chainId = (await provider.getNetwork()).chainId;
    const gameContract = contractFrom(o, chainId);
    if (dealerContract && dealerContract.toLowerCase() !== gameContract.toLowerCase()) {
      throw new Error(`the dealer at ${o.dealerUrl} follows ${dealerContract}, not ${gameContract}`);
    }
    const chain = new EthersChain({ provider, chainId: Number(chainId), gameContract, txKey: o.txKey });
    const created = await createGame(chain, params);
    log(
      `game ${created.gameId} created on ${gameContract} (chain ${chainId}): ${ruleset.name}, ` +
        `players ${o.players.join(', ')}, stake ${o.stake} wei, bond ${o.bond} wei, ` +
        `max turns ${params.board.maxTurns} (tx ${created.hash}, block ${created.block})`,
    );
    return created.gameId;
  } finally {
    if (!io.provider) provider.destroy();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('game', async () => {
    const o = parseGameArgs(process.argv.slice(2));
    const gameId = await createFromCli(o);
    process.stdout.write(`${gameId}\n`);
  });
}
