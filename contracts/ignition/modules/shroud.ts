/** The module a deployment runs (id `ShroudDeployment`): the core module and one module per planned ruleset. */
import { buildModule } from '@nomicfoundation/ignition-core';
import type { DeployPlan } from '../plan.ts';
import { coreModule } from './core.ts';
import { rulesetModule } from './ruleset.ts';

export function shroudModule(plan: DeployPlan) {
  const core = coreModule(plan.seal);
  return buildModule('ShroudDeployment', (m) => {
    const results = m.useModule(core);
    for (const r of plan.rulesets) m.useModule(rulesetModule(core, r));
    return results;
  });
}
