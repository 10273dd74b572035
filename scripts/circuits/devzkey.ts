/**
 * INSECURE development Groth16 keys in seconds instead of minutes.
 *
 * On the development ptau (devptau.ts) tau, alpha and beta are public, so every point of a proving key is `s·G`
 * for a scalar s computed in the field: a signal's A point is `Σ coef·L_c(τ)·G`, where snarkjs `groth16 setup`
 * does one variable-base multiplication per non-zero coefficient on the ptau's Lagrange points, and its phase-2
 * beacon multiplies every C and H point again. Here each point is one fixed-base multiplication (fixedbase.ts).
 * Keys made here forge as easily as any key on that ptau: local chains and tests only.
 *
 * Byte-for-byte the file snarkjs writes with `groth16 setup` (no beacon: delta = 1) or `groth16 setup` then
 * `zkey beacon` (its contribution record included, so `zkey verify` accepts it); `test/circuits/devzkey.test.ts`
 * checks both against snarkjs.
 */
import { closeSync, openSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Curve } from 'ffjavascript';
import { devSecrets, FileOut, geometric, groupOf, lagrangeAt, modInverse, modPow } from './devptau.ts';
import { FixedBaseMul, type Group, scalarsLE } from './fixedbase.ts';
import { type CircuitInfo, headerInfo, r1csSections } from './r1cs.ts';
import { type Hasher, snarkjsInternals } from './snarkjs-internals.ts';

/** A phase-2 beacon as `snarkjs zkey beacon` takes it. */
export interface ZkeyBeacon {
  /** Hex. */
  hash: string;
  iterationsExp: number;
  name: string;
}

/** The build's beacon parameters (its hash comes from the circuit's): `build.ts` uses them on either path. */
export const BUILD_BEACON = { iterationsExp: 10, name: 'shroud beacon' } as const;

export interface DevZkeyOptions {
  /** Applied after the setup; without one the key is the bare `groth16 setup` output (delta = 1). */
  beacon?: ZkeyBeacon;
  /** Fraction of the work done, 0..1. */
  onProgress?: (done: number) => void;
}

/** The parts of an .r1cs file a Groth16 setup reads. */
interface R1cs {
  prime: bigint;
  info: CircuitInfo;
  /** Section 2: the constraints' linear combinations A, B, C (term count, then signal and 32-byte LE coefficient). */
  constraints: Buffer;
}

const N8 = 32;
/** One coefficient record of section 4: matrix, constraint, signal (u32 each) and the value. */
const COEF_BYTES = 12 + N8;
/** Points per fixed-base call, as in devptau.ts (bounds the wasm memory). */
const CHUNK = 1 << 14;
/** A G2 multiplication costs about 3.7 G1 ones (devptau.ts), for the progress fraction. */
const G2_COST = 3.7;

/**
 * Writes the development proving key of `r1csFile` on the development ptau of `power` to `out` (atomically).
 * Throws when the circuit needs a larger power, as snarkjs does.
 */
