declare module 'snarkjs' {
  type Signals = string[];
  interface Proof {
    pi_a: string[];
    pi_b: string[][];
    pi_c: string[];
    protocol: string;
    curve: string;
  }
  type Wtns = string | { type: 'mem'; data?: Uint8Array };
  export const groth16: {
    fullProve(
      input: Record<string, unknown>,
      wasm: string | Uint8Array,
      zkey: string | Uint8Array,
      logger?: unknown,
      wtnsCalcOptions?: unknown,
      proverOptions?: { singleThread?: boolean },
    ): Promise<{ proof: Proof; publicSignals: Signals }>;
    prove(
      zkey: string | Uint8Array,
      wtns: Wtns,
      logger?: unknown,
      options?: { singleThread?: boolean },
    ): Promise<{ proof: Proof; publicSignals: Signals }>;
    verify(vkey: object, publicSignals: Signals, proof: Proof, logger?: unknown): Promise<boolean>;
    exportSolidityCallData(proof: Proof, publicSignals: Signals): Promise<string>;
  };
  export const wtns: {
    calculate(
      input: Record<string, unknown>,
      wasm: string | Uint8Array,
      out: Wtns,
      options?: unknown,
    ): Promise<void>;
    exportJson(wtns: Wtns): Promise<bigint[]>;
    check(r1cs: string, wtns: Wtns, logger?: unknown): Promise<boolean>;
  };
  /** The curve snarkjs verifies on (ffjavascript's, one per process unless single-threaded). */
  export const curves: {
    getCurveFromName(
      name: string,
      options?: { singleThread?: boolean },
    ): Promise<import('ffjavascript').Curve>;
  };
  /** Powers-of-tau and zkey tools (the development ptau test checks its files with them). */
  export const powersOfTau: {
    preparePhase2(oldPtau: string, newPtau: string, logger?: unknown): Promise<void>;
    verify(ptau: string, logger?: unknown): Promise<boolean>;
  };
  export const zKey: {
    newZKey(r1cs: string, ptau: string, zkey: string, logger?: unknown): Promise<unknown>;
    verifyFromR1cs(r1cs: string, ptau: string, zkey: string, logger?: unknown): Promise<boolean>;
    exportVerificationKey(zkey: string, logger?: unknown): Promise<object>;
    beacon(
      oldZkey: string,
      newZkey: string,
      name: string,
      beaconHashHex: string,
      numIterationsExp: number,
      logger?: unknown,
    ): Promise<unknown>;
  };
}
