/**
 * Reveal receipts: `POST /v1/games/:gameId/receipts` keeps a player's EIP-712 receipt for a turn it was
 * served (only a canonical signature by that player over the turn's reveal commitment R, which with the
 * state commitment S sent along must open the turn's on-chain play commitment Poseidon(S, R, mapRoot), mapRoot
 * the game's posted root; every bad input is a clear 4xx that stores nothing), and the dealer answers a dispute of a receipted turn with it (a false
 * dispute: the deposit is the dealer's), of any other turn with `0x`.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { FIELD_MODULUS } from '../../core/index.ts';
import { ChainWatcher } from '../../dealer/watcher.ts';
import {
  ALICE,
  BOB,
  CONTRACT,
  type Dealer,
  duelLeaves,
  MALLORY,
  postTurn,
  revealCommitOf,
  runCeremony,
  signedReceipt,
  signedReveal,
  startDealer,
  testStateCommit,
} from './fixture.ts';

/** secp256k1 order: `n − s` with the other recovery id is the same signature's high-s twin. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const leaves = duelLeaves();

function post(dealer: Dealer, gameId: bigint | string, body: unknown, raw?: string) {
  return dealer.app.inject({
    method: 'POST',
    url: `/v1/games/${gameId}/receipts`,
    headers: { 'content-type': 'application/json' },
    payload: raw ?? JSON.stringify(body),
  });
}

/** Alice's turn 1 and Bob's turn 1 on a dealt duel, with their reveal commitments R. */
async function playing(dealer: Dealer) {
  const g = await dealer.dealtGame();
  const aliceBlinding = postTurn(dealer.h, dealer.chain, g.gameId, ALICE, 1, leaves);
  const bobBlinding = postTurn(dealer.h, dealer.chain, g.gameId, BOB, 1, [leaves[0]!]);
  await dealer.syncHead();
  return {
    ...g,
    aliceBlinding,
    alice: revealCommitOf(dealer.h, leaves, aliceBlinding),
    bob: revealCommitOf(dealer.h, [leaves[0]!], bobBlinding),
  };
}

