import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  FIELD_MODULUS,
  generateMap,
  leafHash,
  leafIndex,
  playCommitment,
  shippedRuleset,
  verifyPath,
} from '../../core/index.ts';
import type { RevealEntry } from '../../dealer/maps.ts';
import { randomFieldElement } from '../../dealer/random.ts';
import {
  ALICE,
  BOB,
  type Dealer,
  duelLeaves,
  MALLORY,
  openSession,
  postedRoot,
  postTurn,
  revealCommitOf,
  runCeremony,
  sessionReveal,
  signedReceipt,
  signedReveal,
  startDealer,
  testStateCommit,
  watcherOf,
} from './fixture.ts';

let d: Dealer;
let gameId: bigint;
let shares: bigint[];
const leaves = duelLeaves();
let blinding: bigint;
let bobBlinding: bigint;

before(async () => {
  d = await startDealer();
  const g = await d.dealtGame();
  assert.equal(g.outcome, 'dealt');
  gameId = g.gameId;
  shares = g.shares;
  blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves);
  bobBlinding = postTurn(d.h, d.chain, gameId, BOB, 1, [leaves[0]!]);
});
after(() => d.close());

async function post(body: unknown, o: { url?: string; raw?: string; contentType?: string } = {}) {
  return d.app.inject({
    method: 'POST',
    url: o.url ?? `/v1/games/${gameId}/reveals`,
    headers: { 'content-type': o.contentType ?? 'application/json' },
    payload: o.raw ?? JSON.stringify(body),
  });
}

async function served(): Promise<number> {
  return (await d.metrics.revealsServed.get()).values[0]?.value ?? 0;
}

/** Asserts a clear 4xx naming the field, and that nothing was served. */
async function refused(body: unknown, status: number, error: string, field?: string, o = {}) {
  const before = await served();
  const res = await post(body, o);
  assert.equal(res.statusCode, status, res.body);
  const j = res.json();
  assert.equal(j.error, error, res.body);
  if (field !== undefined) assert.equal(j.field, field, res.body);
  assert.equal(j.tiles, undefined);
  assert.equal(await served(), before, 'nothing served');
  return j;
}

describe('POST /v1/games/:gameId/reveals: honest requests', () => {
  it('serves exactly the opened tiles, each verifying against the posted root and Gen(seed)', async () => {
    const res = await post(await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }));
    assert.equal(res.statusCode, 200, res.body);
    const j = res.json() as { root: string; tiles: RevealEntry[] };
    const posted = await d.chain.mapRoot(gameId);
    assert.equal(j.root, posted!.root.toString());
    assert.deepEqual(
      j.tiles.map((t) => t.leaf),
      leaves,
    );
    const r = shippedRuleset('duel');
    const seed = d.h.hash(shares);
    const map = generateMap(d.h, r.board, seed);
    for (const t of j.tiles) {
      assert.equal(leafIndex(r.board, t), t.leaf);
      const expected = map[t.row * r.board.width + t.col]!;
      assert.deepEqual(
        { terrain: t.terrain, feature: t.feature, resource: t.resource, rivers: t.rivers },
        { ...expected },
      );
      const leaf = leafHash(d.h, t as never, BigInt(t.salt));
      assert.equal(
        verifyPath(
          d.h,
          BigInt(j.root),
          t.leaf,
          leaf,
          t.path.map((p) => BigInt(p)),
        ),
        true,
      );
    }
  });

  it('re-fetching a turn with a new nonce returns the same answer', async () => {
    const a = await post(await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }));
    const b = await post(await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }));
    assert.equal(a.statusCode, 200);
    assert.equal(a.body, b.body);
    assert.ok((await d.store.getReveal(gameId, ALICE.address.toLowerCase(), 1)) !== null);
  });

  it('accepts a 0x-hex game id in the URL', async () => {
    const res = await post(await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }), {
      url: `/v1/games/0x${gameId.toString(16)}/reveals`,
    });
    assert.equal(res.statusCode, 200, res.body);
  });
});

