import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import { MAX_BOARD_SIDE } from '../../core/limits.ts';
import { shippedRuleset, shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { mainSource } from '../../scripts/circuits/generate.ts';
import { variant } from './helpers.ts';

test('every shipped ruleset generates all four main circuits with its parameters', () => {
  for (const name of shippedRulesetNames) {
    const r = shippedRuleset(name);
    const turn = mainSource('turn', r);
    // provePassability compiles TurnPass, with the same public inputs: the map root is inside the commitments.
    const tmpl = r.provePassability ? 'TurnPass' : 'Turn';
    assert.ok(
      turn.includes(`component main {public [packed, oldCommit, newCommit]} = ${tmpl}(`),
      `${name}: ${turn}`,
    );
    assert.ok(
      turn.includes(
        `${tmpl}(${r.grid.width}, ${r.grid.height}, ${r.unitSlots}, ${r.unitTypes.length}, ${r.players.max - 1}, ${r.maxRevealedTiles},`,
      ),
    );
    assert.match(mainSource('spawn', r), /\{public \[packed, gameId, newCommit, mapRoot\]\} = Spawn\(/);
    assert.match(mainSource('attack', r), /= Attack\(/);
    assert.match(
      mainSource('combat', r),
      new RegExp(`= Combat\\(${r.grid.width}, ${r.grid.height}, ${r.unitSlots}\\)`),
    );
  }
});

test('provePassability switches turn to TurnPass, with no map root signal', () => {
  const src = mainSource('turn', variant('tiny-pass', { name: 'pass' }));
  // Tree depth 4 (4-ary levels), the shared top height (k = 1 for two openings), then the mobile spawn slots
  // (infantry 1, scout 2; the hq in slot 0 and the empty slot 3 stay put).
  assert.match(src, /newCommit\]\} = TurnPass\(.*, 4, 1, 2, \[1, 2\]\);/);
  // A hand-built ruleset past the validator: a speed above 1 could hop, so the generator refuses it.
  const tp = shippedRuleset('tiny-pass');
  const fast = { ...tp, unitTypes: tp.unitTypes.map((u) => (u.structure ? u : { ...u, speed: 2 })) };
  assert.throws(() => mainSource('turn', fast), /every speed at most 1/);
});

test('rulesets the circuits cannot express fail loudly, even past the validator', () => {
  // validateRuleset refuses these boards (core/limits.ts); the generator checks again for objects built by hand.
  const tiny = shippedRuleset('tiny');
  const on = (width: number, height: number, zonesX: number, zonesY: number): ValidRuleset => ({
    ...tiny,
    grid: { ...tiny.grid, width, height },
    board: { ...tiny.board, width, height, zonesX, zonesY, zoneCount: zonesX * zonesY, depth: 7 },
  });
  assert.throws(
    () => mainSource('turn', on(200, 100, 25, 13)),
    (e) => e instanceof InputError && e.field === 'ruleset.grid' && /325 zones/.test(e.message),
  );
  assert.throws(
    () => mainSource('turn', on(MAX_BOARD_SIDE + 1, 8, 129, 1)),
    (e) =>
      e instanceof InputError && e.field === 'ruleset.grid.width' && /10-bit coordinates/.test(e.message),
  );
});