describe('POST /v1/games/:gameId/receipts', () => {
  let d: Dealer;
  let g: Awaited<ReturnType<typeof playing>>;
  before(async () => {
    d = await startDealer();
    g = await playing(d);
  });
  after(() => d.close());

  const alice = () => ALICE.address.toLowerCase();
  const stored = () => d.store.getReceipt(g.gameId, alice(), 1);

  /** A clear 4xx naming the field; nothing stored. */
  async function refused(body: unknown, status: number, error: string, field?: string, url = g.gameId) {
    const before = await stored();
    const res = await post(d, url, body);
    assert.equal(res.statusCode, status, res.body);
    const j = res.json();
    assert.equal(j.error, error, res.body);
    if (field !== undefined) assert.equal(j.field, field, res.body);
    assert.deepEqual(await stored(), before, 'nothing stored');
    return j;
  }

  describe('every bad input is a clear 4xx and stores nothing', () => {
    const good = () => signedReceipt(ALICE, { gameId: g.gameId, turn: 1, revealCommit: g.alice });

    it('malformed bodies: not JSON, wrong types (never coerced), missing and unknown fields', async () => {
      const res = await post(d, g.gameId, null, '{"player": ');
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, 'malformed-json');
      const b = await good();
      await refused({ ...b, turn: '1' }, 400, 'invalid-request', 'body.turn');
      await refused({ ...b, turn: -1 }, 400, 'invalid-request', 'body.turn');
      await refused({ ...b, turn: 2 ** 32 }, 400, 'invalid-request', 'body.turn');
      await refused({ ...b, revealCommit: 12 }, 400, 'invalid-request', 'body.revealCommit');
      await refused({ ...b, revealCommit: '0xzz' }, 400, 'invalid-request', 'body.revealCommit');
      await refused(
        { ...b, revealCommit: `0x1${'0'.repeat(64)}` },
        400,
        'invalid-request',
        'body.revealCommit',
      );
      await refused({ ...b, player: '0x1234' }, 400, 'invalid-request', 'body.player');
      await refused({ ...b, signature: b.signature.slice(0, -2) }, 400, 'invalid-request', 'body.signature');
      await refused({ ...b, gameId: g.gameId.toString() }, 400, 'invalid-request', 'body.gameId');
      const { signature: _s, ...unsigned } = b;
      await refused(unsigned, 400, 'invalid-request', 'body.signature');
      await refused([b], 400, 'invalid-request', 'body');
      await refused(b, 400, 'invalid-request', 'params.gameId', 'x1' as never);
      await refused({ ...b, revealCommit: (1n << 256n).toString() }, 400, 'invalid-request', 'revealCommit');
    });

    it('a missing or malformed stateCommit: 400 naming it', async () => {
      const b = await good();
      const { stateCommit: _sc, ...without } = b;
      const j = await refused(without, 400, 'invalid-request', 'body.stateCommit');
      assert.match(j.message, /^body\.stateCommit: /);
      assert.ok(!j.message.includes('\n'), 'one line');
      await refused({ ...b, stateCommit: 12 }, 400, 'invalid-request', 'body.stateCommit');
      await refused({ ...b, stateCommit: '0xzz' }, 400, 'invalid-request', 'body.stateCommit');
      await refused({ ...b, stateCommit: FIELD_MODULUS.toString() }, 400, 'invalid-request', 'stateCommit');
    });

    it('bad signatures: garbage, a field changed after signing, a high s', async () => {
      const b = await good();
      await refused({ ...b, signature: `0x${'11'.repeat(65)}` }, 401, 'bad-signature', 'signature');
      await refused({ ...b, signature: `0x${'00'.repeat(65)}` }, 401, 'bad-signature', 'signature');
      await refused({ ...b, turn: 2 }, 401, 'bad-signature', 'signature');
      await refused({ ...b, revealCommit: (g.alice + 1n).toString() }, 401, 'bad-signature', 'signature');
      // The same signature with s' = n − s and the other v recovers Alice too, but the contract refuses it.
      const r = b.signature.slice(2, 66);
      const s = BigInt(`0x${b.signature.slice(66, 130)}`);
      const v = Number.parseInt(b.signature.slice(130), 16);
      const high = `0x${r}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`;
      await refused({ ...b, signature: high }, 401, 'bad-signature', 'signature');
    });

    it("someone else's signature: Bob signing for Alice", async () => {
      const byBob = await signedReceipt(BOB, {
        gameId: g.gameId,
        turn: 1,
        revealCommit: g.alice,
        player: ALICE.address,
      });
      await refused(byBob, 401, 'bad-signature', 'signature');
    });

    it('a signature for another chain, game contract or game', async () => {
      const o = { gameId: g.gameId, turn: 1, revealCommit: g.alice };
      await refused(await signedReceipt(ALICE, { ...o, chainId: 1n }), 401, 'bad-signature', 'signature');
      await refused(
        await signedReceipt(ALICE, { ...o, contract: '0x0000000000000000000000000000000000000001' }),
        401,
        'bad-signature',
      );
      await refused(await signedReceipt(ALICE, { ...o, gameId: g.gameId + 1n }), 401, 'bad-signature');
    });

    it('a non-player, even with a valid signature', async () => {
      const byMallory = await signedReceipt(MALLORY, { gameId: g.gameId, turn: 1, revealCommit: g.alice });
      await refused(byMallory, 403, 'not-a-player', 'player');
    });

    it('an unknown game, and a game whose root is not posted', async () => {
      const o = { turn: 1, revealCommit: g.alice };
      await refused(await signedReceipt(ALICE, { ...o, gameId: 999n }), 404, 'unknown-game', 'gameId', 999n);
      const g2 = runCeremony(d.h, d.chain, d.seal.publicKey);
      await d.store.addGame({
        gameId: g2.gameId,
        contract: CONTRACT,
        ruleset: 'duel',
        players: [alice(), BOB.address.toLowerCase()],
      });
      const body = await signedReceipt(ALICE, { ...o, gameId: g2.gameId });
      await refused(body, 409, 'root-not-posted', 'gameId', g2.gameId);
    });

    it('a wrong turn (no play commitment on-chain) or a wrong R (not the one the turn’s play commitment binds)', async () => {
      await refused(
        await signedReceipt(ALICE, { gameId: g.gameId, turn: 7, revealCommit: g.alice }),
        404,
        'unknown-turn',
        'turn',
      );
      // Alice signs Bob's R for her own turn: validly signed, but it does not open her turn's play commitment.
      await refused(
        await signedReceipt(ALICE, { gameId: g.gameId, turn: 1, revealCommit: g.bob }),
        409,
        'receipt-mismatch',
        'revealCommit',
      );
      await refused(
        await signedReceipt(ALICE, { gameId: g.gameId, turn: 1, revealCommit: 5n }),
        409,
        'receipt-mismatch',
        'revealCommit',
      );
      // An R at or above the field modulus opens nothing.
      await refused(
        await signedReceipt(ALICE, { gameId: g.gameId, turn: 1, revealCommit: FIELD_MODULUS }),
        409,
        'receipt-mismatch',
        'revealCommit',
      );
    });

    it('attack: the right R with a state commitment that does not open the turn’s play commitment (another player’s, another turn’s, a random one) is refused and not stored', async () => {
      for (const stateCommit of [
        testStateCommit(g.gameId, BOB.address, 1),
        testStateCommit(g.gameId, ALICE.address, 2),
        testStateCommit(g.gameId + 1n, ALICE.address, 1),
        12345n,
      ]) {
        const body = await signedReceipt(ALICE, {
          gameId: g.gameId,
          turn: 1,
          revealCommit: g.alice,
          stateCommit,
        });
        const j = await refused(body, 409, 'receipt-mismatch', 'revealCommit');
        assert.match(j.message, /stateCommit/);
      }
      // Nothing was remembered: the honest receipt below is still stored as new.
    });
  });

  describe('honest receipts', () => {
    it('stores the first, canonical; re-posts answer 200 and keep it, with no further chain read', async () => {
      const body = await signedReceipt(ALICE, { gameId: g.gameId, turn: 1, revealCommit: g.alice });
      const reads = d.chain.count('playCommitment');
      const res = await post(d, g.gameId, body);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        gameId: g.gameId.toString(),
        player: alice(),
        turn: 1,
        revealCommit: g.alice.toString(),
        stored: 'new',
      });
      assert.deepEqual(await stored(), {
        gameId: g.gameId,
        player: alice(),
        turn: 1,
        revealCommit: g.alice,
        signature: body.signature.toLowerCase(),
      });
      const again = await post(d, g.gameId, body);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().stored, 'already-stored');
      // Another valid form of Alice's signature (v as 0/1, hex commit, lowercase player): 200, the first stays.
      const v01 = `${body.signature.slice(0, 130)}0${Number.parseInt(body.signature.slice(130), 16) - 27}`;
      const other = await post(d, `0x${g.gameId.toString(16)}`, {
        ...body,
        player: alice(),
        revealCommit: `0x${g.alice.toString(16)}`,
        signature: v01,
      });
      assert.equal(other.statusCode, 200, other.body);
      assert.equal((await stored())?.signature, body.signature.toLowerCase());
      assert.equal(d.chain.count('playCommitment'), reads, 'the turn’s play commitment is cached');
    });

    it('a signature with v 0/1 is stored as the contract takes it (v 27/28)', async () => {
      const body = await signedReceipt(BOB, { gameId: g.gameId, turn: 1, revealCommit: g.bob });
      const v = Number.parseInt(body.signature.slice(130), 16);
      const res = await post(d, g.gameId, {
        ...body,
        signature: `${body.signature.slice(0, 130)}0${v - 27}`,
      });
      assert.equal(res.statusCode, 200, res.body);
      const kept = await d.store.getReceipt(g.gameId, BOB.address.toLowerCase(), 1);
      assert.equal(kept?.signature, body.signature.toLowerCase());
    });

    it('is documented in the OpenAPI spec', async () => {
      const res = await d.app.inject({ method: 'GET', url: '/docs/json' });
      const spec = res.json() as { paths: Record<string, { post?: { requestBody?: unknown } }> };
      assert.ok(spec.paths['/v1/games/{gameId}/receipts']?.post?.requestBody);
    });
  });
});

