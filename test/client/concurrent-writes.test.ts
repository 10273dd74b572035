/**
 * Two players acting at once. A gas estimate holds for the state it was made on: the last commit (and the
 * last sealed reveal) also closes the phase and costs ~7.4k gas more than the estimate each player makes
 * while the other has not acted yet. Sent with the bare estimate, whichever landed second ran out of gas
 * (the Hardhat node answered with an error ethers reports as "could not coalesce error": the CLI test's
 * flake). Here both transactions are mined in one block, after both estimates were made.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GameChain, type Prover, withHeadroom } from '../../client/sdk/chain.ts';
import { createGame, Phase, phaseOf, sealProof, setup } from '../contracts/helpers.ts';

/** The test deployment verifies sealed shares with the MockVerifier: its "proof" is bound to the signals. */
const mockProver: Prover = { prove: async (_circuit, plan) => sealProof(plan.publicSignals) as never };

describe('concurrent writes', () => {
  it('two players commit, then seal, in the same block: both land and the phase moves on', async () => {
    const env = await setup();
    const s = await createGame(env);
    const address = await env.game.getAddress();
    const chains = s.players.map((p) => new GameChain(address, p));
    const provider = env.ethers.provider;
    /** Sends both writes without mining, then mines them together. */
    const together = async <T>(send: (c: GameChain, i: number) => Promise<T>): Promise<T[]> => {
      await provider.send('evm_setAutomine', [false]);
      try {
        const sent = chains.map((c, i) => send(c, i));
        for (;;) {
          const block = await provider.send('eth_getBlockByNumber', ['pending', false]);
          if (block.transactions.length === chains.length) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await provider.send('evm_mine', []);
        return await Promise.all(sent);
      } finally {
        await provider.send('evm_setAutomine', [true]);
      }
    };
    const commits = await together((c, i) => c.commitShare(env.h, s.id, s.shares[i]!));
    assert.equal(commits[0]!.blockNumber, commits[1]!.blockNumber, 'one block');
    const [cheap, dear] = commits.map((r) => r.gasUsed).sort((a, b) => Number(a - b)) as [bigint, bigint];
    assert.ok(dear > cheap, `the phase-closing commit costs more (${cheap} vs ${dear})`);
    assert.ok(withHeadroom(cheap) >= dear, 'the headroom covers it');
    assert.equal(await phaseOf(env, s.id), Phase.Reveal);
    await together((c, i) => c.sealShare(env.h, mockProver, s.id, s.shares[i]!));
    assert.equal(await phaseOf(env, s.id), Phase.Deal);
  });
});
