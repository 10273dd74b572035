/**
 * The game contract's vocabulary, once: `IShroudGame.Phase` and `IShroudGame.Reason`, in declaration order
 * (the index is the ABI value). The SDK, the dealer, the scripts and the tests read these (the dealer's own
 * `GamePhase` is derived from them in one function, dealer/chain/phase.ts); test/contracts/limits.test.ts
 * checks them against the Solidity enums.
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
  'BadZoneRoots',
  'UnansweredAuditChallenge',
] as const;
export type GameReasonName = (typeof GAME_REASONS)[number];

/** The entry of `names` an ABI value (a decoded `uint8`) stands for; a value past the enum is a contract this code does not know. */
function enumName<T extends string>(names: readonly T[], what: string, value: bigint | number): T {
  const name = Number.isInteger(Number(value)) ? names[Number(value)] : undefined;
  if (name === undefined)
    throw new RangeError(`unknown ${what} ${value}: not one of the ${names.length} known`);
  return name;
}

/** `IShroudGame.Phase` by its ABI value (`getGame`'s `phase`). */
export const phaseName = (value: bigint | number): GamePhaseName =>
  enumName(GAME_PHASES, 'game phase', value);

/** `IShroudGame.Reason` by its ABI value (`GameCancelled`'s and `DealerSlashed`'s `reason`). */
export const reasonName = (value: bigint | number): GameReasonName => enumName(GAME_REASONS, 'reason', value);

/**
 * The phases in which a seat may still have something to do: the seed ceremony (Commit, Reveal, Deal), play and
 * its pauses, and a force-open. After them the game is over for its players (Secrets, Audit, Settled, Cancelled).
 */
export const LIVE_PHASES = [
  'Commit',
  'Reveal',
  'Deal',
  'Play',
  'Combat',
  'Dispute',
  'ForceOpen',
  'OpenRoot',
] as const satisfies readonly GamePhaseName[];

/** The live phases once the dealer posted its root (or the map was forced open): seats move or settle a pause. */
export const PLAY_PHASES = [
  'Play',
  'Combat',
  'Dispute',
  'ForceOpen',
  'OpenRoot',
] as const satisfies readonly (typeof LIVE_PHASES)[number][];

export const isLivePhase = (p: GamePhaseName): boolean =>
  (LIVE_PHASES as readonly GamePhaseName[]).includes(p);
export const isPlayPhase = (p: GamePhaseName): boolean =>
  (PLAY_PHASES as readonly GamePhaseName[]).includes(p);
