/**
 * Circuit build pipeline: generate the per-ruleset main circuits, compile them with circom2
 * (`--O2 --inspect`, which must be clean), then Groth16 phase 2 on a prepared ptau (one random
 * contribution and a beacon), `zkey verify`, and export the verification key and the Solidity
 * verifier. Everything is cached by a hash of the sources and the ruleset under
 * `build/circuits/<ruleset>/`; the ruleset-independent `seal` circuit (`buildSealCircuit`) under
 * `build/circuits/_global/seal/`.
 *
 *   npm run circuits:build -- --ruleset tiny [--circuits turn,spawn,seal] [--ptau FILE | --ptau-dir DIR]
 *                              [--no-setup] [--force]
 *   npm run circuits:build -- --circuits seal          (global circuits only: no --ruleset needed)
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { ALL_CIRCUITS, CIRCUITS, type CircuitName, mainSource } from './generate.ts';
import { GLOBAL_CIRCUITS, type GlobalCircuitName, globalMainSource, isGlobalCircuit } from './global.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SNARKJS = path.join(ROOT, 'node_modules', 'snarkjs', 'build', 'cli.cjs');
const CIRCOM = path.join(ROOT, 'node_modules', 'circom2', 'cli.js');

export interface BuildOptions {
  ruleset: string | ValidRuleset;
  /** Per-ruleset circuits; a global one (`seal`) is built by `buildSealCircuit` and keyed by its name. */
  circuits?: readonly (CircuitName | GlobalCircuitName)[];
  /** A prepared (phase 2) ptau file. */
  ptau?: string;
  /** A folder of prepared ptau files; the smallest that fits is used. */
  ptauDir?: string;
  /** Run the Groth16 setup (default true); false stops after compiling. */
  setup?: boolean;
  force?: boolean;
  log?: (msg: string) => void;
}

export interface CircuitInfo {
  constraints: number;
  wires: number;
  publicInputs: number;
  publicOutputs: number;
  /** Public signals in a proof: outputs + public inputs. */
  publicSignals: number;
  privateInputs: number;
  /** Smallest ptau power the Groth16 setup needs. */
  power: number;
}

/** Options of a ruleset-independent circuit build. */
export type GlobalBuildOptions = Omit<BuildOptions, 'ruleset' | 'circuits'>;

/** The `ruleset` of global circuits' artifacts, and their build folder under build/circuits/. */
export const GLOBAL_DIR = '_global';

export interface CircuitArtifacts extends CircuitInfo {
  name: CircuitName | GlobalCircuitName;
  /** The ruleset name, or `_global` for a ruleset-independent circuit. */
  ruleset: string;
  hash: string;
  dir: string;
  r1cs: string;
  wasm: string;
  /** CommonJS copy of circom's witness calculator (the repo is ESM). */
  witnessCalculator: string;
  zkey?: string;
  vkey?: string;
  verifier?: string;
  ptau?: string;
}

/** Reads the header of an .r1cs file (iden3 binary format, section 1). */
export function readR1csInfo(file: string): CircuitInfo {
  const buf = readFileSync(file);
  if (buf.toString('latin1', 0, 4) !== 'r1cs') throw new Error(`${file} is not an r1cs file`);
  const nSections = buf.readUInt32LE(8);
  let off = 12;
  for (let i = 0; i < nSections; i++) {
    const type = buf.readUInt32LE(off);
    const size = Number(buf.readBigUInt64LE(off + 4));
    const p = off + 12;
    if (type === 1) {
      const n8 = buf.readUInt32LE(p);
      const h = p + 4 + n8;
      const wires = buf.readUInt32LE(h);
      const publicOutputs = buf.readUInt32LE(h + 4);
      const publicInputs = buf.readUInt32LE(h + 8);
      const privateInputs = buf.readUInt32LE(h + 12);
      const constraints = buf.readUInt32LE(h + 24);
      const m = constraints + publicInputs + publicOutputs + 1;
      return {
        constraints,
        wires,
        publicInputs,
        publicOutputs,
        publicSignals: publicInputs + publicOutputs,
        privateInputs,
        power: Math.ceil(Math.log2(m)),
      };
    }
    off = p + size;
  }
  throw new Error(`${file}: no header section`);
}

