import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  commitMap,
  generateMap,
  masterCommitment,
  seedFromShares,
  shippedRuleset,
} from '../../core/index.ts';
import { addressToField, verifyBadShareEvidence } from '../../core/sealed.ts';
import { dealGame } from '../../dealer/dealing.ts';
import { MapCache } from '../../dealer/maps.ts';
import { ChainWatcher } from '../../dealer/watcher.ts';
import { ALICE, BOB, CHAIN_ID, CONTRACT, type Dealer, MALLORY, runCeremony, startDealer } from './fixture.ts';

let d: Dealer | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

async function track(dealer: Dealer, gameId: bigint, players = [ALICE, BOB]) {
  await dealer.store.addGame({
    gameId,
    contract: CONTRACT,
    ruleset: 'duel',
    players: players.map((p) => p.address.toLowerCase()),
  });
}

describe('dealing', () => {
  it('posts the root of Gen(Poseidon(r_1..r_n)) salted by the stored master secret, and its commitment', async () => {
    d = await startDealer();
    const g = await d.dealtGame();
    assert.equal(g.outcome, 'dealt');
    const secrets = (await d.store.getSecrets(g.gameId))!;
    assert.deepEqual(secrets.shares, g.shares);
    assert.equal(secrets.seed, seedFromShares(d.h, g.shares));
    const r = shippedRuleset('duel');
    const expected = commitMap(d.h, r.board, generateMap(d.h, r.board, secrets.seed), secrets.masterSecret);
    assert.deepEqual(await d.chain.mapRoot(g.gameId), {
      root: expected.tree.root,
      masterCommitment: masterCommitment(d.h, secrets.masterSecret),
    });
    const rec = (await d.store.getGame(g.gameId))!;
    assert.equal(rec.status, 'dealt');
    assert.equal(rec.root, expected.tree.root);
    assert.equal((await d.metrics.gamesDealt.get()).values[0]?.value, 1);
  });

  it('waits while the ceremony is not finished', async () => {
    d = await startDealer();
    const gameId = d.chain.createGame('duel', [ALICE.address, BOB.address], d.enc.publicKey, CONTRACT);
    await track(d, gameId);
    assert.equal(await dealGame(d.dealing, gameId), 'waiting');
    assert.equal(await d.store.getSecrets(gameId), null);
  });

  it('is idempotent: dealing again changes nothing and posts nothing', async () => {
    d = await startDealer();
    const g = await d.dealtGame();
    const writes = d.chain.writes.length;
    const secrets = await d.store.getSecrets(g.gameId);
    assert.equal(await dealGame(d.dealing, g.gameId), 'dealt');
    assert.equal(d.chain.writes.length, writes);
    assert.deepEqual(await d.store.getSecrets(g.gameId), secrets);
  });

  it('a crash after storing the secrets and before posting resumes with the same master secret, posting once', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.enc.publicKey);
    await track(d, c.gameId);
    const crash = new Error('simulated crash');
    await assert.rejects(
      dealGame(
        {
          ...d.dealing,
          onStep: async (s) => {
            if (s === 'root-computed') throw crash;
          },
        },
        c.gameId,
      ),
      crash,
    );
    const stored = (await d.store.getSecrets(c.gameId))!;
    assert.equal((await d.store.getGame(c.gameId))!.status, 'root-computed');
    assert.equal(await d.chain.mapRoot(c.gameId), null);
    // A fresh map cache, as after a restart.
    const resumed = { ...d.dealing, maps: new MapCache(d.h, d.store) };
    assert.equal(await dealGame(resumed, c.gameId), 'dealt');
    assert.deepEqual(await d.store.getSecrets(c.gameId), stored);
    assert.equal(
      (await d.chain.mapRoot(c.gameId))!.masterCommitment,
      masterCommitment(d.h, stored.masterSecret),
    );
    assert.equal(d.chain.writes.filter((w) => w === 'postRoot').length, 1);
  });

  it('a post whose receipt was lost is not sent again', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.enc.publicKey);
    await track(d, c.gameId);
    // The root lands, then the dealer dies before recording it.
    await assert.rejects(
      dealGame(
        {
          ...d.dealing,
          onStep: async (s) => {
            if (s === 'root-posted') throw new Error('crash');
          },
        },
        c.gameId,
      ),
    );
    await d.store.updateGame(c.gameId, { status: 'root-computed', rootTx: null });
    assert.equal(await dealGame(d.dealing, c.gameId), 'dealt');
    assert.equal(d.chain.writes.filter((w) => w === 'postRoot').length, 1);
  });

  it('retries a failed post after re-checking the chain', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.enc.publicKey);
    await track(d, c.gameId);
    d.chain.failNext.add('postRoot');
    assert.equal(await dealGame(d.dealing, c.gameId), 'dealt');
    assert.notEqual(await d.chain.mapRoot(c.gameId), null);
  });

  it('two concurrent deals of one game agree on one master secret', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.enc.publicKey);
    await track(d, c.gameId);
    const results = await Promise.allSettled([dealGame(d.dealing, c.gameId), dealGame(d.dealing, c.gameId)]);
    assert.ok(results.some((r) => r.status === 'fulfilled' && r.value === 'dealt'));
    const s = (await d.store.getSecrets(c.gameId))!;
    assert.equal((await d.chain.mapRoot(c.gameId))!.masterCommitment, masterCommitment(d.h, s.masterSecret));
  });

  it('a bad sealed share: evidence filed on-chain that anyone can verify, game cancelled, no secrets drawn', async () => {
    d = await startDealer();
    const c = runCeremony(d.h, d.chain, d.enc.publicKey, { corrupt: 1 });
    await track(d, c.gameId);
    assert.equal(await dealGame(d.dealing, c.gameId), 'cancelled');
    const [filed] = d.chain.evidenceFor(c.gameId);
    assert.equal(filed!.player, BOB.address.toLowerCase());
    const seat = (await d.chain.seatShares(c.gameId))[1]!;
    const ctx = { chainId: CHAIN_ID, gameId: c.gameId, player: addressToField(BOB.address) };
    assert.equal(
      verifyBadShareEvidence(d.h, d.enc.publicKey, seat.sealed!, ctx, seat.commitment, filed!.evidence),
      true,
    );
    assert.equal(await d.chain.phase(c.gameId), 'cancelled');
    assert.equal((await d.store.getGame(c.gameId))!.fault, `bad-share:${BOB.address.toLowerCase()}`);
    assert.equal(await d.store.getSecrets(c.gameId), null);
    assert.equal(await d.chain.mapRoot(c.gameId), null);
    assert.equal((await d.store.sealedShares(c.gameId))[1]!.outcome, 'commitment-mismatch');
  });
});

