/**
 * A ZK map proof of `tiny` under synthetic keys (groth16-synthetic.ts: whoever holds a key's trapdoor proves
 * anything), with the claim it answers: valid under its own keys unless tampered with. `recorded` adds what the
 * MapProofRegistry would hold for it; `embedKeys` puts each key beside its proof in the JSON, as a hostile dealer
 * could (review 35).
 */
import type { Curve } from 'ffjavascript';
import { hashZoneRoots, type MapProofClaim, type MapProofKeys } from '../../client/sdk/mapproof.ts';
import { shippedRuleset } from '../../core/index.ts';
import type { MapProof } from '../../core/mapproof/types.ts';
import { type SyntheticKey, syntheticKey } from './groth16-synthetic.ts';

export interface SyntheticMapKeys {
  maproot: SyntheticKey;
  mapchunk: SyntheticKey;
}

/** A fresh pair of keys of tiny's map-proof circuits' shapes. */
export function syntheticMapKeys(c: Curve): SyntheticMapKeys {
  const r = shippedRuleset('tiny');
  return {
    maproot: syntheticKey(c, 2 * r.players.max + 4 + r.board.zoneCount),
    mapchunk: syntheticKey(c, 3),
  };
}

export function syntheticMapProof(
  c: Curve,
  o: { keys?: SyntheticMapKeys; recorded?: boolean; embedKeys?: boolean } = {},
): { claim: MapProofClaim; proof: MapProof; vkeys: MapProofKeys; Z: number } {
  const r = shippedRuleset('tiny');
  const M = r.players.max;
  const Z = r.board.zoneCount;
  const keys = o.keys ?? syntheticMapKeys(c);
  const players = [0xa1n, 0xa2n];
  const shareCommits = [11n, 12n];
  const pad = (xs: bigint[]) => [...xs, ...new Array(M - xs.length).fill(0n)];
  const seedHash = 77n;
  const mapRoot = 99n;
  const zoneRoots = Array.from({ length: Z }, (_, z) => 1000n + BigInt(z));
  const claim: MapProofClaim = {
    board: r.board,
    maxPlayers: M,
    gameId: 5n,
    players,
    shareCommits,
    root: mapRoot,
    ...(o.recorded ? { recorded: { seedHash, zoneRootsHash: hashZoneRoots(zoneRoots) } } : {}),
  };
  const withKey = <T extends object>(p: T, k: SyntheticKey) => (o.embedKeys ? { ...p, vkey: k.vkey } : p);
  const proof = {
    root: withKey(
      keys.maproot.prove([5n, ...pad(players), ...pad(shareCommits), 2n, seedHash, mapRoot, ...zoneRoots]),
      keys.maproot,
    ),
    chunks: zoneRoots.map((zr, z) => withKey(keys.mapchunk.prove([zr, BigInt(z), seedHash]), keys.mapchunk)),
  };
  // As it arrives over HTTP: plain JSON.
  return {
    claim,
    proof: JSON.parse(JSON.stringify(proof)) as MapProof,
    vkeys: { maproot: keys.maproot.vkey, mapchunk: keys.mapchunk.vkey },
    Z,
  };
}
