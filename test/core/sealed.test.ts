import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { FIELD_MODULUS } from '../../core/field.ts';
import { type Hasher, loadHasher, shareCommitment } from '../../core/index.ts';
import {
  addressToField,
  type BadShareEvidence,
  generateDealerEncKey,
  openSealedShare,
  parseSealedShare,
  proveBadShare,
  proveDleq,
  SEALED_BYTES,
  type SealContext,
  sealShare,
  verifyBadShareEvidence,
  verifyDleq,
} from '../../core/sealed.ts';

const Point = secp256k1.Point;
const ctx: SealContext = {
  chainId: 31337n,
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

function flip(blob: Uint8Array, at: number): Uint8Array {
  const out = blob.slice();
  out[at] = out[at]! ^ 1;
  return out;
}

describe('sealed share: ECIES round trip', () => {
  it('opens to the sealed share and matches C_i', () => {
    const k = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share, ctx);
    assert.equal(blob.length, SEALED_BYTES);
    assert.equal(blob[0], 1);
    assert.deepEqual(openSealedShare(h, k.secretKey, blob, ctx, C), { ok: true, share });
  });

  it('uses fresh randomness: two seals of one share differ', () => {
    const k = generateDealerEncKey();
    assert.notDeepEqual(sealShare(k.publicKey, share, ctx), sealShare(k.publicKey, share, ctx));
  });

  it('fails under the wrong dealer key', () => {
    const k = generateDealerEncKey();
    const other = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share, ctx);
    assert.deepEqual(openSealedShare(h, other.secretKey, blob, ctx, C), {
      ok: false,
      reason: 'decryption-failed',
    });
  });

  it('fails when any byte of nonce, ciphertext or tag is flipped', () => {
    const k = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share, ctx);
    for (const at of [34, 40, 46, 60, SEALED_BYTES - 1]) {
      assert.deepEqual(openSealedShare(h, k.secretKey, flip(blob, at), ctx, C), {
        ok: false,
        reason: 'decryption-failed',
      });
    }
  });

  it('is bound to game, player and chain: a replayed blob does not open elsewhere', () => {
    const k = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share, ctx);
    for (const other of [
      { ...ctx, gameId: 8n },
      { ...ctx, chainId: 1n },
      { ...ctx, player: ctx.player + 1n },
    ]) {
      const r = openSealedShare(
        h,
        k.secretKey,
        blob,
        other,
        shareCommitment(h, other.gameId, other.player, share),
      );
      assert.deepEqual(r, { ok: false, reason: 'decryption-failed' });
    }
  });

  it('reports malformed blobs (length, version, ephemeral point)', () => {
    const k = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share, ctx);
    const badVersion = blob.slice();
    badVersion[0] = 2;
    const badPoint = blob.slice();
    badPoint[1] = 0x05;
    for (const b of [blob.slice(0, -1), badVersion, badPoint]) {
      assert.deepEqual(openSealedShare(h, k.secretKey, b, ctx, C), { ok: false, reason: 'malformed' });
    }
  });

  it('rejects a share that is not a field element when sealing', () => {
    const k = generateDealerEncKey();
    assert.throws(() => sealShare(k.publicKey, FIELD_MODULUS, ctx), /share/);
  });
});

describe('sealed share: DLEQ evidence', () => {
  it('accepts an honest proof and rejects a wrong S or a wrong challenge or response', () => {
    const k = generateDealerEncKey();
    const D = Point.fromBytes(k.publicKey);
    const { E } = parseSealedShare(sealShare(k.publicKey, share, ctx));
    const { S, proof } = proveDleq(k.secretKey, E);
    assert.equal(verifyDleq(D, E, S, proof), true);
    assert.equal(verifyDleq(D, E, S.add(Point.BASE), proof), false);
    assert.equal(verifyDleq(D, E, S, { ...proof, challenge: proof.challenge + 1n }), false);
    assert.equal(verifyDleq(D, E, S, { ...proof, response: proof.response + 1n }), false);
    // A proof for one ephemeral key does not transfer to another.
    const { E: E2 } = parseSealedShare(sealShare(k.publicKey, share, ctx));
    assert.equal(verifyDleq(D, E2, S, proof), false);
  });

  it('proves a share sealed to the wrong commitment (player sealed garbage)', () => {
    const k = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share + 1n, ctx); // decrypts, but not to the preimage of C
    assert.deepEqual(openSealedShare(h, k.secretKey, blob, ctx, C), {
      ok: false,
      reason: 'commitment-mismatch',
    });
    const ev = proveBadShare(h, k.secretKey, blob, ctx, C);
    assert.equal(ev.kind, 'shared-point');
    assert.equal(verifyBadShareEvidence(h, k.publicKey, blob, ctx, C, ev), true);
  });

  it('proves a ciphertext that does not decrypt', () => {
    const k = generateDealerEncKey();
    const blob = flip(sealShare(k.publicKey, share, ctx), 60);
    const ev = proveBadShare(h, k.secretKey, blob, ctx, C);
    assert.equal(verifyBadShareEvidence(h, k.publicKey, blob, ctx, C, ev), true);
  });

  it('a forged S that would make decryption fail is rejected by the DLEQ check', () => {
    const k = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share, ctx);
    const { E } = parseSealedShare(blob);
    const honest = proveDleq(k.secretKey, E);
    const forgedS = honest.S.add(Point.BASE).toBytes(true);
    const forged: BadShareEvidence = { kind: 'shared-point', sharedPoint: forgedS, proof: honest.proof };
    assert.equal(verifyBadShareEvidence(h, k.publicKey, blob, ctx, C, forged), false);
    // A dealer cannot prove knowledge for a random S: simulate with a random scalar as "d".
    const fake = proveDleq(secp256k1.utils.randomSecretKey(), E);
    const ev: BadShareEvidence = {
      kind: 'shared-point',
      sharedPoint: fake.S.toBytes(true),
      proof: fake.proof,
    };
    assert.equal(verifyBadShareEvidence(h, k.publicKey, blob, ctx, C, ev), false);
  });

  it('cannot frame an honest share, even with a valid DLEQ proof', () => {
    const k = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share, ctx);
    assert.throws(() => proveBadShare(h, k.secretKey, blob, ctx, C), /no evidence/);
    const { S, proof } = proveDleq(k.secretKey, parseSealedShare(blob).E);
    const ev: BadShareEvidence = { kind: 'shared-point', sharedPoint: S.toBytes(true), proof };
    assert.equal(verifyBadShareEvidence(h, k.publicKey, blob, ctx, C, ev), false);
    assert.equal(verifyBadShareEvidence(h, k.publicKey, blob, ctx, C, { kind: 'malformed' }), false);
  });

  it('a malformed blob is bad on its face', () => {
    const k = generateDealerEncKey();
    const blob = sealShare(k.publicKey, share, ctx).slice(0, 50);
    const ev = proveBadShare(h, k.secretKey, blob, ctx, C);
    assert.deepEqual(ev, { kind: 'malformed' });
    assert.equal(verifyBadShareEvidence(h, k.publicKey, blob, ctx, C, ev), true);
  });
});
