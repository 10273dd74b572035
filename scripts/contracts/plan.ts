/**
 * The deploy plan (contracts/ignition/plan.ts) of shipped rulesets, from the generated verifiers
 * (contracts/generated/manifest.json and seal.json): contract names, selectors, public-signal counts, and the
 * SHA-256 of every zkey and wasm (checked against the hashes a manifest records).
 */
import type { DeployPlan, RulesetPlan, SealPlan } from '../../contracts/ignition/plan.ts';
import {
  artifactHashesOf,
  CIRCUIT_ID,
  type GeneratedRuleset,
  readManifest,
  readSealArtifacts,
  rulesetHash,
  rulesetInfo,
  VERIFIED_CIRCUITS,
} from './rulesets.ts';

export interface PlanOptions {
  /** `'mock'`: contracts/harness/MockVerifier.sol as the seal verifier (contract tests); default the generated one. */
  seal?: 'mock';
}

/** The plan deploying everything and registering `rulesets` (their verifiers must be generated). */
export async function deployPlan(rulesets: readonly string[], o: PlanOptions = {}): Promise<DeployPlan> {
  const manifest = readManifest();
  const seal: SealPlan = o.seal === 'mock' ? { contract: 'MockVerifier' } : await generatedSeal();
  const planned: RulesetPlan[] = [];
  for (const name of rulesets) planned.push(await rulesetPlan(name, manifest));
  return { seal, rulesets: planned };
}

async function generatedSeal(): Promise<SealPlan> {
  const a = readSealArtifacts();
  return { contract: a.contract, artifacts: await artifactHashesOf(a) };
}

async function rulesetPlan(name: string, manifest: Record<string, GeneratedRuleset>): Promise<RulesetPlan> {
  const m = manifest[name];
  if (!m)
    throw new Error(
      `no generated verifiers for ruleset ${name}: run node scripts/contracts/verifiers.ts --ruleset ${name}`,
    );
  const hash = rulesetHash(name);
  if (m.hash !== hash) throw new Error(`contracts/generated is stale for ${name}: regenerate the verifiers`);
  const verifiers: RulesetPlan['verifiers'] = {};
  for (const c of VERIFIED_CIRCUITS) {
    const v = m.verifiers[c];
    if (!v) {
      // Manifests generated before the map proof had no maproot verifier: the game still plays without it.
      if (c === 'maproot') continue;
      throw new Error(`${name}: no ${c} verifier in the manifest`);
    }
    verifiers[c] = {
      contract: v.contract,
      circuitId: CIRCUIT_ID[c],
      selector: v.selector,
      nPublic: v.nPublic,
      artifacts: await artifactHashesOf(v),
    };
  }
  return { ...rulesetInfo(name), hash, verifiers };
}
