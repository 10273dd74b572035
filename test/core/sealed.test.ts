import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { addPoint, BASE8, IDENTITY, mulPoint, type Point, SUBGROUP_ORDER } from '../../core/babyjub.ts';
import { InputError } from '../../core/errors.ts';
import { FIELD_MODULUS } from '../../core/field.ts';
import { type Hasher, loadHasher, shareCommitment } from '../../core/index.ts';
import {
  addressToField,
  checkSealPublicKey,
  generateSealKey,
  openSealedShare,
  type SealContext,
  SealedShareError,
  sealContext,
  sealPublicKey,
  sealSecretKey,
  sealShare,
} from '../../core/sealed.ts';
import { order8Point } from './babyjub-points.ts';

const p = FIELD_MODULUS;
const ctx: SealContext = {
  gameId: 7n,
  player: addressToField('0x70997970C51812dc3A010C7d01b50e0d17dc79C8'),
};
const share = 0x0badc0ffee0ddf00d5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eedn;

let h: Hasher;
let C: bigint;
before(async () => {
  h = await loadHasher();
  C = shareCommitment(h, ctx.gameId, ctx.player, share);
});

/** Runs fn and returns the InputError's field (fails if it does not throw one). */
function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof InputError, `expected an InputError, got ${e}`);
    return e.field;
  }
  assert.fail('expected an InputError');
}

describe('sealed share: Baby Jubjub verifiable encryption', () => {
  it('round trip: the dealer opens the share, which matches C_i', () => {
    const k = generateSealKey();
    assert.deepEqual(k.publicKey, mulPoint(BASE8, k.secretKey));
    assert.deepEqual(sealPublicKey(k.secretKey), k.publicKey);
    const { sealed } = sealShare(h, k.publicKey, share, ctx);
    assert.equal(openSealedShare(h, k.secretKey, sealed, ctx, C), share);
    // Edge shares: 0 and p − 1.
    for (const r of [0n, p - 1n]) {
      const c = shareCommitment(h, ctx.gameId, ctx.player, r);
      assert.equal(openSealedShare(h, k.secretKey, sealShare(h, k.publicKey, r, ctx).sealed, ctx, c), r);
    }
  });

  it('follows the scheme: E = e·BASE8 (its y posted), c = r + Poseidon(e·P, gameId, player)', () => {
    const k = generateSealKey();
    const e = 123456789n;
    const { sealed } = sealShare(h, k.publicKey, share, ctx, { ephemeralSecret: e });
    const S = mulPoint(k.publicKey, e);
    assert.equal(sealed.ephemeralY, mulPoint(BASE8, e)[1]);
    assert.equal(sealed.ciphertext, (share + h.hash([S[0], S[1], ctx.gameId, ctx.player])) % p);
    // e need not be below l: e + l gives the same E and S.
    const wrapped = sealShare(h, k.publicKey, share, ctx, { ephemeralSecret: e + SUBGROUP_ORDER }).sealed;
    assert.deepEqual(wrapped, sealed);
  });

  it('uses fresh randomness: two seals of one share differ', () => {
    const k = generateSealKey();
    const a = sealShare(h, k.publicKey, share, ctx).sealed;
    const b = sealShare(h, k.publicKey, share, ctx).sealed;
    assert.notEqual(a.ephemeralY, b.ephemeralY);
    assert.notEqual(a.ciphertext, b.ciphertext);
  });

  it('is bound to game and player: opened in another context it does not give r', () => {
    const k = generateSealKey();
    const { sealed } = sealShare(h, k.publicKey, share, ctx);
    const others: SealContext[] = [
      { ...ctx, gameId: ctx.gameId + 1n },
      { ...ctx, player: addressToField('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC') },
    ];
    for (const other of others) {
      // Against the share's own commitment re-derived for that context, or the original C_i: both fail.
      const cOther = shareCommitment(h, other.gameId, other.player, share);
      assert.throws(() => openSealedShare(h, k.secretKey, sealed, other, cOther), SealedShareError);
      assert.throws(() => openSealedShare(h, k.secretKey, sealed, other, C), SealedShareError);
    }
  });

  it('the wrong dealer key, an edited ciphertext or a wrong commitment throw SealedShareError', () => {
    const k = generateSealKey();
    const { sealed } = sealShare(h, k.publicKey, share, ctx);
    const other = generateSealKey();
    assert.throws(() => openSealedShare(h, other.secretKey, sealed, ctx, C), SealedShareError);
    const edited = { ...sealed, ciphertext: (sealed.ciphertext + 1n) % p };
    assert.throws(() => openSealedShare(h, k.secretKey, edited, ctx, C), SealedShareError);
    assert.throws(
      () => openSealedShare(h, k.secretKey, sealed, ctx, C + 1n),
      (e: unknown) => {
        assert.ok(e instanceof SealedShareError);
        assert.equal(e.gameId, ctx.gameId);
        assert.equal(e.player, ctx.player);
        return true;
      },
    );
  });

  it('the witness plan carries the 5 public signals in circuit order', () => {
    const k = generateSealKey();
    const e = 987654321n;
    const { sealed, plan } = sealShare(h, k.publicKey, share, ctx, { ephemeralSecret: e });
    const context = h.hash([ctx.gameId, k.publicKey[0], k.publicKey[1]]);
    assert.equal(sealContext(h, ctx.gameId, k.publicKey), context);
    assert.deepEqual(plan.publicSignals, [context, ctx.player, C, sealed.ephemeralY, sealed.ciphertext]);
    assert.deepEqual(plan.input, {
      sealContext: context.toString(),
      player: ctx.player.toString(),
      commitment: C.toString(),
      ephemeralY: sealed.ephemeralY.toString(),
      ciphertext: sealed.ciphertext.toString(),
      gameId: ctx.gameId.toString(),
      dealerKey: k.publicKey.map(String),
      share: share.toString(),
      ephemeralSecret: e.toString(),
    });
  });

  it('the dealer opens from E.y alone, whichever of E and −E the y names', () => {
    // Many seals: E's x is as often the larger root as the smaller, so both branches of the search run.
    const k = generateSealKey();
    for (let i = 0; i < 12; i++) {
      const { sealed } = sealShare(h, k.publicKey, share, ctx);
      assert.equal(openSealedShare(h, k.secretKey, sealed, ctx, C), share);
    }
  });
});

