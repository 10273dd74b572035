/**
 * INSECURE development powers of tau, in seconds instead of minutes.
 *
 * The file is a regular prepared (phase 2) snarkjs ptau with one contribution: a *beacon* whose hash
 * is a fixed public string, so anyone can recompute tau, alpha and beta. That is exactly what makes
 * it fast: knowing the secrets, every point of every section is `s·G` for a scalar s computed in the
 * field, so the Lagrange sections (12–15) that `snarkjs powersoftau prepare phase2` derives with FFTs
 * over group elements are here one fixed-base multiplication per point. Keys set up on it prove and
 * verify like any others, and forge just as easily: never deploy them beyond a local chain
 * (scripts/deploy.ts refuses them elsewhere).
 *
 * Byte-for-byte the same file as snarkjs `powersoftau new` + `beacon` (this beacon) + `prepare
 * phase2`; `test/circuits/devptau.test.ts` checks it against snarkjs.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Curve } from 'ffjavascript';
import { FixedBaseMul, type Group, scalarsLE } from './fixedbase.ts';
import {
  type Contribution,
  type SnarkFd,
  type SnarkjsInternals,
  snarkjsInternals,
} from './snarkjs-internals.ts';

/** The public beacon: its SHA-256 seeds every secret of the setup. */
export const DEV_BEACON = 'shroud development powers of tau: INSECURE, the toxic waste is public';
/** The contribution's name as stored in the file (snarkjs keeps 64 bytes). */
export const DEV_CONTRIBUTION_NAME = 'INSECURE shroud dev ptau: toxic waste is public';
const ITERATIONS_EXP = 10;

/** `pot14.dev.ptau`: the name says what it is wherever the file travels. */
export const devPtauName = (power: number) => `pot${power}.dev.ptau`;

export interface DevPtauOptions {
  log?: (m: string) => void;
  /** Fraction of the work done, 0..1 (points weighted by their cost). */
  onProgress?: (done: number) => void;
}

/** Writes the development ptau of `power` to `file` (atomically: a temp file, then a rename). */
export async function generateDevPtau(power: number, file: string, o: DevPtauOptions = {}): Promise<void> {
  if (!Number.isInteger(power) || power < 1 || power > 20) throw new Error(`dev ptau power ${power}: 1..20`);
  o.log?.(`INSECURE development setup: the toxic waste is public (power ${power}, ${path.basename(file)})`);
  const snark = await snarkjsInternals();
  const curve = await snark.getCurve();
  const fb = FixedBaseMul.create(curve.tm.code!, { g1: curve.G1.g, g2: curve.G2.g });
  const r = curve.r;
  const progress = progressOf(power, o.onProgress);
  const mul = async (g: Group, scalars: bigint[]): Promise<Uint8Array> => {
    const out: Uint8Array[] = [];
    for (let i = 0; i < scalars.length; i += CHUNK) {
      const part = scalars.slice(i, i + CHUNK);
      out.push(fb.mul(g, scalarsLE(part)));
      progress.add(g, part.length);
      // Let timers run (the progress display) between chunks of this CPU-bound loop.
      await new Promise((r) => setImmediate(r));
    }
    return concat(out);
  };

  const { challenge, beaconHash, key, tau, alpha, beta } = await devSecrets(snark, curve, power);

  // Sections 2–6: powers of tau, in G1 (2^(n+1) − 1 of them) and G2, times alpha and beta.
  const n = 2 ** power;
  const powers = geometric(1n, tau, 2 * n - 1, r);
  const s2 = await mul('g1', powers);
  const s3 = await mul('g2', powers.slice(0, n));
  const s4 = await mul('g1', scale(powers.slice(0, n), alpha, r));
  const s5 = await mul('g1', scale(powers.slice(0, n), beta, r));
  const s6 = await mul('g2', [beta]);

  // The contribution record: response hash over compressed points, next challenge over uncompressed.
  const response = snark.blake2b().update(challenge);
  const pointSections: [Group, Uint8Array][] = [
    ['g1', s2],
    ['g2', s3],
    ['g1', s4],
    ['g1', s5],
    ['g2', s6],
  ];
  for (const [g, s] of pointSections) response.update(await groupOf(curve, g).batchLEMtoC(s));
  const partialHash = snark.toPartialHash(response);
  const pubKey = new Uint8Array(curve.F1.n8 * 2 * 6 + curve.F2.n8 * 2 * 3);
  snark.toPtauPubKeyRpr(pubKey, 0, curve, key, false);
  const hashResponse = response.update(pubKey).digest();
  const next = snark.blake2b().update(hashResponse);
  for (const [g, s] of pointSections) next.update(await groupOf(curve, g).batchLEMtoU(s));
  const contribution: Contribution = {
    name: DEV_CONTRIBUTION_NAME,
    type: 1,
    numIterationsExp: ITERATIONS_EXP,
    beaconHash,
    key,
    tauG1: s2.slice(64, 128),
    tauG2: s3.slice(128, 256),
    alphaG1: s4.slice(0, 64),
    betaG1: s5.slice(0, 64),
    betaG2: s6.slice(0, 128),
    partialHash,
    nextChallenge: next.digest(),
  };

  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    const out = new FileOut(fd);
    out.raw(Buffer.from('ptau', 'latin1'));
    out.u32(1); // version
    out.u32(11); // sections: header, 2–7, 12–15
    out.raw(await snarkBytes((f) => snark.writePTauHeader(f, curve, power)));
    for (const [i, [, s]] of pointSections.entries()) out.section(2 + i, [s]);
    out.raw(await snarkBytes((f) => snark.writeContributions(f, curve, [contribution])));
    // Sections 12–15: the Lagrange basis at tau for every domain 2^k, k ≤ n (k ≤ n + 1 for tauG1).
    const lagrange: bigint[][] = [];
    for (let k = 0; k <= power + 1; k++) lagrange.push(lagrangeAt(curve, tau, k, k === power + 1));
    const upTo = lagrange.slice(0, power + 1);
    const each = async (ls: bigint[][], f: (l: bigint[]) => Promise<Uint8Array>) => {
      const parts: Uint8Array[] = [];
      for (const l of ls) parts.push(await f(l));
      return parts;
    };
    out.section(12, await each(lagrange, (l) => mul('g1', l)));
    out.section(13, await each(upTo, (l) => mul('g2', l)));
    out.section(14, await each(upTo, (l) => mul('g1', scale(l, alpha, r))));
    out.section(15, await each(upTo, (l) => mul('g1', scale(l, beta, r))));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  await curve.terminate();
}

