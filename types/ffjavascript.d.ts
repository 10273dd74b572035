/** The slice of ffjavascript 0.2/0.3 the development ptau generator uses (the package ships no types). */
declare module 'ffjavascript' {
  /** A point or field element in ffjavascript's internal (Montgomery) byte form. */
  type Elem = Uint8Array;
  interface WasmGroup {
    g: Elem;
    F: { n8: number };
    toAffine(p: Elem): Elem;
    timesFr(p: Elem, s: Elem): Elem;
    batchLEMtoC(buff: Uint8Array): Promise<Uint8Array>;
    batchLEMtoU(buff: Uint8Array): Promise<Uint8Array>;
    toRprLEM(buff: Uint8Array, pos: number, p: Elem): void;
    fromRprLEM(buff: Uint8Array, pos?: number): Elem;
    eq(a: Elem, b: Elem): boolean;
  }
  interface WasmField {
    n8: number;
    one: Elem;
    /** `w[k]` is a primitive 2^k-th root of unity. */
    w: Elem[];
    e(v: bigint | number | string): Elem;
    toObject(a: Elem): bigint;
    fromRng(rng: ChaCha): Elem;
  }
  export interface Curve {
    G1: WasmGroup;
    G2: WasmGroup;
    Fr: WasmField;
    F1: { n8: number; n64: number };
    F2: { n8: number };
    r: bigint;
    q: bigint;
    tm: { code?: Uint8Array };
    terminate(): Promise<void>;
  }
  export function buildBn128(singleThread?: boolean): Promise<Curve>;
  export class ChaCha {
    constructor(seed?: number[]);
    nextU32(): number;
  }
}
