/**
 * Packed public signals. A Groth16 verifier pays one elliptic-curve multiplication (~6.2k gas) per
 * public signal, so the circuits pack their small fields into 253-bit words:
 *
 * - spawn and turn: ONE layout shared by the context the contract supplies and the report the proof
 *   shows (so a duel turn has a single such word): the mover's seat (8 bits), the turn number (the
 *   seat for a spawn, 32 bits), each opponent seat's stored zone bitmask (Z bits each), then the new
 *   zone bitmask (Z bits) and one forced-reveal lane per unit slot (`zone * 16 + unitType + 1`, or 0;
 *   `laneBits(Z)` bits each), sorted largest first. The contract ORs its context into the report words
 *   the prover sends, after checking every context bit of them is 0.
 * - `target` (attack and combat inputs): player (160 bits), turn (32), target column and row (10
 *   each), and for combat the damage (8): one word.
 * - combat: the target word (with damage) also carries the defender's outcome: present (1 bit), unit
 *   type (4), unit hp (8) from bit 220 (`packCombatTarget`; 233 bits, one signal).
 *
 * Fields are placed next-fit: in order, each in the current word when it fits below bit 253, else at
 * bit 0 of a new word. 2^253 < p, so a packed word is a unique field element and the circuit
 * unpacks it with one Num2Bits. Shared by the circuits (circuits/lib/pack.circom), ShroudGame.sol
 * and the SDK.
 */
import { InputError } from '../errors.ts';
import type { Board } from '../geometry.ts';
import type { Ruleset } from '../ruleset/types.ts';

type R = Ruleset & { board: Board };

/** Bits per packed word: every value below 2^253 is a canonical BN254 field element. */
export const PACKED_WORD_BITS = 253;
export const PLAYER_BITS = 160;
export const STEP_BITS = 32;

/** Where one field sits: word index and bit offset. */
export interface FieldSlot {
  word: number;
  shift: number;
  bits: number;
}

/** Next-fit placement of fields of the given widths (each ≤ 253 bits). */
export function nextFit(widths: readonly number[]): { slots: FieldSlot[]; words: number } {
  const slots: FieldSlot[] = [];
  let word = 0;
  let shift = 0;
  for (const bits of widths) {
    if (bits < 1 || bits > PACKED_WORD_BITS) throw new RangeError(`field width ${bits} outside 1..253`);
    if (shift + bits > PACKED_WORD_BITS) {
      word++;
      shift = 0;
    }
    slots.push({ word, shift, bits });
    shift += bits;
  }
  return { slots, words: widths.length === 0 ? 0 : word + 1 };
}

function pack(widths: readonly number[], values: readonly bigint[], what: string): bigint[] {
  const { slots, words } = nextFit(widths);
  const out: bigint[] = new Array(words).fill(0n);
  slots.forEach((s, i) => {
    const v = values[i]!;
    if (v < 0n || v >= 1n << BigInt(s.bits))
      throw new InputError(`${what}.${i}`, `${v} does not fit in ${s.bits} bits`);
    out[s.word] = out[s.word]! | (v << BigInt(s.shift));
  });
  return out;
}

function unpack(widths: readonly number[], words: readonly bigint[], what: string): bigint[] {
  const { slots, words: n } = nextFit(widths);
  if (words.length !== n) throw new InputError(what, `${words.length} words, the layout has ${n}`);
  return slots.map((s) => (words[s.word]! >> BigInt(s.shift)) & ((1n << BigInt(s.bits)) - 1n));
}

/** Bits of one forced-reveal lane: the largest lane is (Z − 1) * 16 + 15 + 1 = 16Z. */
export function laneBits(zoneCount: number): number {
  return (16 * zoneCount).toString(2).length;
}

/** Bits of the seat field of a spawn or turn word (seats < 6 < 2^8). */
export const SEAT_BITS = 8;

/**
 * The one packed layout of a spawn or turn: the context the contract supplies first (seat, step, the
 * K = players.max − 1 opponent masks), then the report the proof shows (the new zone bitmask, one lane
 * per unit slot). The contract lays out the context without knowing the unit slots, and refuses report
 * words with a bit set where a context field goes.
 */
const playWidths = (r: R): number[] => [
  SEAT_BITS,
  STEP_BITS,
  ...new Array<number>(r.players.max - 1).fill(r.board.zoneCount),
  r.board.zoneCount,
  ...new Array<number>(r.unitSlots).fill(laneBits(r.board.zoneCount)),
];
/** Fields of the context part of `playWidths`. */
const contextFields = (r: R): number => 2 + (r.players.max - 1);

/** Packed public-signal words of spawn and turn for a ruleset (context and report share them). */
export function packedWordCounts(r: R): { words: number } {
  return { words: nextFit(playWidths(r)).words };
}

/**
 * Public signals per play circuit, as `ShroudGame` builds them: spawn [packed…, gameId, newCommit, mapRoot];
 * turn [packed…, oldCommit, newCommit] (no gameId and no mapRoot: the stored commitment binds both);
 * attack [nullifier, gameId, target, commit]; combat [newCommit, gameId, target, oldCommit]. Every
 * commitment is a seat's play commitment (core/state.ts playCommitment).
 */
export function playSignalCounts(r: R): { spawn: number; turn: number; attack: number; combat: number } {
  const { words } = packedWordCounts(r);
  return { spawn: words + 3, turn: words + 2, attack: 4, combat: 4 };
}

/** A forced zone reveal as the chain sees it: no slot (the lanes are sorted). */
export interface PublicZoneReveal {
  zone: number;
  unitType: number;
}

/** A forced reveal from its code `zone << 4 | unitType` (a lane minus 1; `ZoneReveals` logs the codes). */
export function decodeReveal(code: bigint): PublicZoneReveal {
  return { zone: Number(code >> 4n), unitType: Number(code & 15n) };
}

