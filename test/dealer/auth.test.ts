import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Signature, TypedDataEncoder } from 'ethers';
import {
  REVEAL_REQUEST_TYPES,
  type RevealRequestMessage,
  RevealSignatureVerifier,
  recoverRevealSigner,
  revealDigest,
  revealDomain,
  signRevealRequest,
} from '../../dealer/auth.ts';
import { ALICE, BOB, CHAIN_ID, CONTRACT } from './fixture.ts';

const domain = revealDomain(CHAIN_ID, CONTRACT);
const msg = (nonce: bigint): RevealRequestMessage => ({
  gameId: 3n,
  player: ALICE.address,
  turn: 2,
  leaves: [5, 70, 1000],
  blinding: 99n,
  stateCommit: 1234n,
  nonce,
  expiry: 2_000_000_000,
});

function withS(signature: string, f: (s: bigint) => bigint, flipV = false): string {
  const sig = Signature.from(signature);
  const raw = new Uint8Array(65);
  raw.set(Buffer.from(sig.r.slice(2), 'hex'), 0);
  raw.set(Buffer.from(f(BigInt(sig.s)).toString(16).padStart(64, '0'), 'hex'), 32);
  raw[64] = (flipV ? 1 - sig.yParity : sig.yParity) + 27;
  return `0x${Buffer.from(raw).toString('hex')}`;
}

describe('EIP-712 reveal requests', () => {
  it('the cached domain separator gives the standard EIP-712 digest', () => {
    assert.equal(revealDigest(domain, msg(1n)), TypedDataEncoder.hash(domain, REVEAL_REQUEST_TYPES, msg(1n)));
  });

  it('the verifier agrees with plain recovery, cold and warm, on good and bad signatures', async () => {
    const v = new RevealSignatureVerifier();
    const who = ALICE.address.toLowerCase();
    for (let i = 0n; i < 4n; i++) {
      const sig = await signRevealRequest(ALICE, domain, msg(i));
      assert.equal(recoverRevealSigner(domain, msg(i), sig), who);
      assert.equal(v.check(domain, msg(i), sig, ALICE.address), 'ok', `request ${i}`);
      // Same signature, other message: recovery yields another address, the verifier says not-signer.
      assert.notEqual(recoverRevealSigner(domain, msg(i + 100n), sig), who);
      assert.equal(v.check(domain, msg(i + 100n), sig, ALICE.address), 'not-signer');
      // Wrong recovery id: recovers someone else; the warm path must refuse it too.
      const flipped = withS(sig, (s) => s, true);
      assert.notEqual(recoverRevealSigner(domain, msg(i), flipped), who);
      assert.equal(v.check(domain, msg(i), flipped, ALICE.address), 'not-signer');
      // High-s twin (malleated): refused as malformed.
      const n = secp256k1.Point.Fn.ORDER;
      assert.equal(
        v.check(
          domain,
          msg(i),
          withS(sig, (s) => n - s, true),
          ALICE.address,
        ),
        'malformed',
      );
      assert.equal(
        v.check(
          domain,
          msg(i),
          withS(sig, () => 0n),
          ALICE.address,
        ),
        'malformed',
      );
    }
    const bobs = await signRevealRequest(BOB, domain, msg(7n));
    assert.equal(v.check(domain, msg(7n), bobs, ALICE.address), 'not-signer');
    assert.equal(v.check(domain, msg(7n), bobs, BOB.address), 'ok');
    assert.equal(v.check(domain, msg(7n), '0x1234', BOB.address), 'malformed');
  });

  it('a signature for another game contract or chain does not verify', async () => {
    const v = new RevealSignatureVerifier();
    const sig = await signRevealRequest(ALICE, domain, msg(1n));
    assert.equal(v.check(revealDomain(1n, CONTRACT), msg(1n), sig, ALICE.address), 'not-signer');
    assert.equal(v.check(domain, msg(1n), sig, ALICE.address), 'ok');
    assert.equal(
      v.check(
        revealDomain(CHAIN_ID, '0x0000000000000000000000000000000000000002'),
        msg(1n),
        sig,
        ALICE.address,
      ),
      'not-signer',
    );
  });
});
