/**
 * The generated verifiers' manifest (`contracts/generated/`: manifest.json per ruleset, seal.json for the
 * sealed-share circuit), written by `scripts/contracts/verifiers.ts` or a ceremony's finalize and read by the
 * deploy plan and the dealer's artifact routes: one definition of its shape, below every reader.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RulesetShape } from './ignition/plan.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GENERATED_DIR = path.join(ROOT, 'contracts', 'generated');

/** The circuits the game verifies, in the registry's circuit-id order (0 spawn, 1 turn, 2 attack, 3 combat). */
export const PLAY_CIRCUITS = ['spawn', 'turn', 'attack', 'combat'] as const;
export type PlayCircuit = (typeof PLAY_CIRCUITS)[number];
/** Every circuit with an on-chain verifier: the play circuits plus `maproot` (id 4, checked by MapProofRegistry). */
export const VERIFIED_CIRCUITS = [...PLAY_CIRCUITS, 'maproot'] as const;
export type VerifiedCircuit = (typeof VERIFIED_CIRCUITS)[number];
export { CIRCUIT_ID } from '../core/circuits.ts';

/** A shipped ruleset as the registry takes it (the shape is the deploy plan's: one definition). */
export interface RulesetInfo extends RulesetShape {
  name: string;
}

/**
 * A phase-2 contribution to a zkey, as the ceremony's finalize records it: `hash` is the contribution hash
 * `snarkjs zkey verify` prints, `address` the signer of the contributor's attestation.
 */
export interface Contribution {
  name: string;
  hash: string;
  address: string;
}

/**
 * Where a verifier's keys come from, recorded by a phase-2 ceremony's finalize (scripts/ceremony/): SHA-256 of
 * the files (0x-prefixed lowercase hex; the zkey and wasm hashes are what clients check on-chain), the
 * contributors' attestations and the closing public beacon. Optional: development builds may lack them.
 */
export interface KeyProvenance {
  zkeySha256?: string;
  wasmSha256?: string;
  r1csSha256?: string;
  vkeySha256?: string;
  /** In order (absent: none recorded; the deploy refuses such a key off the local chain). */
  contributions?: Contribution[];
  /** The public beacon applied last (`iterations` is snarkjs's numIterationsExp: 2^N hash rounds). */
  beacon?: { hash: string; iterations: number } | null;
}

export interface GeneratedVerifier extends KeyProvenance {
  contract: string;
  nPublic: number;
  selector: string;
  /** The keys come from the INSECURE development ptau: deployable on the local chain (31337) only. */
  devKeys: boolean;
  vkey: string;
  zkey: string;
  wasm: string;
}

export interface GeneratedRuleset extends RulesetInfo {
  hash: string;
  verifiers: Partial<Record<VerifiedCircuit, GeneratedVerifier>>;
}

/** The manifest of generated verifiers ({} when none were generated). */
export function readManifest(dir = GENERATED_DIR): Record<string, GeneratedRuleset> {
  const f = path.join(dir, 'manifest.json');
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Record<string, GeneratedRuleset>) : {};
}

/** The sealed-share verifier: one per deployment, whatever the rulesets (circuits/seal.circom). */
export const SEAL_CONTRACT = 'SealVerifier';
/** Its public signals: sealContext = Poseidon(gameId, dealerKey), player, commitment, ephemeralY, ciphertext. */
export const SEAL_PUBLIC_SIGNALS = 5;

export interface SealArtifacts extends KeyProvenance {
  contract: typeof SEAL_CONTRACT;
  nPublic: typeof SEAL_PUBLIC_SIGNALS;
  /** `verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[8])`. */
  selector: string;
  /** Absolute paths of the copies under contracts/generated/seal/, from the setup the verifier was exported from. */
  vkey: string;
  zkey: string;
  wasm: string;
  /** True when the keys come from the INSECURE development ptau (deployable on the local chain only). */
  devKeys: boolean;
}

/** The generated seal verifier (contracts/generated/seal.json, written by verifiers.ts); throws when absent. */
export function readSealArtifacts(dir = GENERATED_DIR): SealArtifacts {
  const f = path.join(dir, 'seal.json');
  if (!existsSync(f))
    throw new Error(
      `${f} not found: run node scripts/contracts/verifiers.ts --ruleset NAME (it builds the seal verifier)`,
    );
  const a = JSON.parse(readFileSync(f, 'utf8')) as SealArtifacts;
  if (a.contract !== SEAL_CONTRACT || a.nPublic !== SEAL_PUBLIC_SIGNALS)
    throw new Error(`${f}: expected ${SEAL_CONTRACT} with ${SEAL_PUBLIC_SIGNALS} public signals`);
  return a;
}
