import { InputError } from './errors.ts';
import { toField } from './field.ts';
import { assertOnBoard, type Board, type Coord } from './geometry.ts';
import type { Hasher } from './poseidon.ts';
import type { Ruleset } from './ruleset/types.ts';

/** One unit slot of a player's hidden state; `null` is an empty or dead slot. */
export interface Unit extends Coord {
  /** Index into `ruleset.unitTypes`. */
  type: number;
  hp: number;
}

export type Slots = readonly (Unit | null)[];

/**
 * Unit word (33 bits): alive (1) | type (4) | hp (8) | col (10) | row (10), low bits first.
 * Empty and dead slots are the all-zero word, so "dead stays dead" is "zero stays zero".
 */
export const UNIT_BITS = 33;
export const UNITS_PER_WORD = 7;
const TYPE_SHIFT = 1n;
const HP_SHIFT = 5n;
const COL_SHIFT = 13n;
const ROW_SHIFT = 23n;

export function stateWordCount(unitSlots: number): number {
  return Math.ceil(unitSlots / UNITS_PER_WORD);
}

export function encodeUnit(u: Unit | null): bigint {
  if (u === null) return 0n;
  return (
    1n |
    (BigInt(u.type) << TYPE_SHIFT) |
    (BigInt(u.hp) << HP_SHIFT) |
    (BigInt(u.col) << COL_SHIFT) |
    (BigInt(u.row) << ROW_SHIFT)
  );
}

export function decodeUnit(word: bigint): Unit | null {
  if ((word & 1n) === 0n) return null;
  const bits = (shift: bigint, n: bigint) => Number((word >> shift) & ((1n << n) - 1n));
  return {
    type: bits(TYPE_SHIFT, 4n),
    hp: bits(HP_SHIFT, 8n),
    col: bits(COL_SHIFT, 10n),
    row: bits(ROW_SHIFT, 10n),
  };
}

/** Checks a slot list against the ruleset and board, naming the slot and the rule. */
export function assertSlots(r: Ruleset & { board: Board }, slots: Slots): void {
  if (slots.length !== r.unitSlots)
    throw new InputError('units', `${slots.length} slots, ruleset has ${r.unitSlots}`);
  slots.forEach((u, i) => {
    if (u === null) return;
    const t = r.unitTypes[u.type];
    if (!Number.isInteger(u.type) || t === undefined)
      throw new InputError(`units.${i}.type`, `unknown unit type ${u.type}`);
    if (!Number.isInteger(u.hp) || u.hp < 1 || u.hp > t.hp) {
      throw new InputError(`units.${i}.hp`, `${u.hp} is outside 1..${t.hp} for ${t.name}`);
    }
    assertOnBoard(r.board, u, `units.${i}`);
  });
}

/** Packs slots into field words, 7 units per word (231 bits < 254, so circuits unpack without aliasing). */
export function packSlots(slots: Slots, unitSlots: number): bigint[] {
  const words: bigint[] = new Array(stateWordCount(unitSlots)).fill(0n);
  for (let i = 0; i < unitSlots; i++) {
    const w = Math.floor(i / UNITS_PER_WORD);
    words[w] = words[w]! | (encodeUnit(slots[i] ?? null) << BigInt((i % UNITS_PER_WORD) * UNIT_BITS));
  }
  return words;
}

export function unpackSlots(words: readonly bigint[], unitSlots: number): (Unit | null)[] {
  const out: (Unit | null)[] = [];
  for (let i = 0; i < unitSlots; i++) {
    const w = words[Math.floor(i / UNITS_PER_WORD)] ?? 0n;
    out.push(decodeUnit((w >> BigInt((i % UNITS_PER_WORD) * UNIT_BITS)) & ((1n << BigInt(UNIT_BITS)) - 1n)));
  }
  return out;
}

/** `Poseidon(blinding, word_0, …)`: the player's on-chain state commitment (a blinding ≥ p or < 0 is refused). */
export function stateCommitment(h: Hasher, slots: Slots, unitSlots: number, blinding: bigint): bigint {
  return h.hash([toField(blinding, 'blinding'), ...packSlots(slots, unitSlots)]);
}

/** Reveal list packing: 14 lanes of 17 bits per word, lane = leaf index + 1 (0 = empty). */
export const REVEAL_LANE_BITS = 17;
export const REVEAL_LANES_PER_WORD = 14;

export function revealWordCount(maxRevealed: number): number {
  return Math.ceil(maxRevealed / REVEAL_LANES_PER_WORD);
}

export function packReveals(leaves: readonly number[], maxRevealed: number): bigint[] {
  if (leaves.length > maxRevealed) {
    throw new InputError('revealed', `${leaves.length} tiles, at most ${maxRevealed} per proof`);
  }
  const words: bigint[] = new Array(revealWordCount(maxRevealed)).fill(0n);
  leaves.forEach((leaf, i) => {
    if (!Number.isInteger(leaf) || leaf < 0 || leaf >= 2 ** REVEAL_LANE_BITS - 1) {
      throw new InputError(`revealed.${i}`, `${leaf} is not a leaf index`);
    }
    const w = Math.floor(i / REVEAL_LANES_PER_WORD);
    words[w] = words[w]! | (BigInt(leaf + 1) << BigInt((i % REVEAL_LANES_PER_WORD) * REVEAL_LANE_BITS));
  });
  return words;
}

/**
 * The play commitment a seat stores on-chain: `Poseidon(stateCommit, revealCommit, mapRoot)`. One public
 * signal and one storage slot bind the state, the reveal list and the map root the seat plays on (the game's
 * root at its spawn, or the adopted open root after `rebind`): turn proofs check destinations against that
 * root without taking it as a public signal of their own. Its opening for the dealer and a dispute is the
 * state commitment (hiding: it has its own blinding), the reveal list, and the root (public).
 */
export function playCommitment(
  h: Hasher,
  stateCommit: bigint,
  revealCommit: bigint,
  mapRoot: bigint,
): bigint {
  return h.hash([
    toField(stateCommit, 'stateCommit'),
    toField(revealCommit, 'revealCommit'),
    toField(mapRoot, 'mapRoot'),
  ]);
}

/** `revealCommit = Poseidon(blinding, words…)`: hides which tiles a player explored (P6). */
export function revealCommitment(
  h: Hasher,
  leaves: readonly number[],
  maxRevealed: number,
  blinding: bigint,
): bigint {
  return h.hash([toField(blinding, 'blinding'), ...packReveals(leaves, maxRevealed)]);
}
