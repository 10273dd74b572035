/**
 * The SDK checks a game's terms before it stakes (P1, P3, funds): durations inside the protocol's floors and
 * ceilings (and the player's own floors), a seal key in Baby Jubjub's prime subgroup, the stake, deposit and
 * ruleset it expects. A game outside them is refused with a typed error naming the term, and nothing is sent.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import type { GameConfig, Prover } from '../../client/sdk/chain.ts';
import { GameChain } from '../../client/sdk/chain.ts';
import type { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GameTermsRejectedError } from '../../client/sdk/errors.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { checkGameTerms } from '../../client/sdk/terms.ts';
import { CIRCUITS_VERSION } from '../../core/circuits.ts';
import { FIELD_MODULUS } from '../../core/field.ts';
import { DURATION_CEILINGS, DURATION_FIELDS, DURATION_FLOORS } from '../../core/limits.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { rulesetHash } from '../../scripts/contracts/rulesets.ts';
import { BOND, DURATIONS, type Env, gameParams, lastGameId, SEAL_KEY, setup } from '../contracts/helpers.ts';
import { registerMock } from './resume-fixture.ts';

const good: GameConfig = {
  kind: 0,
  width: 16,
  height: 12,
  maxTurns: 10,
  depth: 4,
  rulesetHash: `0x${'11'.repeat(32)}`,
  stake: 100n,
  durations: { ...DURATIONS },
  sealKey: SEAL_KEY,
  disputeDeposit: 10n,
};
const refused = (c: GameConfig, field: string, policy = {}) =>
  assert.throws(
    () => checkGameTerms(c, policy),
    (e) => e instanceof GameTermsRejectedError && e.field === field,
    field,
  );

describe("SDK: a game's terms are checked before staking", () => {
  it('accepts terms within the floors, the ceilings and the policy', () => {
    checkGameTerms(good, { maxStake: 100n, maxDisputeDeposit: 10n, rulesetHash: good.rulesetHash });
    checkGameTerms({ ...good, durations: { ...DURATION_FLOORS } });
    checkGameTerms({ ...good, durations: { ...DURATION_CEILINGS } });
  });

  it('P1/P3: refuses every duration below its floor or above its ceiling, naming it', () => {
    for (const f of DURATION_FIELDS) {
      refused({ ...good, durations: { ...good.durations, [f]: DURATION_FLOORS[f] - 1 } }, `durations.${f}`);
      refused({ ...good, durations: { ...good.durations, [f]: DURATION_CEILINGS[f] + 1 } }, `durations.${f}`);
    }
    // A 1-second audit window: a dealer that served a forged tile would settle before any fraud proof.
    refused({ ...good, durations: { ...good.durations, auditSeconds: 1 } }, 'durations.auditSeconds');
    // The player's own floors can only be stricter.
    refused(good, 'durations.turnSeconds', { floors: { turnSeconds: DURATIONS.turnSeconds + 1 } });
    checkGameTerms(good, { floors: { turnSeconds: 1 } });
  });

  it('refuses a seal key off the curve, the identity, or outside the prime subgroup', () => {
    const [x, y] = SEAL_KEY;
    refused({ ...good, sealKey: [x, y + 1n] }, 'sealKey');
    refused({ ...good, sealKey: [0n, 1n] }, 'sealKey');
    refused({ ...good, sealKey: [x + FIELD_MODULUS, y] }, 'sealKey');
    // P + (0, −1): on the curve (the contract accepts it) but of even order, outside the subgroup.
    refused({ ...good, sealKey: [FIELD_MODULUS - x, FIELD_MODULUS - y] }, 'sealKey');
  });

  it('refuses a stake, deposit or ruleset outside the policy', () => {
    refused(good, 'stake', { maxStake: 99n });
    refused(good, 'disputeDeposit', { maxDisputeDeposit: 9n });
    refused(good, 'rulesetHash', { rulesetHash: `0x${'12'.repeat(32)}` });
  });
});

describe('SDK on-chain: GamePlayer refuses to stake in a game it cannot trust (seal key, circuits)', () => {
  let env: Env;
  before(async () => {
    env = await setup();
  });

  it('the contract accepts an on-curve key outside the subgroup; the SDK refuses to commit and sends nothing', async () => {
    const [x, y] = SEAL_KEY;
    const players = env.players.slice(0, 2);
    const game = env.game.connect(env.dealer) as Contract;
    const params = gameParams(
      env,
      players.map((p) => p.address),
      { sealKey: [FIELD_MODULUS - x, FIELD_MODULUS - y], stake: 1000n },
    );
    await (await game.getFunction('createGame')(params, { value: BOND })).wait();
    const gameId = await lastGameId(env);
    const player = await GamePlayer.join({
      chain: new GameChain(await env.game.getAddress(), players[0]!),
      dealer: {} as DealerClient,
      prover: {} as Prover,
      h: env.h,
      ruleset: shippedRuleset('tiny'),
      gameId,
    });
    await assert.rejects(
      player.commitShare(),
      (e) => e instanceof GameTermsRejectedError && e.field === 'sealKey',
    );
    assert.equal((await env.game.getFunction('getSeat')(gameId, 0)).committed, false, 'nothing was staked');
  });

  it("a game whose registry verifies other circuits' proofs: the SDK refuses to commit and sends nothing", async () => {
    const players = env.players.slice(0, 2);
    const game = env.game.connect(env.dealer) as Contract;
    const tiny = shippedRuleset('tiny');
    await registerMock(env, tiny);
    const params = gameParams(
      env,
      players.map((p) => p.address),
      {
        stake: 1000n,
        rulesetHash: rulesetHash('tiny'),
        board: { kind: 0, width: tiny.board.width, height: tiny.board.height, maxTurns: 8 },
      },
    );
    await (await game.getFunction('createGame')(params, { value: BOND })).wait();
    const gameId = await lastGameId(env);
    const address = await env.game.getAddress();
    assert.equal(await new GameChain(address, players[0]!).circuitsVersion(), CIRCUITS_VERSION);
    /** What a game deployed before this version reads as (ShroudGame itself refuses such a registry now). */
    class OlderGame extends GameChain {
      override async circuitsVersion() {
        return CIRCUITS_VERSION - 1;
      }
    }
    const player = await GamePlayer.join({
      chain: new OlderGame(address, players[0]!),
      dealer: {} as DealerClient,
      prover: {} as Prover,
      h: env.h,
      ruleset: tiny,
      gameId,
    });
    await assert.rejects(
      player.commitShare(),
      (e) => e instanceof GameTermsRejectedError && e.field === 'circuitsVersion',
    );
    assert.equal((await env.game.getFunction('getSeat')(gameId, 0)).committed, false, 'nothing was staked');
  });
});
