declare module 'circomlibjs' {
  interface PoseidonField {
    toObject(x: Uint8Array): bigint;
    e(x: bigint | number | string): Uint8Array;
  }
  interface PoseidonFn {
    (inputs: bigint[], initState?: bigint, nOut?: number): Uint8Array;
    F: PoseidonField;
  }
  /** circomlibjs' Baby Jubjub (field elements are opaque WASM values; convert with F.e / F.toObject). */
  type BabyJubElement = Uint8Array;
  type BabyJubPoint = [BabyJubElement, BabyJubElement];
  interface BabyJubField {
    e(x: bigint | number | string): BabyJubElement;
    toObject(x: BabyJubElement): bigint;
    sqrt(x: BabyJubElement): BabyJubElement | null;
    div(a: BabyJubElement, b: BabyJubElement): BabyJubElement;
    sub(a: BabyJubElement, b: BabyJubElement): BabyJubElement;
    mul(a: BabyJubElement, b: BabyJubElement): BabyJubElement;
    square(a: BabyJubElement): BabyJubElement;
    one: BabyJubElement;
  }
  interface BabyJub {
    F: BabyJubField;
    Base8: BabyJubPoint;
    subOrder: bigint;
    A: BabyJubElement;
    D: BabyJubElement;
    addPoint(a: BabyJubPoint, b: BabyJubPoint): BabyJubPoint;
    mulPointEscalar(base: BabyJubPoint, e: bigint): BabyJubPoint;
    inCurve(p: BabyJubPoint): boolean;
    inSubgroup(p: BabyJubPoint): boolean;
  }
  export function buildBabyjub(): Promise<BabyJub>;
  export function buildPoseidon(): Promise<PoseidonFn>;
  export function buildPoseidonReference(): Promise<PoseidonFn>;
  export function buildPoseidonOpt(): Promise<PoseidonFn>;
  export const poseidonContract: {
    createCode(nInputs: number): string;
    generateABI(nInputs: number): unknown[];
  };
}
