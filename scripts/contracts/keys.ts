/**
 * Which proving keys may be deployed where. On any chain but the local one (31337), a verifier whose keys come
 * from the INSECURE development ptau (or of unknown origin), or whose zkey has fewer phase-2 contributions than
 * required, is refused: anyone who knows the setup's secrets can forge proofs against it.
 */
import { UsageError } from '../../lib/cli.ts';
import { verifiersCommand } from './ensure.ts';
import {
  type GeneratedRuleset,
  type GeneratedVerifier,
  readManifest,
  readSealArtifacts,
  type SealArtifacts,
} from './rulesets.ts';

/** The local chain (Hardhat's in-process chain and `hardhat node`): development keys are fine there. */
export const LOCAL_CHAIN_ID = 31337;

export interface KeyPolicy {
  /** Deploy whatever the keys (a throwaway test chain). */
  allowDevKeys?: boolean;
  /** Phase-2 contributions each zkey needs (the manifest's `contributions`); default 1. */
  minContributions?: number;
}

type Keys = Pick<GeneratedVerifier, 'devKeys' | 'contributions'>;

const contributionsOf = (k: Keys) => k.contributions?.length ?? 0;

/** Throws a one-line UsageError naming the first refused verifier (the seal verifier first, then by ruleset). */
export function checkDevKeys(
  rulesets: readonly string[],
  chainId: number,
  policy: KeyPolicy = {},
  m: Record<string, GeneratedRuleset> = readManifest(),
  seal: Pick<SealArtifacts, 'devKeys' | 'contributions'> = readSealArtifacts(),
): void {
  if (chainId === LOCAL_CHAIN_ID || policy.allowDevKeys) return;
  const min = policy.minContributions ?? 1;
  const override = 'or pass --allow-dev-keys for a throwaway test chain';
  if (seal.devKeys !== false)
    throw new UsageError(
      `the seal verifier comes from the INSECURE development ptau (anyone can forge sealed shares), refused on chain ${chainId}; regenerate it on a real ceremony (${verifiersCommand(rulesets)} --ptau-dir DIR) ${override}`,
    );
  if (contributionsOf(seal) < min)
    throw new UsageError(
      `the seal verifier's zkey has ${contributionsOf(seal)} phase-2 contribution(s), fewer than --min-contributions ${min}, refused on chain ${chainId}; run the ceremony for it ${override}`,
    );
  for (const r of rulesets) {
    const verifiers = Object.entries(m[r]?.verifiers ?? {}) as [string, Keys][];
    const dev = verifiers.filter(([, v]) => v.devKeys !== false);
    if (dev.length > 0)
      throw new UsageError(
        `ruleset ${r}: the ${dev.map(([c]) => c).join(', ')} verifiers come from the INSECURE development ptau (anyone can forge proofs), refused on chain ${chainId}; regenerate them on a real ceremony (${verifiersCommand([r])} --ptau-dir DIR) ${override}`,
      );
    const few = verifiers.filter(([, v]) => contributionsOf(v) < min);
    if (few.length > 0)
      throw new UsageError(
        `ruleset ${r}: the ${few.map(([c, v]) => `${c} (${contributionsOf(v)})`).join(', ')} zkeys have fewer phase-2 contributions than --min-contributions ${min}, refused on chain ${chainId}; run the ceremony for them ${override}`,
      );
  }
}
