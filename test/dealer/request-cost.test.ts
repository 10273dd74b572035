/**
 * What a refused reveal request may cost the dealer (found by review 31). A map build holds the event loop (0.35 s
 * on duel, 1.5 s on standard) and a recovered signer key gets ~0.55 MB of tables on its first verify (~60 ms), so
 * neither may be caused by a request the dealer refuses anyway: a stranger (anyone can name a dealt game: its id
 * is public) is refused before any signature work and never enters the signer cache, and a player's request for
 * a turn it has no commitment for is refused before its game's map is built.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Wallet } from 'ethers';
import { ALICE, type Dealer, duelLeaves, postTurn, signedReveal, startDealer } from './fixture.ts';

describe('refused reveal requests cost no map build and no cached key', () => {
  let d: Dealer;
  let live: bigint;
  let cold: bigint;
  let builds = 0;
  const leaves = duelLeaves();
  const post = async (gameId: bigint, body: unknown) =>
    d.app.inject({
      method: 'POST',
      url: `/v1/games/${gameId}/reveals`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  before(async () => {
    // One map slot: dealing `live` after `cold` pushed cold's map out of the cache.
    d = await startDealer({ caches: { maps: 1 } });
    cold = (await d.dealtGame()).gameId;
    live = (await d.dealtGame()).gameId;
    postTurn(d.h, d.chain, live, ALICE, 1, leaves);
    await d.syncHead();
    // Every map build reads the game's secrets first (dealer/maps.ts).
    const getSecrets = d.store.getSecrets.bind(d.store);
    d.store.getSecrets = async (g: bigint) => {
      builds++;
      return getSecrets(g);
    };
  });
  after(() => d.close());

  it('a stranger is refused before its signature is checked: its key never enters the signer cache', async () => {
    const before = d.metrics.cacheSizes().signers;
    for (let k = 0; k < 4; k++) {
      const stranger = new Wallet(`0x${randomBytes(32).toString('hex')}`);
      for (let i = 0; i < 2; i++) {
        const r = await post(
          live,
          await signedReveal(stranger, { gameId: live, turn: 1, leaves, blinding: 1n }),
        );
        assert.equal(r.statusCode, 403, r.body);
        assert.equal(JSON.parse(r.body).error, 'not-a-player');
      }
    }
    assert.equal(d.metrics.cacheSizes().signers, before, 'no stranger key cached');
  });

  it("a player's request for a turn without a commitment is refused before the map is built", async () => {
    const was = builds;
    const r = await post(cold, await signedReveal(ALICE, { gameId: cold, turn: 9, leaves, blinding: 1n }));
    assert.equal(r.statusCode, 404, r.body);
    assert.equal(JSON.parse(r.body).error, 'unknown-turn');
    assert.equal(builds, was, 'no map built for a refused request');
  });
});
