/**
 * The client SDK: browser-safe (no node: imports), pure except for the dealer client's and the artifact
 * store's fetch. Provers (prover.ts: snarkjs) and the Node artifact cache (client/node/artifacts.ts) are imported
 * from their own modules.
 */

export * from './artifacts.ts';
export * from './audit.ts';
export * from './chain.ts';
export * from './closing.ts';
export * from './dealer-client.ts';
export * from './emitter.ts';
export * from './errors.ts';
export * from './game-player.ts';
export * from './http-body.ts';
export * from './lobby-client.ts';
export * from './observation.ts';
export * from './player.ts';
export * from './snapshot.ts';
export * from './store.ts';
export * from './store-indexeddb.ts';
export * from './tiles.ts';
export * from './typed-contract.ts';
export * from './vault.ts';
export * from './zone-roots.ts';
