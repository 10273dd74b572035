/**
 * P7 for the play page's seat after play (client/web/session.ts): when play ends before the game is closed, the
 * session key keeps a closing reserve and sends the rest home; with that reserve alone it slashes a dealer that
 * never published its secrets, or settles once the audit window passed, withdraws its stake's credit and sends
 * everything home (nothing left in the key, which is forgotten then), whoever else is gone. A look with nothing
 * due sends nothing; a look after another party closed the game, or whose exit lost the race to another party's
 * in the same block, is not an error.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Provider, type TransactionRequest, type TransactionResponse, Wallet } from 'ethers';
import {
  CLOSING_GAS,
  closeStep,
  closingReserve,
  payToWallet,
  sweepSession,
} from '../../client/web/session.ts';
import { DEV_KEYS } from '../../scripts/demo/setup.ts';
import {
  commitAll,
  createGame,
  DURATIONS,
  dealMap,
  type Env,
  endByForfeit,
  increaseTime,
  Phase,
  phaseOf,
  postRoot,
  publishSecrets,
  revealAll,
  type Scenario,
  setup,
} from '../contracts/helpers.ts';

const stake = 10n ** 17n;

/** A fresh chain with one staked game played to its end (seat 1 forfeited): the dealer's secrets are due. */
async function playedOut() {
  const env = await setup();
  const s = await createGame(env, { stake });
  await commitAll(env, s);
  await revealAll(env, s);
  const d = dealMap(env, s);
  await postRoot(env, s, d);
  await endByForfeit(env, s);
  return { env, s, d };
}

describe('P7: a session key closes its game after play', () => {
  let env: Env;
  let s: Scenario;

  before(async () => {
    ({ env, s } = await playedOut());
  });

  it('keeps the reserve, slashes the silent dealer with it alone, then sends the credit and all it holds home', async () => {
    const provider = env.ethers.provider;
    const contract = String(env.game.target);
    // Seat 0's account (#2) stands for the page's session key; the wallet it sends home to is fresh.
    const key = new Wallet(DEV_KEYS[2]!, provider);
    assert.equal(key.address, s.players[0]!.address);
    const owner = Wallet.createRandom().address;
    // The key's first act names the wallet payee: the stake will be paid to the wallet, not to the key.
    assert.deepEqual(await payToWallet(key, owner, contract), { named: true, returned: 0n });
    assert.deepEqual(await payToWallet(key, owner, contract), { named: false, returned: 0n }, 'once');

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
    assert.equal(await env.game.getFunction('credit')(owner), 0n, "the wallet's credit went home too");
    assert.equal(await provider.getBalance(key.address), 0n, 'the key, forgotten next, is left with nothing');
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

/** A session key whose first transaction is mined right after `first` ran: another party's, sent in the same block. */
class Outrun extends Wallet {
  #first: (() => Promise<unknown>) | null;
  constructor(key: string, provider: Provider, first: () => Promise<unknown>) {
    super(key, provider);
    this.#first = first;
  }
  override async sendTransaction(tx: TransactionRequest): Promise<TransactionResponse> {
    const first = this.#first;
    this.#first = null;
    await first?.();
    return super.sendTransaction(tx);
  }
}

describe('P7: a session key settles its game once the audit window passed', () => {
  let env: Env;
  let s: Scenario;

  before(async () => {
    let d: Awaited<ReturnType<typeof playedOut>>['d'];
    ({ env, s, d } = await playedOut());
    await publishSecrets(env, s, d);
    assert.equal(await phaseOf(env, s.id), Phase.Audit);
  });

  it('waits out the audit window, then its settle loses the race to the other seat, and the stake still comes home', async () => {
    const provider = env.ethers.provider;
    const contract = String(env.game.target);
    const owner = Wallet.createRandom().address;
    const other = new Wallet(DEV_KEYS[3]!, provider);
    // Seat 0's key (#2): its settle is estimated, then the other seat's settle is mined before it.
    const key = new Outrun(DEV_KEYS[2]!, provider, async () => {
      await (await env.game.connect(other).getFunction('settle')(s.id)).wait();
    });
    assert.equal(key.address, s.players[0]!.address);

    const early = await closeStep(key, owner, contract, s.id);
    assert.deepEqual([early.phase, early.claimed, early.returned, early.closed], ['Audit', null, 0n, false]);

    await increaseTime(env, DURATIONS.auditSeconds + 1);
    const spent = await provider.getBalance(key.address);
    const nonce = await provider.getTransactionCount(key.address);
    const step = await closeStep(key, owner, contract, s.id);
    assert.equal(step.claimed, null, 'the other seat settled first: not an error');
    assert.deepEqual([step.phase, step.closed], ['Settled', true]);
    // Its own settle was sent and mined after the other one's, and reverted: then its withdrawal and the transfer.
    assert.equal(await provider.getTransactionCount(key.address), nonce + 3);
    assert.ok(step.returned > stake, `the stake came home (${step.returned} wei)`);
    assert.ok(step.returned < spent + stake, 'less the gas of its reverted settle');
    assert.equal(await env.game.getFunction('credit')(key.address), 0n);
    assert.equal(await provider.getBalance(key.address), 0n);
    assert.equal(await provider.getBalance(owner), step.returned);
  });
});

describe("P7: a session key lost with its browser: the wallet's stake still comes home", () => {
  it('the stake is paid to the wallet the key named, and the next key of that wallet sends it home', async () => {
    const { env, s } = await playedOut();
    const provider = env.ethers.provider;
    const contract = String(env.game.target);
    const owner = Wallet.createRandom().address;
    const lost = new Wallet(DEV_KEYS[2]!, provider);
    await payToWallet(lost, owner, contract); // the page does it before staking; the payee counts at payout
    // Seat 1's wallet is a contract that refuses transfers (the registry stands for one).
    const refuser = String(env.registry.target);
    await payToWallet(new Wallet(DEV_KEYS[3]!, provider), refuser, contract);
    // The key's tab is gone for good; the dealer never publishes, and another party slashes it.
    await increaseTime(env, DURATIONS.secretsSeconds + 1);
    await (await env.game.connect(env.other).getFunction('claimSecretsTimeout')(s.id)).wait();
    const owed = await env.game.getFunction('credit')(owner);
    assert.ok(owed >= stake, `the stake is the wallet's credit (${owed} wei), not the lost key's`);
    assert.equal(await env.game.getFunction('credit')(lost.address), 0n);

    // The wallet's next game, in another browser: its new key names the wallet and sends the credit home.
    const next = new Wallet(Wallet.createRandom().privateKey, provider);
    await (await env.other.sendTransaction({ to: next.address, value: 10n ** 16n })).wait();
    assert.deepEqual(await payToWallet(next, owner, contract), { named: true, returned: owed });
    assert.equal(await provider.getBalance(owner), owed);
    assert.equal(await env.game.getFunction('credit')(owner), 0n);

    // A wallet that refuses the transfer does not stop its next key from playing: the credit stays, and why is told.
    const third = new Wallet(Wallet.createRandom().privateKey, provider);
    await (await env.other.sendTransaction({ to: third.address, value: 10n ** 16n })).wait();
    const refused = await payToWallet(third, refuser, contract);
    assert.deepEqual([refused.named, refused.returned], [true, 0n]);
    assert.match(refused.pushFailed ?? '', /withdrawToPayee/);
    assert.ok((await env.game.getFunction('credit')(refuser)) >= stake, 'still owed to it');
  });
});
