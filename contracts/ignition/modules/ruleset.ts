/**
 * One Ignition module per ruleset (id `Ruleset_<Name>_<hash prefix>`): registerRuleset, then each generated
 * verifier deployed, set at its circuit id and its artifact hashes registered. The hash prefix in the id makes an
 * edited ruleset a new module (new verifiers, a new registry entry) instead of a conflict with the journal.
 */
import { buildModule } from '@nomicfoundation/ignition-core';
import type { RulesetPlan } from '../plan.ts';
import type { CoreModule } from './core.ts';

const pascal = (s: string) =>
  s
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** `tiny-pass` with hash 0x1a2b3c4d… → `Ruleset_TinyPass_1a2b3c4d`. */
export function rulesetModuleId(r: Pick<RulesetPlan, 'name' | 'hash'>): string {
  return `Ruleset_${pascal(r.name)}_${r.hash.slice(2, 10)}`;
}

export function rulesetModule(core: CoreModule, r: RulesetPlan) {
  return buildModule(rulesetModuleId(r), (m) => {
    const { registry } = m.useModule(core);
    const registered = m.call(
      registry,
      'registerRuleset',
      [r.hash, r.kind, r.width, r.height, r.maxPlayers, r.damage, r.passability, r.maxRevealedTiles],
      { id: 'registerRuleset' },
    );
    // Part of the map generator (MapGen favours these areas): set with the registration, before any game.
    m.call(registry, 'setStartAreas', [r.hash, BigInt(r.startAreas)], {
      id: 'setStartAreas',
      after: [registered],
    });
    const verifiers = Object.fromEntries(
      Object.entries(r.verifiers).map(([circuit, v]) => {
        const verifier = m.contract(v.contract);
        m.call(registry, 'setVerifier', [r.hash, v.circuitId, verifier, v.selector, v.nPublic], {
          id: `setVerifier_${circuit}`,
          after: [registered],
        });
        m.call(registry, 'registerArtifacts', [verifier, v.artifacts.zkey, v.artifacts.wasm], {
          id: `registerArtifacts_${circuit}`,
        });
        return [circuit, verifier];
      }),
    );
    return verifiers;
  });
}
