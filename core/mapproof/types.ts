/** A Groth16 proof with its public signals, as snarkjs produces and verifies it (every circuit, not only the map's). */
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

/** A Groth16 proof as the contracts take it (`b` coordinates swapped, as snarkjs' Solidity calldata). */
export interface SolidityProof {
  a: [bigint, bigint];
  b: [[bigint, bigint], [bigint, bigint]];
  c: [bigint, bigint];
}

/** snarkjs proof → the contracts' struct. */
export function toSolidityProof(p: { pi_a: string[]; pi_b: string[][]; pi_c: string[] }): SolidityProof {
  return {
    a: [BigInt(p.pi_a[0]!), BigInt(p.pi_a[1]!)],
    b: [
      [BigInt(p.pi_b[0]![1]!), BigInt(p.pi_b[0]![0]!)],
      [BigInt(p.pi_b[1]![1]!), BigInt(p.pi_b[1]![0]!)],
    ],
    c: [BigInt(p.pi_c[0]!), BigInt(p.pi_c[1]!)],
  };
}
