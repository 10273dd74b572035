import { leafHash } from '@shroud/core/commitments.ts';
import { InputError } from '@shroud/core/errors.ts';
import { toField } from '@shroud/core/field.ts';
import { type Board, edgeCount, leafCoord } from '@shroud/core/geometry.ts';
import { pathLength, verifyPath } from '@shroud/core/merkle.ts';
import type { Hasher } from '@shroud/core/poseidon.ts';
import type { ServedTile } from '@shroud/core/reveal-request.ts';
import { Feature, Resource, Terrain, type Tile } from '@shroud/core/tile.ts';
import { TileRejectedError } from './errors.ts';

export type { ServedTile };

/** A tile whose leaf was proven against the on-chain root: safe to show, to plan on, and to audit with. */
export interface VerifiedTile extends Tile {
  /** Zone-major leaf index. */
  leaf: number;
  col: number;
  row: number;
  /** Row-major tile index (the fog's and the renderers' order). */
  index: number;
  salt: bigint;
  /** Kept so a fraud proof can be submitted after the audit without asking the dealer again. */
  path: bigint[];
}

const maxOf = (o: Record<string, number>) => Math.max(...Object.values(o));
const MAX_TERRAIN = maxOf(Terrain);
const MAX_FEATURE = maxOf(Feature);
const MAX_RESOURCE = maxOf(Resource);

function intIn(v: unknown, lo: number, hi: number): v is number {
  return Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
}

function fieldOrReject(v: unknown, leaf: number, what: string): bigint {
  if (typeof v !== 'string') throw new TileRejectedError('malformed', leaf, `${what} is not a string`);
  try {
    return toField(v, what);
  } catch (e) {
    if (e instanceof InputError) throw new TileRejectedError('malformed', leaf, e.message);
    throw e;
  }
}

/**
 * Checks one served tile in isolation: shape, coordinates, value ranges, salt and path as field
 * elements, and the Merkle path against `root`. Returns it typed; throws TileRejectedError.
 */
function verifyOne(h: Hasher, board: Board, root: bigint, raw: unknown, leaf: number): VerifiedTile {
  const t = raw as Partial<ServedTile>;
  const coord = leafCoord(board, leaf);
  if (coord === null) throw new TileRejectedError('wrong-coord', leaf, 'not an on-board leaf');
  if (t.col !== coord.col || t.row !== coord.row) {
    throw new TileRejectedError(
      'wrong-coord',
      leaf,
      `served at (${t.col},${t.row}), leaf ${leaf} is (${coord.col},${coord.row})`,
    );
  }
  const riverMax = 2 ** edgeCount(board.kind) - 1;
  if (!intIn(t.terrain, 0, MAX_TERRAIN))
    throw new TileRejectedError('malformed', leaf, `terrain ${t.terrain}`);
  if (!intIn(t.feature, 0, MAX_FEATURE))
    throw new TileRejectedError('malformed', leaf, `feature ${t.feature}`);
  if (!intIn(t.resource, 0, MAX_RESOURCE))
    throw new TileRejectedError('malformed', leaf, `resource ${t.resource}`);
  if (!intIn(t.rivers, 0, riverMax)) throw new TileRejectedError('malformed', leaf, `rivers ${t.rivers}`);
  const salt = fieldOrReject(t.salt, leaf, 'salt');
  if (!Array.isArray(t.path) || t.path.length !== pathLength(board.depth)) {
    throw new TileRejectedError('malformed', leaf, `path must hold ${pathLength(board.depth)} hashes`);
  }
  const path = t.path.map((p, k) => fieldOrReject(p, leaf, `path.${k}`));
  const tile: Tile = {
    terrain: t.terrain as Terrain,
    feature: t.feature as Feature,
    resource: t.resource as Resource,
    rivers: t.rivers,
  };
  if (!verifyPath(h, root, leaf, leafHash(h, tile, salt), path)) {
    throw new TileRejectedError('bad-path', leaf, 'does not verify against the on-chain root');
  }
  return {
    ...tile,
    leaf,
    col: coord.col,
    row: coord.row,
    index: coord.row * board.width + coord.col,
    salt,
    path,
  };
}

/**
 * Accepts a dealer's tiles only if every one of them is exactly one of the `requested` leaves, the
 * set is complete, and each verifies against `root`, which the caller must read from the chain (the
 * response's own `root` field is never trusted). All or nothing: any failure throws
 * TileRejectedError and nothing is returned. The result follows the order of `requested`.
 */
export function verifyRevealedTiles(
  h: Hasher,
  board: Board,
  root: bigint,
  requested: readonly number[],
  served: unknown,
): VerifiedTile[] {
  const wanted = new Set<number>();
  requested.forEach((leaf, i) => {
    if (leafCoord(board, leaf) === null)
      throw new InputError(`requested.${i}`, `${leaf} is not an on-board leaf`);
    if (wanted.has(leaf)) throw new InputError(`requested.${i}`, `${leaf} is requested twice`);
    wanted.add(leaf);
  });
  if (!Array.isArray(served)) throw new TileRejectedError('malformed', null, 'tiles is not an array');
  const byLeaf = new Map<number, VerifiedTile>();
  for (const raw of served) {
    if (typeof raw !== 'object' || raw === null)
      throw new TileRejectedError('malformed', null, 'not an object');
    const leaf = (raw as { leaf?: unknown }).leaf;
    if (!Number.isInteger(leaf)) throw new TileRejectedError('malformed', null, `leaf ${String(leaf)}`);
    const l = leaf as number;
    if (!wanted.has(l)) throw new TileRejectedError('not-requested', l, 'the player did not open this leaf');
    if (byLeaf.has(l)) throw new TileRejectedError('duplicate', l, 'served twice');
    byLeaf.set(l, verifyOne(h, board, root, raw, l));
  }
  for (const leaf of requested) {
    if (!byLeaf.has(leaf)) throw new TileRejectedError('missing', leaf, 'requested but not served');
  }
  return requested.map((leaf) => byLeaf.get(leaf)!);
}