describe('receipts: costs', () => {
  let d: Dealer | undefined;
  afterEach(async () => {
    await d?.close();
    d = undefined;
  });

  it('the per-player budget is taken after the signature check: a forger cannot spend the victim’s', async () => {
    let ms = 1_000_000;
    d = await startDealer({ http: { playerRateLimit: { perSecond: 1, burst: 2 } }, nowMs: () => ms });
    const g = await playing(d);
    const forged = await signedReceipt(BOB, {
      gameId: g.gameId,
      turn: 1,
      revealCommit: g.alice,
      player: ALICE.address,
    });
    for (let i = 0; i < 10; i++) assert.equal((await post(d, g.gameId, forged)).statusCode, 401);
    const body = await signedReceipt(ALICE, { gameId: g.gameId, turn: 1, revealCommit: g.alice });
    assert.equal((await post(d, g.gameId, body)).statusCode, 200);
    assert.equal((await post(d, g.gameId, body)).statusCode, 200);
    const over = await post(d, g.gameId, body);
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().error, 'rate-limited');
    assert.equal(over.json().field, 'player');
    assert.ok(Number(over.headers['retry-after']) >= 1);
    ms += 1000;
    assert.equal((await post(d, g.gameId, body)).statusCode, 200);
  });

  it('an unknown turn replayed 200 times reads the chain once per block', async () => {
    d = await startDealer();
    const g = await playing(d);
    const body = await signedReceipt(ALICE, { gameId: g.gameId, turn: 9, revealCommit: g.alice });
    const before = d.chain.count('playCommitment');
    for (let i = 0; i < 200; i++) assert.equal((await post(d, g.gameId, body)).statusCode, 404);
    assert.equal(d.chain.count('playCommitment') - before, 1);
    d.chain.mine();
    await d.syncHead();
    assert.equal((await post(d, g.gameId, body)).statusCode, 404);
    assert.equal(d.chain.count('playCommitment') - before, 2);
  });
});

