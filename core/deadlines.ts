/**
 * The contract's deadline exits, once: after each phase's deadline anyone may send the one call that moves the
 * game on, so that nothing is ever stuck (P7). A ceremony step someone missed cancels the game (`cancelMissed`:
 * the seats that did not act are at fault); no root slashes the dealer and opens the map (`startForceOpen`); a
 * silent seat to move or defender forfeits (`claimTurnTimeout`, `claimCombatTimeout`); an unanswered or unsettled
 * dispute or open-root window ends (`claimDisputeTimeout`, `claimOpenRootTimeout`); missing secrets slash the
 * dealer (`claimSecretsTimeout`); an audit that found no fraud settles (`settle`). Closing pays out as credit,
 * which each owner then `withdraw`s. The dealer and the players' SDK both read this table.
 */
import type { GamePhaseName } from './game-phases.ts';

export type DeadlineCall =
  | 'cancelMissed'
  | 'startForceOpen'
  | 'claimTurnTimeout'
  | 'claimCombatTimeout'
  | 'claimDisputeTimeout'
  | 'claimOpenRootTimeout'
  | 'claimSecretsTimeout'
  | 'settle';

/** The call each phase allows once its deadline passed (ShroudGame and its libraries' `requireExpired`). */
export const DEADLINE_CALLS: Readonly<Partial<Record<GamePhaseName, DeadlineCall>>> = {
  Commit: 'cancelMissed',
  Reveal: 'cancelMissed',
  Deal: 'startForceOpen',
  Play: 'claimTurnTimeout',
  Combat: 'claimCombatTimeout',
  Dispute: 'claimDisputeTimeout',
  ForceOpen: 'cancelMissed',
  OpenRoot: 'claimOpenRootTimeout',
  Secrets: 'claimSecretsTimeout',
  Audit: 'settle',
};

/** Where a game stands against the clock: its phase, that phase's deadline (inclusive) and the chain's time. */
export interface PhaseDeadline {
  phase: GamePhaseName;
  /** Unix seconds: the phase's last second. */
  deadline: number;
  /**
   * Unix seconds: the latest block's timestamp. A transaction is mined in a later block, whose timestamp is
   * greater, so a call this allows does not revert on the deadline.
   */
  now: number;
}

/**
 * The last second of an audit before `settle` may close it: its deadline, or while a zone challenge is still
 * unanswered, the end of the dealer's answer window a dispute window later (ShroudAudit `answerDeadline`).
 */
export function auditEnd(deadline: number, openChallenges: number, disputeSeconds: number): number {
  return openChallenges > 0 ? deadline + disputeSeconds : deadline;
}

/** The call the phase allows now, or null while none may (the phase has none, or its deadline is ahead). */
export function expiredCall(s: PhaseDeadline): DeadlineCall | null {
  return s.now > s.deadline ? (DEADLINE_CALLS[s.phase] ?? null) : null;
}

/** The phases after which a game is over and paid out: only withdrawals remain. */
export const isFinalPhase = (p: GamePhaseName): boolean => p === 'Settled' || p === 'Cancelled';
