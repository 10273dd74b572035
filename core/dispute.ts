/**
 * The on-chain answer to a reveal dispute (`ShroudGame.answerDispute`): per leaf of the disputed opening, in
 * its order, terrain, feature, resource, rivers, salt and the `pathLength(depth)` siblings of its Merkle path — the same
 * data as a served tile, flattened to words. The dealer encodes it from its map; a player decodes it back to
 * served tiles and checks them like any dealer answer (client/sdk/tiles.ts), so a bad tile names the index
 * to challenge on-chain.
 */
import { InputError } from './errors.ts';
import { toField } from './field.ts';
import { type Board, leafCoord } from './geometry.ts';
import { pathLength } from './merkle.ts';
import type { ServedTile } from './reveal-request.ts';

/** Words per answered leaf: four tile fields, the salt, and the path (3 siblings a level). */
export const answerStride = (depth: number): number => 5 + pathLength(depth);

/** Flattens served tiles (in the opening's leaf order) into the answer words. */
export function encodeDisputeAnswer(tiles: readonly ServedTile[], depth: number): bigint[] {
  const out: bigint[] = [];
  tiles.forEach((t, i) => {
    if (t.path.length !== pathLength(depth))
      throw new InputError(`tiles.${i}.path`, `needs ${pathLength(depth)} siblings`);
    // Refused, never reduced: the contract reverts NotInField on a word ≥ p.
    out.push(BigInt(t.terrain), BigInt(t.feature), BigInt(t.resource), BigInt(t.rivers));
    out.push(toField(t.salt, `tiles.${i}.salt`));
    t.path.forEach((p, k) => {
      out.push(toField(p, `tiles.${i}.path.${k}`));
    });
  });
  return out;
}

/** Small integer fields as numbers; anything else as NaN, which tile verification then refuses. */
const small = (v: bigint): number => (v <= 255n ? Number(v) : Number.NaN);

/**
 * The answer words back as served tiles for `leaves` (unchecked: pass them to `verifyRevealedTiles` with the
 * on-chain root). Throws an InputError only when the answer has the wrong length.
 */
export function decodeDisputeAnswer(
  answer: readonly bigint[],
  leaves: readonly number[],
  board: Board,
): ServedTile[] {
  const stride = answerStride(board.depth);
  if (answer.length !== leaves.length * stride) {
    throw new InputError('answer', `${answer.length} words for ${leaves.length} leaves of ${stride}`);
  }
  return leaves.map((leaf, i) => {
    const w = answer.slice(i * stride, (i + 1) * stride);
    const c = leafCoord(board, leaf);
    return {
      leaf,
      col: c?.col ?? -1,
      row: c?.row ?? -1,
      terrain: small(w[0]!),
      feature: small(w[1]!),
      resource: small(w[2]!),
      rivers: small(w[3]!),
      salt: w[4]!.toString(),
      path: w.slice(5).map(String),
    } as ServedTile;
  });
}
