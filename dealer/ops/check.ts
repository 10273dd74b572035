/**
 * `npm run dealer -- check [--config FILE]`: loads the configuration exactly as the dealer would (file,
 * then SHROUD_* variables), applies the start-up policy, and prints the result with every secret hidden.
 * Offline: it opens no database and calls no chain.
 */
import { computeAddress } from 'ethers';
import { sealPublicKey } from '../../core/sealed.ts';
import { parseCli, UsageError } from '../../lib/cli.ts';
import { ConfigError, checkStartupPolicy, type DealerConfig, dealerSealSecret } from '../config.ts';
import { ENV_SETTINGS } from '../config-env.ts';
import { describeStore } from '../store/open.ts';
import { opsConfig } from './load-config.ts';

/** What `check` prints (one JSON object on stdout). */
export interface CheckReport {
  ok: true;
  configFile: string;
  /** The variables that set something, in table order. */
  fromEnv: string[];
  /** The effective settings; secrets read `[set]`, the RPC URL only its origin (it may hold an API key). */
  config: Record<string, unknown>;
  sealPublicKey: [string, string];
  txAddress: string | null;
}

const SECRET_PATHS = ENV_SETTINGS.filter((s) => s.secret).map((s) => s.path);

/** A deep copy of `config` safe to print. */
export function redactConfig(config: DealerConfig): Record<string, unknown> {
  const out = structuredClone(config) as unknown as Record<string, unknown>;
  for (const p of SECRET_PATHS) {
    const keys = p.split('.');
    const parent = keys
      .slice(0, -1)
      .reduce<Record<string, unknown> | undefined>(
        (o, k) => o?.[k] as Record<string, unknown> | undefined,
        out,
      );
    const leaf = keys[keys.length - 1]!;
    if (parent && parent[leaf] !== undefined) parent[leaf] = '[set]';
  }
  const db = out.db as Record<string, unknown>;
  if (config.db.driver === 'postgres') db.url = describeStore(config.db);
  const chain = out.chain as Record<string, unknown>;
  try {
    if (config.chain.rpcUrl) chain.rpcUrl = `${new URL(config.chain.rpcUrl).origin}/…`;
  } catch {
    chain.rpcUrl = '(not a URL)';
  }
  return out;
}

export const CHECK_USAGE = `usage: npm run dealer -- check [--config FILE]

Checks the configuration the dealer would start with (FILE, default dealer/config.default.json, then
every SHROUD_* variable: docs/dealer-config.md) and prints it as JSON with secrets hidden, with the seal
public key and the transaction address. Exit 0 when the dealer would start with it, 2 (one line naming
the setting) when not. Opens no database, calls no chain.
  --config FILE  the JSON config file (default: dealer/config.default.json)`;

export function checkCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): void {
  const { values } = parseCli(
    { name: 'dealer check', usage: CHECK_USAGE, options: { config: { type: 'string' } } },
    argv,
  );
  const { config, file, fromEnv } = opsConfig(values.config, env);
  try {
    checkStartupPolicy(config, env);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  const pub = sealPublicKey(dealerSealSecret(config));
  const tx = config.keys.txKey;
  const report: CheckReport = {
    ok: true,
    configFile: file,
    fromEnv,
    config: redactConfig(config),
    sealPublicKey: [pub[0].toString(), pub[1].toString()],
    txAddress: tx ? computeAddress(tx.startsWith('0x') ? tx : `0x${tx}`) : null,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
