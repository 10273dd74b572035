/**
 * Post-game audit CLI:
 *
 *   npm run audit -- --game ID [--rpc URL] [--contract ADDR | --deployment deployments/<chainId>.json]
 *                    [--tiles FILE] [--fraud-key KEY] [--from-block N] [--json]
 *
 * Reads the master secret and shares published after the game (the `SecretsPublished` event), regenerates the
 * map and its salted tree with the core, and reports whether the dealer's posted root matches. With `--tiles`
 * (a JSON array of served tiles `{leaf, terrain, feature, resource, rivers, salt, path}`, e.g. the SDK's verified
 * tiles) it reports each tile that differs from `Gen(seed)` or has a salt ≠ Poseidon(master, leaf); with
 * `--fraud-key` it submits `proveFraud` for the first provable mismatch, or, when no served tile shows it, proves
 * a root that is not Gen(seed) on-chain (`proveZoneRootsFraud`, or `challengeZone` paying the game's dispute
 * deposit: the dealer must then answer with its leaves of that zone), and reports the slash.
 * Defaults: `--rpc http://127.0.0.1:8545`, the deployment record of the RPC's chain id.
 * Exit codes: 0 clean, 4 a mismatch was found (root or tiles), 2 usage, 1 other errors.
 * The logic lives in scripts/audit/audit.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { readDeployment } from '../contracts/ignition/record.ts';
import { SHROUD_GAME_ABI } from '../core/abi/shroud-game.ts';
import { inputFile, parseCli, runCli, UsageError } from '../lib/cli.ts';
import { type AuditReport, formatReport, parseServedTiles, runAudit } from './audit/audit.ts';

export interface AuditCliOptions {
  gameId: bigint;
  rpc: string;
  contract?: string;
  deployment?: string;
  tiles?: string;
  fraudKey?: string;
  fromBlock: number;
  json: boolean;
}

export const AUDIT_USAGE = `usage: npm run audit -- --game ID [--rpc URL] [--contract ADDR | --deployment FILE] [--tiles FILE] [--fraud-key KEY] [--from-block N] [--json]

Recomputes a finished game's map from the secrets the dealer published and checks the posted root;
with --tiles, checks each served tile; with --fraud-key, proves the first bad tile, else a bad root, on-chain.
  --game ID          the game id (decimal or 0x-hex)
  --rpc URL          default http://127.0.0.1:8545
  --contract ADDR    the ShroudGame address, or --deployment FILE (default deployments/<chainId>.json)
  --tiles FILE       served tiles (JSON array of {leaf, terrain, feature, resource, rivers, salt, path})
  --fraud-key KEY    a key to prove fraud with (a zone challenge needs a seat's key and pays the game's deposit)
  --from-block N     first block to scan for events (default 0)
  --json             print the report as JSON
Exit status: 0 clean, 4 a mismatch was found, 2 usage, 1 other errors.`;

/** Parses the CLI arguments (throws a UsageError naming the flag). */
export function parseAuditArgs(argv: readonly string[]): AuditCliOptions {
  const { values } = parseCli(
    {
      name: 'audit',
      usage: AUDIT_USAGE,
      options: {
        game: { type: 'string' },
        rpc: { type: 'string', default: 'http://127.0.0.1:8545' },
        contract: { type: 'string' },
        deployment: { type: 'string' },
        tiles: { type: 'string' },
        'fraud-key': { type: 'string' },
        'from-block': { type: 'string', default: '0' },
        json: { type: 'boolean', default: false },
      },
    },
    [...argv],
  );
  if (!values.game) throw new UsageError('--game ID is required (see --help)');
  if (!/^(0x[0-9a-f]+|\d+)$/i.test(values.game))
    throw new UsageError(`--game ${values.game}: not a decimal or 0x-hex id`);
  if (values.contract && values.deployment) throw new UsageError('give --contract or --deployment, not both');
  if (!/^\d+$/.test(values['from-block']!))
    throw new UsageError(`--from-block ${values['from-block']}: not a block number`);
  return {
    gameId: BigInt(values.game),
    rpc: values.rpc!,
    ...(values.contract ? { contract: values.contract } : {}),
    ...(values.deployment ? { deployment: values.deployment } : {}),
    ...(values.tiles ? { tiles: values.tiles } : {}),
    ...(values['fraud-key'] ? { fraudKey: values['fraud-key'] } : {}),
    fromBlock: Number(values['from-block']),
    json: values.json!,
  };
}

/** The game contract address: `--contract`, else `--deployment FILE`, else `deployments/<chainId>.json`. */
export async function resolveGameAddress(o: AuditCliOptions, chainId: number): Promise<string> {
  if (o.contract) return o.contract;
  if (o.deployment) {
    const d = JSON.parse(readFileSync(o.deployment, 'utf8')) as { shroudGame?: string; chainId?: number };
    if (!d.shroudGame) throw new Error(`${o.deployment}: no shroudGame address`);
    if (d.chainId !== undefined && d.chainId !== chainId)
      throw new Error(`${o.deployment} is for chain ${d.chainId}, the RPC is chain ${chainId}`);
    return d.shroudGame;
  }
  const d = await readDeployment(chainId);
  if (!d) throw new Error(`no --contract and no deployments/${chainId}.json`);
  return d.shroudGame;
}

/** Runs the audit described by CLI options against an RPC endpoint. */
export async function auditFromCli(o: AuditCliOptions): Promise<AuditReport> {
  const provider = new JsonRpcProvider(o.rpc);
  try {
    const chainId = Number((await provider.getNetwork()).chainId);
    const address = await resolveGameAddress(o, chainId);
    const game = new Contract(address, SHROUD_GAME_ABI, provider);
    const tiles = o.tiles ? parseServedTiles(JSON.parse(readFileSync(o.tiles, 'utf8'))) : undefined;
    const fraudGame = o.fraudKey ? (game.connect(new Wallet(o.fraudKey, provider)) as Contract) : undefined;
    return await runAudit({
      game,
      gameId: o.gameId,
      fromBlock: o.fromBlock,
      ...(tiles ? { tiles } : {}),
      ...(fraudGame ? { fraudGame } : {}),
    });
  } finally {
    provider.destroy();
  }
}

const jsonOf = (r: AuditReport) =>
  JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2);

/** Whether the report shows the dealer lied (root mismatch or a bad served tile). */
export function foundFraud(r: AuditReport): boolean {
  return r.rootMatches === false || (r.tiles?.mismatches.length ?? 0) > 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('audit', async () => {
    const o = parseAuditArgs(process.argv.slice(2));
    if (o.tiles) inputFile('tiles', o.tiles);
    if (o.deployment) inputFile('deployment', o.deployment);
    const r = await auditFromCli(o);
    console.log(o.json ? jsonOf(r) : formatReport(r));
    process.exit(foundFraud(r) ? 4 : 0);
  });
}
