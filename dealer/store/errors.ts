/**
 * The store's database cannot be reached, opened or migrated, so the dealer cannot run. The message
 * names the server (host, port, database), never its credentials.
 */
export class StoreOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreOpenError';
  }
}
