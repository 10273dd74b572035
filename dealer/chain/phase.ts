/**
 * What a game's on-chain phase (core/game-phases.ts, the contract's enum) means for the dealer: the one place
 * the dealer's `GamePhase` is derived from it, for the real chain and the fake alike.
 */
import type { GamePhaseName } from '../../core/game-phases.ts';
import type { GamePhase } from './types.ts';

/** The phases whose meaning for the dealer does not depend on anything else. */
const PHASES: Record<Exclude<GamePhaseName, 'None' | 'Settled'>, GamePhase> = {
  Commit: 'commit',
  Reveal: 'sealing',
  Deal: 'dealing',
  Play: 'playing',
  Combat: 'playing',
  Dispute: 'dispute',
  Secrets: 'ended',
  Audit: 'ended',
  Cancelled: 'cancelled',
  ForceOpen: 'forced-open', // the dealer failed: players reveal their shares on-chain
  OpenRoot: 'forced-open', // after ForceOpen, for passability rulesets
};

/** The on-chain facts `GamePhase` is read from (`getGame`'s phase, openMap and whether the seed is public). */
export interface ChainPhase {
  phase: GamePhaseName;
  /** The game was force-opened (its seed is public): play and settlement go on without this dealer. */
  openMap: boolean;
  /** The dealer published its secrets (getGame's seed is set, on a map not forced open). */
  secretsPublished: boolean;
}

export function dealerPhase(gameId: bigint, g: ChainPhase): GamePhase {
  if (g.phase === 'None') throw new Error(`game ${gameId}: no on-chain phase (not created)`);
  if (g.phase === 'Cancelled') return 'cancelled';
  if (g.openMap) return 'forced-open';
  // Settled: after the audit (secrets published), or after a slash for missing secrets.
  if (g.phase === 'Settled') return g.secretsPublished ? 'ended' : 'cancelled';
  return PHASES[g.phase];
}
