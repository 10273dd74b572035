/**
 * The game reads a verifier's answer itself (ShroudGame._verify builds the call in memory and reads the answer from
 * scratch space): a proof is accepted only when the call succeeds and answers exactly one word equal to 1. Each
 * case registers a ruleset whose verifiers answer fixed bytes (contracts/harness/AnswerVerifier.sol) and spawns.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { AbiCoder, concat } from 'ethers';
import { type Env, expectRevert, setup } from './helpers.ts';
import { mockPlay, ZERO_PROOF } from './mock-play.ts';

const word = (v: bigint) => AbiCoder.defaultAbiCoder().encode(['uint256'], [v]);

describe('ShroudGame reads the verifier answer strictly', () => {
  let env: Env;
  before(async () => {
    env = await setup();
  });

  /** Seat 0's spawn in a fresh game whose verifiers answer `answer` (reverting with it when `reverts`). */
  async function spawnAgainst(name: string, answer: string, reverts = false) {
    const v = await env.ethers.deployContract('AnswerVerifier', [answer, reverts], env.deployer);
    const mp = await mockPlay(env, `answer-${name}`, false, await v.getAddress());
    const s = await mp.playing();
    const m = mp.move(0n);
    return { s, mp, call: mp.callSpawn(s, 0, ZERO_PROOF, m) };
  }

  it('accepts a successful call answering one word equal to 1', async () => {
    const { s, mp, call } = await spawnAgainst('one', word(1n));
    await (await call).wait();
    assert.equal(await mp.turnOf(s), 1n);
  });

  for (const [name, answer, reverts] of [
    ['zero', word(0n), false],
    ['two', word(2n), false],
    ['two words', concat([word(1n), word(0n)]), false],
    ['short', word(1n).slice(0, 2 + 31 * 2), false],
    ['empty', '0x', false],
    ['revert', word(1n), true],
  ] as const) {
    it(`refuses an answer that is not exactly one word equal to 1: ${name}`, async () => {
      const { call } = await spawnAgainst(name.replace(' ', '-'), answer, reverts);
      await expectRevert(call, env.game, 'InvalidProof');
    });
  }
});