/**
 * One lane per slot, `zone * 16 + unitType + 1` for a forced reveal, else 0, sorted largest first
 * (as the circuit's sorting network outputs them): the lanes do not tell which slot stands where.
 */
export function forcedLanes(reveals: readonly PublicZoneReveal[], unitSlots: number): bigint[] {
  if (reveals.length > unitSlots)
    throw new InputError('forced', `${reveals.length} reveals for ${unitSlots} slots`);
  const lanes: bigint[] = new Array(unitSlots).fill(0n);
  reveals.forEach((f, i) => {
    lanes[i] = BigInt(f.zone * 16 + f.unitType + 1);
  });
  return lanes.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/**
 * The report part of the packed words (what `spawn` and `playTurn` take): the zone bitmask and the
 * forced-reveal lanes at their places, every context bit 0.
 */
export function packReport(r: R, zoneMask: bigint, forced: readonly PublicZoneReveal[]): bigint[] {
  const zeros = new Array<bigint>(contextFields(r)).fill(0n);
  return pack(playWidths(r), [...zeros, zoneMask, ...forcedLanes(forced, r.unitSlots)], 'report');
}

/** Inverse of `packReport` (context bits are ignored), for clients and indexers reading a spawn or turn. */
export function unpackReport(
  r: R,
  words: readonly bigint[],
): { zoneMask: bigint; forced: PublicZoneReveal[] } {
  const [zoneMask, ...lanes] = unpack(playWidths(r), words, 'report').slice(contextFields(r));
  const forced: PublicZoneReveal[] = [];
  for (const lane of lanes) {
    if (lane !== 0n) forced.push(decodeReveal(lane - 1n));
  }
  return { zoneMask: zoneMask!, forced };
}

/**
 * The context part of the packed words: the mover's seat, the step (the turn number; the seat for a
 * spawn) and the opponent seats' stored zone bitmasks, as the contract builds them from its own state;
 * every report bit 0. The public words are `packContext(…)[i] | packReport(…)[i]`.
 */
export function packContext(r: R, seat: number, step: bigint, oppMasks: readonly bigint[]): bigint[] {
  if (!Number.isInteger(seat) || seat < 0 || seat >= r.players.max) {
    throw new InputError('seat', `${seat} is not a seat (0..${r.players.max - 1})`);
  }
  if (step < 0n || step >= 1n << BigInt(STEP_BITS)) {
    throw new InputError('turn', `${step} is not a 32-bit turn number`);
  }
  if (oppMasks.length !== r.players.max - 1) {
    throw new InputError(
      'oppMasks',
      `${oppMasks.length} masks, the ruleset has ${r.players.max - 1} opponents`,
    );
  }
  const rest = new Array<bigint>(1 + r.unitSlots).fill(0n);
  return pack(playWidths(r), [BigInt(seat), step, ...oppMasks, ...rest], 'context');
}

/** The packed public words of a spawn or turn: context and report together. */
export function packPlay(
  r: R,
  seat: number,
  step: bigint,
  oppMasks: readonly bigint[],
  report: readonly bigint[],
): bigint[] {
  return packContext(r, seat, step, oppMasks).map((w, i) => w | report[i]!);
}

/** Inverse of `packContext` (report bits are ignored). */
export function unpackContext(
  r: R,
  words: readonly bigint[],
): { seat: number; step: bigint; oppMasks: bigint[] } {
  const [seat, step, ...oppMasks] = unpack(playWidths(r), words, 'context').slice(0, contextFields(r));
  return { seat: Number(seat), step: step!, oppMasks };
}

function assertPlayerTurn(player: bigint, turn: bigint): void {
  if (player < 0n || player >= 1n << BigInt(PLAYER_BITS)) {
    throw new InputError('player', `${player} is not a 160-bit address`);
  }
  if (turn < 0n || turn >= 1n << BigInt(STEP_BITS)) {
    throw new InputError('turn', `${turn} is not a 32-bit turn number`);
  }
}

const TARGET_WIDTHS = [PLAYER_BITS, STEP_BITS, 10, 10];
const DAMAGE_BITS = 8;
const OUTCOME_WIDTHS = [1, 4, 8];

/**
 * The target word of an attack (no damage) or a combat answer (with damage): player, turn, target
 * column and row (and damage), as the contract builds it.
 */
export function packTarget(
  player: bigint,
  turn: bigint,
  target: { col: number; row: number },
  damage?: number,
): bigint {
  assertPlayerTurn(player, turn);
  const widths = damage === undefined ? TARGET_WIDTHS : [...TARGET_WIDTHS, DAMAGE_BITS];
  const values = [player, turn, BigInt(target.col), BigInt(target.row)];
  if (damage !== undefined) values.push(BigInt(damage));
  return pack(widths, values, 'target')[0]!;
}

/**
 * The combat answer's one packed word: the target word with damage (as the contract builds it), then
 * the outcome present | unitType << 1 | unitHp << 5 from bit 220 (as the defender claims it).
 */
export function packCombatTarget(
  player: bigint,
  turn: bigint,
  target: { col: number; row: number },
  damage: number,
  present: boolean,
  unitType: number,
  unitHp: number,
): bigint {
  return packTarget(player, turn, target, damage) | (packOutcome(present, unitType, unitHp) << 220n);
}

/** The combat outcome fields: present | unitType << 1 | unitHp << 5. */
export function packOutcome(present: boolean, unitType: number, unitHp: number): bigint {
  return pack(OUTCOME_WIDTHS, [present ? 1n : 0n, BigInt(unitType), BigInt(unitHp)], 'outcome')[0]!;
}
