/**
 * Many multiples `s·G` of one fixed point G (the BN254 G1 or G2 generator), for the development ptau.
 *
 * A generic scalar multiplication costs ~254 doublings and ~127 additions. With a fixed base we
 * precompute `d·2^(12w)·G` for every 12-bit digit d and window w (22 × 4,095 points, a fraction of a second), and
 * then `s·G` is one mixed addition per non-zero 12-bit digit of s: 22 at most, about 17× less work (8-bit digits
 * took 32, and ~30% more time). The group arithmetic is
 * the bn128 WebAssembly that ffjavascript builds (snarkjs's own), run here on our own instance and
 * memory so we can call its point functions directly, without a task queue per point.
 */

export type Group = 'g1' | 'g2';

/** Byte sizes of one coordinate and of affine/Jacobian points, per group. */
const N8 = { g1: 32, g2: 64 } as const;
/** Bits per digit, windows covering the 256 bits of a scalar, and non-zero digits per window. */
const BITS = 12;
const WINDOWS = Math.ceil(256 / BITS);
const DIGITS = 2 ** BITS - 1;

interface Exports {
  [fn: string]: (...args: number[]) => void;
}

export class FixedBaseMul {
  private readonly memory: WebAssembly.Memory;
  private readonly fn: Exports;
  /** First free byte of wasm memory (above the module's constants). */
  private readonly free: number;
  private readonly tables = new Map<Group, number>();
  /** End of the tables: scratch space for `mul` starts here. */
  private end = 0;

  private constructor(memory: WebAssembly.Memory, fn: Exports) {
    this.memory = memory;
    this.fn = fn;
    this.free = align(new Uint32Array(memory.buffer)[0]!);
  }

  /**
   * `code` is ffjavascript's bn128 wasm (`curve.tm.code` of a single-thread curve); `gens` are the
   * generators in ffjavascript's Jacobian Montgomery form (`curve.G1.g`, `curve.G2.g`).
   */
  static create(code: Uint8Array, gens: Record<Group, Uint8Array>): FixedBaseMul {
    const memory = new WebAssembly.Memory({ initial: 64 });
    const instance = new WebAssembly.Instance(new WebAssembly.Module(code as Uint8Array<ArrayBuffer>), {
      env: { memory },
    });
    const m = new FixedBaseMul(memory, instance.exports as unknown as Exports);
    m.end = m.free;
    for (const g of ['g1', 'g2'] as const) m.end = m.buildTable(g, gens[g], m.end);
    return m;
  }

  /** Affine points `s_i·G` in Montgomery little-endian form (ptau's LEM), one per 32-byte LE scalar. */
  mul(group: Group, scalars: Uint8Array): Uint8Array {
    const n8 = N8[group];
    const sJ = n8 * 3;
    const sA = n8 * 2;
    const n = scalars.length / 32;
    const table = this.tables.get(group)!;
    const pOut = align(this.end);
    const pAff = align(pOut + n * sJ);
    this.ensure(align(pAff + n * sA) + (2 * n + 2) * n8);
    const zero = this.fn[`${group}m_zero`]!;
    const addMixed = this.fn[`${group}m_addMixed`]!;
    for (let i = 0; i < n; i++) {
      const r = pOut + i * sJ;
      zero(r);
      const s = i * 32;
      for (let w = 0; w < WINDOWS; w++) {
        const d = digit(scalars, s, w * BITS);
        if (d !== 0) addMixed(r, table + (w * DIGITS + d - 1) * sA, r);
      }
    }
    this.toAffine(group, pOut, n, pAff);
    return new Uint8Array(this.memory.buffer, pAff, n * sA).slice();
  }

  /** Affine Montgomery little-endian points in snarkjs's uncompressed form (big-endian x, y), as hashes take them. */
  toUncompressed(group: Group, points: Uint8Array): Uint8Array {
    const sA = N8[group] * 2;
    const n = points.length / sA;
    const pIn = align(this.end);
    const pOut = align(pIn + n * sA);
    this.ensure(pOut + n * sA);
    new Uint8Array(this.memory.buffer).set(points, pIn);
    this.fn[`${group}m_batchLEMtoU`]!(pIn, n, pOut);
    return new Uint8Array(this.memory.buffer, pOut, n * sA).slice();
  }

