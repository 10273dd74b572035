/**
 * The map proof is checked with the player's keys, whatever the dealer's JSON carries (review 35, critical): a
 * `vkey` field beside a proof's `proof` and `publicSignals` once replaced the player's key (the claim spread the
 * dealer's object after it), so a dealer proving a false map under a key of its own, and sending that key along,
 * was "verified". Synthetic keys (test/helpers/groth16-synthetic.ts): whoever holds a key's trapdoor proves anything.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Curve } from 'ffjavascript';
import {
  bn254,
  hashZoneRoots,
  type MapProofClaim,
  MapProofError,
  verifyMapProof,
} from '../../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { shippedRuleset } from '../../core/index.ts';
import type { MapProof } from '../../core/mapproof/types.ts';
import { syntheticKey } from '../helpers/groth16-synthetic.ts';

let c: Curve;
before(async () => {
  c = (await bn254()) as unknown as Curve;
});
after(() => releaseSnarkjsThreads());

it("a proof made under the dealer's own keys is refused, with or without those keys in its JSON", {
  timeout: 120_000,
}, async () => {
  const r = shippedRuleset('tiny');
  const M = r.players.max;
  const Z = r.board.zoneCount;
  // The player's keys, and the dealer's (it knows their trapdoors).
  const player = { maproot: syntheticKey(c, 2 * M + 4 + Z), mapchunk: syntheticKey(c, 3) };
  const dealer = { maproot: syntheticKey(c, 2 * M + 4 + Z), mapchunk: syntheticKey(c, 3) };
  const players = [0xa1n, 0xa2n];
  const shareCommits = [11n, 12n];
  const seedHash = 77n;
  const root = 99n;
  const zoneRoots = Array.from({ length: Z }, (_, z) => 5000n + BigInt(z));
  const claim: MapProofClaim = {
    board: r.board,
    maxPlayers: M,
    gameId: 5n,
    players,
    shareCommits,
    root,
    recorded: { seedHash, zoneRootsHash: hashZoneRoots(zoneRoots) },
  };
  const signals = [5n, ...players, ...shareCommits, 2n, seedHash, root, ...zoneRoots];
  const proofUnder = (k: typeof player, withKeys: boolean): MapProof =>
    JSON.parse(
      JSON.stringify({
        root: { ...k.maproot.prove(signals), ...(withKeys ? { vkey: k.maproot.vkey } : {}) },
        chunks: zoneRoots.map((zr, z) => ({
          ...k.mapchunk.prove([zr, BigInt(z), seedHash]),
          ...(withKeys ? { vkey: k.mapchunk.vkey } : {}),
        })),
      }),
    );
  const vkeys = { maproot: player.maproot.vkey, mapchunk: player.mapchunk.vkey };
  await verifyMapProof(claim, proofUnder(player, false), vkeys);
  await verifyMapProof(claim, proofUnder(player, true), vkeys);
  for (const withKeys of [false, true])
    await assert.rejects(
      verifyMapProof(claim, proofUnder(dealer, withKeys), vkeys),
      (e: unknown) => e instanceof MapProofError && /does not verify/.test(e.message),
      `the dealer's keys ${withKeys ? 'in' : 'not in'} the JSON`,
    );
});
