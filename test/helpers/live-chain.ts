/**
 * A local chain with a ruleset deployed and the real dealer process on it, through the demo's own setup
 * functions: what the live-chain tests (CLI players, the 4-player game, the web game) stand on. The circuits and
 * contracts are built only when missing (`npm test`'s pretest has built them; building again here would race
 * the demo test, which writes the same files).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Deployment } from '../../contracts/ignition/record.ts';
import { readManifest } from '../../scripts/contracts/rulesets.ts';
import { type MapKeys, prepareMapKeys } from '../../scripts/demo/map-keys.ts';
import {
  buildCircuitsAndVerifiers,
  compileContracts,
  deploy,
  ROOT,
  startChain,
  startDealer,
} from '../../scripts/demo/setup.ts';

export interface LiveChain {
  url: string;
  deployment: Deployment;
  dealerUrl: string;
  dealerKey: string;
  logDir: string;
  /** With `mapProof`: the map-proof keys being prepared for the dealer (scripts/demo/map-keys.ts). */
  mapKeys?: MapKeys;
}

/** A Baby Jubjub seal key below the subgroup order (the dealer's, in tests). */
export const TEST_DEALER_KEY = `0x01${'42'.repeat(31)}`;

/**
 * Starts it all under `tmp` (logs in `tmp/logs`, the dealer's database in `tmp`). `env` is set for the dealer
 * process only (it reads e.g. its lobbies from SHROUD_LOBBIES).
 */
export async function liveChain(o: {
  tmp: string;
  ruleset: string;
  dealerKey?: string;
  env?: Record<string, string>;
  /**
   * The dealer proves each game's map and posts it, as in the demo. The maproot verifier is left out of the
   * deployment and registered once the keys are staged: the demo's first-run path (keys built meanwhile).
   */
  mapProof?: boolean;
}): Promise<LiveChain> {
  const logDir = path.join(o.tmp, 'logs');
  mkdirSync(logDir, { recursive: true });
  const v = readManifest()[o.ruleset]?.verifiers;
  const built =
    v && (['spawn', 'turn', 'attack', 'combat'] as const).every((c) => v[c] && existsSync(v[c]!.zkey));
  if (!built || !existsSync(path.join(ROOT, 'artifacts', 'contracts', 'generated'))) {
    await buildCircuitsAndVerifiers(o.ruleset, undefined);
    await compileContracts(logDir);
  }
  const chain = await startChain(logDir);
  const deployment = await deploy(chain.url, o.ruleset, o.mapProof ? { mapRoot: false } : {});
  const mapKeys = o.mapProof
    ? prepareMapKeys({
        ruleset: o.ruleset,
        ptauDir: undefined,
        outDir: o.tmp,
        logDir,
        chain: Promise.resolve({ rpcUrl: chain.url, deployment }),
        rootRegistered: false,
        log: () => {},
      })
    : undefined;
  const dealerKey = o.dealerKey ?? TEST_DEALER_KEY;
  const saved = Object.fromEntries(Object.keys(o.env ?? {}).map((k) => [k, process.env[k]]));
  Object.assign(process.env, o.env);
  try {
    const dealer = await startDealer({
      outDir: o.tmp,
      logDir,
      rpcUrl: chain.url,
      gameContract: deployment.shroudGame,
      startBlock: deployment.blockNumber,
      dealerKey,
      ...(mapKeys ? { mapProof: { keysDir: mapKeys.dir, registry: deployment.mapProofRegistry } } : {}),
    });
    return {
      url: chain.url,
      deployment,
      dealerUrl: dealer.url,
      dealerKey,
      logDir,
      ...(mapKeys ? { mapKeys } : {}),
    };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