/** The public secrets of the development ptau of `power`: its beacon contribution, as `snarkjs powersoftau beacon`
 *  derives it from the first challenge (which depends on the power). */
export async function devSecrets(snark: SnarkjsInternals, curve: Curve, power: number) {
  const challenge = snark.calculateFirstChallengeHash(curve, power);
  const beaconHash = createHash('sha256').update(DEV_BEACON).digest();
  const key = await snark.keyFromBeacon(curve, challenge, beaconHash, ITERATIONS_EXP);
  const secret = (k: { prvKey: Uint8Array }) => curve.Fr.toObject(k.prvKey) as bigint;
  return {
    challenge,
    beaconHash,
    key,
    tau: secret(key.tau),
    alpha: secret(key.alpha),
    beta: secret(key.beta),
  };
}

/** Points per wasm call: bounds the wasm memory (a G2 chunk is ~14 MB) and paces progress. */
const CHUNK = 1 << 14;

/**
 * Lagrange basis polynomials of the size-2^k domain at tau: L_i(τ) = (τ^m − 1)/m · ω^i/(τ − ω^i).
 * `dropLast`: the evaluations snarkjs writes for the extra power n + 1 of tauG1, an inverse FFT of
 * τ^0..τ^(2m−2) with a zero for the missing τ^(2m−1) — i.e. minus ω^i·τ^(m−1)/m.
 */
export function lagrangeAt(curve: Curve, tau: bigint, k: number, dropLast = false): bigint[] {
  const r = curve.r;
  const m = 2 ** k;
  const omega = geometric(1n, curve.Fr.toObject(curve.Fr.w[k]!), m, r);
  const inv = batchInverse(
    omega.map((w) => (tau - w + r) % r),
    r,
  );
  const mInv = modInverse(BigInt(m), r);
  const c = (((modPow(tau, BigInt(m), r) - 1n + r) % r) * mInv) % r;
  const drop = dropLast ? (modPow(tau, BigInt(m - 1), r) * mInv) % r : 0n;
  return omega.map((w, i) => (((c * w) % r) * inv[i]! - w * drop + r * r) % r);
}

export function geometric(first: bigint, ratio: bigint, count: number, r: bigint): bigint[] {
  const out = new Array<bigint>(count);
  let t = first;
  for (let i = 0; i < count; i++) {
    out[i] = t;
    t = (t * ratio) % r;
  }
  return out;
}

const scale = (xs: bigint[], f: bigint, r: bigint) => xs.map((x) => (x * f) % r);

export function modPow(b: bigint, e: bigint, m: bigint): bigint {
  let result = 1n;
  let base = b % m;
  for (let x = e; x > 0n; x >>= 1n) {
    if (x & 1n) result = (result * base) % m;
    base = (base * base) % m;
  }
  return result;
}

export const modInverse = (a: bigint, p: bigint) => modPow(a, p - 2n, p);

