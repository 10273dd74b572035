/**
 * The verified circuits' on-chain vocabulary (contracts/VerifierRegistry.sol): their registry ids and the version
 * of their public interface. test/contracts/limits.test.ts checks both against the contracts.
 */

/** Registry circuit ids: the play circuits 0..3, then `maproot` (checked by MapProofRegistry). The sealed-share
 *  circuit has none: ShroudGame holds its verifier. */
export const CIRCUIT_ID = { spawn: 0, turn: 1, attack: 2, combat: 3, maproot: 4 } as const;

/**
 * `VerifierRegistry.CIRCUITS_VERSION`: the play circuits' public interface. A ShroudGame takes only a registry of
 * its own version (ruleset hashes name no circuit version). Bumped whenever a circuit's public signals change
 * meaning: 1 separate state and reveal commitments, 2 play commitments, 3 play commitments binding the map root
 * (the spawn takes the root, the turn no longer does).
 */
export const CIRCUITS_VERSION = 3;
