/**
 * The protocol's bounds on a game's phase durations, in seconds: the floor protects the players (a
 * 1-second reveal window hands their stakes to fault; a 1-second audit window lets a dealer that served
 * a forged tile settle before any fraud proof lands), the ceiling keeps funds from being locked for
 * years. The contract enforces the same numbers (contracts/game/ShroudLimits.sol, `durationBounds()`);
 * test/contracts/limits.test.ts checks the two against each other. Rulesets and the SDK check them too.
 */
import { InputError } from './errors.ts';

/** Phase durations in seconds, in the contract's `Durations` order. */
export interface Durations {
  commitSeconds: number;
  /** Sealed reveals, and the force-open share reveals. */
  revealSeconds: number;
  rootSeconds: number;
  turnSeconds: number;
  combatSeconds: number;
  /** The dealer's answer to a reveal dispute, each challenge window, and open-root proposals. */
  disputeSeconds: number;
  secretsSeconds: number;
  /** The fraud-proof window after the dealer's secrets. */
  auditSeconds: number;
}

export const DURATION_FIELDS = [
  'commitSeconds',
  'revealSeconds',
  'rootSeconds',
  'turnSeconds',
  'combatSeconds',
  'disputeSeconds',
  'secretsSeconds',
  'auditSeconds',
] as const satisfies readonly (keyof Durations)[];

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const DURATION_FLOORS: Readonly<Durations> = Object.freeze({
  commitSeconds: 5 * MINUTE,
  revealSeconds: 5 * MINUTE,
  rootSeconds: 10 * MINUTE,
  turnSeconds: MINUTE,
  combatSeconds: MINUTE,
  disputeSeconds: 10 * MINUTE,
  secretsSeconds: HOUR,
  auditSeconds: DAY,
});

export const DURATION_CEILINGS: Readonly<Durations> = Object.freeze({
  commitSeconds: 7 * DAY,
  revealSeconds: 7 * DAY,
  rootSeconds: 7 * DAY,
  turnSeconds: 7 * DAY,
  combatSeconds: 7 * DAY,
  disputeSeconds: 7 * DAY,
  secretsSeconds: 7 * DAY,
  auditSeconds: 30 * DAY,
});

/**
 * Throws an InputError naming the first field (`<prefix>.<field>`) outside its floor or ceiling.
 * `floors` may be stricter than the protocol's (a player's own policy), never looser.
 */
export function checkDurations(d: Durations, prefix = 'durations', floors: Partial<Durations> = {}): void {
  for (const f of DURATION_FIELDS) {
    const v = d[f];
    const lo = Math.max(floors[f] ?? 0, DURATION_FLOORS[f]);
    const hi = DURATION_CEILINGS[f];
    if (!Number.isInteger(v)) throw new InputError(`${prefix}.${f}`, `must be an integer, got ${v}`);
    if (v < lo) throw new InputError(`${prefix}.${f}`, `${v} s is below the floor of ${lo} s`);
    if (v > hi) throw new InputError(`${prefix}.${f}`, `${v} s is above the ceiling of ${hi} s`);
  }
}
