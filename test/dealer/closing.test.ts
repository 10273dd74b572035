/**
 * Closing games (dealer/closing.ts) on the FakeChain: a dealer that runs for months gets its bonds back. It
 * cancels a ceremony a player missed once the deadline passed, settles a published game when its audit window
 * closes, withdraws its credit, each once; it never closes a game the contract would not let it, nor before the
 * deadline; a failed call is retried on the next tick. The same calls against the real contract:
 * test/dealer/ethers-chain.test.ts.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { shareCommitment } from '../../core/index.ts';
import { addressToField } from '../../core/sealed.ts';
import { GameCloser } from '../../dealer/closing.ts';
import { randomFieldElement } from '../../dealer/random.ts';
import { ALICE, BOB, CONTRACT, type Dealer, startDealer, watcherOf } from './fixture.ts';

let d: Dealer | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

/** The writes the dealer sent, by method, since the list had `from` entries. */
const sent = (dealer: Dealer, method: string, from = 0) =>
  dealer.chain.writes.slice(from).filter((w) => w === method).length;

/** A duel of ALICE and BOB with this dealer's key and `bond`; ALICE commits, BOB does not (yet). */
function aliceCommits(dealer: Dealer, bond: bigint): bigint {
  const gameId = dealer.chain.createGame(
    'duel',
    [ALICE.address, BOB.address],
    dealer.seal.publicKey,
    CONTRACT,
    {
      bond,
    },
  );
  const c = shareCommitment(dealer.h, gameId, addressToField(ALICE.address), randomFieldElement());
  dealer.chain.commitShare(gameId, ALICE.address, c);
  return gameId;
}

/** `aliceCommits`, tracked by a watcher's first tick, then its commit deadline passed. */
async function stalledCeremony(dealer: Dealer, bond: bigint) {
  const gameId = aliceCommits(dealer, bond);
  const w = watcherOf(dealer);
  await w.tick();
  dealer.chain.passDeadline(gameId);
  return { gameId, w };
}

/** A dealt tiny game with `bond` whose play ended; the watcher's first tick published its secrets. */
async function published(dealer: Dealer, bond: bigint) {
  const g = await dealer.dealtGame({ ruleset: 'tiny', bond });
  dealer.chain.endGame(g.gameId);
  const w = watcherOf(dealer);
  await w.tick();
  return { g, w };
}

async function metricsText(dealer: Dealer): Promise<string> {
  return (await dealer.app.inject({ url: '/metrics' })).body;
}

