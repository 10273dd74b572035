/**
 * The served tiles a player verified, as the JSON `npm run audit -- --tiles FILE` reads
 * (`{leaf, terrain, feature, resource, rivers, salt, path}`, field elements as decimal strings): after the game
 * the player checks each against the map the published seed regenerates, and can submit a fraud proof.
 */
import type { VerifiedTile } from '../sdk/tiles.ts';

export function servedTilesJson(tiles: readonly VerifiedTile[]): string {
  const rows = tiles.map((t) => ({
    leaf: t.leaf,
    col: t.col,
    row: t.row,
    terrain: t.terrain,
    feature: t.feature,
    resource: t.resource,
    rivers: t.rivers,
    salt: t.salt.toString(),
    path: t.path.map(String),
  }));
  return `${JSON.stringify(rows, null, 1)}\n`;
}
