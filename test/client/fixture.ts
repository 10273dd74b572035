import type { ServedTile } from '../../client/sdk/tiles.ts';
import { generateMap } from '../../core/generator/index.ts';
import { type Board, type Coord, leafCoord, leafIndex, tileIndex } from '../../core/geometry.ts';
import { commitMap, type MapCommitment } from '../../core/maptree.ts';
import { merklePath } from '../../core/merkle.ts';
import { type Hasher, loadHasher } from '../../core/poseidon.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import type { Tile } from '../../core/tile.ts';

/** A dealt map with the dealer's secrets, so tests can play an honest (or a lying) dealer. */
export interface DealtMap {
  h: Hasher;
  ruleset: ValidRuleset;
  board: Board;
  tiles: Tile[];
  commitment: MapCommitment;
  root: bigint;
}

const cache = new Map<string, Promise<DealtMap>>();

export function dealtMap(name = 'tiny', seed = 12345n, master = 777n): Promise<DealtMap> {
  const key = `${name}:${seed}:${master}`;
  let p = cache.get(key);
  if (!p) {
    p = (async () => {
      const h = await loadHasher();
      const ruleset = shippedRuleset(name);
      const board = ruleset.board;
      const tiles = generateMap(h, board, seed);
      const commitment = commitMap(h, board, tiles, master);
      return { h, ruleset, board, tiles, commitment, root: commitment.tree.root };
    })();
    cache.set(key, p);
  }
  return p;
}

/** What an honest dealer serves for one leaf (same fields and string encoding as dealer/maps.ts). */
export function serve(m: DealtMap, leaf: number): ServedTile {
  const c = leafCoord(m.board, leaf);
  if (!c) throw new Error(`leaf ${leaf} is off the board`);
  const t = m.tiles[tileIndex(m.board, c)]!;
  return {
    leaf,
    col: c.col,
    row: c.row,
    terrain: t.terrain,
    feature: t.feature,
    resource: t.resource,
    rivers: t.rivers,
    salt: m.commitment.salts[leaf]!.toString(),
    path: merklePath(m.commitment.tree, leaf).map(String),
  };
}

export function leafOf(m: DealtMap, c: Coord): number {
  return leafIndex(m.board, c);
}
