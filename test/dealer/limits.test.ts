/**
 * Bounds on what a refused or abusive requester costs the dealer: a refused lookup is cached until a new
 * block (chain reads per block, not per request), and each verified player has a token bucket.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { DEFAULT_PLAYER_RATE_LIMIT, PlayerRateLimiter } from '../../dealer/rate-limit.ts';
import { ChainWatcher } from '../../dealer/watcher.ts';
import {
  ALICE,
  BOB,
  type Dealer,
  duelLeaves,
  MALLORY,
  openSession,
  postTurn,
  sessionOpenBody,
  sessionReveal,
  signedReveal,
  startDealer,
} from './fixture.ts';

let d: Dealer | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

const leaves = duelLeaves();

function post(dealer: Dealer, url: string, body: unknown) {
  return dealer.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/** Sends `body` `n` times, `batch` at once; returns the status codes and error codes seen. */
async function replay(dealer: Dealer, url: string, body: unknown, n: number, batch = 50) {
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i += batch) {
    const res = await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, () => post(dealer, url, body)),
    );
    for (const r of res) {
      const k = `${r.statusCode} ${r.statusCode === 200 ? 'ok' : r.json().error}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
  }
  return Object.fromEntries(seen);
}

describe('refused reveal requests are cached until a new block', () => {
  it('unknown-turn replayed 1,000 times: 1 chain read; after the head advances, 1 more; then the new turn is served from the index', async () => {
    d = await startDealer();
    const { gameId } = await d.dealtGame();
    const w = new ChainWatcher(d.dealing, {
      pollMs: 10,
      startBlock: 0,
      sealPublicKey: d.seal.publicKey,
      head: d.head,
    });
    await w.tick(); // publishes the head block, as the running watcher does every pollMs
    const url = `/v1/games/${gameId}/reveals`;
    const blinding = 42n;
    const body = await signedReveal(ALICE, { gameId, turn: 3, leaves, blinding });
    const reads = () => d!.chain.count('playCommitment');
    const before = reads();
    assert.deepEqual(await replay(d, url, body, 1000), { '404 unknown-turn': 1000 });
    assert.equal(reads() - before, 1, 'one read for 1,000 replays');
    // A block is mined, but until the watcher has seen it the refusal stands (no read per request).
    d.chain.mine();
    assert.deepEqual(await replay(d, url, body, 20), { '404 unknown-turn': 20 });
    assert.equal(reads() - before, 1);
    await w.tick();
    assert.deepEqual(await replay(d, url, body, 100), { '404 unknown-turn': 100 });
    assert.equal(reads() - before, 2, 'one more read after the head advanced');
    // The turn lands on-chain; once the watcher saw (and indexed) that block, the same opening is served,
    // from the turn index: no view read.
    const real = postTurn(d.h, d.chain, gameId, ALICE, 3, leaves);
    await w.tick();
    const ok = await post(d, url, await signedReveal(ALICE, { gameId, turn: 3, leaves, blinding: real }));
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(reads() - before, 2);
  });

  it('opening-mismatch replayed 1,000 times: the found play commitment is read once, and the right opening still works', async () => {
    d = await startDealer();
    const { gameId } = await d.dealtGame();
    await d.syncHead();
    const blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves);
    const url = `/v1/games/${gameId}/reveals`;
    const wrong = await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding: blinding + 1n });
    const before = d.chain.count('playCommitment');
    assert.deepEqual(await replay(d, url, wrong, 1000), { '403 opening-mismatch': 1000 });
    assert.equal(d.chain.count('playCommitment') - before, 1);
    const right = await post(d, url, await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }));
    assert.equal(right.statusCode, 200, right.body);
    assert.equal(d.chain.count('playCommitment') - before, 1);
  });

  it('the session route shares the cache; players and turns are cached apart', async () => {
    d = await startDealer();
    const { gameId } = await d.dealtGame();
    await d.syncHead();
    const s = await openSession(d.app, ALICE, { gameId });
    assert.equal(s.res.statusCode, 200);
    const before = d.chain.count('playCommitment');
    const url = `/v1/games/${gameId}/session-reveals`;
    // Refused bodies are not burned, so the same nonce replays.
    const body = sessionReveal(s, { gameId, turn: 9, leaves, blinding: 5n });
    assert.deepEqual(await replay(d, url, body, 300), { '404 unknown-turn': 300 });
    assert.equal(d.chain.count('playCommitment') - before, 1);
    const signed = await signedReveal(ALICE, { gameId, turn: 9, leaves, blinding: 5n });
    assert.equal((await post(d, `/v1/games/${gameId}/reveals`, signed)).statusCode, 404);
    assert.equal(d.chain.count('playCommitment') - before, 1, 'same (game, player, turn) on the other route');
    await post(d, url, sessionReveal(s, { gameId, turn: 10, leaves, blinding: 5n }));
    const bob = await signedReveal(BOB, { gameId, turn: 9, leaves, blinding: 5n });
    assert.equal((await post(d, `/v1/games/${gameId}/reveals`, bob)).statusCode, 404);
    assert.equal(d.chain.count('playCommitment') - before, 3, 'another turn, another player: one read each');
  });

  it('any change of the published head re-reads, a re-org stepping back included', async () => {
    d = await startDealer();
    const { gameId } = await d.dealtGame();
    const url = `/v1/games/${gameId}/reveals`;
    const body = await signedReveal(ALICE, { gameId, turn: 4, leaves, blinding: 1n });
    const before = d.chain.count('playCommitment');
    await replay(d, url, body, 10);
    assert.equal(d.chain.count('playCommitment') - before, 1);
    d.head.set(d.head.block - 1); // a re-org stepping back also counts as a change
    await replay(d, url, body, 10);
    assert.equal(d.chain.count('playCommitment') - before, 2);
  });
});

describe('per-player rate limit (token bucket after authentication)', () => {
  const limit = { perSecond: 1, burst: 3 };

  it('over budget: 429 rate-limited naming player, with Retry-After; other players are unaffected; it refills', async () => {
    const clock = { ms: 1_000_000 };
    d = await startDealer({ http: { playerRateLimit: limit }, nowMs: () => clock.ms });
    const { gameId } = await d.dealtGame();
    const blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves);
    const url = `/v1/games/${gameId}/reveals`;
    const fresh = () => signedReveal(ALICE, { gameId, turn: 1, leaves, blinding });
    for (let i = 0; i < 3; i++) assert.equal((await post(d, url, await fresh())).statusCode, 200);
    const over = await post(d, url, await fresh());
    assert.equal(over.statusCode, 429, over.body);
    assert.deepEqual(
      { error: over.json().error, field: over.json().field },
      { error: 'rate-limited', field: 'player' },
    );
    assert.equal(over.headers['retry-after'], '1');
    // A refusal of any kind costs a token too (it was authenticated): still limited.
    const wrong = await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding: 1n });
    assert.equal((await post(d, url, wrong)).statusCode, 429);
    // Bob has his own bucket.
    const bob = await signedReveal(BOB, { gameId, turn: 1, leaves, blinding });
    assert.equal(
      (await post(d, url, bob)).json().error,
      'unknown-turn',
      'refused on its merits, not limited',
    );
    clock.ms += 1000; // one token back
    assert.equal((await post(d, url, await fresh())).statusCode, 200);
    assert.equal((await post(d, url, await fresh())).statusCode, 429);
    clock.ms += 60_000; // full again, never above the burst
    for (let i = 0; i < 3; i++) assert.equal((await post(d, url, await fresh())).statusCode, 200);
    assert.equal((await post(d, url, await fresh())).statusCode, 429);
  });

  it("a forger claiming a player's address spends none of that player's budget", async () => {
    d = await startDealer({ http: { playerRateLimit: limit }, nowMs: () => 5_000 });
    const { gameId } = await d.dealtGame();
    const blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves);
    const url = `/v1/games/${gameId}/reveals`;
    const forged = await signedReveal(MALLORY, { gameId, turn: 1, leaves, blinding, player: ALICE.address });
    assert.deepEqual(await replay(d, url, forged, 20), { '401 bad-signature': 20 });
    // Nor does a valid signer who is not a player of the game get (or spend) a bucket.
    const outsider = await signedReveal(MALLORY, { gameId, turn: 1, leaves, blinding });
    assert.deepEqual(await replay(d, url, outsider, 20), { '403 not-a-player': 20 });
    for (let i = 0; i < 3; i++) {
      const res = await post(d, url, await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }));
      assert.equal(res.statusCode, 200, res.body);
    }
  });

  it('one budget across the signed route, session creation and session reveals; a bad MAC spends nothing', async () => {
    d = await startDealer({ http: { playerRateLimit: { perSecond: 1, burst: 4 } }, nowMs: () => 7_000 });
    const { gameId } = await d.dealtGame();
    const blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves);
    const s = await openSession(d.app, ALICE, { gameId }); // 1
    assert.equal(s.res.statusCode, 200);
    const url = `/v1/games/${gameId}/session-reveals`;
    const forgedMac = {
      ...sessionReveal(s, { gameId, turn: 1, leaves, blinding }),
      mac: `0x${'00'.repeat(32)}`,
    };
    assert.deepEqual(await replay(d, url, forgedMac, 10), { '401 bad-mac': 10 });
    assert.equal(
      (await post(d, url, sessionReveal(s, { gameId, turn: 1, leaves, blinding }))).statusCode,
      200,
    ); // 2
    const signed = await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding });
    assert.equal((await post(d, `/v1/games/${gameId}/reveals`, signed)).statusCode, 200); // 3
    assert.equal(
      (await post(d, url, sessionReveal(s, { gameId, turn: 1, leaves, blinding }))).statusCode,
      200,
    ); // 4
    const over = await post(d, url, sessionReveal(s, { gameId, turn: 1, leaves, blinding }));
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().field, 'player');
    const again = await sessionOpenBody(ALICE, { gameId });
    const res = await post(d, `/v1/games/${gameId}/sessions`, again.body);
    assert.equal(res.statusCode, 429, 'opening a session is counted too');
    // Refused before burning: the same creation body works once the budget is back.
  });

  it('PlayerRateLimiter: refill arithmetic, Retry-After, bounded memory; bad parameters refused', () => {
    let now = 0;
    const l = new PlayerRateLimiter({ perSecond: 2, burst: 2 }, () => now, 4);
    assert.equal(l.take('a'), 0);
    assert.equal(l.take('a'), 0);
    assert.equal(l.take('a'), 1, 'half a second to the next token, rounded up to 1 s');
    now += 500;
    assert.equal(l.take('a'), 0);
    const slow = new PlayerRateLimiter({ perSecond: 0.1, burst: 1 }, () => now);
    assert.equal(slow.take('a'), 0);
    assert.equal(slow.take('a'), 10);
    for (const k of ['b', 'c', 'd', 'e', 'f', 'g']) l.take(k);
    assert.ok(l.size <= 4, `at most maxEntries buckets (${l.size})`);
    for (const bad of [
      { perSecond: 0, burst: 1 },
      { perSecond: -1, burst: 1 },
      { perSecond: Number.NaN, burst: 1 },
      { perSecond: Number.POSITIVE_INFINITY, burst: 1 },
      { perSecond: 1, burst: 0 },
      { perSecond: 1, burst: 1.5 },
    ]) {
      assert.throws(() => new PlayerRateLimiter(bad), RangeError, JSON.stringify(bad));
    }
    assert.deepEqual(DEFAULT_PLAYER_RATE_LIMIT, { perSecond: 10, burst: 40 });
  });
});

describe('slow clients cannot hold connections open (slowloris)', () => {
  /** Opens a socket, sends `text`, and resolves with how long the dealer kept it open (ms), or `wait` if it still is. */
  async function heldFor(url: string, text: string, wait: number): Promise<number> {
    const { hostname, port } = new URL(url);
    const t0 = performance.now();
    const s = connect({ host: hostname, port: Number(port) });
    s.on('error', () => {});
    s.write(text);
    return new Promise<number>((resolve) => {
      const timer = setTimeout(() => {
        s.destroy();
        resolve(wait);
      }, wait);
      s.on('close', () => {
        clearTimeout(timer);
        resolve(performance.now() - t0);
      });
      s.resume();
    });
  }

  it('a request whose body never finishes, or whose headers never end, is cut off', async () => {
    d = await startDealer({ http: { requestTimeoutMs: 400, idleTimeoutMs: 800 } });
    const url = await d.app.listen({ host: '127.0.0.1', port: 0 });
    const body =
      'POST /v1/lobbies/0x' +
      'ab'.repeat(32) +
      '/joins HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"player":';
    const headers = 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ';
    const [b, h] = await Promise.all([heldFor(url, body, 5000), heldFor(url, headers, 5000)]);
    assert.ok(b < 5000, `an unfinished body was cut off (${Math.round(b)} ms)`);
    assert.ok(h < 5000, `unfinished headers were cut off (${Math.round(h)} ms)`);
  });
});

describe('per-IP rate limit behind a reverse proxy (http.trustProxy)', () => {
  /** `n` requests, one after another, through one proxy (127.0.0.1) from `client`; each a 400 (counted too). */
  const burst = async (dealer: Dealer, client: string, n: number) => {
    const out = [];
    for (let i = 0; i < n; i++)
      out.push(
        await dealer.app.inject({
          method: 'POST',
          url: '/v1/games/1/reveals',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client, 'content-type': 'application/json' },
          payload: '{}',
        }),
      );
    return out;
  };

  it('keys on the client the trusted proxy names: one noisy client does not lock the others out', async () => {
    d = await startDealer({
      http: { rateLimit: { max: 5, timeWindowMs: 60_000 }, trustProxy: ['127.0.0.1'] },
    });
    const noisy = await burst(d, '203.0.113.7', 8);
    assert.equal(noisy.filter((r) => r.statusCode === 429).length, 3, 'the noisy client is limited');
    const other = await burst(d, '198.51.100.2', 1);
    assert.equal(other[0]!.statusCode, 400, 'another client behind the same proxy is not');
  });

  it('without it, the forwarded header is not believed: every client behind the proxy shares one budget', async () => {
    d = await startDealer({ http: { rateLimit: { max: 5, timeWindowMs: 60_000 } } });
    await burst(d, '203.0.113.7', 5);
    assert.equal((await burst(d, '198.51.100.2', 1))[0]!.statusCode, 429);
  });
});
