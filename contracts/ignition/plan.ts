/**
 * What a Shroud deployment deploys, as plain data. The Ignition modules (./modules/) are built from a plan, so
 * nothing under contracts/ reads the generated manifest: scripts/contracts/plan.ts builds the plan from it.
 */
import type { ArtifactHashes } from '../../core/artifacts.ts';

/** Poseidon arities deployed: 1 to 6 (masterCommitment, tree/salt/lattice, C_i, leaf, seed of 2..6 shares). */
export const POSEIDON_ARITIES = [1, 2, 3, 4, 5, 6] as const;

/** ShroudGame's linked libraries (contracts/game/), each a concern of the protocol. */
export const GAME_LIBRARIES = [
  'ShroudAudit',
  'ShroudCeremony',
  'ShroudDisputes',
  'ShroudForceOpen',
  'ShroudSettlement',
] as const;
export type GameLibrary = (typeof GAME_LIBRARIES)[number];

/** A ruleset as `VerifierRegistry.registerRuleset` takes it (after its hash). */
export interface RulesetShape {
  /** 0 hex, 1 square. */
  kind: number;
  width: number;
  height: number;
  maxPlayers: number;
  /** Combat damage (the `damage` public input of every combat proof). */
  damage: number;
  /** `provePassability`: turn proofs check destinations against the map root bound in the play commitment. */
  passability: boolean;
  /** Tiles a turn may reveal: the size of a reveal list a dispute opens on-chain. */
  maxRevealedTiles: number;
  /** Its start areas as `VerifierRegistry.setStartAreas` takes them (core `packStartAreas`), decimal. */
  startAreas: string;
}

/** A generated Groth16 verifier: deployed, set in the registry at its circuit id, its artifact hashes beside it. */
export interface VerifierPlan {
  /** Compiled contract name (e.g. `TinyTurnVerifier`). */
  contract: string;
  /** Registry circuit id: 0 spawn, 1 turn, 2 attack, 3 combat, 4 maproot. */
  circuitId: number;
  /** `verifyProof(…,uint256[nPublic])` selector. */
  selector: string;
  nPublic: number;
  /** SHA-256 of the zkey and wasm the verifier was exported with (registered on-chain, write-once). */
  artifacts: ArtifactHashes;
}

export interface RulesetPlan extends RulesetShape {
  /** Shipped name (`tiny`, `duel`…): names the Ignition module and the record's entry. */
  name: string;
  /** On-chain ruleset id (core `rulesetHash`). */
  hash: string;
  /** By circuit name (`spawn`, `turn`, `attack`, `combat`, `maproot`). */
  verifiers: Record<string, VerifierPlan>;
}

/**
 * The sealed-share verifier ShroudGame checks sealed reveals with: the generated `SealVerifier` (its artifact
 * hashes registered too) or `MockVerifier` (contract tests that craft their own "proofs"; nothing registered).
 */
export interface SealPlan {
  contract: string;
  artifacts?: ArtifactHashes;
}

export interface DeployPlan {
  seal: SealPlan;
  rulesets: RulesetPlan[];
}
