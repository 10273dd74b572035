import type { Board } from '@shroud/core/geometry.ts';
import type { Hasher } from '@shroud/core/poseidon.ts';
import { mapTop } from '@shroud/core/witness/maptop.ts';

/**
 * Whether `roots` (one per zone of `board`: the zone roots a dealer posted with its root) hash up to `root`,
 * which the caller must read from the chain.
 */
export function zoneRootsBuild(h: Hasher, board: Board, root: bigint, roots: readonly bigint[]): boolean {
  return roots.length === board.zoneCount && mapTop(h, board, roots, 0).root === root;
}
