import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import { shippedRuleset, shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import { mainSource } from '../../scripts/circuits/generate.ts';
import { variant } from './helpers.ts';

test('every shipped ruleset generates all four main circuits with its parameters', () => {
  for (const name of shippedRulesetNames) {
    const r = shippedRuleset(name);
    const turn = mainSource('turn', r);
    // provePassability compiles TurnPass, with the map root as one more public input.
    const [tmpl, pub] = r.provePassability ? ['TurnPass', 'revealCommit, mapRoot'] : ['Turn', 'revealCommit'];
    assert.ok(
      turn.includes(`component main {public [gameId, ctx, oldCommit, newCommit, ${pub}]} = ${tmpl}(`),
      `${name}: ${turn}`,
    );
    assert.ok(
      turn.includes(
        `${tmpl}(${r.grid.width}, ${r.grid.height}, ${r.unitSlots}, ${r.unitTypes.length}, ${r.players.max - 1}, ${r.maxRevealedTiles},`,
      ),
    );
    assert.match(mainSource('spawn', r), /\{public \[gameId, ctx, newCommit, revealCommit\]\} = Spawn\(/);
    assert.match(mainSource('attack', r), /= Attack\(/);
    assert.match(
      mainSource('combat', r),
      new RegExp(`= Combat\\(${r.grid.width}, ${r.grid.height}, ${r.unitSlots}\\)`),
    );
  }
});

test('provePassability switches turn to TurnPass with the map root appended', () => {
  const src = mainSource('turn', variant('tiny', { name: 'pass', provePassability: true }));
  // Tree depth 8, then the shared top height: all 4 zone roots (k = 2) for 4 slots.
  assert.match(src, /revealCommit, mapRoot\]\} = TurnPass\(.*, 8, 2\);/);
});

test('rulesets the circuits cannot express fail loudly', () => {
  const huge = variant('tiny', { name: 'huge', grid: { kind: 'hex', width: 200, height: 100, zoneSize: 8 } });
  assert.throws(
    () => mainSource('turn', huge),
    (e) => e instanceof InputError && /zones/.test(e.message),
  );
});
