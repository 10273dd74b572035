/**
 * One vocabulary: the core's copies of the contract's bounds and enums (core/limits.ts, core/game-phases.ts)
 * are checked here against the contract itself, so they cannot drift apart.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GAME_PHASES, GAME_REASONS } from '../../core/game-phases.ts';
import { DURATION_CEILINGS, DURATION_FIELDS, DURATION_FLOORS } from '../../core/limits.ts';
import { type Env, setup } from './helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The members of `enum name { … }` in IShroudGame.sol, in order. */
function solidityEnum(name: string): string[] {
  const src = readFileSync(path.join(ROOT, 'contracts', 'IShroudGame.sol'), 'utf8');
  const m = new RegExp(`enum ${name} \\{([^}]*)\\}`).exec(src);
  assert.ok(m, `enum ${name} in IShroudGame.sol`);
  return m[1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

describe('the contract and the core agree', () => {
  let env: Env;
  before(async () => {
    env = await setup();
  });

  it('duration floors and ceilings: core/limits.ts = durationBounds()', async () => {
    const [min, max] = await env.game.getFunction('durationBounds')();
    for (const f of DURATION_FIELDS) {
      assert.equal(Number(min[f]), DURATION_FLOORS[f], `floor ${f}`);
      assert.equal(Number(max[f]), DURATION_CEILINGS[f], `ceiling ${f}`);
    }
    assert.deepEqual(Object.keys(min.toObject()), [...DURATION_FIELDS], 'same fields, same order');
  });

  it('phases and reasons: core/game-phases.ts = IShroudGame.Phase and IShroudGame.Reason', () => {
    assert.deepEqual(solidityEnum('Phase'), [...GAME_PHASES]);
    assert.deepEqual(solidityEnum('Reason'), [...GAME_REASONS]);
  });
});
