/**
 * P7, "nothing is ever stuck", from the players' side: the bots move a game on once a deadline another party
 * missed has passed (core/deadlines.ts), on the real ShroudGame with MockVerifiers: a seat that never commits
 * (the game is cancelled, the stakes come back), a dealer that posts no root (the map is forced open), a silent
 * opponent (it forfeits), a dealer that never publishes its secrets (slashed: the bond goes to the players), and
 * the audit window's end (the game settles). Never before the deadline, never against the bot's own duty, and a
 * claim another party sent first is not an error.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { closeToEnd } from '../../client/play/loop.ts';
import { ChainError } from '../../client/sdk/chain.ts';
import { BOND, type Env, increaseTime } from '../contracts/helpers.ts';
import { deal, type MockGame, mockEnv, mockGame } from './resume-fixture.ts';

const STAKE = 10n ** 15n;
const d = { commit: 300, root: 600, turn: 120, secrets: 3600, audit: 86_400 }; // tiny's deadlines

let env: Env;
before(async () => {
  env = await mockEnv(['tiny']);
});

const bot = (g: MockGame, i: number) => g.seats[i]!.bot;
/** Seat `i`'s credit now (earlier games of the same addresses leave some). */
const credit = (g: MockGame, i: number) => bot(g, i).player.chain.credit(bot(g, i).player.players[i]!);
const phase = async (g: MockGame) => (await bot(g, 0).player.chain.game(g.gameId)).phase;

/** Commits and seals both seats. */
async function ceremony(g: MockGame): Promise<void> {
  for (const want of ['commit', 'seal']) {
    for (let i = 0; i < 2; i++) assert.equal((await bot(g, i).act())?.kind, want);
  }
}

/** Both seats act until the game leaves play (the test's turn limit), never past a deadline. */
async function playOut(g: MockGame): Promise<void> {
  for (let step = 0; step < 200 && (await phase(g)) !== 'Secrets'; step++) {
    for (let i = 0; i < 2; i++) await bot(g, i).act();
  }
  assert.equal(await phase(g), 'Secrets');
}

