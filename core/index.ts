/** The protocol core: pure, no I/O. Dealer, client, scripts and tests all import from here. */
export * from './commitments.ts';
export * from './errors.ts';
export * from './field.ts';
export * from './generator/index.ts';
export * from './geometry.ts';
export * from './maptree.ts';
export * from './merkle.ts';
export * from './poseidon.ts';
export * from './reveal-request.ts';
export * from './ruleset/hash.ts';
export * from './ruleset/shipped.ts';
export type * from './ruleset/types.ts';
export * from './ruleset/validate.ts';
export * from './sealed.ts';
export * from './state.ts';
export * from './tile.ts';
export * from './witness/index.ts';