describe('chain watcher', () => {
  it('tracks games naming this dealer only, deals them, persists the cursor, and publishes secrets at the end', async () => {
    d = await startDealer();
    const ours = runCeremony(d.h, d.chain, d.enc.publicKey, { players: [ALICE, BOB, MALLORY] });
    const other = d.chain.createGame(
      'duel',
      [ALICE.address, BOB.address],
      new Uint8Array(33).fill(2),
      CONTRACT,
    );
    const w = new ChainWatcher(d.dealing, { pollMs: 10, startBlock: 0, encPublicKey: d.enc.publicKey });
    await w.tick();
    assert.equal((await d.store.getGame(ours.gameId))?.status, 'dealt');
    assert.equal(await d.store.getGame(other), null);
    assert.equal(await d.store.getCursor(), (await d.chain.headBlock()) - 1); // postRoot advanced the head
    d.chain.endGame(ours.gameId);
    await w.tick();
    const s = (await d.store.getSecrets(ours.gameId))!;
    assert.deepEqual(d.chain.secretsFor(ours.gameId), { masterSecret: s.masterSecret, shares: ours.shares });
    assert.equal((await d.store.getGame(ours.gameId))?.status, 'published');
    // A crash after publishing but before recording it: the next tick does not publish again.
    await d.store.updateGame(ours.gameId, { status: 'dealt' });
    await w.tick();
    assert.equal(d.chain.writes.filter((x) => x === 'publishSecrets').length, 1);
    assert.equal((await d.store.getGame(ours.gameId))?.status, 'published');
  });
});
