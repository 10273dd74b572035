/** A Groth16 proof with its public signals, as snarkjs produces and verifies it. */
export interface Groth16Proof {
  proof: {
    pi_a: string[];
    pi_b: string[][];
    pi_c: string[];
    protocol: string;
    curve: string;
  };
  publicSignals: string[];
}

/** The ZK map proof of one game: one chunk proof per zone and the root proof tying them to the ceremony. */
export interface MapProof {
  chunks: Groth16Proof[];
  root: Groth16Proof;
}

/** Compiled circuit files a prover needs. */
export interface ProverArtifacts {
  wasm: string;
  zkey: string;
}