/** Montgomery's trick: one inversion for the whole list (no element may be zero). */
function batchInverse(xs: bigint[], r: bigint): bigint[] {
  const prefix = new Array<bigint>(xs.length);
  let acc = 1n;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] === 0n) throw new Error('tau is in the evaluation domain (impossible for a 254-bit beacon)');
    prefix[i] = acc;
    acc = (acc * xs[i]!) % r;
  }
  let inv = modInverse(acc, r);
  const out = new Array<bigint>(xs.length);
  for (let i = xs.length - 1; i >= 0; i--) {
    out[i] = (inv * prefix[i]!) % r;
    inv = (inv * xs[i]!) % r;
  }
  return out;
}

export const groupOf = (curve: Curve, g: Group) => (g === 'g1' ? curve.G1 : curve.G2);

function concat(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** Progress over every point the file holds, a G2 point weighing ~3.7 G1 points (measured). */
function progressOf(power: number, report?: (done: number) => void) {
  const n = 2 ** power;
  const G2_COST = 3.7;
  const g1 = 2 * n - 1 + 2 * n + (4 * n - 1) + 2 * (2 * n - 1);
  const g2 = n + 1 + (2 * n - 1);
  const total = g1 + G2_COST * g2;
  let done = 0;
  return {
    add(g: Group, count: number) {
      done += g === 'g1' ? count : G2_COST * count;
      report?.(Math.min(1, done / total));
    },
  };
}

/** Sequential writes to a file descriptor. */
export class FileOut {
  private readonly fd: number;
  constructor(fd: number) {
    this.fd = fd;
  }
  raw(b: Uint8Array): void {
    writeSync(this.fd, b);
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.raw(b);
  }
  /** A binfile section: id, 64-bit size, then the parts. */
  section(id: number, parts: Uint8Array[]): void {
    const size = parts.reduce((s, p) => s + p.byteLength, 0);
    const h = Buffer.alloc(12);
    h.writeUInt32LE(id, 0);
    h.writeBigUInt64LE(BigInt(size), 4);
    this.raw(h);
    for (const p of parts) this.raw(p);
  }
}

/** Runs one of snarkjs's section writers against memory and returns the bytes it wrote. */
async function snarkBytes(write: (fd: SnarkFd) => Promise<void>): Promise<Uint8Array> {
  let buf = Buffer.alloc(1 << 12);
  let end = 0;
  const put = (b: Uint8Array, pos: number) => {
    while (pos + b.byteLength > buf.length) buf = Buffer.concat([buf, Buffer.alloc(buf.length)]);
    buf.set(b, pos);
    end = Math.max(end, pos + b.byteLength);
  };
  const fd: SnarkFd = {
    pos: 0,
    async write(b, pos) {
      put(b, pos ?? fd.pos);
      if (pos === undefined) fd.pos += b.byteLength;
    },
    async writeULE32(v, pos) {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(v);
      await fd.write(b, pos);
    },
    async writeULE64(v, pos) {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(BigInt(v));
      await fd.write(b, pos);
    },
  };
  await write(fd);
  return buf.subarray(0, end);
}

/** Whether a ptau file's contributions include the development beacon (reads section 7's names). */
export function isDevPtau(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(12);
    readSync(fd, head, 0, 12, 0);
    if (head.toString('latin1', 0, 4) !== 'ptau') return false;
    const nSections = head.readUInt32LE(8);
    let off = 12;
    for (let i = 0; i < nSections; i++) {
      const h = Buffer.alloc(12);
      readSync(fd, h, 0, 12, off);
      const size = Number(h.readBigUInt64LE(4));
      if (h.readUInt32LE(0) === 7) {
        const body = Buffer.alloc(size);
        readSync(fd, body, 0, size, off + 12);
        return body.includes(Buffer.from(DEV_CONTRIBUTION_NAME));
      }
      off += 12 + size;
    }
    return false;
  } finally {
    closeSync(fd);
  }
}

const USAGE = `usage: node scripts/circuits/devptau.ts --power N [--out FILE]

Writes an INSECURE development powers of tau of power N (2^N constraints) to FILE (default
build/circuits/ptau/potN.dev.ptau, where the circuit build looks for one). Its secrets come from a
public beacon: for local chains and tests only. Prints the time it took.`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { intFlag, outputFile, parseCli, runCli, UsageError } = await import('../../lib/cli.ts');
  await runCli('devptau', async () => {
    const { values } = parseCli({
      name: 'devptau',
      usage: USAGE,
      options: { power: { type: 'string' }, out: { type: 'string' } },
    });
    if (!values.power) throw new UsageError('--power is required (see --help)');
    const power = intFlag('power', values.power, 1, 20);
    const dir = path.join(
      path.dirname(fileURLToPath(import.meta.url)),
      '..',
      '..',
      'build',
      'circuits',
      'ptau',
    );
    if (!values.out) mkdirSync(dir, { recursive: true });
    const file = outputFile('out', values.out ?? path.join(dir, devPtauName(power)));
    const t0 = Date.now();
    await generateDevPtau(power, file, { log: (m) => console.error(m) });
    console.log(`${file}: power ${power} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });
}