/** The power of a .ptau file, from its header section. */
export function readPtauPower(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    readSync(fd, head, 0, head.length, 0);
    if (head.toString('latin1', 0, 4) !== 'ptau') throw new Error(`${file} is not a ptau file`);
    const nSections = head.readUInt32LE(8);
    let off = 12;
    for (let i = 0; i < nSections; i++) {
      const type = head.readUInt32LE(off);
      const size = Number(head.readBigUInt64LE(off + 4));
      const p = off + 12;
      if (type === 1) {
        const n8 = head.readUInt32LE(p);
        return head.readUInt32LE(p + 4 + n8);
      }
      off = p + size;
    }
  } finally {
    closeSync(fd);
  }
  throw new Error(`${file}: no ptau header`);
}

/** Default folder of shared development ptau files: `$SHROUD_PTAU_DIR` or `../shared/ptau`. */
export function defaultPtauDir(): string {
  return path.resolve(ROOT, process.env.SHROUD_PTAU_DIR ?? path.join('..', 'shared', 'ptau'));
}

function run(cmd: string, args: string[], log: (m: string) => void, what: string): string {
  const res = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const out = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  if (res.status !== 0) {
    throw new Error(`${what} failed (exit ${res.status ?? res.signal}):\n${out.slice(-4000)}`);
  }
  log(`  ${what}: ok`);
  return out;
}

const snark = (args: string[], log: (m: string) => void, what: string): string =>
  run(process.execPath, [SNARKJS, ...args], log, what);

/**
 * Picks the ptau: an explicit file (which must be big enough), else the smallest fitting file of
 * the folder, else one generated under build/circuits/ptau (slow; progress is shown).
 */
export function resolvePtau(power: number, opts: Partial<BuildOptions>, log: (m: string) => void): string {
  if (opts.ptau) {
    const file = path.resolve(opts.ptau);
    const p = readPtauPower(file);
    if (p < power)
      throw new Error(
        `ptau ${file} has power ${p}; this circuit needs power ${power} (2^${power} constraints)`,
      );
    return file;
  }
  const dirs = opts.ptauDir
    ? [path.resolve(opts.ptauDir)]
    : [defaultPtauDir(), path.join(ROOT, 'build', 'circuits', 'ptau')];
  // The first folder holding a fitting file wins (shared files before generated ones).
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    let best: { file: string; power: number } | undefined;
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.ptau')) continue;
      const file = path.join(dir, f);
      const p = readPtauPower(file);
      if (p >= power && (!best || p < best.power)) best = { file, power: p };
    }
    if (best) return best.file;
  }
  if (opts.ptauDir) {
    throw new Error(`no ptau in ${opts.ptauDir} has power ≥ ${power} (this circuit needs 2^${power})`);
  }
  return generatePtau(power, log);
}

