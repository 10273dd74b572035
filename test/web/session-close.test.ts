/**
 * P7 for the play page's seat after play (client/web/session.ts): when play ends before the game is closed, the
 * session key keeps a closing reserve and sends the rest home; with that reserve alone it slashes a dealer that
 * never published its secrets, withdraws its stake's credit and sends everything home, whoever else is gone. A
 * look with nothing due sends nothing, and a look after another party closed the game is not an error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Wallet } from 'ethers';
import { CLOSING_GAS, closeStep, closingReserve, sweepSession } from '../../client/web/session.ts';
import { DEV_KEYS } from '../../scripts/demo/setup.ts';
import {
  commitAll,
  createGame,
  DURATIONS,
  dealMap,
  type Env,
  endByForfeit,
  increaseTime,
  postRoot,
  revealAll,
  type Scenario,
  setup,
} from '../contracts/helpers.ts';

describe('P7: a session key closes its game after play', () => {
  let env: Env;
  let s: Scenario;
  const stake = 10n ** 17n;

  before(async () => {
    env = await setup();
    s = await createGame(env, { stake });
    await commitAll(env, s);
    await revealAll(env, s);
    await postRoot(env, s, dealMap(env, s));
    await endByForfeit(env, s); // play is over: the dealer's secrets are due
  });

  it('keeps the reserve, slashes the silent dealer with it alone, then sends the credit and all it holds home', async () => {
    const provider = env.ethers.provider;
    const contract = String(env.game.target);
    // Seat 0's account (#2) stands for the page's session key; the wallet it sends home to is fresh.
    const key = new Wallet(DEV_KEYS[2]!, provider);
    assert.equal(key.address, s.players[0]!.address);
    const owner = Wallet.createRandom().address;

    const reserve = await closingReserve(provider);
    const sent = await sweepSession(key, owner, contract, reserve);
    const held = await provider.getBalance(key.address);
    assert.ok(sent > 0n, 'the rest went home at once');
    assert.ok(held >= reserve, `the key kept the reserve (${held} ≥ ${reserve})`);
    assert.ok(held < reserve + 21_000n * 10n ** 10n, `and no more than the transfer's change (${held})`);
    assert.equal(await provider.getBalance(owner), sent);

    // Before the secrets deadline: nothing is due, nothing is sent.
    const early = await closeStep(key, owner, contract, s.id);
    assert.deepEqual(
      { phase: early.phase, claimed: early.claimed, returned: early.returned, closed: early.closed },
      { phase: 'Secrets', claimed: null, returned: 0n, closed: false },
    );
    assert.equal(await provider.getBalance(key.address), held, 'a look with nothing due costs nothing');

    // The dealer never publishes: past the deadline the key slashes it and settles, on the reserve alone.
    await increaseTime(env, DURATIONS.secretsSeconds + 1);
    const step = await closeStep(key, owner, contract, s.id);
    assert.equal(step.claimed?.kind, 'claimSecretsTimeout');
    assert.ok(step.claimed.gas < CLOSING_GAS, `the exit (${step.claimed.gas} gas) fits the reserve`);
    assert.equal(step.phase, 'Settled');
    assert.equal(step.closed, true);
    assert.ok(step.returned >= stake, `the stake came home (${step.returned} wei)`);
    assert.equal(await env.game.getFunction('credit')(key.address), 0n, 'no credit left behind');
    const dust = await provider.getBalance(key.address);
    assert.ok(dust < 21_000n * 10n ** 10n, `the key is left with change only (${dust} wei)`);
    assert.equal(await provider.getBalance(owner), sent + step.returned);

    // Looking again sends nothing; the other seat looking after the game closed is not an error.
    const again = await closeStep(key, owner, contract, s.id);
    assert.deepEqual([again.claimed, again.returned, again.closed], [null, 0n, true]);
    const other = new Wallet(DEV_KEYS[3]!, provider);
    const otherStep = await closeStep(other, owner, contract, s.id);
    assert.equal(otherStep.claimed, null, 'the game was closed already');
    assert.equal(otherStep.closed, true);
  });
});
