import { InputError } from '../errors.ts';
import { toField } from '../field.ts';
import { type Board, ZONE_DEPTH, ZONE_LEAVES } from '../geometry.ts';
import type { MapCommitment } from '../maptree.ts';
import type { Hasher } from '../poseidon.ts';

/** Circuit input of one `mapchunk` proof, as decimal strings (snarkjs' format). */
export interface MapChunkInput {
  zone: string;
  seedHash: string;
  seed: string;
  zx: string;
  zy: string;
  salts: string[];
}

/**
 * `Poseidon(seed)`: public in every chunk proof, and proven by `maproot` to come from the shares. A seed ≥ p or
 * negative is refused (InputError `seed`), never reduced.
 */
export function seedHash(h: Hasher, seed: bigint): bigint {
  return h.hash([toField(seed, 'seed')]);
}

export function mapChunkInput(
  h: Hasher,
  b: Board,
  seed: bigint,
  map: MapCommitment,
  zone: number,
): MapChunkInput {
  if (!Number.isInteger(zone) || zone < 0 || zone >= b.zoneCount) {
    throw new InputError('zone', `${zone} is not a zone of this board (0..${b.zoneCount - 1})`);
  }
  return {
    zone: String(zone),
    seedHash: String(seedHash(h, seed)),
    seed: String(seed),
    zx: String(zone % b.zonesX),
    zy: String(Math.floor(zone / b.zonesX)),
    salts: map.salts.slice(zone * ZONE_LEAVES, (zone + 1) * ZONE_LEAVES).map(String),
  };
}

/** The 64 leaves of `zone` (zone-major): what the audit's zone challenges and their answers post. */
export function zoneLeaves(map: MapCommitment, zone: number): bigint[] {
  return map.tree.levels[0]!.slice(zone * ZONE_LEAVES, (zone + 1) * ZONE_LEAVES);
}

/** Root of each zone's subtree (ZONE_DEPTH levels): the public output of that zone's chunk proof. */
export function zoneRoots(map: MapCommitment, b: Board): bigint[] {
  return map.tree.levels[ZONE_DEPTH]!.slice(0, b.zoneCount);
}

/** Circuit input of the `maproot` proof. Seats past the game's players are zero. */
export interface MapRootInput {
  gameId: string;
  players: string[];
  shareCommits: string[];
  nPlayers: string;
  seedHash: string;
  root: string;
  zoneRoots: string[];
  shares: string[];
}

export function mapRootInput(
  h: Hasher,
  args: {
    maxPlayers: number;
    gameId: bigint;
    players: readonly bigint[];
    shares: readonly bigint[];
    map: MapCommitment;
    board: Board;
  },
): MapRootInput {
  const { maxPlayers, map, board } = args;
  // Refused, never reduced: the witness calculator would take p + x as x, and so would Poseidon.
  const gameId = toField(args.gameId, 'gameId');
  const players = args.players.map((p, i) => toField(p, `players.${i}`));
  const shares = args.shares.map((s, i) => toField(s, `shares.${i}`));
  if (players.length !== shares.length || players.length < 2 || players.length > maxPlayers) {
    throw new InputError(
      'players',
      `${players.length} players with ${shares.length} shares; need 2..${maxPlayers}, one share each`,
    );
  }
  const pad = (xs: readonly bigint[]) => [...xs, ...new Array(maxPlayers - xs.length).fill(0n)].map(String);
  const seed = h.hash([...shares]);
  return {
    gameId: String(gameId),
    players: pad(players),
    shareCommits: pad(players.map((p, i) => h.hash([gameId, p, shares[i]!]))),
    nPlayers: String(players.length),
    seedHash: String(seedHash(h, seed)),
    root: String(map.tree.root),
    zoneRoots: zoneRoots(map, board).map(String),
    shares: pad(shares),
  };
}
