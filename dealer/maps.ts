import {
  commitMap,
  generateMap,
  type Hasher,
  leafCoord,
  leafIndex,
  type MapCommitment,
  masterCommitment,
  merklePath,
  shippedRuleset,
  type Tile,
  type ValidRuleset,
} from '../core/index.ts';
import type { ServedTile } from '../core/reveal-request.ts';
import { DEFAULT_CACHE_LIMITS } from './cache-limits.ts';
import { Lru } from './lru.ts';
import type { DealerStore } from './store/types.ts';

/** A dealt map held in memory: the tree plus each on-board leaf's reveal entry, serialized once. */
export interface DealtMap {
  ruleset: ValidRuleset;
  root: bigint;
  masterCommitment: bigint;
  commitment: MapCommitment;
  /** Zone-major leaf index → the JSON of its reveal entry (tile, salt, path); absent for off-board slots. */
  entries: ReadonlyMap<number, string>;
}

/** The wire form of a served tile (shared with the SDK). */
export type RevealEntry = ServedTile;

/** Builds the map from (seed, master secret): generation, salts, tree, then every path, once. */
export function buildDealtMap(
  h: Hasher,
  ruleset: ValidRuleset,
  seed: bigint,
  masterSecret: bigint,
): DealtMap {
  const b = ruleset.board;
  const tiles: Tile[] = generateMap(h, b, seed);
  const commitment = commitMap(h, b, tiles, masterSecret);
  const entries = new Map<number, string>();
  for (let row = 0; row < b.height; row++) {
    for (let col = 0; col < b.width; col++) {
      const leaf = leafIndex(b, { col, row });
      const t = tiles[row * b.width + col]!;
      const entry: RevealEntry = {
        leaf,
        col,
        row,
        terrain: t.terrain,
        feature: t.feature,
        resource: t.resource,
        rivers: t.rivers,
        salt: commitment.salts[leaf]!.toString(),
        path: merklePath(commitment.tree, leaf).map(String),
      };
      entries.set(leaf, JSON.stringify(entry));
    }
  }
  return {
    ruleset,
    root: commitment.tree.root,
    masterCommitment: masterCommitment(h, masterSecret),
    commitment,
    entries,
  };
}

/** True when `leaf` is an on-board tile of the ruleset's board (off-board slots are never served). */
export function isServableLeaf(ruleset: ValidRuleset, leaf: number): boolean {
  return leafCoord(ruleset.board, leaf) !== null;
}

/**
 * Dealt maps by game, built lazily from the secrets in the store (so a restarted dealer rebuilds on the
 * first reveal) and kept in memory, the `max` most recently used ones (config `caches.maps`): an evicted
 * map is rebuilt from the store on its next use. Concurrent requests share one build.
 */
export class MapCache {
  readonly #h: Hasher;
  readonly #store: DealerStore;
  readonly #maps: Lru<string, Promise<DealtMap>>;

  constructor(h: Hasher, store: DealerStore, max = DEFAULT_CACHE_LIMITS.maps) {
    this.#h = h;
    this.#store = store;
    this.#maps = new Lru({ max });
  }

  /** Maps held (built or being built). */
  get size(): number {
    return this.#maps.size;
  }

  get(gameId: bigint): Promise<DealtMap> {
    const key = gameId.toString();
    let m = this.#maps.get(key);
    if (!m) {
      const built = this.#build(gameId);
      this.#maps.set(key, built);
      // A failed build is retried by the next caller (unless a newer build already took its place).
      built.catch(() => {
        if (this.#maps.peek(key) === built) this.#maps.delete(key);
      });
      m = built;
    }
    return m;
  }

  async #build(gameId: bigint): Promise<DealtMap> {
    const [game, secrets] = await Promise.all([this.#store.getGame(gameId), this.#store.getSecrets(gameId)]);
    if (!game || !secrets) throw new Error(`game ${gameId} has no stored secrets to build a map from`);
    return buildDealtMap(this.#h, shippedRuleset(game.ruleset), secrets.seed, secrets.masterSecret);
  }
}
