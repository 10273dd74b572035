import { InputError } from '@shroud/core/errors.ts';
import { toField } from '@shroud/core/field.ts';
import type { Board } from '@shroud/core/geometry.ts';
import type { Hasher } from '@shroud/core/poseidon.ts';
import { mapTop } from '@shroud/core/witness/maptop.ts';
import { ZoneRootsRejectedError } from './errors.ts';

/**
 * Accepts a dealer's zone roots only if there is one canonical field element (decimal string) per
 * zone of `board` and they hash up to `root`, which the caller must read from the chain (the
 * response's own `root` is never trusted). Throws ZoneRootsRejectedError; returns them as bigints.
 */
export function verifyZoneRoots(h: Hasher, board: Board, root: bigint, served: unknown): bigint[] {
  if (!Array.isArray(served)) throw new ZoneRootsRejectedError('malformed', 'zoneRoots is not an array');
  if (served.length !== board.zoneCount) {
    throw new ZoneRootsRejectedError(
      'wrong-count',
      `${served.length} zone roots, the board has ${board.zoneCount} zones`,
    );
  }
  const roots = served.map((z, i) => {
    if (typeof z !== 'string' || !/^[0-9]{1,78}$/.test(z))
      throw new ZoneRootsRejectedError('malformed', `zoneRoots.${i} is not a decimal string`);
    try {
      return toField(z, `zoneRoots.${i}`);
    } catch (e) {
      if (e instanceof InputError) throw new ZoneRootsRejectedError('malformed', e.message);
      throw e;
    }
  });
  if (mapTop(h, board, roots, 0).root !== root) {
    throw new ZoneRootsRejectedError('bad-root', 'they do not hash to the on-chain root');
  }
  return roots;
}
