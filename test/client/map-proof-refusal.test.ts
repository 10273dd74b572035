/**
 * A map proof that makes the verifier throw is a refusal of that proof (MapProofError), not an error a client would
 * take for a transient one and poll again forever (review 32; `GamePlayer.checkMapProof` runs its verifier through
 * `refusingUnverified`).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MapProofError } from '../../client/sdk/errors.ts';
import { refusingUnverified } from '../../client/sdk/game-player.ts';

it('a verifier that throws on the dealer’s proof is a MapProofError naming why; its own MapProofError is kept', async () => {
  await assert.rejects(
    refusingUnverified(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'pi_a')");
    }),
    (e: unknown) =>
      e instanceof MapProofError &&
      e.zone === null &&
      /does not verify \(Cannot read properties/.test(e.message),
  );
  await assert.rejects(
    refusingUnverified(async () => {
      throw 'a string';
    }),
    (e: unknown) => e instanceof MapProofError && /does not verify \(a string\)/.test(e.message),
  );
  const zone = new MapProofError(3, 'the chunk proof of zone 3 does not verify');
  await assert.rejects(
    refusingUnverified(async () => {
      throw zone;
    }),
    (e: unknown) => e === zone,
  );
  await refusingUnverified(async () => {});
});
