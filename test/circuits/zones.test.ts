import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shippedRuleset, shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import { validateRuleset } from '../../core/ruleset/validate.ts';
import { visionZones, visionZonesByTable, zoneSightTable } from '../../core/witness/zones.ts';

// The zone-sight table is what the circuits compute; the reference scans tilesInRange. They must
// agree for every tile and unit type, on every shipped board and on the other vision models.
function exhaustive(r: ReturnType<typeof shippedRuleset>): number {
  const table = zoneSightTable(r);
  let checked = 0;
  for (let row = 0; row < r.board.height; row++) {
    for (let col = 0; col < r.board.width; col++) {
      r.unitTypes.forEach((_, type) => {
        const slots = [{ type, hp: 1, col, row }];
        assert.equal(
          visionZonesByTable(r, table, slots),
          visionZones(r, slots),
          `${r.name} type ${type} at (${col},${row})`,
        );
        checked++;
      });
    }
  }
  return checked;
}

for (const name of shippedRulesetNames) {
  test(`zone-sight table equals the reference on every tile of ${name}`, () => {
    assert.ok(exhaustive(shippedRuleset(name)) > 0);
  });
}

test('zone-sight table equals the reference under Euclidean, lit zones and long vision', () => {
  const base = structuredClone(shippedRuleset('skirmish')) as unknown as Record<string, unknown> & {
    board?: unknown;
  };
  delete base.board;
  const euclid = validateRuleset({ ...base, name: 'euclid', vision: { model: 'euclidean' } });
  exhaustive(euclid);
  const lit = validateRuleset({ ...base, name: 'lit', vision: { model: 'litZones' } });
  assert.equal(zoneSightTable(lit).dirs.length, 0);
  exhaustive(lit);
  const duel = structuredClone(shippedRuleset('duel')) as unknown as Record<string, unknown> & {
    board?: unknown;
  };
  delete duel.board;
  const types = (duel.unitTypes as { vision: number }[]).map((t) => ({ ...t, vision: t.vision + 7 }));
  // Vision 8..12 reaches two zones away: the table must grow past the 3×3 neighbourhood.
  const far = validateRuleset({ ...duel, name: 'far', unitTypes: types });
  assert.ok(zoneSightTable(far).ky >= 2);
  exhaustive(far);
});