describe('POST /v1/games/:gameId/reveals: every bad input is a clear 4xx and serves nothing', () => {
  const good = () => signedReveal(ALICE, { gameId, turn: 1, leaves, blinding });

  it('malformed JSON', async () => {
    await refused(null, 400, 'malformed-json', 'body', { raw: '{"gameId": "1", ' });
  });

  it('not JSON at all (content type)', async () => {
    await refused(null, 415, 'unsupported-media-type', undefined, { raw: 'x', contentType: 'text/plain' });
  });

  it('oversize body', async () => {
    const body = { ...(await good()), pad: 'x'.repeat(20_000) };
    await refused(body, 413, 'body-too-large', 'body');
  });

  it('wrong types are refused, never coerced, naming the field', async () => {
    const g = await good();
    await refused({ ...g, turn: '1' }, 400, 'invalid-request', 'body.turn');
    await refused({ ...g, leaves: ['1'] }, 400, 'invalid-request', 'body.leaves.0');
    await refused({ ...g, leaves: [1.5] }, 400, 'invalid-request', 'body.leaves.0');
    await refused({ ...g, blinding: 12 }, 400, 'invalid-request', 'body.blinding');
    await refused({ ...g, expiry: -1 }, 400, 'invalid-request', 'body.expiry');
    await refused({ ...g, player: '0x1234' }, 400, 'invalid-request', 'body.player');
    await refused({ ...g, signature: '0xzz' }, 400, 'invalid-request', 'body.signature');
    await refused({ ...g, extra: 1 }, 400, 'invalid-request', 'body.extra');
    await refused([g], 400, 'invalid-request', 'body');
  });

  it('missing fields', async () => {
    const { nonce: _n, ...rest } = await good();
    await refused(rest, 400, 'invalid-request', 'body.nonce');
  });

  it('a missing or malformed stateCommit: 400 naming it, in one line', async () => {
    const { stateCommit: _s, ...rest } = await good();
    const j = await refused(rest, 400, 'invalid-request', 'body.stateCommit');
    assert.match(j.message, /^body\.stateCommit: .*stateCommit/);
    assert.ok(!j.message.includes('\n'));
    const g = await good();
    await refused({ ...g, stateCommit: 12 }, 400, 'invalid-request', 'body.stateCommit');
    await refused({ ...g, stateCommit: '-1' }, 400, 'invalid-request', 'body.stateCommit');
    await refused({ ...g, stateCommit: FIELD_MODULUS.toString() }, 400, 'invalid-request', 'stateCommit');
  });

  it('stateCommit is signed: changing it after signing breaks the signature', async () => {
    const g = await good();
    await refused({ ...g, stateCommit: (BigInt(g.stateCommit) + 1n).toString() }, 401, 'bad-signature');
  });

  it('a blinding at or above the field modulus', async () => {
    const g = await good();
    await refused({ ...g, blinding: (1n << 254n).toString() }, 400, 'invalid-request', 'blinding');
  });

  it('URL and body name different games', async () => {
    await refused(await good(), 400, 'invalid-request', 'gameId', {
      url: `/v1/games/${gameId + 1n}/reveals`,
    });
  });

  it('unknown game', async () => {
    const body = await signedReveal(ALICE, { gameId: 999n, turn: 1, leaves, blinding });
    await refused(body, 404, 'unknown-game', 'gameId', { url: '/v1/games/999/reveals' });
  });

  it('bad signatures: garbage, a field changed after signing, another signer', async () => {
    const g = await good();
    await refused({ ...g, signature: `0x${'11'.repeat(65)}` }, 401, 'bad-signature', 'signature');
    await refused({ ...g, turn: 2 }, 401, 'bad-signature', 'signature');
    await refused({ ...g, leaves: [leaves[0]] }, 401, 'bad-signature', 'signature');
    const byBob = await signedReveal(BOB, { gameId, turn: 1, leaves, blinding, player: ALICE.address });
    await refused(byBob, 401, 'bad-signature', 'signature');
  });

  it('a signature for another chain or another game contract', async () => {
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding, chainId: 1n }),
      401,
      'bad-signature',
      'signature',
    );
    await refused(
      await signedReveal(ALICE, {
        gameId,
        turn: 1,
        leaves,
        blinding,
        contract: '0x0000000000000000000000000000000000000001',
      }),
      401,
      'bad-signature',
    );
  });

  it('a non-player, even with a valid signature', async () => {
    await refused(
      await signedReveal(MALLORY, { gameId, turn: 1, leaves, blinding }),
      403,
      'not-a-player',
      'player',
    );
  });

  it("another player's turn: Alice opening Bob's play commitment", async () => {
    // Alice signs as herself for Bob's opening: no play commitment of Alice matches it, with her S or Bob's.
    const asAlice = await signedReveal(ALICE, {
      gameId,
      turn: 1,
      leaves: [leaves[0]!],
      blinding: bobBlinding,
    });
    await refused(asAlice, 403, 'opening-mismatch', 'leaves');
    const bobsWhole = await signedReveal(ALICE, {
      gameId,
      turn: 1,
      leaves: [leaves[0]!],
      blinding: bobBlinding,
      stateCommit: testStateCommit(gameId, BOB.address, 1),
    });
    await refused(bobsWhole, 403, 'opening-mismatch', 'leaves');
    // Alice names Bob as the player: the signature is not Bob's.
    const asBob = await signedReveal(ALICE, {
      gameId,
      turn: 1,
      leaves: [leaves[0]!],
      blinding: bobBlinding,
      player: BOB.address,
    });
    await refused(asBob, 401, 'bad-signature', 'signature');
  });

  it('openings that do not match: an extra leaf, a dropped leaf, another order, another blinding', async () => {
    const extra = [...leaves, leaves[0]! + 1];
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves: extra, blinding }),
      403,
      'opening-mismatch',
    );
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves: leaves.slice(1), blinding }),
      403,
      'opening-mismatch',
    );
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves: [...leaves].reverse(), blinding }),
      403,
      'opening-mismatch',
    );
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding: blinding + 1n }),
      403,
      'opening-mismatch',
      'leaves',
    );
  });

  it('attack: a stateCommit that does not open the on-chain play commitment with the given leaves and blinding', async () => {
    for (const stateCommit of [0n, 1n, FIELD_MODULUS - 1n, testStateCommit(gameId, ALICE.address, 1) + 1n]) {
      await refused(
        await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding, stateCommit }),
        403,
        'opening-mismatch',
        'leaves',
      );
    }
  });

  it("attack: the right leaves and blinding with another player's, another turn's or another game's state commitment", async () => {
    for (const stateCommit of [
      testStateCommit(gameId, BOB.address, 1),
      testStateCommit(gameId, ALICE.address, 2),
      testStateCommit(gameId, ALICE.address, 0),
      testStateCommit(gameId + 1n, ALICE.address, 1),
    ]) {
      await refused(
        await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding, stateCommit }),
        403,
        'opening-mismatch',
        'leaves',
      );
    }
    // The session route checks the same opening (its MAC covers stateCommit as well).
    const s = await openSession(d.app, ALICE, { gameId });
    assert.equal(s.res.statusCode, 200, s.res.body);
    const url = `/v1/games/${gameId}/session-reveals`;
    const wrong = sessionReveal(s, {
      gameId,
      turn: 1,
      leaves,
      blinding,
      stateCommit: testStateCommit(gameId, BOB.address, 1),
    });
    await refused(wrong, 403, 'opening-mismatch', 'leaves', { url });
    const { stateCommit: _s, ...missing } = sessionReveal(s, { gameId, turn: 1, leaves, blinding });
    await refused(missing, 400, 'invalid-request', 'body.stateCommit', { url });
    const good = sessionReveal(s, { gameId, turn: 1, leaves, blinding });
    await refused({ ...good, stateCommit: '7' }, 401, 'bad-mac', 'mac', { url });
    const ok = await post(good, { url });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('a turn with no play commitment on-chain', async () => {
    await refused(
      await signedReveal(ALICE, { gameId, turn: 7, leaves, blinding }),
      404,
      'unknown-turn',
      'turn',
    );
  });

  it('off-board leaves and too many leaves', async () => {
    const offBoard = leafIndex(shippedRuleset('duel').board, { col: 0, row: 25 }) + 8; // row 26: edge-zone padding
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves: [offBoard], blinding }),
      400,
      'invalid-request',
      'leaves.0',
    );
    const many = Array.from({ length: 33 }, (_, i) => i);
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves: many, blinding }),
      400,
      'invalid-request',
      'leaves',
    );
  });

  it('expired requests and expiries too far ahead', async () => {
    const now = d.clock.now;
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding, expiry: now }),
      401,
      'expired',
      'expiry',
    );
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding, expiry: now + 601 }),
      400,
      'invalid-request',
      'expiry',
    );
  });

  it('replayed nonces, and a refused request does not burn its nonce', async () => {
    const nonce = 123456789n;
    // Refused first (wrong blinding): nothing is burned…
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding: 5n, nonce }),
      403,
      'opening-mismatch',
    );
    // …so the same nonce still works once,
    const body = await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding, nonce });
    assert.equal((await post(body)).statusCode, 200);
    // and never twice, even for another turn or with a fresh signature.
    await refused(body, 409, 'nonce-replayed', 'nonce');
    await refused(
      await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding, nonce }),
      409,
      'nonce-replayed',
    );
  });

  it('requests before the root is posted', async () => {
    // A finished ceremony the dealer has not dealt yet: tracked, status `watching`.
    const g2 = runCeremony(d.h, d.chain, d.seal.publicKey);
    await d.store.addGame({
      gameId: g2.gameId,
      contract: (await d.chain.game(g2.gameId))!.contract,
      ruleset: 'duel',
      players: [ALICE.address.toLowerCase(), BOB.address.toLowerCase()],
    });
    const body = await signedReveal(ALICE, { gameId: g2.gameId, turn: 0, leaves, blinding });
    await refused(body, 409, 'root-not-posted', 'gameId', { url: `/v1/games/${g2.gameId}/reveals` });
  });

  it('unknown routes and methods', async () => {
    const res = await d.app.inject({ method: 'GET', url: `/v1/games/${gameId}/reveals` });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error, 'not-found');
  });

  it('after all of that, the honest request still gets the same answer (nothing corrupted)', async () => {
    const res = await post(await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding }));
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.json().tiles.map((t: RevealEntry) => t.leaf),
      leaves,
    );
    const stored = await d.store.getReveal(gameId, ALICE.address.toLowerCase(), 1);
    assert.deepEqual(stored?.leaves, leaves);
    assert.equal(stored?.blinding, blinding);
  });
});