/** A small development ptau: new, one random contribution, a beacon, prepare phase2. */
export function generatePtau(power: number, log: (m: string) => void): string {
  const dir = path.join(ROOT, 'build', 'circuits', 'ptau');
  mkdirSync(dir, { recursive: true });
  const final = path.join(dir, `pot${power}.ptau`);
  if (existsSync(final)) return final;
  log(`generating a development powers of tau of power ${power} (not for production)…`);
  const t = (s: string) => path.join(dir, `pot${power}_${s}.ptau`);
  const live = (args: string[], what: string) => {
    log(`  ${what}…`);
    const res = spawnSync(process.execPath, [SNARKJS, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (res.status !== 0) throw new Error(`${what} failed`);
  };
  live(['powersoftau', 'new', 'bn128', String(power), t('0'), '-v'], 'powersoftau new');
  live(
    [
      'powersoftau',
      'contribute',
      t('0'),
      t('1'),
      '--name=shroud dev',
      `-e=${randomBytes(32).toString('hex')}`,
      '-v',
    ],
    'contribute',
  );
  live(
    [
      'powersoftau',
      'beacon',
      t('1'),
      t('2'),
      randomBytes(32).toString('hex'),
      '10',
      '-n=shroud dev beacon',
      '-v',
    ],
    'beacon',
  );
  live(['powersoftau', 'prepare', 'phase2', t('2'), t('p'), '-v'], 'prepare phase2');
  renameSync(t('p'), final);
  for (const s of ['0', '1', '2']) rmSync(t(s), { force: true });
  return final;
}

const INCLUDE_DIRS = [ROOT, path.join(ROOT, 'node_modules', 'circomlib', 'circuits')];

/** Every .circom file a source includes, transitively, resolved as circom does (own folder, then -l paths). */
export function includedFiles(source: string, fromDir: string, seen = new Set<string>()): Set<string> {
  for (const m of source.matchAll(/^\s*include\s+"([^"]+)"\s*;/gm)) {
    const rel = m[1]!;
    const file = [fromDir, ...INCLUDE_DIRS].map((d) => path.resolve(d, rel)).find((f) => existsSync(f));
    if (!file) throw new Error(`cannot resolve include "${rel}" from ${path.relative(ROOT, fromDir) || '.'}`);
    if (seen.has(file)) continue;
    seen.add(file);
    includedFiles(readFileSync(file, 'utf8'), path.dirname(file), seen);
  }
  return seen;
}

/** The generator and the zone tables: what every per-ruleset main source is derived from. */
const RULESET_GENERATORS = [
  path.join(ROOT, 'scripts', 'circuits', 'generate.ts'),
  path.join(ROOT, 'core', 'witness', 'zones.ts'),
];

/**
 * Hash of everything one compiled circuit depends on besides its main source and ruleset: the
 * .circom files it includes (only those, so edits elsewhere under circuits/ keep this cache),
 * the code that generates the main source (per ruleset: the generator and the zone tables), and
 * the circom/circomlib versions.
 */
function sourcesHash(mainSrc: string, generators: readonly string[] = RULESET_GENERATORS): string {
  const h = createHash('sha256');
  const files = [
    ...includedFiles(mainSrc, path.join(ROOT, 'build', 'circuits', '_')),
    ...generators,
    path.join(ROOT, 'node_modules', 'circom2', 'package.json'),
    path.join(ROOT, 'node_modules', 'circomlib', 'package.json'),
  ].sort();
  for (const f of files) h.update(path.relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

/** Serialises concurrent builds of one circuit (tests run in parallel processes). */
async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${dir}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      } catch {}
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Warnings circom --inspect prints for circomlib's own templates, harmless and not fixable without
 * forking them: EscalarMulFix and EscalarMulAny leave the last segment's `dbl` output (the point
 * doubled once more, only needed to chain a next segment) unused. Only these exact blocks are dropped.
 */
const KNOWN_LIBRARY_WARNINGS = [
  /^warning\[CA02\]: In template "EscalarMul(Fix|Any)\([^"]*\)": Array of subcomponent input\/output signals segments\[\d+\]\.dbl contains a total of 2 signals that do not appear in any constraint of the father component\s*= For example: segments\[\d+\]\.dbl\[0\], segments\[\d+\]\.dbl\[1\]\.\s*$/,
];