describe('disputes answered with the stored receipt', () => {
  let d: Dealer | undefined;
  afterEach(async () => {
    await d?.close();
    d = undefined;
  });
  const watcher = (dealer: Dealer) =>
    new ChainWatcher(dealer.dealing, {
      pollMs: 10,
      startBlock: 0,
      sealPublicKey: dealer.seal.publicKey,
      head: dealer.head,
    });
  const answeredLog = (dealer: Dealer) =>
    JSON.parse(dealer.logs.lines.find((l) => l.includes('reveal dispute answered'))!) as Record<
      string,
      unknown
    >;

  it('a served and receipted turn: answered with the receipt (a false dispute); the chain marks it receipted', async () => {
    d = await startDealer();
    const g = await playing(d);
    const served = await d.app.inject({
      method: 'POST',
      url: `/v1/games/${g.gameId}/reveals`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(
        await signedReveal(ALICE, { gameId: g.gameId, turn: 1, leaves, blinding: g.aliceBlinding }),
      ),
    });
    assert.equal(served.statusCode, 200);
    const receipt = await signedReceipt(ALICE, { gameId: g.gameId, turn: 1, revealCommit: g.alice });
    assert.equal((await post(d, g.gameId, receipt)).statusCode, 200);
    d.chain.openDispute(g.gameId, ALICE.address, 1, leaves, { revealCommit: g.alice });
    await watcher(d).tick();
    assert.deepEqual(d.chain.answerReceiptsFor(g.gameId), [receipt.signature.toLowerCase()]);
    assert.equal((await d.chain.dispute(g.gameId))?.receipted, true);
    const logged = answeredLog(d);
    assert.equal(logged.receipted, true);
    assert.equal(logged.servedBefore, true);
  });

  it('a turn without a receipt (served or not): answered with 0x; Bob’s receipt does not count for Alice', async () => {
    d = await startDealer();
    const g = await playing(d);
    const bobs = await signedReceipt(BOB, { gameId: g.gameId, turn: 1, revealCommit: g.bob });
    assert.equal((await post(d, g.gameId, bobs)).statusCode, 200);
    d.chain.openDispute(g.gameId, ALICE.address, 1, leaves, { revealCommit: g.alice });
    await watcher(d).tick();
    assert.deepEqual(d.chain.answerReceiptsFor(g.gameId), ['0x']);
    assert.equal((await d.chain.dispute(g.gameId))?.receipted, false);
    assert.equal(answeredLog(d).receipted, false);
  });

  it('a stored receipt the contract refuses (BadReceipt) does not cost the answer: answered at once with 0x', async () => {
    d = await startDealer();
    const g = await playing(d);
    // Behind the route's back: a receipt over another commitment (a re-org, a bug): the contract refuses it.
    const wrong = await signedReceipt(ALICE, { gameId: g.gameId, turn: 1, revealCommit: g.alice + 1n });
    await d.store.putReceipt({
      gameId: g.gameId,
      player: ALICE.address.toLowerCase(),
      turn: 1,
      revealCommit: g.alice,
      signature: wrong.signature.toLowerCase(),
    });
    d.chain.openDispute(g.gameId, ALICE.address, 1, leaves, { revealCommit: g.alice });
    await watcher(d).tick();
    assert.deepEqual(d.chain.answerReceiptsFor(g.gameId), ['0x']);
    assert.equal(d.chain.writes.filter((w) => w === 'answerDispute').length, 1);
    assert.equal((await d.chain.dispute(g.gameId))?.answered, true);
    assert.ok(d.logs.lines.some((l) => l.includes('refused the stored reveal receipt')));
    assert.equal(answeredLog(d).receipted, false);
  });
});
