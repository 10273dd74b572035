/**
 * A defender check that two reads could fool (seen as the CLI test's second flake: "respondCombat:
 * WrongPhase"). Seat 0 attacked seat 1 and polled: it read the phase (Combat), seat 1 answered in
 * between, and then it read the combat record, which the contract deletes on resolution — all zeros, so
 * "defender 0" — and seat 0 set out to answer a combat that no longer existed. The record now says
 * whether it is pending (a seat never attacks itself), and only it decides.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GameChain } from '../../client/sdk/chain.ts';
import type { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { loadHasher, shippedRuleset } from '../../core/index.ts';

/** A chain whose phase read is stale (Combat) while the record was already deleted. */
function staleChain(record: { attacker: number; defender: number; pending: boolean }): GameChain {
  const tiny = shippedRuleset('tiny').board;
  const players = [
    '0x00000000000000000000000000000000000000aa',
    '0x00000000000000000000000000000000000000bb',
  ];
  return {
    signerAddress: async () => players[0],
    join: async (gameId: bigint) => ({
      gameId,
      seat: 0,
      players,
      config: { width: tiny.width, height: tiny.height, kind: 0 },
    }),
    provider: { getBlockNumber: async () => 10 },
    game: async () => ({ phase: 'Combat' }),
    combat: async () => ({ ...record, col: 0, row: 0 }),
  } as unknown as GameChain;
}

describe('combat: who must answer', () => {
  it('a resolved (deleted, all-zero) combat record never names seat 0, even under a stale phase', async () => {
    const join = async (record: { attacker: number; defender: number; pending: boolean }) =>
      GamePlayer.join({
        chain: staleChain(record),
        dealer: {} as DealerClient,
        prover: { prove: async () => assert.fail('must not prove') } as never,
        h: await loadHasher(),
        ruleset: shippedRuleset('tiny'),
        gameId: 1n,
      });
    const resolved = await join({ attacker: 0, defender: 0, pending: false });
    assert.equal(resolved.seat, 0);
    assert.equal(await resolved.mustRespond(), false);
    // A live combat against seat 0 still asks for an answer.
    assert.equal(await (await join({ attacker: 1, defender: 0, pending: true })).mustRespond(), true);
  });
});
