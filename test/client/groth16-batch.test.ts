/**
 * The SDK's Groth16 batch verifier (client/sdk/groth16-batch.ts) against snarkjs, on proofs made from a known
 * trapdoor (test/helpers/groth16-synthetic.ts): no circuit, no proving. The map proof's own checks on real
 * proofs are in test/mapproof/prove.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Curve } from 'ffjavascript';
import * as snarkjs from 'snarkjs';
import { type Groth16Claim, invalidGroth16 } from '../../client/sdk/groth16-batch.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import type { Groth16Proof } from '../../core/mapproof/types.ts';
import { type SyntheticKey, syntheticKey } from '../helpers/groth16-synthetic.ts';

describe('Groth16 batch verification', () => {
  let c: Curve;
  let chunk: SyntheticKey;
  let root: SyntheticKey;
  before(async () => {
    c = await snarkjs.curves.getCurveFromName('bn128');
    chunk = syntheticKey(c, 3);
    root = syntheticKey(c, 8);
  });
  after(() => releaseSnarkjsThreads());

  const snarkjsSays = (cl: Groth16Claim) =>
    snarkjs.groth16.verify(cl.vkey, cl.publicSignals as string[], cl.proof as Groth16Proof['proof']);

  test('the synthetic proofs are valid for snarkjs', async () => {
    for (const k of [chunk, root]) assert.equal(await snarkjsSays({ vkey: k.vkey, ...k.prove() }), true);
  });

  test('two keys in one batch; each kind of wrong proof is named, as snarkjs rejects it alone', async () => {
    const claims: Groth16Claim[] = [
      { vkey: root.vkey, ...root.prove() },
      ...Array.from({ length: 20 }, () => ({ vkey: chunk.vkey, ...chunk.prove() })),
    ];
    assert.deepEqual(await invalidGroth16(c, claims), []);
    const wrong = structuredClone(claims);
    wrong[3]!.publicSignals = [...claims[3]!.publicSignals.slice(0, 2), '7']; // another statement
    wrong[7]!.proof = claims[8]!.proof; // another proof's points
    wrong[12]!.vkey = root.vkey; // the other key (and signal count): malformed
    wrong[0]!.proof = { ...claims[0]!.proof, pi_c: claims[1]!.proof.pi_c }; // the root proof
    const bad = await invalidGroth16(c, wrong);
    assert.deepEqual(
      bad.map((b) => b.index),
      [0, 3, 7, 12],
    );
    assert.match(bad[3]!.malformed!, /3 public signals, the key takes 8/);
    for (const i of [0, 3, 7]) {
      assert.equal(bad.find((b) => b.index === i)!.malformed, null);
      assert.equal(await snarkjsSays(wrong[i]!), false, `snarkjs rejects ${i} too`);
    }
    for (const i of [1, 2, 4, 20]) assert.equal(await snarkjsSays(wrong[i]!), true);
  });

  test('random batches agree with snarkjs proof by proof', async () => {
    for (let round = 0; round < 3; round++) {
      const claims: Groth16Claim[] = Array.from({ length: 6 }, () => ({
        vkey: chunk.vkey,
        ...chunk.prove(),
      }));
      const flip = claims.map(() => crypto.getRandomValues(new Uint8Array(1))[0]! < 80);
      claims.forEach((cl, i) => {
        if (flip[i])
          cl.publicSignals = [
            String(BigInt(cl.publicSignals[0] as string) + 1n),
            ...cl.publicSignals.slice(1),
          ];
      });
      const expect = await Promise.all(claims.map(snarkjsSays));
      const bad = new Set((await invalidGroth16(c, claims)).map((b) => b.index));
      assert.deepEqual(
        claims.map((_, i) => !bad.has(i)),
        expect,
      );
    }
  });

  test('a bad verification key is the caller’s error, not a verdict on the proofs', async () => {
    const k = structuredClone(chunk.vkey);
    k.IC = k.IC.slice(1);
    await assert.rejects(
      invalidGroth16(c, [{ vkey: k, ...chunk.prove() }]),
      /verification key: 3 IC points for 3/,
    );
    await assert.rejects(
      invalidGroth16(c, [{ vkey: { ...chunk.vkey, curve: 'bls12381' }, ...chunk.prove() }]),
      /expected groth16 on bn128/,
    );
  });
});
