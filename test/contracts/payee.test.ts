/**
 * Payees (ShroudGame.setPayee, withdrawToPayee): an account's credit accrues to the address it named, so that a
 * stake does not wait on a session key that may be lost with its browser (P7: nothing is ever stuck). Every way
 * money reaches a seat or the dealer pays the payee; only the account that named a payee can push its credit to it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Wallet, ZeroAddress } from 'ethers';
import {
  as,
  BOND,
  commitAll,
  createGame,
  DURATIONS,
  dealMap,
  type Env,
  endByForfeit,
  expectRevert,
  increaseTime,
  postRoot,
  revealAll,
  setup,
} from './helpers.ts';

describe('ShroudGame payees', () => {
  let env: Env;
  const stake = 10n ** 17n;
  const credit = (a: string) => env.game.getFunction('credit')(a) as Promise<bigint>;
  const payeeOf = (a: string) => env.game.getFunction('payeeOf')(a) as Promise<string>;

  before(async () => {
    env = await setup();
  });

  it("a seat that named a payee is paid there: its stake and its share of the slashed dealer's bond", async () => {
    const s = await createGame(env, { stake });
    const [seat0, seat1] = s.players;
    const payee = Wallet.createRandom().address;
    const rc = await (await as(env, seat0!).getFunction('setPayee')(payee)).wait();
    const set = rc.logs
      .map((l: never) => env.game.interface.parseLog(l))
      .find((e: { name: string }) => e?.name);
    assert.equal(set?.name, 'PayeeSet');
    assert.deepEqual([...set!.args], [seat0!.address, payee]);
    assert.equal(await payeeOf(seat0!.address), payee);

    await commitAll(env, s);
    await revealAll(env, s);
    await postRoot(env, s, dealMap(env, s));
    await endByForfeit(env, s);
    const before1 = await credit(seat1!.address);
    await increaseTime(env, DURATIONS.secretsSeconds + 1);
    await (await as(env, env.other).getFunction('claimSecretsTimeout')(s.id)).wait();

    assert.equal(await credit(payee), stake + BOND / 2n, 'the stake and half the bond, at the payee');
    assert.equal(await credit(seat0!.address), 0n, 'nothing at the seat');
    assert.equal(
      (await credit(seat1!.address)) - before1,
      stake + BOND / 2n,
      'a seat without payee is paid itself',
    );

    // Without a payee named there is nothing to push to; the seat that named one pushes its payee's credit there.
    await expectRevert(as(env, seat1!).getFunction('withdrawToPayee')(), env.game, 'NoPayee');
    await expectRevert(as(env, env.other).getFunction('withdrawToPayee')(), env.game, 'NoPayee');
    await (await as(env, seat0!).getFunction('withdrawToPayee')()).wait();
    assert.equal(await env.ethers.provider.getBalance(payee), stake + BOND / 2n);
    assert.equal(await credit(payee), 0n);
    await expectRevert(as(env, seat0!).getFunction('withdrawToPayee')(), env.game, 'NothingToWithdraw');
  });

  it("the dealer's bond goes to its payee; a payee set back to zero pays the seat itself again", async () => {
    const s = await createGame(env, { stake });
    const [seat0] = s.players;
    const dealerPayee = Wallet.createRandom().address;
    await (await as(env, env.dealer).getFunction('setPayee')(dealerPayee)).wait();
    await (await as(env, seat0!).getFunction('setPayee')(Wallet.createRandom().address)).wait();
    await (await as(env, seat0!).getFunction('setPayee')(ZeroAddress)).wait();
    assert.equal(await payeeOf(seat0!.address), ZeroAddress);

    await commitAll(env, s);
    const own = await credit(seat0!.address);
    // Nobody reveals: every seat is at fault, each stake returns to its owner and the bond to the dealer.
    await increaseTime(env, DURATIONS.revealSeconds + 1);
    await (await as(env, env.other).getFunction('cancelMissed')(s.id)).wait();
    assert.equal((await credit(seat0!.address)) - own, stake);
    assert.equal(await credit(dealerPayee), BOND);
    await (await as(env, env.dealer).getFunction('setPayee')(ZeroAddress)).wait();
  });

  it('refuses this contract as a payee (BadPayee): its credit could never leave', async () => {
    await expectRevert(
      as(env, env.players[0]!).getFunction('setPayee')(env.game.target),
      env.game,
      'BadPayee',
    );
  });
});