  /**
   * `a − b` for two affine points (Montgomery little-endian), computed by the wasm's own affine subtraction and
   * returned uncompressed: snarkjs hashes H points this way, including one that is not on the curve (devzkey.ts).
   */
  subAffineU(group: Group, a: Uint8Array, b: Uint8Array): Uint8Array {
    const n8 = N8[group];
    const pA = align(this.end);
    const pB = align(pA + 2 * n8);
    const pJ = align(pB + 2 * n8);
    const pAff = align(pJ + 3 * n8);
    const pU = align(pAff + 2 * n8);
    this.ensure(pU + 2 * n8);
    const mem = new Uint8Array(this.memory.buffer);
    mem.set(a, pA);
    mem.set(b, pB);
    this.fn[`${group}m_subAffine`]!(pA, pB, pJ);
    this.toAffine(group, pJ, 1, pAff);
    this.fn[`${group}m_batchLEMtoU`]!(pAff, 1, pU);
    return new Uint8Array(this.memory.buffer, pU, 2 * n8).slice();
  }

  /** `d·2^(BITS·w)·G` for w < WINDOWS, 1 ≤ d ≤ DIGITS, as affine points; returns the end of the table. */
  private buildTable(group: Group, gen: Uint8Array, at: number): number {
    const n8 = N8[group];
    const sJ = n8 * 3;
    const sA = n8 * 2;
    const count = WINDOWS * DIGITS;
    const pJac = align(at);
    const pBase = align(pJac + count * sJ);
    const pTable = align(pBase + sJ);
    const end = align(pTable + count * sA);
    this.ensure(end + (2 * count + 2) * n8);
    new Uint8Array(this.memory.buffer).set(gen, pBase);
    const f = (name: string) => this.fn[`${group}m_${name}`]!;
    for (let w = 0; w < WINDOWS; w++) {
      const row = pJac + w * DIGITS * sJ;
      f('copy')(pBase, row);
      f('double')(pBase, row + sJ);
      for (let d = 3; d <= DIGITS; d++) f('add')(row + (d - 2) * sJ, pBase, row + (d - 1) * sJ);
      // The next row's base is 2^BITS·base = DIGITS·base + base.
      f('add')(row + (DIGITS - 1) * sJ, pBase, pBase);
    }
    this.toAffine(group, pJac, count, pTable);
    this.tables.set(group, pTable);
    return end;
  }

  /**
   * The wasm's batchToAffine takes its scratch space (2n+1 field elements, for a batch inversion) at
   * the module's free-memory pointer (word 0), so that pointer must first be moved above everything
   * we keep in memory.
   */
  private toAffine(group: Group, pIn: number, n: number, pOut: number): void {
    const n8 = N8[group];
    const scratch = align(pOut + n * n8 * 2);
    this.ensure(scratch + (2 * n + 2) * n8);
    new Uint32Array(this.memory.buffer)[0] = scratch;
    this.fn[`${group}m_batchToAffine`]!(pIn, n, pOut);
  }

  private ensure(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (bytes > have) this.memory.grow(Math.ceil((bytes - have) / 65536));
  }
}

const align = (p: number) => (p + 7) & ~7;

/** The BITS-bit digit at bit `bit` of the 32-byte little-endian scalar at `at` (bits past the scalar are 0). */
function digit(scalars: Uint8Array, at: number, bit: number): number {
  const byte = bit >> 3;
  let v = scalars[at + byte]!;
  if (byte + 1 < 32) v |= scalars[at + byte + 1]! << 8;
  if (byte + 2 < 32) v |= scalars[at + byte + 2]! << 16;
  return (v >> (bit & 7)) & DIGITS;
}

/** Scalars (already reduced mod r) as 32-byte little-endian words, the layout `mul` reads. */
export function scalarsLE(values: readonly bigint[]): Uint8Array {
  const out = new Uint8Array(values.length * 32);
  for (let i = 0; i < values.length; i++) {
    const be = Buffer.from(values[i]!.toString(16).padStart(64, '0'), 'hex');
    for (let j = 0; j < 32; j++) out[i * 32 + j] = be[31 - j]!;
  }
  return out;
}