describe('sealed share: key and input checks', () => {
  it('checkSealPublicKey refuses off-curve, identity, small-order and non-subgroup points', () => {
    const k = generateSealKey();
    checkSealPublicKey(k.publicKey);
    checkSealPublicKey(BASE8);
    const T = order8Point();
    const bad: [string, Point, RegExp][] = [
      ['off the curve', [1n, 2n], /not on Baby Jubjub/],
      ['x ≥ p', [k.publicKey[0] + p, k.publicKey[1]], /below the BN254 field modulus/],
      ['negative', [-1n, 1n], /below the BN254 field modulus/],
      ['identity', IDENTITY, /identity/],
      ['order 2', [0n, p - 1n], /subgroup/],
      ['order 8', T, /subgroup/],
      ['subgroup point + order-8 point', addPoint(k.publicKey, T), /subgroup/],
    ];
    for (const [what, P, msg] of bad) {
      assert.throws(
        () => checkSealPublicKey(P),
        (e: unknown) => {
          assert.ok(e instanceof InputError, what);
          assert.equal(e.field, 'sealKey', what);
          assert.match(e.message, msg, what);
          return true;
        },
      );
      assert.equal(
        fieldOf(() => checkSealPublicKey(P, 'game.sealKey')),
        'game.sealKey',
        what,
      );
      // sealShare refuses the same keys, naming its dealerKey argument.
      assert.equal(
        fieldOf(() => sealShare(h, P, share, ctx)),
        'dealerKey',
        what,
      );
    }
    assert.equal(
      fieldOf(() => checkSealPublicKey([1n] as unknown as Point)),
      'sealKey',
    );
  });

  it('sealSecretKey parses hex, bytes and bigints within 1 ≤ d < l', () => {
    const l = SUBGROUP_ORDER;
    assert.equal(sealSecretKey(1n), 1n);
    assert.equal(sealSecretKey(l - 1n), l - 1n);
    assert.equal(sealSecretKey('0x2a'), 42n);
    assert.equal(sealSecretKey(`0x${(l - 1n).toString(16).padStart(64, '0')}`), l - 1n);
    const bytes = new Uint8Array(32);
    bytes[31] = 7;
    assert.equal(sealSecretKey(bytes), 7n);
    for (const bad of [0n, l, l + 1n, -1n, '0x0', `0x${l.toString(16)}`, 'xyz', '12', new Uint8Array(31)]) {
      assert.equal(
        fieldOf(() => sealSecretKey(bad)),
        'sealKey',
        String(bad),
      );
    }
    assert.equal(
      fieldOf(() => sealPublicKey(0n)),
      'sealKey',
    );
    const k = generateSealKey();
    assert.ok(k.secretKey >= 1n && k.secretKey < l);
  });

  it('sealShare and openSealedShare validate their inputs, naming the field', () => {
    const k = generateSealKey();
    assert.equal(
      fieldOf(() => sealShare(h, k.publicKey, p, ctx)),
      'share',
    );
    assert.equal(
      fieldOf(() => sealShare(h, k.publicKey, -1n, ctx)),
      'share',
    );
    assert.equal(
      fieldOf(() => sealShare(h, k.publicKey, share, { ...ctx, gameId: p })),
      'gameId',
    );
    assert.equal(
      fieldOf(() => sealShare(h, k.publicKey, share, { ...ctx, player: 1n << 160n })),
      'player',
    );
    for (const e of [0n, 1n << 253n]) {
      assert.equal(
        fieldOf(() => sealShare(h, k.publicKey, share, ctx, { ephemeralSecret: e })),
        'ephemeralSecret',
      );
    }
    sealShare(h, k.publicKey, share, ctx, { ephemeralSecret: (1n << 253n) - 1n });
    const { sealed } = sealShare(h, k.publicKey, share, ctx);
    assert.equal(
      fieldOf(() => openSealedShare(h, 0n, sealed, ctx, C)),
      'sealKey',
    );
    assert.equal(
      fieldOf(() => openSealedShare(h, k.secretKey, { ...sealed, ephemeralY: p }, ctx, C)),
      'sealed.ephemeralY',
    );
    assert.equal(
      fieldOf(() => openSealedShare(h, k.secretKey, { ...sealed, ciphertext: p }, ctx, C)),
      'sealed.ciphertext',
    );
  });

  it('addressToField parses 0x addresses only', () => {
    assert.equal(addressToField('0x0000000000000000000000000000000000000001'), 1n);
    assert.equal(
      fieldOf(() => addressToField('0x01')),
      'player',
    );
  });
});
