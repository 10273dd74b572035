import type { Board } from './geometry.ts';
import { zoneLeaves, zoneRoots } from './mapproof/witness.ts';
import type { MapCommitment } from './maptree.ts';
import type { Hasher } from './poseidon.ts';
import { mapTop } from './witness/maptop.ts';

/**
 * What the audit after the secrets proves on-chain about a posted root (ShroudAudit), from the dealer's published
 * zone roots and the tree every auditor computes from the secrets (`commitMap(Gen(seed), master_secret)`):
 * - `honest`: the posted root is that tree's root and the zone roots build it: nothing to prove;
 * - `zone-roots`: the published zone roots do not build the posted root (`proveZoneRootsFraud`);
 * - `zone`: they do, but zone `zone`'s root is not the honest one: `challengeZone` with the honest `leaves`,
 *   which the dealer cannot answer truthfully (its leaves differ from Gen(seed) at the first difference).
 */
export type RootFinding =
  | { kind: 'honest' }
  | { kind: 'zone-roots' }
  | { kind: 'zone'; zone: number; leaves: bigint[] };

/** Judges the posted root against the honest tree (pure; the caller reads both inputs from the chain). */
export function judgeRoot(
  h: Hasher,
  board: Board,
  postedRoot: bigint,
  publishedZoneRoots: readonly bigint[],
  honest: MapCommitment,
): RootFinding {
  if (
    publishedZoneRoots.length !== board.zoneCount ||
    mapTop(h, board, publishedZoneRoots, 0).root !== postedRoot
  ) {
    return { kind: 'zone-roots' };
  }
  const mine = zoneRoots(honest, board);
  const zone = mine.findIndex((r, z) => r !== publishedZoneRoots[z]);
  if (zone < 0) return { kind: 'honest' };
  return { kind: 'zone', zone, leaves: zoneLeaves(honest, zone) };
}
