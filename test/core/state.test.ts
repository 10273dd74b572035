import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  assertSlots,
  FIELD_MODULUS,
  type Hasher,
  loadHasher,
  masterCommitment,
  packReveals,
  packSlots,
  revealCommitment,
  seedFromShares,
  shareCommitment,
  shippedRuleset,
  stateCommitment,
  type Unit,
  unpackSlots,
} from '../../core/index.ts';

let h: Hasher;
before(async () => {
  h = await loadHasher();
});

const duel = shippedRuleset('duel');
const unit = (type: number, col: number, row: number, hp: number): Unit => ({ type, col, row, hp });

describe('player state encoding', () => {
  test('packs 7 units per word below 2^231 and round-trips', () => {
    const slots = Array.from({ length: 16 }, (_, i) =>
      i % 3 === 2 ? null : unit(i % 5, 39 - i, 25 - i, 1 + i),
    );
    const words = packSlots(slots, 16);
    assert.equal(words.length, 3);
    for (const w of words) assert.ok(w < 1n << 231n);
    assert.deepEqual(unpackSlots(words, 16), slots);
    const extreme = [unit(15, 1023, 1023, 255), ...new Array(15).fill(null)];
    assert.deepEqual(unpackSlots(packSlots(extreme, 16), 16), extreme);
  });

  test('the commitment hides behind its blinding and binds every field', () => {
    const slots = [unit(0, 5, 9, 10), ...new Array(15).fill(null)];
    const c = stateCommitment(h, slots, 16, 1n);
    assert.notEqual(c, stateCommitment(h, slots, 16, 2n));
    assert.notEqual(c, stateCommitment(h, [unit(0, 5, 9, 9), ...new Array(15).fill(null)], 16, 1n));
    assert.notEqual(c, stateCommitment(h, [null, unit(0, 5, 9, 10), ...new Array(14).fill(null)], 16, 1n));
  });

  test('slot checks name the unit and the rule', () => {
    const ok = [unit(0, 5, 9, 10), ...new Array(15).fill(null)];
    assertSlots(duel, ok);
    assert.throws(() => assertSlots(duel, ok.slice(1)), /units: 15 slots, ruleset has 16/);
    assert.throws(() => assertSlots(duel, [unit(9, 5, 9, 10), ...ok.slice(1)]), /units\.0\.type/);
    assert.throws(
      () => assertSlots(duel, [unit(0, 5, 9, 11), ...ok.slice(1)]),
      /units\.0\.hp: 11 is outside 1\.\.10/,
    );
    assert.throws(() => assertSlots(duel, [unit(0, 40, 9, 10), ...ok.slice(1)]), /units\.0: \(40,9\) is off/);
  });
});

describe('reveal commitments', () => {
  test('pack leaf indices + 1 in 17-bit lanes, 14 per word', () => {
    const words = packReveals([0, 5, 1279], 32);
    assert.equal(words.length, 3);
    assert.equal(words[0], 1n + (6n << 17n) + (1280n << 34n));
    assert.throws(() => packReveals(new Array(33).fill(1), 32), /revealed: 33 tiles, at most 32/);
    assert.throws(() => packReveals([-1], 32), /revealed\.0/);
  });

  test('order, content and blinding all change the commitment', () => {
    const c = revealCommitment(h, [1, 2], 32, 9n);
    assert.notEqual(c, revealCommitment(h, [2, 1], 32, 9n));
    assert.notEqual(c, revealCommitment(h, [1, 3], 32, 9n));
    assert.notEqual(c, revealCommitment(h, [1, 2], 32, 10n));
    assert.notEqual(c, revealCommitment(h, [0, 1, 2], 32, 9n));
  });
});

describe('ceremony commitments', () => {
  test('shares bind to game and player; the seed depends on every share and its order', () => {
    const c = shareCommitment(h, 1n, 0xabcn, 77n);
    assert.notEqual(c, shareCommitment(h, 2n, 0xabcn, 77n));
    assert.notEqual(c, shareCommitment(h, 1n, 0xabdn, 77n));
    const s = seedFromShares(h, [3n, 4n]);
    assert.notEqual(s, seedFromShares(h, [4n, 3n]));
    assert.notEqual(s, seedFromShares(h, [3n, 5n]));
    assert.notEqual(masterCommitment(h, 5n), masterCommitment(h, 6n));
  });

  test('values outside the field are refused with the field named', () => {
    assert.throws(() => shareCommitment(h, FIELD_MODULUS, 1n, 1n), /^InputError: gameId: not below/);
    assert.throws(() => seedFromShares(h, [1n, FIELD_MODULUS]), /shares\.1/);
    assert.throws(() => seedFromShares(h, [1n]), /need 2 to 6 shares/);
    assert.throws(() => masterCommitment(h, -1n), /masterSecret: negative/);
  });
});