describe("an opening bound to another map root than the game's posted one is refused like any wrong opening", () => {
  it("the two-input Poseidon(S, R), root 0, another game's root: refused on the reveal, session and receipt routes", async () => {
    const d = await startDealer();
    try {
      const { gameId } = await d.dealtGame();
      const other = await d.dealtGame();
      const root = postedRoot(d.chain, gameId);
      const otherRoot = postedRoot(d.chain, other.gameId);
      assert.notEqual(root, otherRoot);
      const alice = ALICE.address.toLowerCase();
      const session = await openSession(d.app, ALICE, { gameId });
      assert.equal(session.res.statusCode, 200, session.res.body);
      const inject = (url: string, body: unknown) =>
        d.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      // Every case stores, for Alice's next turn, a commitment to the very S and R she then sends, bound to a
      // root other than the game's: only the root differs from an honest opening.
      const bindings: [string, (S: bigint, R: bigint) => bigint][] = [
        ['the two-input form Poseidon(S, R)', (S, R) => d.h.hash([S, R])],
        ['root 0', (S, R) => playCommitment(d.h, S, R, 0n)],
        ["another game's root", (S, R) => playCommitment(d.h, S, R, otherRoot)],
        ['root + 1', (S, R) => playCommitment(d.h, S, R, root + 1n)],
      ];
      let turn = 0;
      for (const [name, bind] of bindings) {
        turn++;
        const blinding = randomFieldElement();
        const S = testStateCommit(gameId, ALICE.address, turn);
        const R = revealCommitOf(d.h, leaves, blinding);
        d.chain.postCommitmentFor(gameId, ALICE.address, turn, bind(S, R));
        await d.syncHead();
        const opening = { gameId, turn, leaves, blinding, stateCommit: S };
        const reveal = await inject(`/v1/games/${gameId}/reveals`, await signedReveal(ALICE, opening));
        assert.equal(reveal.statusCode, 403, `${name}: ${reveal.body}`);
        assert.equal(reveal.json().error, 'opening-mismatch', name);
        assert.equal(reveal.json().field, 'leaves', name);
        assert.equal(reveal.json().tiles, undefined, name);
        const viaSession = await inject(
          `/v1/games/${gameId}/session-reveals`,
          sessionReveal(session, opening),
        );
        assert.equal(viaSession.statusCode, 403, `${name}: ${viaSession.body}`);
        assert.equal(viaSession.json().error, 'opening-mismatch', name);
        const receipt = await inject(
          `/v1/games/${gameId}/receipts`,
          await signedReceipt(ALICE, { gameId, turn, revealCommit: R, stateCommit: S }),
        );
        assert.equal(receipt.statusCode, 409, `${name}: ${receipt.body}`);
        assert.equal(receipt.json().error, 'receipt-mismatch', name);
        assert.equal(receipt.json().field, 'revealCommit', name);
        assert.equal(
          await d.store.getReveal(gameId, alice, turn),
          null,
          `${name}: nothing recorded as served`,
        );
        assert.equal(await d.store.getReceipt(gameId, alice, turn), null, `${name}: no receipt stored`);
      }
      // The same requests for a turn bound to the game's own root are served and receipted.
      turn++;
      const blinding = postTurn(d.h, d.chain, gameId, ALICE, turn, leaves);
      await d.syncHead();
      const opening = { gameId, turn, leaves, blinding };
      const ok = await inject(`/v1/games/${gameId}/reveals`, await signedReveal(ALICE, opening));
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().root, root.toString());
      const viaSession = await inject(`/v1/games/${gameId}/session-reveals`, sessionReveal(session, opening));
      assert.equal(viaSession.statusCode, 200, viaSession.body);
      const R = revealCommitOf(d.h, leaves, blinding);
      const receipt = await inject(
        `/v1/games/${gameId}/receipts`,
        await signedReceipt(ALICE, { gameId, turn, revealCommit: R }),
      );
      assert.equal(receipt.statusCode, 200, receipt.body);
    } finally {
      await d.close();
    }
  });
});

describe('a game force-opened after its reveals were served (found by review 31)', () => {
  it('later reveals are refused 409 forced-open: the cached game record does not outlive the head it was read at', async () => {
    const d = await startDealer();
    try {
      const { gameId } = await d.dealtGame();
      const leaves = duelLeaves();
      const blinding = postTurn(d.h, d.chain, gameId, ALICE, 1, leaves);
      await d.syncHead();
      const reveal = async () =>
        d.app.inject({
          method: 'POST',
          url: `/v1/games/${gameId}/reveals`,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(await signedReveal(ALICE, { gameId, turn: 1, leaves, blinding })),
        });
      assert.equal((await reveal()).statusCode, 200);
      d.chain.forceOpen(gameId);
      await watcherOf(d).tick();
      assert.equal((await d.store.getGame(gameId))?.status, 'forced-open');
      const res = await reveal();
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.json().error, 'forced-open');
    } finally {
      await d.close();
    }
  });
});
