/**
 * The map proof is checked with the player's keys, whatever the dealer's JSON carries (review 35, critical): a
 * `vkey` field beside a proof's `proof` and `publicSignals` once replaced the player's key (the claim spread the
 * dealer's object after it), so a dealer proving a false map under a key of its own, and sending that key along,
 * was "verified". Synthetic keys (test/helpers/synthetic-map-proof.ts): whoever holds a key's trapdoor proves anything.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Curve } from 'ffjavascript';
import { bn254, MapProofError, verifyMapProof } from '../../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { syntheticMapKeys, syntheticMapProof } from '../helpers/synthetic-map-proof.ts';

let c: Curve;
before(async () => {
  c = (await bn254()) as unknown as Curve;
});
after(() => releaseSnarkjsThreads());

it("a proof made under the dealer's own keys is refused, with or without those keys in its JSON", {
  timeout: 120_000,
}, async () => {
  // The player's keys, and the dealer's (it knows their trapdoors).
  const player = syntheticMapKeys(c);
  const dealer = syntheticMapKeys(c);
  const { vkeys } = syntheticMapProof(c, { keys: player });
  const proofUnder = (keys: typeof player, embedKeys: boolean) =>
    syntheticMapProof(c, { keys, recorded: true, embedKeys });
  for (const embed of [false, true]) {
    const ok = proofUnder(player, embed);
    await verifyMapProof(ok.claim, ok.proof, vkeys);
    const forged = proofUnder(dealer, embed);
    await assert.rejects(
      verifyMapProof(forged.claim, forged.proof, vkeys),
      (e: unknown) => e instanceof MapProofError && /does not verify/.test(e.message),
      `the dealer's keys ${embed ? 'in' : 'not in'} the JSON`,
    );
  }
});
