/**
 * One vocabulary: the core's copies of the contract's bounds and enums (core/limits.ts, core/game-phases.ts)
 * are checked here against the contract itself, so they cannot drift apart; and one board limit: the ruleset
 * validator, the circuit generator and the contract refuse the same boards.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Contract } from 'ethers';
import { CIRCUIT_ID, CIRCUITS_VERSION } from '../../core/circuits.ts';
import { InputError } from '../../core/errors.ts';
import { GAME_PHASES, GAME_REASONS } from '../../core/game-phases.ts';
import { ZONE_DEPTH, ZONE_SIZE } from '../../core/geometry.ts';
import {
  DURATION_CEILINGS,
  DURATION_FIELDS,
  DURATION_FLOORS,
  MAX_BOARD_SIDE,
  MAX_ZONES,
} from '../../core/limits.ts';
import { levelsFor } from '../../core/merkle.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { type ValidRuleset, validateRuleset } from '../../core/ruleset/validate.ts';
import { mainSource } from '../../scripts/circuits/generate.ts';
import { BOND, createGame, type Env, expectRevert, gameParams, setup } from './helpers.ts';

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

  it('board limits: core/limits.ts = boardBounds()', async () => {
    const [maxSide, maxZones, zoneSize] = await env.game.getFunction('boardBounds')();
    assert.deepEqual([maxSide, maxZones, zoneSize].map(Number), [MAX_BOARD_SIDE, MAX_ZONES, ZONE_SIZE]);
  });

  it('one board limit: the validator, the circuit generator and the contract refuse one past it, take it', async () => {
    /** The tiny ruleset on a `width`×`height` grid, its start areas in the top 8 rows. */
    const tinyOn = (width: number, height: number) => {
      const { board: _b, ...r } = structuredClone(shippedRuleset('tiny'));
      return {
        ...r,
        grid: { ...r.grid, width, height },
        startAreas: [
          { col0: 0, row0: 0, col1: 3, row1: 7 },
          { col0: 4, row0: 0, col1: 7, row1: 7 },
        ],
      };
    };
    /** The same ruleset with its board derived by hand, past the validator (the generator's own check). */
    const unchecked = (width: number, height: number): ValidRuleset => {
      const [zonesX, zonesY] = [Math.ceil(width / ZONE_SIZE), Math.ceil(height / ZONE_SIZE)];
      const zoneCount = zonesX * zonesY;
      const depth = ZONE_DEPTH + levelsFor(zoneCount);
      return {
        ...tinyOn(width, height),
        board: { kind: 'hex', width, height, zonesX, zonesY, zoneCount, depth },
      };
    };
    const refusedAs = (field: string) => (e: unknown) => e instanceof InputError && e.field === field;
    const registry = env.registry.connect(env.deployer) as Contract;
    const dealer = env.game.connect(env.dealer) as Contract;
    const players = env.players.slice(0, 2).map((p) => p.address);
    // 128×112 is 16×14 = 224 zones, 120×120 is 15×15 = 225; 1024×8 is 128 zones with the widest side.
    const cases = [
      { width: 128, height: 112, refused: null },
      { width: 120, height: 120, refused: 'ruleset.grid' },
      { width: MAX_BOARD_SIDE, height: 8, refused: null },
      { width: 8, height: MAX_BOARD_SIDE, refused: null },
      { width: MAX_BOARD_SIDE + 1, height: 8, refused: 'ruleset.grid.width' },
      { width: 8, height: MAX_BOARD_SIDE + 1, refused: 'ruleset.grid.height' },
    ] as const;
    assert.equal(unchecked(128, 112).board.zoneCount, MAX_ZONES);
    assert.equal(unchecked(120, 120).board.zoneCount, MAX_ZONES + 1);
    for (const { width, height, refused } of cases) {
      const what = `${width}×${height}`;
      const board = { kind: 0, width, height, maxTurns: 10 };
      if (refused === null) {
        const r = validateRuleset(tinyOn(width, height));
        assert.equal(r.board.zoneCount, unchecked(width, height).board.zoneCount, what);
        assert.match(mainSource('turn', r), new RegExp(`= Turn\\(${width}, ${height}, `), what);
        // createGame on a ruleset registered for the board (test/contracts/helpers.ts: registerRuleset first).
        await createGame(env, { width, height });
      } else {
        assert.throws(() => validateRuleset(tinyOn(width, height)), refusedAs(refused), `validator ${what}`);
        assert.throws(
          () => mainSource('turn', unchecked(width, height)),
          refusedAs(refused),
          `generator ${what}`,
        );
        const hash = env.ethers.keccak256(env.ethers.toUtf8Bytes(`too-large:${what}`));
        await expectRevert(
          registry.getFunction('registerRuleset')(hash, 0, width, height, 2, 4, false, 8),
          registry,
          'BadRuleset',
        );
        await expectRevert(
          dealer.getFunction('createGame')(gameParams(env, players, { board }), { value: BOND }),
          dealer,
          'BadBoard',
        );
      }
    }
  });

  it('phases and reasons: core/game-phases.ts = IShroudGame.Phase and IShroudGame.Reason', () => {
    assert.deepEqual(solidityEnum('Phase'), [...GAME_PHASES]);
    assert.deepEqual(solidityEnum('Reason'), [...GAME_REASONS]);
  });

  it('circuit ids and the circuits version: core/circuits.ts = VerifierRegistry', async () => {
    for (const [name, id] of Object.entries(CIRCUIT_ID)) {
      assert.equal(Number(await env.registry.getFunction(name.toUpperCase())()), id, name);
    }
    assert.equal(Number(await env.registry.getFunction('CIRCUITS_VERSION')()), CIRCUITS_VERSION);
  });

  it('a ShroudGame refuses a registry of other circuits: RegistryVersion (an older one, none, no code)', async () => {
    const d = env.deployment;
    const factory = await env.ethers.getContractFactory('ShroudGame', { libraries: d.libraries });
    const deployWith = (registry: string) =>
      factory.deploy(
        [1, 2, 3, 4, 5, 6].map((n) => d.poseidon[`poseidon${n}`]!),
        d.mapGen,
        registry,
        d.sealVerifier,
      );
    const stale = await (await env.ethers.deployContract('StaleRegistry')).getAddress();
    // A contract without the view (an unversioned registry), and an address without code.
    const unversioned = await (await env.ethers.deployContract('MockVerifier')).getAddress();
    for (const [registry, got] of [
      [stale, 1],
      [unversioned, 0],
      [env.other.address, 0],
    ] as const) {
      const args = await expectRevert(deployWith(registry), env.game, 'RegistryVersion');
      assert.deepEqual(args.map(Number), [CIRCUITS_VERSION, got], registry);
    }
    // The deployment's own registry is taken.
    await (await deployWith(d.registry)).waitForDeployment();
  });
});
