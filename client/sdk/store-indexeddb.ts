/**
 * A `StateStore` in the browser's IndexedDB: one object store of byte arrays by id. Writes are committed with
 * `durability: 'strict'` (flushed to disk before the transaction completes), so a state saved before a
 * transaction was sent survives a tab crash or a reload. Browser-only at run time, but imports nothing.
 */
import type { StateStore } from './store.ts';

const OBJECT_STORE = 'player-state';

export interface IndexedDbStateStoreOptions {
  /** Database name (default `shroud`). */
  database?: string;
  /** The IDBFactory (default the page's `indexedDB`). */
  factory?: IDBFactory;
}

/** IndexedDB failed or is unavailable (private windows, blocked storage): nothing was written. */
export class StateStoreError extends Error {
  constructor(message: string, cause?: unknown) {
    super(`state store: ${message}`, { cause });
    this.name = 'StateStoreError';
  }
}

const promised = <T>(req: IDBRequest<T>, what: string): Promise<T> =>
  new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(new StateStoreError(`${what}: ${req.error?.message ?? 'failed'}`, req.error));
  });

export class IndexedDbStateStore implements StateStore {
  readonly database: string;
  readonly #factory: IDBFactory | undefined;
  #db: Promise<IDBDatabase> | null = null;

  constructor(o: IndexedDbStateStoreOptions = {}) {
    this.database = o.database ?? 'shroud';
    this.#factory = o.factory ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  }

  #open(): Promise<IDBDatabase> {
    const factory = this.#factory;
    if (!factory) return Promise.reject(new StateStoreError('IndexedDB is not available here'));
    this.#db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(this.database, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(OBJECT_STORE);
      req.onsuccess = () => {
        const db = req.result;
        // Another tab upgrading the database: let it, and reopen on the next call.
        db.onversionchange = () => {
          db.close();
          this.#db = null;
        };
        resolve(db);
      };
      req.onerror = () =>
        reject(new StateStoreError(`open ${this.database}: ${req.error?.message}`, req.error));
      req.onblocked = () => reject(new StateStoreError(`open ${this.database}: blocked by another tab`));
    }).catch((e) => {
      this.#db = null;
      throw e;
    });
    return this.#db;
  }

  async #run<T>(mode: IDBTransactionMode, what: string, f: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const db = await this.#open();
    const tx = db.transaction(OBJECT_STORE, mode, { durability: 'strict' });
    const result = promised(f(tx.objectStore(OBJECT_STORE)), what);
    // A write counts once its transaction committed, not when its request succeeded.
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () =>
        reject(new StateStoreError(`${what}: ${tx.error?.message ?? 'aborted'}`, tx.error));
    });
    return result;
  }

  async get(id: string): Promise<Uint8Array | null> {
    const v = await this.#run('readonly', `get ${id}`, (s) => s.get(id));
    if (v === undefined) return null;
    if (!(v instanceof Uint8Array)) throw new StateStoreError(`get ${id}: not bytes`);
    return v;
  }

  async put(id: string, bytes: Uint8Array): Promise<void> {
    await this.#run('readwrite', `put ${id}`, (s) => s.put(bytes.slice(), id));
  }

  async delete(id: string): Promise<void> {
    await this.#run('readwrite', `delete ${id}`, (s) => s.delete(id));
  }

  /** Closes the connection (tests; a page leaving). */
  async close(): Promise<void> {
    const db = await this.#db?.catch(() => null);
    db?.close();
    this.#db = null;
  }
}
