/**
 * P1 with the real sealed-share verifier (circuits/seal.circom, the generated SealVerifier) and real Groth16
 * proofs: an honest sealed share is accepted and opens to the committed share under the dealer's key; the same
 * proof is refused in another game, for another player, under another seal key, or with E or c edited.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import * as snarkjs from 'snarkjs';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { toSolidityProof } from '../../core/mapproof/types.ts';
import { generateSealKey, openSealedShare, sealShare } from '../../core/sealed.ts';
import { readSealArtifacts } from '../../scripts/contracts/rulesets.ts';
import { as, commitAll, createGame, type Env, expectRevert, type Scenario, SEAL, setup } from './helpers.ts';

after(async () => {
  await releaseSnarkjsThreads();
});

describe('sealed reveal with the real seal verifier (P1)', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    env = await setup([], {}); // {}: the generated SealVerifier, not the mock
    G = env.game;
  });

  /** Seat `i`'s share sealed to `key` with a real proof. */
  async function sealed(s: Scenario, i: number, key = SEAL.publicKey) {
    const { sealed, plan } = sealShare(env.h, key, s.shares[i]!, {
      gameId: s.id,
      player: BigInt(s.players[i]!.address),
    });
    const art = readSealArtifacts();
    const { proof, publicSignals } = await snarkjs.groth16.fullProve(plan.input as never, art.wasm, art.zkey);
    assert.deepEqual(publicSignals.map(BigInt), plan.publicSignals);
    return { sealed, proof: toSolidityProof(proof) };
  }
  const post = (s: Scenario, seat: number, x: Awaited<ReturnType<typeof sealed>>, gameId = s.id) =>
    as(env, s.players[seat]!).getFunction('sealedReveal')(
      gameId,
      x.sealed.ephemeralY,
      x.sealed.ciphertext,
      x.proof,
    );

  it('accepts an honest sealed share, which the dealer opens to the committed share', async () => {
    const s = await createGame(env);
    await commitAll(env, s);
    const x = await sealed(s, 0);
    await (await post(s, 0, x)).wait();
    const ctx = { gameId: s.id, player: BigInt(s.players[0]!.address) };
    assert.equal(openSealedShare(env.h, SEAL.secretKey, x.sealed, ctx, s.commitments[0]!), s.shares[0]);
  });

  it('refuses the proof in another game, for another player, under another key, or with E.y or c edited', async () => {
    const a = await createGame(env);
    const b = await createGame(env);
    await commitAll(env, a);
    await commitAll(env, b);
    const x = await sealed(a, 0);
    await expectRevert(post(a, 0, x, b.id), G, 'InvalidProof'); // copied into game B by the same player
    await expectRevert(post(a, 1, x), G, 'InvalidProof'); // copied into another seat of game A
    const edited = (y: bigint, c: bigint) => ({ ...x, sealed: { ephemeralY: y, ciphertext: c } });
    await expectRevert(post(a, 0, edited(x.sealed.ephemeralY, x.sealed.ciphertext + 1n)), G, 'InvalidProof');
    await expectRevert(post(a, 0, edited(x.sealed.ephemeralY + 1n, x.sealed.ciphertext)), G, 'InvalidProof');
    // Sealed (and proven) to another key than the game's, e.g. one the player's accomplice holds: refused.
    await expectRevert(post(a, 0, await sealed(a, 0, generateSealKey().publicKey)), G, 'InvalidProof');
    await (await post(a, 0, x)).wait();
  });
});
