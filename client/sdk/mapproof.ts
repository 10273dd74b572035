/**
 * The client's check of a game's ZK map proof: the root on-chain commits to Gen(seed) for the ceremony's seed.
 * Its own module (`@shroud/sdk/mapproof.ts`), not the SDK index: it loads snarkjs' curve (ffjavascript), which
 * the index never bundles. A `GamePlayer` takes it as its `mapProof.verify`.
 */
import { bytesFromHex } from '@shroud/core/bytes.ts';
import { fieldToHex } from '@shroud/core/field.ts';
import type { Board } from '@shroud/core/geometry.ts';
import { keccak256 } from '@shroud/core/keccak.ts';
import { mapChunkSignals, mapRootSignalCount, mapRootSignals } from '@shroud/core/mapproof/signals.ts';
import type { MapProof } from '@shroud/core/mapproof/types.ts';
import { curves } from 'snarkjs';
import { MapProofError, MapProofUncheckedError } from './errors.ts';
import { type Groth16Claim, type Groth16VerificationKey, invalidGroth16 } from './groth16-batch.ts';

export type { Groth16VerificationKey };
export { MapProofError };

export interface MapProofClaim {
  board: Board;
  maxPlayers: number;
  gameId: bigint;
  /** Seat addresses and share commitments as stored on-chain, in seat order. */
  players: readonly bigint[];
  shareCommits: readonly bigint[];
  /** The root read from the chain. */
  root: bigint;
  /**
   * What the MapProofRegistry recorded for the game (`verified(gameId)`): the proof must be the one the chain
   * checked, so its seed hash and zone roots must be these.
   */
  recorded?: { zoneRootsHash: string; seedHash: bigint };
}

export interface MapProofKeys {
  mapchunk: Groth16VerificationKey;
  maproot: Groth16VerificationKey;
}

/** snarkjs' BN254 curve (ffjavascript: WebAssembly, with worker threads), built once per process or page. */
export const bn254 = () => curves.getCurveFromName('bn128');

/** keccak256(abi.encodePacked(uint256[])): how the MapProofRegistry records zone roots. */
export function hashZoneRoots(roots: readonly bigint[]): string {
  const bytes = new Uint8Array(32 * roots.length);
  roots.forEach((r, i) => {
    bytes.set(bytesFromHex(fieldToHex(r), `zoneRoots[${i}]`, 32), 32 * i);
  });
  return keccak256(bytes);
}

const isSignals = (s: unknown): s is string[] => Array.isArray(s) && s.every((v) => typeof v === 'string');

/**
 * Checks that the root on-chain is the commitment of Gen(seed) for the ceremony's seed: the root proof's public
 * inputs must be the chain's own values, each zone's chunk proof must be for that zone, the root proof's seed
 * hash and zone root; then all proofs are verified in one batch (groth16-batch.ts). Throws MapProofError naming
 * the zone at fault (null: the root proof or the whole response).
 */
export async function verifyMapProof(
  claim: MapProofClaim,
  proof: MapProof,
  vkeys: MapProofKeys,
): Promise<void> {
  const { board, maxPlayers: M } = claim;
  const Z = board.zoneCount;
  const all = proof?.root?.publicSignals;
  if (!isSignals(all)) throw new MapProofError(null, 'the root proof has no public signals');
  if (all.length !== mapRootSignalCount(M, Z))
    throw new MapProofError(
      null,
      `root proof has ${all.length} signals, expected ${mapRootSignalCount(M, Z)}`,
    );
  const s = mapRootSignals(all, M, Z);
  const pad = (xs: readonly bigint[]) => [...xs, ...new Array(M - xs.length).fill(0n)].map(String);
  const expected = [
    String(claim.gameId),
    ...pad(claim.players),
    ...pad(claim.shareCommits),
    String(claim.players.length),
  ];
  expected.forEach((v, i) => {
    if (all[i] !== v)
      throw new MapProofError(null, `root proof signal ${i} is ${all[i]}, the chain says ${v}`);
  });
  if (s.root !== String(claim.root)) throw new MapProofError(null, 'root proof is for another root');
  if (claim.recorded) {
    if (s.seedHash !== String(claim.recorded.seedHash))
      throw new MapProofError(null, 'root proof is not the one the chain recorded (seed hash)');
    if (!s.zoneRoots.every((z) => /^[0-9]{1,78}$/.test(z)))
      throw new MapProofError(null, 'root proof has a malformed zone root');
    if (hashZoneRoots(s.zoneRoots.map(BigInt)) !== claim.recorded.zoneRootsHash.toLowerCase())
      throw new MapProofError(null, 'root proof is not the one the chain recorded (zone roots)');
  }
  if (!Array.isArray(proof.chunks) || proof.chunks.length !== Z)
    throw new MapProofError(null, `${proof.chunks?.length} chunk proofs for ${Z} zones`);
  // Picked field by field, the player's key last: a field the dealer's JSON carries (a `vkey` of its own, review 35)
  // must never stand in for the key the proof is checked with.
  const claimOf = (vkey: Groth16VerificationKey, p: { publicSignals: readonly unknown[]; proof: unknown }) =>
    ({ publicSignals: p.publicSignals, proof: p.proof, vkey }) as Groth16Claim;
  const claims: Groth16Claim[] = [claimOf(vkeys.maproot, proof.root)];
  for (let zone = 0; zone < Z; zone++) {
    const c = proof.chunks[zone]!;
    if (!isSignals(c?.publicSignals)) throw new MapProofError(zone, 'proof has no public signals');
    if (c.publicSignals.length !== 3) throw new MapProofError(zone, 'proof is for another zone');
    const chunk = mapChunkSignals(c.publicSignals);
    if (chunk.zone !== String(zone)) throw new MapProofError(zone, 'proof is for another zone');
    if (chunk.seedHash !== s.seedHash) throw new MapProofError(zone, 'proof is for another seed');
    if (chunk.zoneRoot !== s.zoneRoots[zone])
      throw new MapProofError(zone, 'zone root differs from the root proof');
    claims.push(claimOf(vkeys.mapchunk, c));
  }
  let curve: Awaited<ReturnType<typeof bn254>>;
  try {
    curve = await bn254();
  } catch (e) {
    // This machine's failure (the curve's WebAssembly or threads), not the dealer's: no refusal (review 35).
    throw new MapProofUncheckedError(`the BN254 curve did not load (${(e as Error)?.message ?? e})`, {
      cause: e,
    });
  }
  const bad = await invalidGroth16(curve, claims);
  if (bad.length === 0) return;
  const first = bad[0]!;
  const why = [first.malformed, bad.length > 1 ? `${bad.length} of ${claims.length} proofs fail` : null]
    .filter(Boolean)
    .join('; ');
  const what = `does not verify${why ? ` (${why})` : ''}`;
  throw first.index === 0
    ? new MapProofError(null, `root proof ${what}`)
    : new MapProofError(first.index - 1, `chunk proof ${what}`);
}
