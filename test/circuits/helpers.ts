/** Shared test helpers for the circuits: cached builds, witness calculation, R1CS checks, random states. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { FIELD_MODULUS } from '../../core/field.ts';
import { type Coord, tilesInRange, zoneOf, zoneTiles } from '../../core/geometry.ts';
import { type Hasher, loadHasher } from '../../core/poseidon.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { type ValidRuleset, validateRuleset } from '../../core/ruleset/validate.ts';
import { playCommitment, type Slots, type Unit } from '../../core/state.ts';
import { assertCanonicalInput, type CircuitInput } from '../../core/witness/inputs.ts';
import { buildCircuits, buildSealCircuit, type CircuitArtifacts } from '../../scripts/circuits/build.ts';
import type { CircuitName } from '../../scripts/circuits/generate.ts';

export const P = FIELD_MODULUS;
const require = createRequire(import.meta.url);

interface WitnessCalc {
  calculateWitness(input: unknown, sanityCheck: boolean): Promise<bigint[]>;
}

/** A compiled circuit, ready for witnesses (no trusted setup). */
export interface LoadedCircuit {
  art: CircuitArtifacts;
  h: Hasher;
  /** Witness with every constraint checked while computing (throws on an assert). */
  witness(input: CircuitInput): Promise<bigint[]>;
  /** Public signals (outputs then public inputs) of a witness. */
  publicOf(w: readonly bigint[]): bigint[];
  /** Whether a (possibly edited) witness satisfies every R1CS constraint. */
  satisfies(w: readonly bigint[]): boolean;
  /** The wires of each constraint a (possibly edited) witness breaks: where a forgery is caught. */
  violated(w: readonly bigint[]): number[][];
}

export interface Loaded extends LoadedCircuit {
  ruleset: ValidRuleset;
}

type Lc = [number, bigint][];

/** Parses the constraints of an .r1cs file (coefficients stored little-endian, standard form). */
function readConstraints(file: string): [Lc, Lc, Lc][] {
  const buf = readFileSync(file);
  const nSections = buf.readUInt32LE(8);
  let off = 12;
  let n8 = 32;
  let nConstraints = 0;
  let body = -1;
  for (let i = 0; i < nSections; i++) {
    const type = buf.readUInt32LE(off);
    const size = Number(buf.readBigUInt64LE(off + 4));
    const p = off + 12;
    if (type === 1) {
      n8 = buf.readUInt32LE(p);
      nConstraints = buf.readUInt32LE(p + 4 + n8 + 24);
    }
    if (type === 2) body = p;
    off = p + size;
  }
  const out: [Lc, Lc, Lc][] = [];
  let q = body;
  const readLc = (): Lc => {
    const n = buf.readUInt32LE(q);
    q += 4;
    const lc: Lc = [];
    for (let k = 0; k < n; k++) {
      const wire = buf.readUInt32LE(q);
      let v = 0n;
      for (let b = n8 - 1; b >= 0; b--) v = (v << 8n) | BigInt(buf[q + 4 + b]!);
      q += 4 + n8;
      lc.push([wire, v]);
    }
    return lc;
  };
  for (let c = 0; c < nConstraints; c++) out.push([readLc(), readLc(), readLc()]);
  return out;
}

/** Loads the witness calculator and the constraints of compiled artifacts. */
async function loadArtifacts(art: CircuitArtifacts): Promise<LoadedCircuit> {
  const builder = require(art.witnessCalculator) as (code: Buffer) => Promise<WitnessCalc>;
  const wc = await builder(readFileSync(art.wasm));
  const constraints = readConstraints(art.r1cs);
  const h = await loadHasher();
  const evalLc = (lc: Lc, w: readonly bigint[]) => lc.reduce((acc, [i, c]) => (acc + c * w[i]!) % P, 0n);
  return {
    art,
    h,
    witness: async (input) => {
      assertCanonicalInput(input);
      return wc.calculateWitness(input, true);
    },
    publicOf: (w) => w.slice(1, 1 + art.publicSignals),
    satisfies: (w) => constraints.every(([a, b, c]) => (evalLc(a, w) * evalLc(b, w)) % P === evalLc(c, w)),
    violated: (w) =>
      constraints
        .filter(([a, b, c]) => (evalLc(a, w) * evalLc(b, w)) % P !== evalLc(c, w))
        .map((abc) => [...new Set(abc.flat().map(([i]) => i))]),
  };
}

const cache = new Map<string, Promise<Loaded>>();

/** Compiles (cached) and loads one circuit of a ruleset; no trusted setup. */
export function load(rulesetOrName: string | ValidRuleset, name: CircuitName): Promise<Loaded> {
  const rulesetName = typeof rulesetOrName === 'string' ? rulesetOrName : rulesetOrName.name;
  const key = `${rulesetName}/${name}`;
  let p = cache.get(key);
  if (!p) {
    p = (async () => {
      const ruleset = typeof rulesetOrName === 'string' ? shippedRuleset(rulesetOrName) : rulesetOrName;
      const art = (await buildCircuits({ ruleset, circuits: [name], setup: false, log: () => {} }))[name]!;
      return { ...(await loadArtifacts(art)), ruleset };
    })();
    cache.set(key, p);
  }
  return p;
}

