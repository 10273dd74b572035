/**
 * A dealer that holds its answers (found by review 31): a turn's tiles were fetched right after the turn's
 * transaction, with the DealerClient's retries (10 s a try, 5 tries, a session re-opened, then the signed route),
 * so a dealer that never answered kept the seat there for minutes, past its next turn or combat deadline on short
 * windows (tiny's 120 s; the contract allows 60 s), while an accomplice played at once and claimed the timeout.
 * Now one fetch holds the player at most `revealBudgetMs`: past it the turn counts as unserved and play goes on.
 *
 * Real ShroudGame with mock verifiers (test/client/resume-fixture.ts), the bot as the CLI and the page run it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { DealerClient } from '../../client/sdk/dealer-client.ts';
import type { Env } from '../contracts/helpers.ts';
import { deal, type MockGame, mockEnv, mockGame } from './resume-fixture.ts';

describe('a dealer that never answers a reveal', () => {
  let env: Env;
  before(async () => {
    env = await mockEnv(['tiny']);
  });
  const bot = (g: MockGame, i: number) => g.seats[i]!.bot;

  it('holds the seat at most revealBudgetMs after its turn; the turn is unserved and the seat plays on', {
    timeout: 30_000,
  }, async () => {
    const state = { hang: false, asked: 0 };
    const g = await mockGame(env, 'tiny', {
      maxTurns: 8,
      revealBudgetMs: 300,
      dealer: (seat, honest) =>
        seat === 0
          ? ({
              ...honest,
              fetchVerifiedTiles: (...a: Parameters<DealerClient['fetchVerifiedTiles']>) => {
                if (!state.hang) return honest.fetchVerifiedTiles(...a);
                state.asked++;
                return new Promise<never>(() => {}); // a socket held open, for ever
              },
            } as DealerClient)
          : honest,
    });
    for (const want of ['commit', 'seal'])
      for (let i = 0; i < 2; i++) assert.equal((await bot(g, i).act())?.kind, want);
    await deal(g);
    assert.equal((await bot(g, 0).act())?.kind, 'spawn');
    assert.equal((await bot(g, 1).act())?.kind, 'spawn');
    state.hang = true;
    const t = performance.now();
    const a = await bot(g, 0).act();
    const held = performance.now() - t;
    assert.equal(a?.kind, 'turn');
    assert.ok(a?.kind === 'turn' && a.report.unserved, 'the turn is unserved');
    assert.ok(held < 3000, `the seat was held ${Math.round(held)} ms`);
    assert.ok(state.asked >= 1);
    assert.notEqual(bot(g, 0).player.unserved, null, 'kept for a retry or a dispute');
    // The opponent plays; the seat's next look is bounded the same way (its retry of the unserved turn).
    assert.equal((await bot(g, 1).act())?.kind, 'turn');
    const t2 = performance.now();
    await bot(g, 0).act();
    assert.ok(performance.now() - t2 < 5000, 'the next look is bounded too');
  });
});