describe('closing games: the dealer gets its bonds back', () => {
  it('cancels a ceremony a player missed only once its deadline passed, then withdraws the bond, once', async () => {
    d = await startDealer();
    const gameId = aliceCommits(d, 7n);
    const w = watcherOf(d);
    await w.tick();
    assert.equal((await d.store.getGame(gameId))?.status, 'watching');
    assert.equal(sent(d, 'cancelMissed'), 0, 'not before the deadline');
    d.chain.passDeadline(gameId);
    await w.tick();
    assert.equal(sent(d, 'cancelMissed'), 1);
    assert.equal((await d.chain.closingState(gameId)).phase, 'Cancelled');
    assert.equal((await d.store.getGame(gameId))?.status, 'cancelled');
    assert.equal(d.chain.withdrawnBy(d.chain.dealer), 7n, 'the bond is back in the dealer’s wallet');
    assert.equal(await d.chain.credit(), 0n);
    const before = d.chain.writes.length;
    await w.tick();
    assert.equal(d.chain.writes.length, before, 'nothing more to send');
    const m = await metricsText(d);
    assert.match(m, /shroud_dealer_games_closed_total\{call="cancelMissed"\} 1/);
    assert.match(m, /shroud_dealer_credit_withdrawn_wei_total 7/);
  });

  it('cancels a game whose sealed reveal a player missed (phase Reveal)', async () => {
    d = await startDealer();
    const gameId = aliceCommits(d, 5n);
    d.chain.commitShare(
      gameId,
      BOB.address,
      shareCommitment(d.h, gameId, addressToField(BOB.address), randomFieldElement()),
    );
    assert.equal((await d.chain.closingState(gameId)).phase, 'Reveal');
    d.chain.passDeadline(gameId);
    await watcherOf(d).tick();
    assert.equal((await d.store.getGame(gameId))?.status, 'cancelled');
    assert.equal(d.chain.withdrawnBy(d.chain.dealer), 5n);
  });

  it('settles a published game when its audit window closes, not before, and withdraws the bond', async () => {
    d = await startDealer();
    const { g, w } = await published(d, 9n);
    assert.equal((await d.store.getGame(g.gameId))?.status, 'published');
    assert.equal((await d.chain.closingState(g.gameId)).phase, 'Audit');
    assert.equal(sent(d, 'settle'), 0, 'the audit window is still open');
    assert.equal(sent(d, 'withdraw'), 0, 'no credit yet');
    d.chain.passDeadline(g.gameId);
    await w.tick();
    assert.equal(sent(d, 'settle'), 1);
    assert.equal((await d.store.getGame(g.gameId))?.status, 'settled');
    assert.equal(d.chain.withdrawnBy(d.chain.dealer), 9n);
    const before = d.chain.writes.length;
    await w.tick();
    assert.equal(d.chain.writes.length, before, 'a settled game is done');
  });

  it('a game someone else settled or cancelled: no call of its own, the status follows, the credit is withdrawn', async () => {
    d = await startDealer();
    const settled = await d.dealtGame({ ruleset: 'tiny', bond: 3n });
    d.chain.endGame(settled.gameId);
    const cancelled = aliceCommits(d, 4n);
    const w = watcherOf(d);
    await w.tick();
    d.chain.settleGame(settled.gameId);
    d.chain.cancelGame(cancelled);
    await w.tick();
    assert.equal((await d.store.getGame(cancelled))?.status, 'cancelled', 'seen by the next phase read');
    assert.equal(d.chain.withdrawnBy(d.chain.dealer), 7n, 'both bonds withdrawn at once');
    // The settled game is read again once the audit deadline it read has passed (not every tick).
    assert.equal((await d.store.getGame(settled.gameId))?.status, 'published');
    d.chain.passDeadline(settled.gameId);
    await w.tick();
    assert.equal((await d.store.getGame(settled.gameId))?.status, 'settled');
    assert.equal(sent(d, 'settle') + sent(d, 'cancelMissed'), 0);
  });

  it('closes nothing the contract does not let it: play past a deadline, a force-opened game (its bond went to the players)', async () => {
    d = await startDealer();
    const playing = await d.dealtGame({ ruleset: 'tiny', bond: 2n });
    const forced = await d.dealtGame({ ruleset: 'tiny', bond: 2n });
    d.chain.forceOpen(forced.gameId);
    d.chain.passDeadline(playing.gameId);
    d.chain.passDeadline(forced.gameId);
    const from = d.chain.writes.length;
    await watcherOf(d).tick();
    assert.equal(sent(d, 'settle', from) + sent(d, 'cancelMissed', from) + sent(d, 'withdraw', from), 0);
    assert.equal((await d.store.getGame(playing.gameId))?.status, 'dealt');
    assert.equal((await d.store.getGame(forced.gameId))?.status, 'forced-open');
    assert.equal((await d.chain.closingState(forced.gameId)).phase, 'ForceOpen', 'left to the players');
  });

  it('a failed cancel or withdrawal is logged and retried on the next tick; the game is not marked meanwhile', async () => {
    d = await startDealer();
    const { gameId, w } = await stalledCeremony(d, 6n);
    d.chain.failNext.add('cancelMissed');
    await w.tick();
    assert.equal((await d.store.getGame(gameId))?.status, 'watching');
    assert.ok(d.logs.lines.some((l) => l.includes('closing the game failed; will retry next tick')));
    d.chain.failNext.add('withdraw');
    await w.tick();
    assert.equal((await d.store.getGame(gameId))?.status, 'cancelled');
    assert.equal(d.chain.withdrawnBy(d.chain.dealer), 0n);
    assert.ok(d.logs.lines.some((l) => l.includes('withdrawing the credit failed; will retry next tick')));
    await w.tick();
    assert.equal(d.chain.withdrawnBy(d.chain.dealer), 6n);
    assert.equal(sent(d, 'cancelMissed'), 1);
    assert.equal(sent(d, 'withdraw'), 1);
  });

  it('a backlog goes out a few calls per tick (dispute answers are never held up), the rest on later ticks', async () => {
    d = await startDealer();
    const games = [1n, 2n, 3n, 4n, 5n].map((bond) => aliceCommits(d!, bond));
    const w = watcherOf(d);
    await w.tick();
    for (const g of games) d.chain.passDeadline(g);
    await w.tick();
    assert.equal(sent(d, 'cancelMissed'), 3);
    await w.tick();
    assert.equal(sent(d, 'cancelMissed'), 5);
    assert.equal(d.chain.withdrawnBy(d.chain.dealer), 15n);
  });

  it('a game in its audit window is read once, not every tick, until the chain passes the deadline it read', async () => {
    d = await startDealer();
    const { g, w } = await published(d, 1n);
    await w.tick(); // reads the audit deadline
    const reads = d.chain.count('closingState');
    for (let i = 0; i < 5; i++) await w.tick();
    assert.equal(d.chain.count('closingState'), reads, 'no reads while the window is open');
    d.chain.passDeadline(g.gameId);
    await w.tick();
    assert.equal(sent(d, 'settle'), 1);
  });

  it('a new phase brings a new deadline: a ceremony that went on is not cancelled on the last phase’s', async () => {
    d = await startDealer();
    const { gameId, w } = await stalledCeremony(d, 2n);
    // BOB commits in time after all (the fake takes it): the game is in Reveal, with a fresh deadline.
    d.chain.commitShare(gameId, BOB.address, shareCommitment(d.h, gameId, addressToField(BOB.address), 1n));
    await w.tick();
    assert.equal((await d.chain.closingState(gameId)).phase, 'Reveal');
    assert.equal(sent(d, 'cancelMissed'), 0);
  });

  it('never cancels a force-opened ceremony (its bond went to the players), even one it still tracks as watching', async () => {
    d = await startDealer();
    const gameId = aliceCommits(d, 2n);
    await d.store.addGame({
      gameId,
      contract: CONTRACT,
      ruleset: 'duel',
      players: [ALICE.address.toLowerCase(), BOB.address.toLowerCase()],
    });
    d.chain.forceOpen(gameId);
    d.chain.passDeadline(gameId);
    assert.equal((await d.chain.closingState(gameId)).phase, 'ForceOpen');
    await new GameCloser(d.dealing).tick(); // alone: the watcher's dealing would mark it first
    assert.equal(sent(d, 'cancelMissed'), 0);
    assert.equal((await d.store.getGame(gameId))?.status, 'watching');
  });

  it('a game closed on-chain leaves the closable games whatever status it had (not read again every tick)', async () => {
    // Review 33: a game Settled while the store still had it as watching was re-read at the head and at the
    // confirmed block on every tick, forever. (A chain and store of stubs: the fake chain cannot reach that state.)
    let reads = 0;
    let status = 'watching';
    const chain = {
      chainTime: async () => 1_000,
      closingState: async () => {
        reads++;
        return { phase: 'Settled', deadline: 10, now: 1_000 };
      },
      credit: async () => 0n,
    };
    const store = {
      listGames: async () => (status === 'watching' ? [{ gameId: 7n, status }] : []),
      updateGame: async (_id: bigint, patch: { status: string }) => {
        status = patch.status;
      },
    };
    const log = { child: () => log, info() {}, warn() {} };
    const closer = new GameCloser({ chain, store, log } as never);
    for (let i = 0; i < 3; i++) await closer.tick();
    assert.equal(status, 'settled');
    assert.equal(reads, 2, 'read once at the head, once at the confirmed block');
  });

  it('counts a closing call sent just before a restart, once the restarted dealer sees it confirmed', async () => {
    // Review 33: the sent calls were kept in memory only, so a call that confirmed after a restart closed the game
    // uncounted. The store now records the call once sent. (Stubs: a chain whose confirmed block lags the head.)
    const game = { gameId: 7n, status: 'published', closeCall: null as string | null };
    let settledAtHead = false;
    let confirmed = false;
    const chain = {
      chainTime: async () => 1_000,
      closingState: async (_id: bigint, atConfirmed?: boolean) =>
        (atConfirmed ? confirmed : settledAtHead)
          ? { phase: 'Settled', deadline: 10, now: 1_000 }
          : { phase: 'Audit', deadline: 10, now: 1_000 },
      close: async () => {
        settledAtHead = true;
        return { hash: '0xabc' };
      },
      credit: async () => 0n,
    };
    const store = {
      listGames: async () => (game.status === 'published' ? [{ ...game }] : []),
      updateGame: async (_id: bigint, patch: Partial<typeof game>) => {
        Object.assign(game, patch);
      },
      // As the stores do it: one conditional update.
      claimCloseCall: async (_id: bigint, call: string) => {
        if (game.closeCall !== call) return false;
        game.closeCall = null;
        return true;
      },
    };
    const log = { child: () => log, info() {}, warn() {} };
    const closed: string[] = [];
    const deps = { chain, store, log, onClosed: (_id: bigint, call: string) => closed.push(call) };
    await new GameCloser(deps as never).tick();
    assert.equal(game.closeCall, 'settle', 'recorded once sent');
    assert.deepEqual(closed, [], 'not confirmed yet');
    // The dealer restarts (a new closer, the same store); the call confirms meanwhile.
    confirmed = true;
    const restarted = new GameCloser(deps as never);
    await restarted.tick();
    assert.deepEqual(closed, ['settle'], 'counted by the restarted dealer');
    assert.equal(game.status, 'settled');
    await restarted.tick();
    assert.deepEqual(closed, ['settle'], 'once');
    // Two dealer processes on one store whose ticks overlap count the call once between them (review 37).
    Object.assign(game, { status: 'published', closeCall: 'settle' });
    await Promise.all([new GameCloser(deps as never).tick(), new GameCloser(deps as never).tick()]);
    assert.deepEqual(closed, ['settle', 'settle'], 'one more count for the one more recorded call, not two');
  });
});
