/** `ShroudGame.Phase`, in declaration order: the index is the on-chain enum value. */
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
] as const;
export type GamePhaseName = (typeof GAME_PHASES)[number];
