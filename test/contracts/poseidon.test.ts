import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { FIELD_MODULUS } from '../../core/index.ts';
import { type Env, setup } from './helpers.ts';

describe('on-chain Poseidon (circomlibjs bytecode) equals the core hasher', () => {
  let env: Env;
  let harness: Contract;
  before(async () => {
    env = await setup();
    const addrs = await Promise.all(env.poseidon.map((c) => c.getAddress()));
    harness = await env.ethers.deployContract('PoseidonHarness', [addrs]);
  });

  const inputs = (n: number, salt: bigint): bigint[] =>
    Array.from(
      { length: n },
      (_, i) => (salt * 0x9e3779b97f4a7c15n + BigInt(i) * 0x1234567n) % FIELD_MODULUS,
    );

  for (let n = 1; n <= 6; n++) {
    it(`arity ${n}: hashN matches on several inputs, including 0 and p − 1`, async () => {
      for (const xs of [
        inputs(n, 1n),
        inputs(n, 77n),
        Array(n).fill(0n),
        Array(n).fill(FIELD_MODULUS - 1n),
      ]) {
        const got = (await harness.getFunction('hashN')(xs)) as bigint;
        assert.equal(got, env.h.hash(xs), `arity ${n} on ${xs.join(',')}`);
      }
    });
  }

  it('the fixed-arity helpers hash1, hash2, hash3, hash4 match', async () => {
    const xs = inputs(4, 3n);
    assert.equal(await harness.getFunction('hash1')(xs[0]), env.h.hash(xs.slice(0, 1)));
    assert.equal(await harness.getFunction('hash2')(xs[0], xs[1]), env.h.hash(xs.slice(0, 2)));
    assert.equal(await harness.getFunction('hash3')(xs[0], xs[1], xs[2]), env.h.hash(xs.slice(0, 3)));
    assert.equal(await harness.getFunction('hash4')(...xs), env.h.hash(xs));
    // Order matters: a swapped pair must not collide (the test can fail).
    assert.notEqual(await harness.getFunction('hash2')(xs[1], xs[0]), env.h.hash(xs.slice(0, 2)));
    assert.notEqual(await harness.getFunction('hash4')(xs[1], xs[0], xs[2], xs[3]), env.h.hash(xs));
  });
});
