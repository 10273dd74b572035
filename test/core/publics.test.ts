import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import {
  forcedLanes,
  laneBits,
  nextFit,
  PACKED_WORD_BITS,
  packCombatTarget,
  packContext,
  packedWordCounts,
  packOutcome,
  packPlay,
  packReport,
  packTarget,
  unpackContext,
  unpackReport,
} from '../../core/witness/publics.ts';

test('next-fit placement: in order, a field never straddles a word, every word below 2^253', () => {
  const { slots, words } = nextFit([160, 32, 20, 100, 253, 1]);
  assert.deepEqual(
    slots.map((s) => [s.word, s.shift]),
    [
      [0, 0],
      [0, 160],
      [0, 192],
      [1, 0],
      [2, 0],
      [3, 0],
    ],
  );
  assert.equal(words, 4);
  for (const s of slots) assert.ok(s.shift + s.bits <= PACKED_WORD_BITS);
  assert.throws(() => nextFit([254]), RangeError);
});

test("word counts: duel packs a turn's context and report into 1 word (8 + 32 + 20 + 20 + 16 × 9 = 224 bits)", () => {
  assert.deepEqual(packedWordCounts(shippedRuleset('duel')), { words: 1 });
  assert.deepEqual(packedWordCounts(shippedRuleset('tiny')), { words: 1 });
  const standard = shippedRuleset('standard');
  // 8 + 32 + (players − 1) masks and the zone mask of 77 bits, lanes of 11 bits, next-fit.
  assert.ok(packedWordCounts(standard).words <= 4);
  assert.equal(laneBits(20), 9); // duel: lanes up to 16 * 20 = 320
  assert.equal(laneBits(77), 11);
});

test('report and context round-trip; values that do not fit are refused with the field named', () => {
  for (const name of ['duel', 'standard', 'tiny']) {
    const r = shippedRuleset(name);
    const Z = r.board.zoneCount;
    const zoneMask = (1n << BigInt(Z)) - 3n;
    const forced = [
      { zone: Z - 1, unitType: 15 },
      { zone: 0, unitType: 0 },
      { zone: 3, unitType: 2 },
    ];
    const words = packReport(r, zoneMask, forced);
    for (const w of words) assert.ok(w < 1n << 253n);
    const back = unpackReport(r, words);
    assert.equal(back.zoneMask, zoneMask);
    assert.deepEqual(back.forced, [forced[0], forced[2], forced[1]], 'largest lane first');
    const masks = Array.from({ length: r.players.max - 1 }, (_, i) => BigInt(i * 7 + 1) % (1n << BigInt(Z)));
    const seat = r.players.max - 1;
    const ctx = packContext(r, seat, 0xffffffffn, masks);
    assert.deepEqual(unpackContext(r, ctx), { seat, step: 0xffffffffn, oppMasks: masks });
    // Context and report occupy disjoint bits: OR-ing them loses nothing, and each unpacks from the sum.
    for (const [i, c] of ctx.entries()) assert.equal(c & words[i]!, 0n, `word ${i}`);
    const both = packPlay(r, seat, 0xffffffffn, masks, words);
    assert.deepEqual(unpackContext(r, both), { seat, step: 0xffffffffn, oppMasks: masks });
    assert.deepEqual(unpackReport(r, both), back);
    assert.throws(() => packContext(r, r.players.max, 0n, masks), /not a seat/);
    assert.throws(() => packContext(r, 0, 1n << 32n, masks), /32-bit/);
    assert.throws(() => packContext(r, 0, 0n, masks.slice(1)), InputError);
    const tooWide = masks.map(() => 1n << BigInt(Z));
    assert.throws(() => packContext(r, 0, 0n, tooWide), InputError);
    assert.throws(() => packReport(r, 1n << BigInt(Z), []), InputError);
    assert.throws(() => unpackReport(r, [...words, 0n]), InputError);
  }
});

test('forced lanes are a sorted multiset: the same reveals in any slot order give the same lanes', () => {
  const a = [
    { zone: 2, unitType: 1 },
    { zone: 7, unitType: 0 },
    { zone: 2, unitType: 1 },
  ];
  const b = [a[1]!, a[0]!, a[2]!];
  assert.deepEqual(forcedLanes(a, 5), forcedLanes(b, 5));
  assert.deepEqual(forcedLanes(a, 5), [113n, 34n, 34n, 0n, 0n]);
});

test('attack/combat target and combat outcome words', () => {
  const t = packTarget(5n, 9n, { col: 1023, row: 3 });
  assert.equal(t, 5n | (9n << 160n) | (1023n << 192n) | (3n << 202n));
  assert.equal(packTarget(5n, 9n, { col: 1, row: 2 }, 255) >> 212n, 255n);
  assert.throws(() => packTarget(5n, 9n, { col: 1024, row: 0 }), InputError);
  assert.throws(() => packTarget(5n, 9n, { col: 0, row: 0 }, 256), InputError);
  assert.equal(packOutcome(true, 3, 200), 1n | (3n << 1n) | (200n << 5n));
  assert.throws(() => packOutcome(true, 16, 0), InputError);
  const ct = packCombatTarget(5n, 9n, { col: 1, row: 2 }, 4, true, 3, 200);
  assert.equal(ct, packTarget(5n, 9n, { col: 1, row: 2 }, 4) | (packOutcome(true, 3, 200) << 220n));
  assert.ok(ct < 1n << 233n);
});
