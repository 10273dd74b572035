/**
 * Checked proving artifacts kept in IndexedDB between visits, by SHA-256: a zkey is downloaded once per
 * browser. The ArtifactStore re-hashes what `get` returns, so a corrupted entry is replaced, never used; a
 * browser without IndexedDB (or a private window refusing it) just downloads again.
 */
import type { ArtifactCache, ArtifactHash } from '@shroud/sdk';

const DB = 'shroud-artifacts';
const STORE = 'files';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB.open failed'));
  });
}

function run<T>(db: IDBDatabase, mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = f(db.transaction(STORE, mode).objectStore(STORE));
    req.onsuccess = () => resolve(req.result as T);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

export class IndexedDbArtifactCache implements ArtifactCache {
  #db: Promise<IDBDatabase> | null = null;

  #open(): Promise<IDBDatabase> {
    this.#db ??= open();
    this.#db.catch(() => {
      this.#db = null;
    });
    return this.#db;
  }

  async get(hash: ArtifactHash): Promise<Uint8Array | null> {
    const v = await run<unknown>(await this.#open(), 'readonly', (s) => s.get(hash));
    return v instanceof Uint8Array ? v : null;
  }

  async put(hash: ArtifactHash, bytes: Uint8Array): Promise<void> {
    await run(await this.#open(), 'readwrite', (s) => s.put(bytes, hash));
  }
}
