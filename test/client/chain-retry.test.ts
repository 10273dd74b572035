import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { JsonRpcProvider } from 'ethers';
import { backoffDelay, withRetries } from '../../client/sdk/backoff.ts';
import { ChainUnavailableError, GameChain } from '../../client/sdk/chain.ts';

const GAME = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const noSleep = { sleep: async () => {}, random: () => 1 };

describe('chain reads retry with backoff, then fail clearly', () => {
  test('backoff doubles from the base and stays under the cap', () => {
    assert.deepEqual(
      [2, 3, 4, 5, 9].map((k) => backoffDelay(k, 250, 8000, () => 1)),
      [250, 500, 1000, 2000, 8000],
    );
    assert.equal(
      backoffDelay(3, 250, 8000, () => 0),
      0,
      'full jitter reaches zero',
    );
  });

  test('withRetries retries transient errors only, and reports the attempts', async () => {
    let n = 0;
    const flaky = async () => {
      if (++n < 3) throw Object.assign(new Error('down'), { code: 'NETWORK_ERROR' });
      return 'ok';
    };
    const opts = { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 1, ...noSleep };
    assert.deepEqual(
      await withRetries(flaky, (e) => (e as { code?: string }).code === 'NETWORK_ERROR', opts),
      {
        value: 'ok',
      },
    );
    assert.equal(n, 3);
    await assert.rejects(
      withRetries(
        async () => Promise.reject(new Error('revert')),
        () => false,
        opts,
      ),
      /revert/,
    );
    const gaveUp = await withRetries(
      async () => Promise.reject(new Error('x')),
      () => true,
      opts,
    );
    assert.deepEqual('attempts' in gaveUp && gaveUp.attempts, 5);
  });

  test('an unreachable node gives ChainUnavailableError after every attempt, sleeping between them', async () => {
    // A port that answers HTTP with a 503: the node is there but not serving.
    const server = createServer((_req, res) => res.writeHead(503).end('unavailable'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const provider = new JsonRpcProvider(`http://127.0.0.1:${port}`, 31337, { staticNetwork: true });
    const sleeps: number[] = [];
    const chain = new GameChain(GAME, provider, {
      maxAttempts: 3,
      baseDelayMs: 10,
      maxDelayMs: 100,
      random: () => 1,
      sleep: async (ms) => void sleeps.push(ms),
    });
    try {
      const err = await chain.game(1n).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(err instanceof ChainUnavailableError, `got ${String(err)}`);
      assert.equal(err.attempts, 3);
      assert.match(err.message, /getGame: chain unreachable after 3 attempts/);
      assert.deepEqual(sleeps, [10, 20]);
    } finally {
      provider.destroy();
      server.close();
    }
  });
});
