import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rulesetHash, shippedRuleset, shippedRulesetNames, validateRuleset } from '../../core/index.ts';
import { MAX_BOARD_SIDE, MAX_ZONES } from '../../core/limits.ts';
import schema from '../../core/ruleset/ruleset.schema.json' with { type: 'json' };

const duel = () => structuredClone(shippedRuleset('duel')) as unknown as Record<string, any>;

function rejects(mutate: (r: Record<string, any>) => void, field: string, message?: RegExp) {
  const r = duel();
  delete r.board;
  mutate(r);
  assert.throws(
    () => validateRuleset(r),
    (e: any) => {
      assert.equal(e.name, 'InputError');
      assert.equal(e.field, field);
      if (message) assert.match(e.message, message);
      return true;
    },
  );
}

describe('rulesets', () => {
  test('every shipped ruleset validates, with the sizes the protocol fixes', () => {
    assert.deepEqual([...shippedRulesetNames].sort(), [
      'duel',
      'skirmish',
      'standard',
      'tiny',
      'tiny-four',
      'tiny-pass',
      'tiny-square',
    ]);
    const d = shippedRuleset('duel');
    assert.deepEqual(
      [d.grid.kind, d.grid.width, d.grid.height, d.unitSlots, d.maxRevealedTiles],
      ['hex', 40, 26, 16, 32],
    );
    assert.equal(d.board.zoneCount, 20);
    assert.equal(d.board.depth, 6);
    const s = shippedRuleset('standard');
    assert.deepEqual(
      [s.grid.width, s.grid.height, s.players.max, s.unitSlots, s.maxRevealedTiles],
      [84, 54, 6, 32, 48],
    );
    assert.equal(s.board.zoneCount, 77);
    assert.equal(s.board.depth, 7);
    const sq = shippedRuleset('skirmish');
    assert.equal(sq.grid.kind, 'square');
    assert.equal(sq.vision.model, 'chebyshev');
    const vision = Object.fromEntries(sq.unitTypes.map((u) => [u.name, u.vision]));
    assert.deepEqual([vision.hq, vision.building, vision.tower], [4, 3, 5]);
  });

  test('tiny-pass is tiny with passability proofs (terrain rules: speed 1), nothing else', () => {
    const { board: _a, ...tiny } = shippedRuleset('tiny');
    const { board: _b, ...pass } = shippedRuleset('tiny-pass');
    assert.equal(pass.provePassability, true);
    assert.deepEqual(
      { ...pass, name: 'tiny', provePassability: false },
      { ...tiny, unitTypes: tiny.unitTypes.map((u) => ({ ...u, speed: Math.min(u.speed, 1) })) },
    );
    assert.notEqual(rulesetHash(shippedRuleset('tiny-pass')), rulesetHash(shippedRuleset('tiny')));
  });

  test('terrain rules in every game ruleset: passability proven, moves of one tile', () => {
    for (const name of ['duel', 'standard', 'skirmish', 'tiny-pass']) {
      const r = shippedRuleset(name);
      assert.equal(r.provePassability, true, name);
      for (const u of r.unitTypes) assert.ok(u.speed <= 1, `${name} ${u.name} speed ${u.speed}`);
    }
    // The validator refuses a longer move under terrain rules (it could hop over water).
    const { board: _b, ...duel } = shippedRuleset('duel');
    assert.throws(
      () =>
        validateRuleset({
          ...duel,
          unitTypes: duel.unitTypes.map((u) => (u.structure ? u : { ...u, speed: 2 })),
        }),
      /ruleset\.unitTypes\.0\.speed: provePassability bounds moves to one tile per turn/,
    );
  });

  test('unknown ruleset names list the shipped ones', () => {
    assert.throws(() => shippedRuleset('nope'), /ruleset: unknown ruleset "nope"; shipped: duel/);
  });

  test('shape errors name the field', () => {
    rejects((r) => (r.grid.width = '40'), 'ruleset.grid.width', /integer/);
    rejects((r) => (r.grid.width = 0), 'ruleset.grid.width');
    rejects((r) => delete r.unitSlots, 'ruleset.unitSlots', /required/);
    rejects((r) => (r.surprise = 1), 'ruleset.surprise', /not a ruleset field/);
    rejects((r) => (r.grid.zoneSize = 4), 'ruleset.grid.zoneSize');
    rejects((r) => (r.unitTypes[0].hp = 256), 'ruleset.unitTypes.0.hp');
  });

  test('meaning errors name the field', () => {
    rejects((r) => (r.vision.model = 'chebyshev'), 'ruleset.vision.model', /square-grid/);
    rejects((r) => (r.startAreas[1].col1 = 40), 'ruleset.startAreas.1', /off the 40×26 board/);
    rejects((r) => (r.spawn = ['dragon']), 'ruleset.spawn.0', /unknown unit type/);
    rejects((r) => (r.unitTypes[2].speed = 1), 'ruleset.unitTypes.2.speed', /structures/);
    rejects((r) => r.unitTypes.push({ ...r.unitTypes[0] }), 'ruleset.unitTypes.5.name', /duplicate/);
    rejects((r) => (r.players.max = 3), 'ruleset.startAreas', /2 areas for up to 3 players/);
  });

  test('boards past core/limits.ts are refused naming the field, boards at the limits accept', () => {
    // tiny on another grid; its start areas moved into the top 8 rows so 8-row boards keep them.
    const tinyOn = (width: number, height: number) => {
      const { board: _b, ...r } = structuredClone(shippedRuleset('tiny')) as unknown as Record<string, any>;
      r.grid.width = width;
      r.grid.height = height;
      r.startAreas = [
        { col0: 0, row0: 0, col1: 3, row1: 7 },
        { col0: 4, row0: 0, col1: 7, row1: 7 },
      ];
      return r;
    };
    const refused = (width: number, height: number, field: string, message: RegExp) =>
      assert.throws(
        () => validateRuleset(tinyOn(width, height)),
        (e: any) => e.name === 'InputError' && e.field === field && message.test(e.message),
        `${width}×${height}`,
      );
    // Zones: 128×112 is 16×14 = 224 zones; 120×120 is 15×15 = 225.
    assert.equal(validateRuleset(tinyOn(128, 112)).board.zoneCount, MAX_ZONES);
    refused(120, 120, 'ruleset.grid', new RegExp(`225 zones .*above the limit of ${MAX_ZONES}`));
    refused(1000, 1000, 'ruleset.grid', /15625 zones/);
    // Sides: 1,024 × 8 is 128 zones; one column or row more is refused by the schema, as makeBoard would.
    assert.equal(validateRuleset(tinyOn(MAX_BOARD_SIDE, 8)).board.width, MAX_BOARD_SIDE);
    assert.equal(validateRuleset(tinyOn(8, MAX_BOARD_SIDE)).board.height, MAX_BOARD_SIDE);
    refused(MAX_BOARD_SIDE + 1, 8, 'ruleset.grid.width', new RegExp(`${MAX_BOARD_SIDE}`));
    refused(8, MAX_BOARD_SIDE + 1, 'ruleset.grid.height', new RegExp(`${MAX_BOARD_SIDE}`));
  });

  test("the schema's largest side is MAX_BOARD_SIDE (editors read it; validateRuleset enforces both)", () => {
    const grid = schema.properties.grid.properties;
    assert.equal(grid.width.maximum, MAX_BOARD_SIDE);
    assert.equal(grid.height.maximum, MAX_BOARD_SIDE);
  });
});

