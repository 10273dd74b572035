/**
 * Which circuits a ceremony covers, and compiling them with the circuit build (cached under
 * build/circuits/, no Groth16 setup: the ceremony makes the keys).
 */
import { shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import { UsageError } from '../../lib/cli.ts';
import { buildCircuits, buildSealCircuit, type CircuitArtifacts } from '../circuits/build.ts';
import type { GlobalCircuitName } from '../circuits/global.ts';
import { VERIFIED_CIRCUITS, type VerifiedCircuit } from '../contracts/rulesets.ts';
import type { Progress } from '../lib/progress.ts';

/** Every circuit with an on-chain verifier: each ruleset's verified ones and the ruleset-independent seal. */
export const CEREMONY_CIRCUITS = [...VERIFIED_CIRCUITS, 'seal'] as const;
export type CeremonyCircuit = VerifiedCircuit | GlobalCircuitName;

export interface Target {
  /** `tiny/spawn`, or `seal`. */
  id: string;
  circuit: CeremonyCircuit;
  ruleset: string | null;
}

/** Checks `--ruleset` and `--circuits` values (usage errors name the flag). */
export function parseSelection(rulesets: string[], circuits?: string[]): CeremonyCircuit[] {
  for (const r of rulesets)
    if (!shippedRulesetNames.includes(r))
      throw new UsageError(`--ruleset ${r}: unknown; shipped: ${shippedRulesetNames.join(', ')}`);
  for (const c of circuits ?? [])
    if (!(CEREMONY_CIRCUITS as readonly string[]).includes(c))
      throw new UsageError(`--circuits ${c}: unknown; circuits: ${CEREMONY_CIRCUITS.join(', ')}`);
  const chosen = (circuits ?? CEREMONY_CIRCUITS) as CeremonyCircuit[];
  if (rulesets.length === 0 && chosen.some((c) => c !== 'seal'))
    throw new UsageError('--ruleset is required (see --help)');
  return chosen;
}

/** The seal circuit once, then each ruleset's chosen verified circuits. */
export function targetsOf(rulesets: readonly string[], circuits: readonly CeremonyCircuit[]): Target[] {
  const out: Target[] = circuits.includes('seal') ? [{ id: 'seal', circuit: 'seal', ruleset: null }] : [];
  for (const ruleset of rulesets)
    for (const circuit of VERIFIED_CIRCUITS)
      if (circuits.includes(circuit)) out.push({ id: `${ruleset}/${circuit}`, circuit, ruleset });
  return out;
}

/** Compiles (or reuses) every target's circuit; keyed by target id. */
export async function compileTargets(
  targets: readonly Target[],
  progress: Progress,
): Promise<Map<string, CircuitArtifacts>> {
  const opts = { setup: false, log: () => {}, progress } as const;
  const arts = new Map<string, CircuitArtifacts>();
  if (targets.some((t) => t.ruleset === null)) arts.set('seal', await buildSealCircuit(opts));
  const rulesets = [...new Set(targets.flatMap((t) => (t.ruleset === null ? [] : [t.ruleset])))];
  for (const ruleset of rulesets) {
    const circuits = targets.filter((t) => t.ruleset === ruleset).map((t) => t.circuit as VerifiedCircuit);
    const built = await buildCircuits({ ...opts, ruleset, circuits });
    for (const c of circuits) arts.set(`${ruleset}/${c}`, built[c]!);
  }
  return arts;
}
