/**
 * Packed public signals. A Groth16 verifier pays one elliptic-curve multiplication (~6.2k gas) per
 * public signal, so the circuits pack their small fields into 253-bit words:
 *
 * - `report` (outputs): the new zone bitmask (Z bits), then one forced-reveal lane per unit slot
 *   (`zone * 16 + unitType + 1`, or 0; `laneBits(Z)` bits each), sorted largest first.
 * - `context` (inputs the contract supplies): the player's address (160 bits), the turn number (the
 *   seat for a spawn, 32 bits), then each opponent seat's stored zone bitmask (Z bits each).
 * - `target` (attack and combat inputs): player (160 bits), turn (32), target column and row (10
 *   each), and for combat the damage (8): one word.
 * - combat `outcome` (output): present (1 bit), unit type (4), unit hp (8): one word.
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

const reportWidths = (r: R): number[] => [
  r.board.zoneCount,
  ...new Array<number>(r.unitSlots).fill(laneBits(r.board.zoneCount)),
];
const contextWidths = (r: R): number[] => [
  PLAYER_BITS,
  STEP_BITS,
  ...new Array<number>(r.players.max - 1).fill(r.board.zoneCount),
];

/** Public-signal word counts of spawn and turn for a ruleset. */
export function packedWordCounts(r: R): { report: number; context: number } {
  return { report: nextFit(reportWidths(r)).words, context: nextFit(contextWidths(r)).words };
}

/** A forced zone reveal as the chain sees it: no slot (the lanes are sorted). */
export interface PublicZoneReveal {
  zone: number;
  unitType: number;
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

/** The report words of a spawn or turn: the zone bitmask, then the forced-reveal lanes. */
export function packReport(r: R, zoneMask: bigint, forced: readonly PublicZoneReveal[]): bigint[] {
  return pack(reportWidths(r), [zoneMask, ...forcedLanes(forced, r.unitSlots)], 'report');
}

/** Inverse of `packReport`, for clients and indexers reading a submitted spawn or turn. */
export function unpackReport(
  r: R,
  words: readonly bigint[],
): { zoneMask: bigint; forced: PublicZoneReveal[] } {
  const [zoneMask, ...lanes] = unpack(reportWidths(r), words, 'report');
  const forced: PublicZoneReveal[] = [];
  for (const lane of lanes) {
    if (lane === 0n) continue;
    const v = Number(lane) - 1;
    forced.push({ zone: v >> 4, unitType: v & 15 });
  }
  return { zoneMask: zoneMask!, forced };
}

/**
 * The context words of a spawn or turn: player address, turn number (spawn: seat) and the opponent
 * seats' stored zone bitmasks, as the contract builds them from its own state.
 */
export function packContext(r: R, player: bigint, step: bigint, oppMasks: readonly bigint[]): bigint[] {
  assertPlayerTurn(player, step);
  return pack(contextWidths(r), [player, step, ...oppMasks], 'context');
}

function assertPlayerTurn(player: bigint, turn: bigint): void {
  if (player < 0n || player >= 1n << BigInt(PLAYER_BITS)) {
    throw new InputError('player', `${player} is not a 160-bit address`);
  }
  if (turn < 0n || turn >= 1n << BigInt(STEP_BITS)) {
    throw new InputError('turn', `${turn} is not a 32-bit turn number`);
  }
}

/** Inverse of `packContext`. */
export function unpackContext(
  r: R,
  words: readonly bigint[],
): { player: bigint; step: bigint; oppMasks: bigint[] } {
  const [player, step, ...oppMasks] = unpack(contextWidths(r), words, 'context');
  return { player: player!, step: step!, oppMasks };
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

/** The combat outcome word: present | unitType << 1 | unitHp << 5. */
export function packOutcome(present: boolean, unitType: number, unitHp: number): bigint {
  return pack(OUTCOME_WIDTHS, [present ? 1n : 0n, BigInt(unitType), BigInt(unitHp)], 'outcome')[0]!;
}
