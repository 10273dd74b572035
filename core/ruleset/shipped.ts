import { InputError } from '../errors.ts';
import duel from '../rulesets/duel.json' with { type: 'json' };
import skirmish from '../rulesets/skirmish.json' with { type: 'json' };
import standard from '../rulesets/standard.json' with { type: 'json' };
import tiny from '../rulesets/tiny.json' with { type: 'json' };
import tinyFour from '../rulesets/tiny-four.json' with { type: 'json' };
import tinyPass from '../rulesets/tiny-pass.json' with { type: 'json' };
import tinySquare from '../rulesets/tiny-square.json' with { type: 'json' };
import { type ValidRuleset, validateRuleset } from './validate.ts';

const SHIPPED: Record<string, unknown> = {
  duel,
  standard,
  skirmish,
  tiny,
  /** tiny with passability proofs: every turn proves each destination tile passable. */
  'tiny-pass': tinyPass,
  'tiny-square': tinySquare,
  /** tiny on a 16×16 board for up to four players (the multi-player demo and its test). */
  'tiny-four': tinyFour,
};

export const shippedRulesetNames: readonly string[] = Object.keys(SHIPPED);

/** A ruleset shipped with the core, by name. */
export function shippedRuleset(name: string): ValidRuleset {
  const json = SHIPPED[name];
  if (json === undefined) {
    throw new InputError('ruleset', `unknown ruleset "${name}"; shipped: ${shippedRulesetNames.join(', ')}`);
  }
  return validateRuleset(json);
}
