/**
 * The protocol's fixed bounds, one definition each: the largest board, and the floor and ceiling of every
 * phase duration. The contract enforces the same numbers (contracts/game/ShroudLimits.sol, read back through
 * `boardBounds()` and `durationBounds()`); test/contracts/limits.test.ts checks the two against each other, and
 * that the ruleset validator, the circuit generator and the contract all refuse a board one past the limit and
 * accept one at it.
 *
 * Durations: the floor protects the players (a 1-second reveal window hands their stakes to fault; a 1-second
 * audit window lets a dealer that served a forged tile settle before any fraud proof lands), the ceiling keeps
 * funds from being locked for years. Rulesets and the SDK check them too.
 */
import { InputError } from './errors.ts';

/**
 * Largest board width and height, in tiles. Coordinates are 10-bit fields everywhere they are packed or
 * range-checked: the circuits' `AssertOnBoard` and reveal lists (`Num2Bits(10)`), the unit word
 * (core/state.ts) and the attack target word (core/witness/publics.ts, `ShroudGame._target`). Columns and
 * rows run 0..1023, so a side may be 1,024.
 */
export const MAX_BOARD_SIDE = 1024;

/** Hardhat's chain id: development, where every run deploys afresh and development keys are what every key is. */
export const LOCAL_CHAIN_ID = 31337n;

/**
 * Most zones (8×8 tiles each) a board may have. A zone bitmask (a player's vision by zone: the turn report,
 * each opponent's mask in the proof context, `Seat.zoneMask` on-chain) fits one packed public-signal word of
 * 253 bits (`PACKED_WORD_BITS`: 2^253 < p, so the word is a canonical field element), and the contract keeps
 * it in 224 bits of the slot that also holds the seat's last turn (32 bits): a turn writes one seat slot, not
 * two (~2.9k gas when its mask changes). It also bounds the open-root proposal, which hashes every zone root
 * on-chain (`gas_propose_open_root_max` of scripts/bench-gas.ts, under the 2^24 per-transaction gas cap of
 * EIP-7825). At the limit (e.g. 128×112: 16×14 zones) the 4-ary tree's depth is 3 + ceil(log4 224) = 7.
 */
export const MAX_ZONES = 224;

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
