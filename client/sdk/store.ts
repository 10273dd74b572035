/**
 * Where a player's sealed state is kept between runs: bytes under an id. The vault (vault.ts) seals before
 * `put` and checks after `get`, so a store needs no secrecy of its own; it must not lose or tear a write.
 * Implementations: `MemoryStateStore` (tests), `IndexedDbStateStore` (browsers, store-indexeddb.ts),
 * `FileStateStore` (Node, client/node/file-store.ts: mode 0600, atomic).
 */
export interface StateStore {
  get(id: string): Promise<Uint8Array | null>;
  /** Replaces what `id` held, all or nothing. */
  put(id: string, bytes: Uint8Array): Promise<void>;
  delete(id: string): Promise<void>;
}

/** A store in this process's memory (tests; a page that wants no persistence). */
export class MemoryStateStore implements StateStore {
  readonly #items = new Map<string, Uint8Array>();

  async get(id: string): Promise<Uint8Array | null> {
    const v = this.#items.get(id);
    return v ? v.slice() : null;
  }

  async put(id: string, bytes: Uint8Array): Promise<void> {
    this.#items.set(id, bytes.slice());
  }

  async delete(id: string): Promise<void> {
    this.#items.delete(id);
  }
}
