/**
 * What a player checks about a game before it commits and stakes (P1, P3, funds): every duration within the
 * protocol's floors and ceilings (and the player's own stricter floors), a seal key the proof can be made
 * for (on the curve, in the prime subgroup), the stake and dispute deposit within the player's limits, and
 * the ruleset it expects. The contract enforces the protocol's bounds too; this refuses before paying, with
 * the field named.
 */
import { InputError } from '@shroud/core/errors.ts';
import { checkDurations, type Durations } from '@shroud/core/limits.ts';
import { checkSealPublicKey } from '@shroud/core/sealed.ts';
import type { GameConfig } from './chain.ts';
import { GameTermsRejectedError } from './errors.ts';

export interface TermsPolicy {
  /** Stricter floors than the protocol's (seconds); never looser. */
  floors?: Partial<Durations>;
  /** Largest stake this player pays (wei). Default: any. */
  maxStake?: bigint;
  /** Largest dispute deposit this player accepts (wei). Default: any (the contract caps it at the stake). */
  maxDisputeDeposit?: bigint;
  /** The ruleset hash this player means to play (lowercase 0x hex). */
  rulesetHash?: string;
}

/** Throws GameTermsRejectedError naming the first term this player does not accept. */
export function checkGameTerms(config: GameConfig, policy: TermsPolicy = {}): void {
  try {
    checkDurations(config.durations, 'durations', policy.floors);
    checkSealPublicKey(config.sealKey, 'sealKey');
  } catch (e) {
    if (e instanceof InputError)
      throw new GameTermsRejectedError(e.field, e.message.slice(e.field.length + 2));
    throw e;
  }
  if (policy.maxStake !== undefined && config.stake > policy.maxStake) {
    throw new GameTermsRejectedError(
      'stake',
      `${config.stake} wei is above this player's limit ${policy.maxStake}`,
    );
  }
  if (policy.maxDisputeDeposit !== undefined && config.disputeDeposit > policy.maxDisputeDeposit) {
    throw new GameTermsRejectedError(
      'disputeDeposit',
      `${config.disputeDeposit} wei is above this player's limit ${policy.maxDisputeDeposit}`,
    );
  }
  if (policy.rulesetHash !== undefined && config.rulesetHash !== policy.rulesetHash.toLowerCase()) {
    throw new GameTermsRejectedError(
      'rulesetHash',
      `the game plays ${config.rulesetHash}, not ${policy.rulesetHash}`,
    );
  }
}
