/**
 * The map proof's public signals, in the circuits' order (circuits/map/, and MapProofRegistry's `_signals` for
 * the root): the one place the dealer, the clients and the tests read them from.
 */
import { InputError } from '../errors.ts';

/** maproot: gameId, players[M], shareCommits[M], nPlayers, seedHash, root, zoneRoots[Z] (decimal strings). */
export interface MapRootSignals {
  gameId: string;
  players: string[];
  shareCommits: string[];
  nPlayers: string;
  seedHash: string;
  root: string;
  zoneRoots: string[];
}

/** How many signals a maproot proof has for `maxPlayers` seats and `zones` zones. */
export const mapRootSignalCount = (maxPlayers: number, zones: number): number => 2 * maxPlayers + 4 + zones;

/** Names a maproot proof's signals; an InputError unless there are exactly as many as the ruleset's circuit has. */
export function mapRootSignals(s: readonly string[], maxPlayers: number, zones: number): MapRootSignals {
  const M = maxPlayers;
  const n = mapRootSignalCount(M, zones);
  if (s.length !== n) throw new InputError('publicSignals', `${s.length} maproot signals, expected ${n}`);
  return {
    gameId: s[0]!,
    players: s.slice(1, 1 + M),
    shareCommits: s.slice(1 + M, 1 + 2 * M),
    nPlayers: s[1 + 2 * M]!,
    seedHash: s[2 + 2 * M]!,
    root: s[3 + 2 * M]!,
    zoneRoots: s.slice(4 + 2 * M),
  };
}

/** mapchunk: zoneRoot (its output), zone, seedHash. */
export interface MapChunkSignals {
  zoneRoot: string;
  zone: string;
  seedHash: string;
}

/** Names a mapchunk proof's signals; an InputError unless there are three. */
export function mapChunkSignals(s: readonly string[]): MapChunkSignals {
  if (s.length !== 3) throw new InputError('publicSignals', `${s.length} mapchunk signals, expected 3`);
  return { zoneRoot: s[0]!, zone: s[1]!, seedHash: s[2]! };
}
