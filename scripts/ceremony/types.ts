/**
 * What a phase-2 ceremony folder records (`ceremony.json`). The folder travels from contributor to
 * contributor, so every path in it is relative to the folder. Hash formats: SHA-256 as 0x-prefixed
 * lowercase hex (what clients check on-chain); blake2b-512 (the ptau's, and the contribution hashes
 * `snarkjs zkey verify` prints) as 128 lowercase hex digits, as snarkjs and the Hermez table print them.
 */
import type { CeremonyCircuit } from './circuits.ts';

export const CEREMONY_FILE = 'ceremony.json';
/** snarkjs and circom output of every step, appended; the terminal only shows progress. */
export const CEREMONY_LOG = 'ceremony.log';

/** One contributor's step on one circuit, with the attestation they signed. */
export interface ContributionRecord {
  /** 1-based position in the zkey's contribution list. */
  index: number;
  name: string;
  /** The contribution hash (blake2b-512 hex). */
  hash: string;
  /** SHA-256 of the zkey the contribution was applied to. */
  prev: string;
  /** SHA-256 of the zkey it produced. */
  zkeySha256: string;
  /** The attestation's signer and its EIP-191 signature of `attestationText` (attest.ts). */
  address: string;
  signature: string;
}

/** The public random beacon applied last (snarkjs `zkey beacon`). */
export interface BeaconRecord {
  /** The beacon value, e.g. a future block hash (hex, no 0x). */
  hash: string;
  /** snarkjs's numIterationsExp: 2^N rounds of hashing. */
  iterations: number;
  /** Its contribution hash in the zkey. */
  contributionHash: string;
  prev: string;
  zkeySha256: string;
}

export interface CircuitRecord {
  /** `tiny/spawn`, or `seal` for the ruleset-independent circuit. */
  id: string;
  circuit: CeremonyCircuit;
  /** The ruleset, or null for `seal`. */
  ruleset: string | null;
  constraints: number;
  /** Smallest ptau power the circuit needs. */
  power: number;
  publicSignals: number;
  r1cs: string;
  r1csSha256: string;
  wasm: string;
  wasmSha256: string;
  /** SHA-256 of the zkey `zkey new` made: the first contribution's `prev`. */
  initialSha256: string;
  /** The latest zkey, the one the next step builds on. */
  zkey: string;
  zkeySha256: string;
  contributions: ContributionRecord[];
  beacon: BeaconRecord | null;
}

export interface PtauRecord {
  /** The published name when the hash is a Hermez file's, else the file's own name. */
  name: string;
  /** Where init read it (absolute, on the coordinator's machine); verify and finalize take `--ptau`. */
  path: string;
  blake2b: string;
  power: number;
  published: boolean;
}

export interface CeremonyRecord {
  version: 1;
  ptau: PtauRecord;
  /** Started with `--dev` on an unpublished ptau: the keys are development keys (local chains only). */
  dev: boolean;
  /** The on-chain hash of each ruleset at init (finalize refuses a ruleset that changed since). */
  rulesets: Record<string, string>;
  circuits: CircuitRecord[];
}