export async function generateDevZkey(
  r1csFile: string,
  power: number,
  out: string,
  o: DevZkeyOptions = {},
): Promise<void> {
  const snark = await snarkjsInternals();
  const curve = await snark.getCurve();
  try {
    const r1cs = readR1cs(r1csFile);
    const r = curve.r;
    if (r1cs.prime !== r) throw new Error(`${r1csFile}: the r1cs is not over BN254's scalar field`);
    const { wires: nVars, publicSignals: nPublic, constraints: nConstraints, power: cirPower } = r1cs.info;
    if (cirPower > power)
      throw new Error(`${r1csFile}: circuit too big for power ${power} (needs ${cirPower})`);
    const n = 2 ** cirPower;
    const { tau, alpha, beta } = await devSecrets(snark, curve, power);
    const fb = FixedBaseMul.create(curve.tm.code!, { g1: curve.G1.g, g2: curve.G2.g });
    const nPriv = nVars - nPublic - 1;
    const progress = progressOf(4 * nVars + nPriv + 2 * n + (G2_COST - 1) * nVars, o.onProgress);
    const mul = async (g: Group, scalars: bigint[]): Promise<Uint8Array> => {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < scalars.length; i += CHUNK) {
        const part = scalars.slice(i, i + CHUNK);
        parts.push(fb.mul(g, scalarsLE(part)));
        progress.add(g === 'g1' ? part.length : G2_COST * part.length);
        await new Promise((res) => setImmediate(res));
      }
      return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    };

    // Each signal's polynomials at tau, from the constraints (Lagrange basis of the domain) and, for the public
    // signals, the extra rows snarkjs adds to A (one per public signal and the constant, coefficient 1).
    const L = lagrangeAt(curve, tau, cirPower);
    const { a, b, c, coefs } = evaluate(r1cs, L, r);
    const lin = (s: number) => (beta * a[s]! + alpha * b[s]! + c[s]!) % r;
    const ic = Array.from({ length: nPublic + 1 }, (_, s) => lin(s));
    const l = Array.from({ length: nPriv }, (_, j) => lin(nPublic + 1 + j));
    // H: the odd Lagrange points of the double domain (`groth16 setup` copies them from ptau section 12); the
    // circuit hash covers τ^i·(τ^n − 1) instead (section 2's points i + n and i, subtracted).
    const L2 = lagrangeAt(curve, tau, cirPower + 1, cirPower === power);
    const h = Array.from({ length: n }, (_, i) => L2[2 * i + 1]!);
    const hHash = geometric((modPow(tau, BigInt(n), r) - 1n + r) % r, tau, n - 1, r);

    const pIC = await mul('g1', ic);
    const pC = await mul('g1', l);
    const pA = await mul('g1', a);
    const pB1 = await mul('g1', b);
    const pB2 = await mul('g2', b);
    const [alpha1, beta1, one1] = splitPoints(await mul('g1', [alpha, beta, 1n]), 'g1');
    const [beta2, one2] = splitPoints(await mul('g2', [beta, 1n]), 'g2');

    // The circuit hash, over the setup's own points (delta = 1), in snarkjs's order.
    const cs = snark.blake2b();
    for (const [g, p] of [
      ['g1', alpha1],
      ['g1', beta1],
      ['g2', beta2],
      ['g2', one2],
      ['g1', one1],
      ['g2', one2],
    ] as const)
      cs.update(fb.toUncompressed(g, p!));
    const hashPoints = (g: Group, count: number, points: Uint8Array) => {
      cs.update(u32BE(count));
      cs.update(fb.toUncompressed(g, points));
    };
    hashPoints('g1', ic.length, pIC);
    cs.update(u32BE(n - 1));
    cs.update(fb.toUncompressed('g1', await mul('g1', hHash)));
    if (n - 1 > H_HASH_CHUNK) cs.update(hashOverrun(fb, curve, tau, n, power));
    hashPoints('g1', l.length, pC);
    hashPoints('g1', a.length, pA);
    hashPoints('g1', b.length, pB1);
    hashPoints('g2', b.length, pB2);
    const csHash = cs.digest();

    const header = (delta1: Uint8Array, delta2: Uint8Array) =>
      grothHeader(curve, r1cs, n, [alpha1!, beta1!, beta2!, one2!, delta1, delta2]);
    const tmp = `${out}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      const file = new FileOut(fd);
      file.raw(Buffer.from('zkey', 'latin1'));
      file.u32(1); // version
      file.u32(10); // sections
      file.section(1, [u32LE(1)]); // Groth16
      if (!o.beacon) {
        // `groth16 setup` writes its sections in this order.
        file.section(2, [header(one1!, one2!)]);
        file.section(4, [coefs]);
        file.section(3, [pIC]);
        file.section(9, [await mul('g1', h)]);
        file.section(8, [pC]);
        file.section(5, [pA]);
        file.section(6, [pB1]);
        file.section(7, [pB2]);
        file.section(10, [csHash, u32LE(0)]);
      } else {
        const c = await beaconContribution(snark, curve, csHash, o.beacon);
        const invDelta = modInverse(c.delta, r);
        const scaled = (xs: bigint[]) => xs.map((x) => (x * invDelta) % r);
        file.section(2, [header(c.delta1, c.delta2)]);
        file.section(3, [pIC]);
        file.section(4, [coefs]);
        file.section(5, [pA]);
        file.section(6, [pB1]);
        file.section(7, [pB2]);
        file.section(8, [await mul('g1', scaled(l))]);
        file.section(9, [await mul('g1', scaled(h))]);
        file.section(10, [csHash, u32LE(1), c.record]);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, out);
  } finally {
    await curve.terminate();
  }
}

/** Points per chunk of snarkjs's H hashing (zkey_new.js hashHPoints). */
const H_HASH_CHUNK = 1 << 14;

/**
 * The point snarkjs hashes after the n − 1 H points when they span more than one chunk: its chunk loop hashes whole
 * chunks, so one point more, `tauG1[2n − 1] − tauG1[n − 1]`, read from the ptau file. Below the ptau's top power
 * that is τ^(n−1)·(τ^n − 1)·G; at the top power `tauG1[2n − 1]` lies one point past section 2, so snarkjs reads
 * the next 64 bytes of the file (section 3's header and the start of its first point, the G2 generator) as a point.
 * The circuit hash covers it, and `zkey verify` recomputes it the same way.
 */
function hashOverrun(fb: FixedBaseMul, curve: Curve, tau: bigint, n: number, power: number): Uint8Array {
  const r = curve.r;
  const [last, next] = splitPoints(
    fb.mul('g1', scalarsLE([modPow(tau, BigInt(n - 1), r), modPow(tau, BigInt(2 * n - 1), r)])),
    'g1',
  );
  let from = next!;
  if (n === 2 ** power) {
    const section3 = Buffer.alloc(12);
    section3.writeUInt32LE(3);
    section3.writeBigUInt64LE(BigInt(2 ** power * 128), 4);
    from = Buffer.concat([section3, fb.mul('g2', scalarsLE([1n])).subarray(0, 52)]);
  }
  return fb.subAffineU('g1', from, last!);
}

/** Reads the header and the constraints of an .r1cs file. */
export function readR1cs(file: string): R1cs {
  const sections = r1csSections(file);
  const h = sections.get(1)!;
  const constraints = sections.get(2);
  if (!constraints) throw new Error(`${file}: r1cs without constraints`);
  const n8 = h.readUInt32LE(0);
  if (n8 !== N8) throw new Error(`${file}: ${n8}-byte field elements (BN254 has ${N8})`);
  return { prime: leToBigint(h, 4), info: headerInfo(h), constraints };
}

/**
 * A, B and C of every signal at tau (`L` is the Lagrange basis at tau), and section 4: A's and B's coefficients
 * (matrix, constraint, signal, coef·R² mod r as snarkjs stores them), A's extra public rows last.
 */
function evaluate(r1cs: R1cs, L: bigint[], r: bigint) {
  const { wires: nVars, publicSignals: nPublic, constraints: nConstraints } = r1cs.info;
  const polys = [0, 1, 2].map(() => new Array<bigint>(nVars).fill(0n));
  const R2 = ((1n << 256n) % r) ** 2n % r;
  const records: Buffer[] = [];
  const buf = r1cs.constraints;
  let pos = 0;
  let count = 0;
  const record = (m: number, row: number, s: number, v: bigint) => {
    const rec = Buffer.alloc(COEF_BYTES);
    rec.writeUInt32LE(m, 0);
    rec.writeUInt32LE(row, 4);
    rec.writeUInt32LE(s, 8);
    rec.set(scalarsLE([(v * R2) % r]), 12);
    records.push(rec);
    count++;
  };
  for (let row = 0; row < nConstraints; row++) {
    for (let m = 0; m < 3; m++) {
      const terms = buf.readUInt32LE(pos);
      pos += 4;
      const poly = polys[m]!;
      for (let t = 0; t < terms; t++) {
        const s = buf.readUInt32LE(pos);
        const coef = leToBigint(buf, pos + 4);
        pos += 4 + N8;
        poly[s] = poly[s]! + coef * L[row]!;
        if (m < 2) record(m, row, s, coef);
      }
    }
  }
  const [a, b, c] = polys as [bigint[], bigint[], bigint[]];
  for (let s = 0; s <= nPublic; s++) {
    a[s] = a[s]! + L[nConstraints + s]!;
    record(0, nConstraints + s, s, 1n);
  }
  for (const p of polys) for (let s = 0; s < p.length; s++) p[s] = p[s]! % r;
  const head = Buffer.alloc(4);
  head.writeUInt32LE(count);
  return { a, b, c, coefs: Buffer.concat([head, ...records]) };
}

/**
 * The beacon's contribution, as `snarkjs zkey beacon` derives it from the circuit hash (the first contribution):
 * its secret delta, the new delta points and the record section 10 keeps.
 */
async function beaconContribution(
  snark: Awaited<ReturnType<typeof snarkjsInternals>>,
  curve: Curve,
  csHash: Uint8Array,
  beacon: ZkeyBeacon,
) {
  const hash = Buffer.from(beacon.hash, 'hex');
  if (hash.length === 0 || hash.length * 2 !== beacon.hash.length || hash.length >= 256)
    throw new Error(`beacon hash ${beacon.hash}: 1 to 255 bytes of hex`);
  const { G1, G2, Fr } = curve;
  const rng = await snark.rngFromBeaconParams(hash, beacon.iterationsExp);
  const prvKey = Fr.fromRng(rng);
  const g1S = G1.toAffine(G1.fromRng(rng));
  const g1Sx = G1.toAffine(G1.timesFr(g1S, prvKey));
  const transcript = snark.blake2b().update(csHash);
  hashPoint(transcript, curve, 'g1', g1S);
  hashPoint(transcript, curve, 'g1', g1Sx);
  const t = transcript.digest();
  const g2Spx = G2.toAffine(G2.timesFr(snark.hashToG2(curve, t), prvKey));
  const delta1 = lem(curve, 'g1', G1.timesFr(G1.g, prvKey));
  const name = Buffer.from(beacon.name, 'utf8').subarray(0, 64);
  const params = Buffer.from([1, name.length, ...name, 2, beacon.iterationsExp, 3, hash.length, ...hash]);
  const record = Buffer.concat([
    delta1,
    lem(curve, 'g1', g1S),
    lem(curve, 'g1', g1Sx),
    lem(curve, 'g2', g2Spx),
    t,
    u32LE(1), // a beacon
    u32LE(params.length),
    params,
  ]);
  return { delta: Fr.toObject(prvKey), delta1, delta2: lem(curve, 'g2', G2.timesFr(G2.g, prvKey)), record };
}

/** Section 2: the field sizes and primes, the key's sizes, then alpha1, beta1, beta2, gamma2, delta1, delta2. */
function grothHeader(curve: Curve, r1cs: R1cs, domainSize: number, points: Uint8Array[]): Buffer {
  const field = (p: bigint) => {
    const b = Buffer.alloc(4 + N8);
    b.writeUInt32LE(N8);
    b.set(scalarsLE([p]), 4);
    return b;
  };
  return Buffer.concat([
    field(curve.q),
    field(curve.r),
    u32LE(r1cs.info.wires),
    u32LE(r1cs.info.publicSignals),
    u32LE(domainSize),
    ...points,
  ]);
}

/** A point in the files' form: affine, Montgomery, little-endian. */
function lem(curve: Curve, g: Group, p: Uint8Array): Buffer {
  const group = groupOf(curve, g);
  const b = Buffer.alloc(group.F.n8 * 2);
  group.toRprLEM(b, 0, group.toAffine(p));
  return b;
}

/** snarkjs zkey_utils hashG1/hashG2: the uncompressed point. */
function hashPoint(h: Hasher, curve: Curve, g: Group, p: Uint8Array): void {
  const group = groupOf(curve, g);
  const b = new Uint8Array(group.F.n8 * 2);
  group.toRprUncompressed(b, 0, p);
  h.update(b);
}

function splitPoints(buf: Uint8Array, g: Group): Uint8Array[] {
  const size = g === 'g1' ? 64 : 128;
  return Array.from({ length: buf.length / size }, (_, i) => buf.slice(i * size, (i + 1) * size));
}

function progressOf(total: number, report?: (done: number) => void) {
  let done = 0;
  return {
    add(points: number) {
      done += points;
      report?.(Math.min(1, done / total));
    },
  };
}

function u32LE(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
}

function u32BE(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
}

function leToBigint(b: Buffer, at: number): bigint {
  return BigInt(
    `0x${Buffer.from(b.subarray(at, at + N8))
      .reverse()
      .toString('hex')}`,
  );
}

const USAGE = `usage: node scripts/circuits/devzkey.ts --r1cs FILE --power N --out FILE [--beacon HEX] [--progress]

Writes the INSECURE development Groth16 proving key of the circuit FILE on the development powers of tau
of power N (node scripts/circuits/devptau.ts makes that file; this command does not read it) to --out:
the bytes snarkjs groth16 setup writes, then zkey beacon with HEX (10 iterations) when given. Its
secrets are public: for local chains and tests only. --progress prints "progress F" lines (F from 0
to 1) while it works; the last line is the time it took.`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { inputFile, intFlag, outputFile, parseCli, runCli, UsageError } = await import('../../lib/cli.ts');
  await runCli('devzkey', async () => {
    const { values } = parseCli({
      name: 'devzkey',
      usage: USAGE,
      options: {
        r1cs: { type: 'string' },
        power: { type: 'string' },
        out: { type: 'string' },
        beacon: { type: 'string' },
        progress: { type: 'boolean' },
      },
    });
    if (!values.r1cs || !values.power || !values.out)
      throw new UsageError('--r1cs, --power and --out are required (see --help)');
    const r1cs = inputFile('r1cs', values.r1cs);
    const power = intFlag('power', values.power, 1, 28);
    const out = outputFile('out', values.out);
    const hex = values.beacon;
    if (hex !== undefined && !/^(?:[0-9a-fA-F]{2}){1,255}$/.test(hex))
      throw new UsageError(`--beacon ${hex}: 1 to 255 bytes of hex`);
    let needs: number;
    try {
      needs = readR1cs(r1cs).info.power;
    } catch (e) {
      const why = e instanceof Error ? e.message.replace(`${r1cs}: `, '') : String(e);
      throw new UsageError(`--r1cs ${values.r1cs}: ${why}`);
    }
    if (needs > power) throw new UsageError(`--power ${power}: the circuit needs power ${needs}`);
    const t0 = Date.now();
    let shown = -1;
    await generateDevZkey(r1cs, power, out, {
      ...(hex ? { beacon: { hash: hex, ...BUILD_BEACON } } : {}),
      ...(values.progress
        ? {
            onProgress: (f: number) => {
              const pct = Math.floor(f * 100);
              if (pct > shown) console.log(`progress ${(f).toFixed(2)}`);
              shown = pct;
            },
          }
        : {}),
    });
    console.log(`${out}: power ${power} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });
}
