import { InputError } from './errors.ts';
import { toField } from './field.ts';
import type { Hasher } from './poseidon.ts';
import type { Tile } from './tile.ts';

/** `C_i = Poseidon(gameId, player, r_i)`: binds a seed share to its game and player. */
export function shareCommitment(h: Hasher, gameId: bigint, player: bigint, share: bigint): bigint {
  return h.hash([toField(gameId, 'gameId'), toField(player, 'player'), toField(share, 'share')]);
}

/** `seed = Poseidon(r_1..r_n)`, shares in seat order. */
export function seedFromShares(h: Hasher, shares: readonly bigint[]): bigint {
  if (shares.length < 2 || shares.length > 6)
    throw new InputError('shares', `need 2 to 6 shares, got ${shares.length}`);
  return h.hash(shares.map((s, i) => toField(s, `shares.${i}`)));
}

/** `Poseidon(master_secret)`, posted with the root so the audit can check the revealed secret. */
export function masterCommitment(h: Hasher, masterSecret: bigint): bigint {
  return h.hash([toField(masterSecret, 'masterSecret')]);
}

/**
 * `salt_i = Poseidon(master_secret, i)` with `i` the zone-major leaf index. A master secret ≥ p or negative is
 * refused (InputError `masterSecret`), never reduced: Poseidon would salt with it mod p.
 */
export function tileSalt(h: Hasher, masterSecret: bigint, leaf: number): bigint {
  if (!Number.isSafeInteger(leaf) || leaf < 0) throw new InputError('leaf', `not a leaf index: ${leaf}`);
  return h.hash([toField(masterSecret, 'masterSecret'), BigInt(leaf)]);
}

/** Bits of each tile field in a tile word. */
export const TILE_FIELD_BITS = 8;

/** A tile field as a leaf takes it: a byte (a larger one would alias another tile's word). */
function tileByte(v: number, field: string): bigint {
  if (!Number.isInteger(v) || v < 0 || v >= 2 ** TILE_FIELD_BITS)
    throw new InputError(field, `not a byte: ${v}`);
  return BigInt(v);
}

/**
 * `terrain | feature << 8 | resource << 16 | rivers << 24`: the one word a leaf hashes for a tile (Solidity
 * `ShroudTiles.pack`, circuits/lib/tile.circom `TileWord`). A field that is not a byte is refused (InputError
 * `tile.terrain`, …): it would alias another tile, e.g. terrain 258 and feature 0 pack like terrain 2, feature 1.
 */
export function tileWord(t: Tile): bigint {
  const b = BigInt(TILE_FIELD_BITS);
  return (
    tileByte(t.terrain, 'tile.terrain') |
    (tileByte(t.feature, 'tile.feature') << b) |
    (tileByte(t.resource, 'tile.resource') << (2n * b)) |
    (tileByte(t.rivers, 'tile.rivers') << (3n * b))
  );
}

/**
 * `leaf_i = Poseidon(tileWord(tile), salt_i)`: Poseidon of two inputs, not five, is a quarter fewer constraints per
 * leaf in the zone circuit. A salt outside the field is refused, and so is a tile field that is not a byte
 * (InputError `tile.terrain`, …).
 */
export function leafHash(h: Hasher, t: Tile, salt: bigint): bigint {
  return h.hash([tileWord(t), toField(salt, 'salt')]);
}