let seal: Promise<LoadedCircuit> | undefined;

/** Compiles (cached) and loads the ruleset-independent seal circuit; no trusted setup. */
export function loadSeal(): Promise<LoadedCircuit> {
  seal ??= buildSealCircuit({ setup: false, log: () => {} }).then(loadArtifacts);
  return seal;
}

/** Deterministic PRNG (mulberry32) so failures reproduce. */
export function rng(seed: number): {
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  field(): bigint;
  chance(p: number): boolean;
} {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    int,
    pick: (xs) => xs[int(xs.length)]!,
    field: () => {
      let v = 0n;
      for (let i = 0; i < 8; i++) v = (v << 32n) | BigInt(int(2 ** 32));
      return v % P;
    },
    chance: (p) => next() < p,
  };
}

type Rng = ReturnType<typeof rng>;

export function randomUnit(r: ValidRuleset, g: Rng): Unit {
  const type = g.int(r.unitTypes.length);
  return {
    type,
    hp: 1 + g.int(r.unitTypes[type]!.hp),
    col: g.int(r.board.width),
    row: g.int(r.board.height),
  };
}

export function randomSlots(r: ValidRuleset, g: Rng, aliveP = 0.75): (Unit | null)[] {
  return Array.from({ length: r.unitSlots }, () => (g.chance(aliveP) ? randomUnit(r, g) : null));
}

/** Each alive unit moves to a random tile within its speed (structures stay). */
export function randomMoves(r: ValidRuleset, g: Rng, slots: Slots): (Unit | null)[] {
  const metric = r.board.kind === 'hex' ? 'hex' : 'chebyshev';
  return slots.map((u) => {
    if (u === null) return null;
    const t = r.unitTypes[u.type]!;
    const to = g.pick(tilesInRange(r.board, metric, u, t.structure ? 0 : t.speed));
    return { ...u, col: to.col, row: to.row };
  });
}

/** Up to maxRevealedTiles random tiles seen by the units (duplicates allowed, as in the protocol). */
export function randomReveals(r: ValidRuleset, g: Rng, slots: Slots): Coord[] {
  const seen: Coord[] = [];
  for (const u of slots) {
    if (u === null) continue;
    if (r.vision.model === 'litZones') {
      seen.push(...zoneTiles(r.board, zoneOf(r.board, u)));
      continue;
    }
    seen.push(...tilesInRange(r.board, r.vision.model, u, r.unitTypes[u.type]!.vision));
  }
  if (seen.length === 0) return [];
  const n = g.int(r.maxRevealedTiles + 1);
  return Array.from({ length: n }, () => g.pick(seen));
}

export function randomMasks(r: ValidRuleset, g: Rng): bigint[] {
  const Z = r.board.zoneCount;
  return Array.from({ length: r.players.max - 1 }, () => {
    const k = g.int(4);
    if (k === 0) return 0n;
    if (k === 1) return (1n << BigInt(Z)) - 1n;
    let m = 0n;
    for (let z = 0; z < Z; z++) if (g.chance(0.3)) m |= 1n << BigInt(z);
    return m;
  });
}

/** Expects a witness calculation to fail (a violated constraint or an input guard). */
export async function rejects(c: LoadedCircuit, input: CircuitInput): Promise<boolean> {
  try {
    await c.witness(input);
    return false;
  } catch {
    return true;
  }
}

export const str = (v: bigint | number): string => v.toString();

/**
 * A fixed map root for the tests whose ruleset does not prove passability: any field element goes into the play
 * commitment (lib/state.circom PlayCommit), and every proof of the seat must open and keep that same root.
 */
export const ROOT = 0x2b1d_5e7a_9c3f_0415_6d8e_b2a4_c6f1_3579n;

/**
 * The play commitment over state words, a reveal commitment and a map root, as a circuit input (lib/state.circom
 * PlayCommit): what a test that swaps the state or the reveal list behind the builder's back puts in `newCommit`,
 * so only the rule under test can reject the witness.
 */
export function playOf(
  c: { h: Hasher },
  blinding: bigint,
  words: readonly (bigint | string)[],
  revealCommit: bigint | string,
  mapRoot: bigint | string,
): string {
  return str(
    playCommitment(c.h, c.h.hash([blinding, ...words.map(BigInt)]), BigInt(revealCommit), BigInt(mapRoot)),
  );
}

/**
 * An attack/combat target word packed WITHOUT the builder's checks (core/witness/publics.ts layout:
 * player | turn << 160 | col << 192 | row << 202 | damage << 212), so tests can forge any field.
 */
export const rawTarget = (player: bigint, turn: bigint, col: number, row: number, damage = 0): bigint =>
  player | (turn << 160n) | (BigInt(col) << 192n) | (BigInt(row) << 202n) | (BigInt(damage) << 212n);

/** A shipped ruleset with some fields replaced (for vision models no shipped ruleset uses). */
export function variant(base: string, patch: Record<string, unknown>): ValidRuleset {
  const { board: _b, ...plain } = shippedRuleset(base);
  return validateRuleset({ ...structuredClone(plain), ...patch });
}
