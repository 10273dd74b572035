import { fileURLToPath } from 'node:url';
import { inputFile, UsageError } from '../../lib/cli.ts';
import { ConfigError, type DealerConfig, loadConfigSources } from '../config.ts';

/** What the dealer reads without `--config`: the local chain's defaults, every setting open to SHROUD_* variables. */
export const DEFAULT_CONFIG_FILE = fileURLToPath(new URL('../config.default.json', import.meta.url));

/**
 * The configuration an operations command acts on: the same file and environment the dealer would start
 * with. A bad setting is a usage error (exit 2), naming the setting, never its value.
 */
export function opsConfig(
  configFlag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { config: DealerConfig; file: string; fromEnv: string[] } {
  const file = configFlag === undefined ? DEFAULT_CONFIG_FILE : inputFile('config', configFlag);
  try {
    return { file, ...loadConfigSources(file, env) };
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
}
