import * as snarkjs from 'snarkjs';
import type { Board } from '../core/geometry.ts';
import type { MapProof } from '../core/mapproof/types.ts';

/** Why a map proof was refused; the client must not play on such a map. */
export class MapProofError extends Error {
  readonly zone: number | null;
  constructor(zone: number | null, message: string) {
    super(zone === null ? `map proof: ${message}` : `map proof, zone ${zone}: ${message}`);
    this.name = 'MapProofError';
    this.zone = zone;
  }
}

export interface MapProofClaim {
  board: Board;
  maxPlayers: number;
  gameId: bigint;
  /** Seat addresses and share commitments as stored on-chain, in seat order. */
  players: readonly bigint[];
  shareCommits: readonly bigint[];
  /** The root read from the chain. */
  root: bigint;
}

type VKey = object;

/**
 * Checks that the root on-chain is the commitment of Gen(seed) for the ceremony's seed: the root proof's
 * public inputs must be the chain's own values, every zone's chunk proof must verify, and each chunk's
 * zone root and seed hash must be the ones the root proof used.
 * maproot signals: gameId, players[M], shareCommits[M], nPlayers, seedHash, root, zoneRoots[Z].
 * mapchunk signals: zoneRoot (output), zone, seedHash.
 */
export async function verifyMapProof(
  claim: MapProofClaim,
  proof: MapProof,
  vkeys: { mapchunk: VKey; maproot: VKey },
): Promise<void> {
  const { board, maxPlayers: M } = claim;
  const Z = board.zoneCount;
  const s = proof.root.publicSignals;
  if (s.length !== 2 * M + 4 + Z)
    throw new MapProofError(null, `root proof has ${s.length} signals, expected ${2 * M + 4 + Z}`);
  const pad = (xs: readonly bigint[]) => [...xs, ...new Array(M - xs.length).fill(0n)].map(String);
  const expected = [
    String(claim.gameId),
    ...pad(claim.players),
    ...pad(claim.shareCommits),
    String(claim.players.length),
  ];
  expected.forEach((v, i) => {
    if (s[i] !== v) throw new MapProofError(null, `root proof signal ${i} is ${s[i]}, the chain says ${v}`);
  });
  const seedHash = s[2 * M + 2]!;
  if (s[2 * M + 3] !== String(claim.root)) throw new MapProofError(null, 'root proof is for another root');
  if (!(await snarkjs.groth16.verify(vkeys.maproot, s, proof.root.proof))) {
    throw new MapProofError(null, 'root proof does not verify');
  }
  if (proof.chunks.length !== Z)
    throw new MapProofError(null, `${proof.chunks.length} chunk proofs for ${Z} zones`);
  for (let zone = 0; zone < Z; zone++) {
    const c = proof.chunks[zone]!;
    const [zoneRoot, z, sh] = c.publicSignals;
    if (c.publicSignals.length !== 3 || z !== String(zone))
      throw new MapProofError(zone, 'proof is for another zone');
    if (sh !== seedHash) throw new MapProofError(zone, 'proof is for another seed');
    if (zoneRoot !== s[2 * M + 4 + zone])
      throw new MapProofError(zone, 'zone root differs from the root proof');
    if (!(await snarkjs.groth16.verify(vkeys.mapchunk, c.publicSignals, c.proof))) {
      throw new MapProofError(zone, 'chunk proof does not verify');
    }
  }
}
