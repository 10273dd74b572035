declare module 'circomlibjs' {
  interface PoseidonField {
    toObject(x: Uint8Array): bigint;
    e(x: bigint | number | string): Uint8Array;
  }
  interface PoseidonFn {
    (inputs: bigint[], initState?: bigint, nOut?: number): Uint8Array;
    F: PoseidonField;
  }
  export function buildPoseidon(): Promise<PoseidonFn>;
  export function buildPoseidonReference(): Promise<PoseidonFn>;
  export function buildPoseidonOpt(): Promise<PoseidonFn>;
  export const poseidonContract: {
    createCode(nInputs: number): string;
    generateABI(nInputs: number): unknown[];
  };
}