/** circom's output without colour codes and without the known circomlib warnings. */
export function inspectFindings(out: string): string {
  const clean = out.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  return clean
    .split(/\n\s*\n|\n(?=warning\[|error\[)/)
    .filter((block) => !KNOWN_LIBRARY_WARNINGS.some((re) => re.test(block.trim())))
    .join('\n\n');
}

function compile(
  name: CircuitName | GlobalCircuitName,
  label: string,
  src: string,
  dir: string,
  hash: string,
  log: (m: string) => void,
): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const main = path.join(path.dirname(dir), `${name}.circom`);
  writeFileSync(main, src);
  const out = run(
    process.execPath,
    [
      CIRCOM,
      path.relative(ROOT, main),
      '--r1cs',
      '--wasm',
      '--sym',
      '--O2',
      '--inspect',
      '-o',
      path.relative(ROOT, dir),
      '-l',
      '.',
      '-l',
      path.join('node_modules', 'circomlib', 'circuits'),
    ],
    log,
    `circom ${label}`,
  );
  // --inspect must be clean: any warning or error (but the known circomlib ones) fails the build.
  const findings = inspectFindings(out);
  if (/warning|error/i.test(findings))
    throw new Error(`circom --inspect is not clean for ${label}:\n${findings.slice(0, 4000)}`);
  const js = path.join(dir, `${name}_js`);
  copyFileSync(path.join(js, 'witness_calculator.js'), path.join(js, 'witness_calculator.cjs'));
  writeFileSync(path.join(dir, 'compile.json'), JSON.stringify({ hash }, null, 2));
}

function setup(
  name: CircuitName | GlobalCircuitName,
  dir: string,
  hash: string,
  ptau: string,
  log: (m: string) => void,
): void {
  const r1cs = path.join(dir, `${name}.r1cs`);
  const z0 = path.join(dir, `${name}_0.zkey`);
  const z1 = path.join(dir, `${name}_1.zkey`);
  const zkey = path.join(dir, `${name}.zkey`);
  snark(['groth16', 'setup', r1cs, ptau, z0], log, `groth16 setup (${path.basename(ptau)})`);
  snark(
    ['zkey', 'contribute', z0, z1, '--name=shroud build', `-e=${randomBytes(32).toString('hex')}`],
    log,
    'zkey contribute',
  );
  // Development beacon derived from the circuit hash; a production ceremony uses a public random beacon.
  const beacon = createHash('sha256').update(`shroud beacon ${hash}`).digest('hex');
  snark(['zkey', 'beacon', z1, zkey, beacon, '10', '-n=shroud beacon'], log, 'zkey beacon');
  const verify = snark(['zkey', 'verify', r1cs, ptau, zkey], log, 'zkey verify');
  if (!/ZKey Ok!/.test(verify))
    throw new Error(`zkey verify did not report "ZKey Ok!":\n${verify.slice(-2000)}`);
  snark(
    ['zkey', 'export', 'verificationkey', zkey, path.join(dir, `${name}.vkey.json`)],
    log,
    'export verification key',
  );
  snark(
    ['zkey', 'export', 'solidityverifier', zkey, path.join(dir, `${name}Verifier.sol`)],
    log,
    'export Solidity verifier',
  );
  rmSync(z0, { force: true });
  rmSync(z1, { force: true });
  writeFileSync(path.join(dir, 'setup.json'), JSON.stringify({ hash, ptau: path.basename(ptau) }, null, 2));
}

function readJson(file: string): { hash?: string } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

interface OneBuild {
  name: CircuitName | GlobalCircuitName;
  /** The ruleset name, or GLOBAL_DIR. */
  group: string;
  src: string;
  /** Cache key: hashes of the included sources, the main source and (per ruleset) the ruleset JSON. */
  hash: string;
}

/** Compiles and sets up one circuit under build/circuits/<group>/<name>/, reusing what the cache holds. */
async function buildOne(
  b: OneBuild,
  opts: GlobalBuildOptions,
  log: (m: string) => void,
): Promise<CircuitArtifacts> {
  const { name, group, src, hash } = b;
  const label = `${group}/${name}`;
  const dir = path.join(ROOT, 'build', 'circuits', group, name);
  return withLock(dir, async () => {
    const r1cs = path.join(dir, `${name}.r1cs`);
    const wasm = path.join(dir, `${name}_js`, `${name}.wasm`);
    const wc = path.join(dir, `${name}_js`, 'witness_calculator.cjs');
    if (
      opts.force ||
      readJson(path.join(dir, 'compile.json'))?.hash !== hash ||
      !existsSync(wasm) ||
      !existsSync(wc)
    ) {
      log(`compiling ${label}…`);
      compile(name, label, src, dir, hash, log);
    } else log(`${label}: compiled (cached ${hash.slice(0, 12)})`);
    const info = readR1csInfo(r1cs);
    const art: CircuitArtifacts = {
      name,
      ruleset: group,
      hash,
      dir,
      r1cs,
      wasm,
      witnessCalculator: wc,
      ...info,
    };
    if (opts.setup !== false) {
      const zkey = path.join(dir, `${name}.zkey`);
      const done = readJson(path.join(dir, 'setup.json')) as { hash?: string; ptau?: string } | undefined;
      if (opts.force || done?.hash !== hash || !existsSync(zkey)) {
        const ptau = resolvePtau(info.power, opts, log);
        log(
          `trusted setup ${label}: ${info.constraints} constraints, power ${info.power}, ${path.basename(ptau)}`,
        );
        setup(name, dir, hash, ptau, log);
        art.ptau = ptau;
      } else {
        log(`${label}: zkey (cached)`);
        art.ptau = done.ptau;
      }
      art.zkey = zkey;
      art.vkey = path.join(dir, `${name}.vkey.json`);
      art.verifier = path.join(dir, `${name}Verifier.sol`);
    }
    return art;
  });
}

const cacheHash = (src: string, extra = '', generators?: readonly string[]): string =>
  createHash('sha256')
    .update(sourcesHash(src, generators))
    .update(src)
    .update(extra)
    .digest('hex')
    .slice(0, 32);

/**
 * Builds (or reuses from cache) the ruleset-independent sealed-share circuit (`circuits/seal.circom`)
 * under build/circuits/_global/seal/: same compile, setup, ptau resolution and exports as the
 * per-ruleset circuits.
 */
export function buildSealCircuit(opts: GlobalBuildOptions = {}): Promise<CircuitArtifacts> {
  const src = globalMainSource('seal');
  const log = opts.log ?? ((m: string) => console.error(m));
  const hash = cacheHash(src, '', [path.join(ROOT, 'scripts', 'circuits', 'global.ts')]);
  return buildOne({ name: 'seal', group: GLOBAL_DIR, src, hash }, opts, log);
}

/** Builds (or reuses from cache) the circuits of one ruleset (and `seal` when listed). */
export async function buildCircuits(opts: BuildOptions): Promise<Record<string, CircuitArtifacts>> {
  const r = typeof opts.ruleset === 'string' ? shippedRuleset(opts.ruleset) : opts.ruleset;
  const log = opts.log ?? ((m: string) => console.error(m));
  const names = opts.circuits ?? CIRCUITS;
  const out: Record<string, CircuitArtifacts> = {};
  for (const name of names) {
    if (isGlobalCircuit(name)) {
      out[name] = await buildSealCircuit(opts);
      continue;
    }
    if (!ALL_CIRCUITS.includes(name))
      throw new Error(
        `unknown circuit "${name}"; circuits: ${[...ALL_CIRCUITS, ...GLOBAL_CIRCUITS].join(', ')}`,
      );
    const src = mainSource(name, r);
    const { board: _b, ...plain } = r;
    out[name] = await buildOne(
      { name, group: r.name, src, hash: cacheHash(src, JSON.stringify(plain)) },
      opts,
      log,
    );
  }
  return out;
}

/** The JSON table printed by the CLI: constraints, wires and public signals per circuit. */
export function summary(
  arts: Record<string, CircuitArtifacts>,
): Record<string, Record<string, number | string>> {
  const t: Record<string, Record<string, number | string>> = {};
  for (const [n, a] of Object.entries(arts)) {
    t[`${a.ruleset}/${n}`] = {
      constraints: a.constraints,
      wires: a.wires,
      publicSignals: a.publicSignals,
      publicOutputs: a.publicOutputs,
      publicInputs: a.publicInputs,
      privateInputs: a.privateInputs,
      power: a.power,
    };
  }
  return t;
}

function parseArgs(argv: string[]): BuildOptions & { rulesets: string[] } {
  const rulesets: string[] = [];
  const o: BuildOptions & { rulesets: string[] } = { ruleset: '', rulesets };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--ruleset') rulesets.push(...next().split(','));
    else if (a === '--ptau') o.ptau = next();
    else if (a === '--ptau-dir') o.ptauDir = next();
    else if (a === '--circuits') o.circuits = next().split(',') as (CircuitName | GlobalCircuitName)[];
    else if (a === '--no-setup') o.setup = false;
    else if (a === '--force') o.force = true;
    else throw new Error(`unknown argument ${a}`);
  }
  const globalOnly = o.circuits?.every(isGlobalCircuit) ?? false;
  if (rulesets.length === 0 && !globalOnly)
    throw new Error(
      'usage: circuits:build --ruleset NAME [--circuits a,b] [--ptau FILE | --ptau-dir DIR] [--no-setup] [--force]\n' +
        '       circuits:build --circuits seal [...]   (ruleset-independent: no --ruleset needed; listed with\n' +
        '                                            --ruleset it is built once, as _global/seal)',
    );
  return o;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const o = parseArgs(process.argv.slice(2));
    const table: Record<string, Record<string, number | string>> = {};
    if (o.rulesets.length === 0) Object.assign(table, summary({ seal: await buildSealCircuit(o) }));
    for (const rs of o.rulesets) Object.assign(table, summary(await buildCircuits({ ...o, ruleset: rs })));
    console.log(JSON.stringify(table, null, 2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
