/** The slice of ffjavascript 0.2/0.3 the development ptau generator and the batch verifier use (no shipped types). */
declare module 'ffjavascript' {
  /** A point or field element in ffjavascript's internal (Montgomery) byte form. */
  type Elem = Uint8Array;
  interface WasmGroup {
    g: Elem;
    /** The point at infinity (Jacobian). */
    zero: Elem;
    F: { n8: number };
    toAffine(p: Elem): Elem;
    timesFr(p: Elem, s: Elem): Elem;
    timesScalar(p: Elem, s: bigint): Elem;
    add(a: Elem, b: Elem): Elem;
    neg(p: Elem): Elem;
    isZero(p: Elem): boolean;
    /** On the curve (the point at infinity included); no subgroup check. */
    isValid(p: Elem): boolean;
    /** Affine coordinates (bigints; G2's as Fq2 pairs), optionally with z. */
    fromObject(p: readonly unknown[]): Elem;
    /** The coordinates as bigints (Fq2 pairs for G2), z included: call `toAffine` first for x, y, 1. */
    toObject(p: Elem): unknown[];
    /** The curve's b (y² = x³ + b). */
    b: Elem;
    batchLEMtoC(buff: Uint8Array): Promise<Uint8Array>;
    batchLEMtoU(buff: Uint8Array): Promise<Uint8Array>;
    toRprLEM(buff: Uint8Array, pos: number, p: Elem): void;
    toRprUncompressed(buff: Uint8Array, pos: number, p: Elem): void;
    fromRprLEM(buff: Uint8Array, pos?: number): Elem;
    eq(a: Elem, b: Elem): boolean;
    fromRng(rng: ChaCha): Elem;
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
    F2: {
      n8: number;
      fromObject(a: readonly [bigint, bigint]): Elem;
      add(a: Elem, b: Elem): Elem;
      mul(a: Elem, b: Elem): Elem;
      square(a: Elem): Elem;
      isSquare(a: Elem): boolean;
      sqrt(a: Elem): Elem;
    };
    r: bigint;
    q: bigint;
    tm: { code?: Uint8Array };
    /** Whether Π e(g1ᵢ, g2ᵢ) = 1 for the arguments g1₀, g2₀, g1₁, g2₁, …: Miller loops, one final exponentiation. */
    pairingEq(...points: Elem[]): Promise<boolean>;
    terminate(): Promise<void>;
  }
  export function buildBn128(singleThread?: boolean): Promise<Curve>;
  export class ChaCha {
    constructor(seed?: number[]);
    nextU32(): number;
  }
}