describe('P7 from the players: the bots move a stuck game on past a missed deadline', () => {
  it('a seat that never commits: the other cancels the game once the commit deadline passed (not before) and withdraws its stake', async () => {
    const g = await mockGame(env, 'tiny', { stake: STAKE });
    assert.equal((await bot(g, 0).act())?.kind, 'commit');
    assert.equal(await bot(g, 0).act(), null, 'the deadline is ahead: wait');
    assert.equal(await bot(g, 0).player.withdrawCredit(), null, 'not closed: nothing to withdraw');
    await increaseTime(env, d.commit + 1);
    const a = await bot(g, 0).act();
    assert.equal(a?.kind === 'expired' && a.claim.kind, 'cancelMissed');
    assert.equal(await phase(g), 'Cancelled');
    const before = await credit(g, 0);
    const paid = await bot(g, 0).player.withdrawCredit();
    assert.equal(before, STAKE, 'the stake came back (a fresh chain: no other credit)');
    assert.equal(paid?.wei, STAKE);
    assert.equal(await bot(g, 0).player.withdrawCredit(), null, 'once');
  });

  it('a claim another party sent first is not an error: the bot finds nothing to do', async () => {
    const g = await mockGame(env, 'tiny');
    await bot(g, 0).act();
    await increaseTime(env, d.commit + 1);
    const late = bot(g, 1).player;
    const stale = await late.chain.game(g.gameId); // read before the other's cancel lands
    assert.equal((await bot(g, 0).act())?.kind, 'expired');
    // This seat's first read still sees the Commit phase past its deadline; its cancel then fails.
    const read = late.chain.game.bind(late.chain);
    let reads = 0;
    late.chain.game = async (id) => (reads++ === 0 ? stale : read(id));
    assert.equal(await late.claimExpired(), null);
    assert.equal(reads, 2, 'the game was read again after the failure');
  });

  it('a claim that fails while the game stands still is an error, not swallowed', async () => {
    const g = await mockGame(env, 'tiny');
    await bot(g, 0).act();
    await increaseTime(env, d.commit + 1);
    const p = bot(g, 0).player;
    p.chain.claim = async () => {
      throw new ChainError('cancelMissed', undefined, new Error('connection reset'));
    };
    await assert.rejects(p.claimExpired(), /cancelMissed: .*connection reset/);
  });

  it('never against its own combat answer: the defender waits, the attacker claims (the guard, with the chain stubbed)', async () => {
    const g = await mockGame(env, 'tiny');
    const claims: string[] = [];
    for (const seat of [0, 1]) {
      const p = bot(g, seat).player;
      const real = await p.chain.game(g.gameId);
      p.chain.game = async () => ({ ...real, phase: 'Combat', deadline: 0 });
      p.chain.combat = async () => ({ attacker: 0, defender: 1, col: 0, row: 0, pending: true });
      p.chain.claim = async (call) => {
        claims.push(`${seat}:${call}`);
        return { hash: '0x', blockNumber: 0, gasUsed: 1n, events: [] };
      };
      await p.claimExpired();
    }
    assert.deepEqual(claims, ['0:claimCombatTimeout']);
  });

  it('no root by the deadline: a bot forces the map open, then reveals its share', async () => {
    const g = await mockGame(env, 'tiny');
    await ceremony(g);
    assert.equal(await bot(g, 0).act(), null, 'the dealer still has time');
    await increaseTime(env, d.root + 1);
    const a = await bot(g, 0).act();
    assert.equal(a?.kind === 'expired' && a.claim.kind, 'startForceOpen');
    assert.equal(await phase(g), 'ForceOpen');
    assert.equal((await bot(g, 0).act())?.kind, 'share');
  });

  it('a silent opponent forfeits once its turn deadline passed; the bot never claims its own turn', async () => {
    const g = await mockGame(env, 'tiny');
    await ceremony(g);
    await deal(g);
    assert.equal((await bot(g, 0).act())?.kind, 'spawn');
    // Seat 1 is silent. Seat 0 waits until its deadline has passed.
    assert.equal(await bot(g, 0).act(), null);
    await increaseTime(env, d.turn + 1);
    // Seat 1 itself, though late, does not claim against its own turn.
    assert.equal(await bot(g, 1).player.claimExpired(), null);
    const a = await bot(g, 0).act();
    assert.equal(a?.kind === 'expired' && a.claim.kind, 'claimTurnTimeout');
    assert.equal(await phase(g), 'Secrets', 'one seat left: the game ended');
    assert.equal((await bot(g, 0).player.chain.seat(g.gameId, 1)).forfeited, true);
  });

  it('the dealer never publishes its secrets: past the deadline a player slashes it and the bond goes to the players', async () => {
    const g = await mockGame(env, 'tiny', { maxTurns: 4 });
    await ceremony(g);
    await deal(g);
    await playOut(g);
    const lines: string[] = [];
    const o = {
      chain: bot(g, 0).player.chain,
      gameId: g.gameId,
      pollMs: 10,
      print: (l: string) => lines.push(l),
    };
    // Without --settle: nothing due yet, and the player is told when to come back.
    assert.deepEqual(await closeToEnd(bot(g, 0), { ...o, wait: false }), { phase: 'Secrets', withdrawn: 0n });
    assert.match(lines.at(-1)!, /the Secrets phase ends at .*: then run again with --settle/);
    await increaseTime(env, d.secrets + 1);
    const before = [await credit(g, 0), await credit(g, 1)];
    const end = await closeToEnd(bot(g, 0), { ...o, wait: true });
    assert.equal(end.phase, 'Settled');
    assert.equal(end.withdrawn - before[0]!, BOND / 2n, 'half the slashed bond');
    assert.ok(lines.some((l) => l.startsWith('deadline passed: claimSecretsTimeout')));
    assert.equal((await bot(g, 1).player.withdrawCredit())?.wei, before[1]! + BOND / 2n, 'the other half');
  });

  it('the audit window closes without fraud: a player settles the game', async () => {
    const g = await mockGame(env, 'tiny', { maxTurns: 4, stake: STAKE });
    await ceremony(g);
    await deal(g);
    await playOut(g);
    const shares = g.seats.map((s) => s.bot.player.share!);
    await (
      await (env.game.connect(env.dealer) as Contract).getFunction('publishSecrets')(g.gameId, 4242n, shares)
    ).wait();
    assert.equal(await phase(g), 'Audit');
    assert.equal(await bot(g, 1).player.claimExpired(), null, 'the audit window is open');
    await increaseTime(env, d.audit + 1);
    const before = [await credit(g, 0), await credit(g, 1)];
    assert.equal((await bot(g, 1).player.claimExpired())?.kind, 'settle');
    assert.equal(await phase(g), 'Settled');
    for (let i = 0; i < 2; i++) {
      assert.equal((await bot(g, i).player.withdrawCredit())?.wei, before[i]! + STAKE, 'the stake came back');
    }
  });
});
