/**
 * `--deployment FILE`: a record `npm run deploy:*` wrote (contracts/ignition/record.ts `recordDeployment`, read there
 * by chain id with `readDeployment`). The player needs the game contract, the chain it lives on and, to check the
 * map proof (`--map-proof-keys`), the MapProofRegistry.
 */
import { readFileSync } from 'node:fs';
import type { Deployment } from '../../contracts/ignition/record.ts';
import { inputFile, UsageError } from '../../lib/cli.ts';

export type DeploymentRecord = Pick<Deployment, 'chainId' | 'shroudGame'> &
  Partial<Pick<Deployment, 'mapProofRegistry'>>;

/** Reads and checks the record; a missing, unreadable or malformed file is a UsageError naming `--flag`. */
export function readDeploymentFile(flag: string, file: string): DeploymentRecord {
  inputFile(flag, file);
  let d: Partial<Deployment>;
  try {
    d = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError(`--${flag} ${file}: not JSON`);
  }
  if (typeof d?.shroudGame !== 'string' || !/^0x[0-9a-f]{40}$/i.test(d.shroudGame))
    throw new UsageError(
      `--${flag} ${file}: no shroudGame address (not a deployments/<chainId>.json record)`,
    );
  if (!Number.isSafeInteger(d.chainId))
    throw new UsageError(`--${flag} ${file}: no chainId (not a deployments/<chainId>.json record)`);
  // Every record written since the MapProofRegistry has one; an older record without it is still a record.
  if (
    d.mapProofRegistry !== undefined &&
    !(typeof d.mapProofRegistry === 'string' && /^0x[0-9a-f]{40}$/i.test(d.mapProofRegistry))
  )
    throw new UsageError(`--${flag} ${file}: its mapProofRegistry is not a 0x-hex contract address`);
  return {
    chainId: d.chainId!,
    shroudGame: d.shroudGame,
    ...(d.mapProofRegistry !== undefined ? { mapProofRegistry: d.mapProofRegistry } : {}),
  };
}
