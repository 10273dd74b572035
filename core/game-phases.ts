/**
 * The game contract's vocabulary, once: `IShroudGame.Phase` and `IShroudGame.Reason`, in declaration order
 * (the index is the ABI value). The SDK, the dealer and the tests read these; test/contracts/limits.test.ts
 * checks them against the compiled ABI.
 */
export const GAME_PHASES = [
  'None',
  'Commit',
  'Reveal',
  'Deal',
  'Play',
  'Secrets',
  'Audit',
  'Settled',
  'Cancelled',
  'ForceOpen',
  'Combat',
  'Dispute',
  'OpenRoot',
] as const;
export type GamePhaseName = (typeof GAME_PHASES)[number];

/** Why a game was cancelled or its dealer slashed (`GameCancelled` and `DealerSlashed` events). */
export const GAME_REASONS = [
  'None',
  'MissedCommit',
  'MissedReveal',
  'MissedShare',
  'NoRoot',
  'NoSecrets',
  'Fraud',
  'UnansweredDispute',
  'BadDisputeAnswer',
  'NoOpenRoot',
] as const;
export type GameReasonName = (typeof GAME_REASONS)[number];