describe('ruleset hash', () => {
  test('ignores key order and the derived board, and changes with any rule', () => {
    const d = shippedRuleset('duel');
    const { board: _b, ...plain } = d;
    const reordered = Object.fromEntries(Object.entries(plain).reverse());
    assert.equal(rulesetHash(validateRuleset(reordered)), rulesetHash(d));
    assert.match(rulesetHash(d), /^0x[0-9a-f]{64}$/);
    const changed = structuredClone(plain) as any;
    changed.unitTypes[0].vision = 3;
    assert.notEqual(rulesetHash(validateRuleset(changed)), rulesetHash(d));
    assert.notEqual(rulesetHash(shippedRuleset('tiny')), rulesetHash(shippedRuleset('tiny-square')));
  });

  test('deadlines: every phase within the protocol floors and ceilings (core/limits.ts), named', () => {
    rejects((r) => (r.deadlines.auditSeconds = 3600), 'ruleset.deadlines.auditSeconds', /floor of 86400/);
    rejects((r) => (r.deadlines.turnSeconds = 1), 'ruleset.deadlines.turnSeconds', /floor/);
    rejects((r) => (r.deadlines.commitSeconds = 8 * 86400), 'ruleset.deadlines.commitSeconds', /ceiling/);
    rejects((r) => delete r.deadlines.disputeSeconds, 'ruleset.deadlines.disputeSeconds');
  });
});
