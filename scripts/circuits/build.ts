/**
 * Circuit build pipeline: generate the per-ruleset main circuits, compile them with circom2
 * (`--O2 --inspect`, which must be clean), then Groth16 phase 2 on a prepared ptau (one random
 * contribution, a beacon and `zkey verify`; on the development ptau the key is computed from its public
 * secrets, devzkey.ts), and export the verification key and the Solidity verifier. Everything is cached by a
 * hash of the sources and the ruleset under `build/circuits/<ruleset>/` (the ruleset-independent `seal`
 * circuit, `buildSealCircuit`, under `build/circuits/_global/seal/`); circom's and snarkjs's output goes to
 * `<circuit>/build.log` there. The ptau is the user's (`--ptau`, `--ptau-dir`, `SHROUD_PTAU_DIR`) or an
 * INSECURE development one (ptau.ts); setup.json records which (`devSetup`).
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedRuleset, shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { inputDir, inputFile, parseCli, runCli, UsageError } from '../../lib/cli.ts';
import { consoleProgress, type Progress, type Step, silentProgress } from '../lib/progress.ts';
import { BUILD_BEACON } from './devzkey.ts';
import { ALL_CIRCUITS, CIRCUITS, type CircuitName, mainSource } from './generate.ts';
import { GLOBAL_CIRCUITS, type GlobalCircuitName, globalMainSource, isGlobalCircuit } from './global.ts';
import { withLock } from './lock.ts';
import { type PtauChoice, type ResolvedPtau, resolvePtau, userPtauDir } from './ptau.ts';
import { type CircuitInfo, readR1csInfo } from './r1cs.ts';
import { devSetupModelMs, expectedMs, ptauModelMs, recordMs, setupModelMs } from './timings.ts';

export { readPtauPower, resolvePtau } from './ptau.ts';
export { type CircuitInfo, readR1csInfo } from './r1cs.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SNARKJS = path.join(ROOT, 'node_modules', 'snarkjs', 'build', 'cli.cjs');
const DEVZKEY = path.join(ROOT, 'scripts', 'circuits', 'devzkey.ts');
const CIRCOM = path.join(ROOT, 'node_modules', 'circom2', 'cli.js');

export interface BuildOptions extends PtauChoice {
  ruleset: string | ValidRuleset;
  /** Per-ruleset circuits; a global one (`seal`) is built by `buildSealCircuit` and keyed by its name. */
  circuits?: readonly (CircuitName | GlobalCircuitName)[];
  /** Run the Groth16 setup (default true); false stops after compiling. */
  setup?: boolean;
  force?: boolean;
  /** Short notes (cache hits); default stderr. */
  log?: (msg: string) => void;
  /** The long steps (compile, setup, ptau) with elapsed time and estimates; default silent. */
  progress?: Progress;
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
  /** The keys come from the INSECURE development ptau (local chains only). */
  devSetup?: boolean;
}

/**
 * Runs a tool as a child process (asynchronously, so progress keeps ticking). Its output goes to the
 * circuit's log file, never to the terminal; a failure names the log. `onProgress` takes the tool's
 * `progress F` lines (devzkey.ts), which stay out of the log.
 */
function run(
  cmd: string,
  args: string[],
  logFile: string,
  what: string,
  onProgress?: (f: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let partial = '';
    p.stdout.on('data', (d: Buffer) => {
      if (!onProgress) return void chunks.push(d);
      const lines = (partial + d.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const m = /^progress ([0-9.]+)$/.exec(line);
        if (m) onProgress(Number(m[1]));
        else chunks.push(Buffer.from(`${line}\n`));
      }
    });
    p.stdout.on('end', () => partial && chunks.push(Buffer.from(partial)));
    p.stderr.on('data', (d: Buffer) => chunks.push(d));
    p.once('error', reject);
    p.once('close', (code, signal) => {
      const out = Buffer.concat(chunks).toString('utf8');
      appendFileSync(logFile, `$ ${what}\n${out}\n`);
      if (code === 0) return resolve(out);
      const last = out.trim().split('\n').at(-1) ?? '';
      reject(
        new Error(
          `${what} failed (exit ${code ?? signal}): ${last.slice(0, 300)}; log ${path.relative(ROOT, logFile)}`,
        ),
      );
    });
  });
}

export const snark = (args: string[], logFile: string, what: string): Promise<string> =>
  run(process.execPath, [SNARKJS, ...args], logFile, what);

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

async function compile(
  name: CircuitName | GlobalCircuitName,
  label: string,
  src: string,
  dir: string,
  hash: string,
): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const main = path.join(path.dirname(dir), `${name}.circom`);
  writeFileSync(main, src);
  const out = await run(
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
    logOf(dir),
    `circom ${label}`,
  );
  // --inspect must be clean: any warning or error (but the known circomlib ones) fails the build.
  if (/warning|error/i.test(inspectFindings(out)))
    throw new Error(`circom --inspect is not clean for ${label}; log ${path.relative(ROOT, logOf(dir))}`);
  const js = path.join(dir, `${name}_js`);
  copyFileSync(path.join(js, 'witness_calculator.js'), path.join(js, 'witness_calculator.cjs'));
  writeFileSync(path.join(dir, 'compile.json'), JSON.stringify({ hash }, null, 2));
}

/** Where a circuit's compiler and snarkjs output go: `build/circuits/<ruleset>/<circuit>/build.log`. */
export const logOf = (dir: string) => path.join(dir, 'build.log');

/** What setup.json records; `devSetup` says the keys come from the public development beacon. */
export interface SetupRecord {
  hash: string;
  ptau: string;
  devSetup: boolean;
}

/** Phase 2 steps with their share of the time (measured on duel/turn), for the progress fraction. */
const SETUP_STEPS = { setup: 0.38, contribute: 0.07, beacon: 0.07, verify: 0.42, export: 0.06 } as const;
/** A development key's share of its setup time (the rest: the two exports). */
const DEV_KEY_SHARE = 0.8;

async function setup(
  name: CircuitName | GlobalCircuitName,
  dir: string,
  hash: string,
  ptau: ResolvedPtau,
  onFraction: (f: number) => void,
): Promise<SetupRecord> {
  const r1cs = path.join(dir, `${name}.r1cs`);
  const z0 = path.join(dir, `${name}_0.zkey`);
  const z1 = path.join(dir, `${name}_1.zkey`);
  const zkey = path.join(dir, `${name}.zkey`);
  const log = logOf(dir);
  let done = 0;
  const step = async (share: number, args: string[], what: string) => {
    const out = await snark(args, log, what);
    done += share;
    onFraction(done);
    return out;
  };
  // Development beacon derived from the circuit hash; a production ceremony uses a public random beacon.
  const beacon = createHash('sha256').update(`shroud beacon ${hash}`).digest('hex');
  if (ptau.dev) {
    // The development ptau's secrets are public, so a random contribution would hide nothing, and `zkey verify`
    // would only check snarkjs against itself (the circuit tests prove and verify with each key): the key is
    // computed from those secrets, the same bytes as `groth16 setup` then `zkey beacon` (devzkey.ts).
    // A process of its own, so that builds side by side (verifiers.ts --jobs) each get a core.
    await run(
      process.execPath,
      [
        DEVZKEY,
        '--r1cs',
        r1cs,
        '--power',
        String(ptau.power),
        '--out',
        zkey,
        '--beacon',
        beacon,
        '--progress',
      ],
      log,
      `development key (groth16 setup + zkey beacon on ${path.basename(ptau.file)})`,
      (f) => onFraction(f * DEV_KEY_SHARE),
    );
  } else {
    await step(
      SETUP_STEPS.setup,
      ['groth16', 'setup', r1cs, ptau.file, z0],
      `groth16 setup (${path.basename(ptau.file)})`,
    );
    await step(
      SETUP_STEPS.contribute,
      ['zkey', 'contribute', z0, z1, '--name=shroud build', `-e=${randomBytes(32).toString('hex')}`],
      'zkey contribute',
    );
    await step(
      SETUP_STEPS.beacon,
      ['zkey', 'beacon', z1, zkey, beacon, String(BUILD_BEACON.iterationsExp), `-n=${BUILD_BEACON.name}`],
      'zkey beacon',
    );
    const verify = await step(SETUP_STEPS.verify, ['zkey', 'verify', r1cs, ptau.file, zkey], 'zkey verify');
    if (!/ZKey Ok!/.test(verify))
      throw new Error(`zkey verify did not report "ZKey Ok!"; log ${path.relative(ROOT, log)}`);
  }
  // Written aside, then renamed: a reader (the play page's build, the demo's staged keys) never sees half a key.
  const vkey = path.join(dir, `${name}.vkey.json`);
  await snark(['zkey', 'export', 'verificationkey', zkey, `${vkey}.tmp`], log, 'export vkey');
  renameSync(`${vkey}.tmp`, vkey);
  await snark(
    ['zkey', 'export', 'solidityverifier', zkey, path.join(dir, `${name}Verifier.sol`)],
    log,
    'export Solidity verifier',
  );
  rmSync(z0, { force: true });
  rmSync(z1, { force: true });
  const record: SetupRecord = { hash, ptau: path.basename(ptau.file), devSetup: ptau.dev };
  writeFileSync(path.join(dir, 'setup.json'), JSON.stringify(record, null, 2));
  return record;
}

function readJson<T>(file: string): Partial<T> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<T>;
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
  const hash = cacheHash(src, '', [path.join(ROOT, 'scripts', 'circuits', 'global.ts')]);
  return buildOne({ name: 'seal', group: GLOBAL_DIR, src, hash }, opts);
}

/** Builds (or reuses from cache) the circuits of one ruleset (and `seal` when listed). */
export async function buildCircuits(opts: BuildOptions): Promise<Record<string, CircuitArtifacts>> {
  const r = typeof opts.ruleset === 'string' ? shippedRuleset(opts.ruleset) : opts.ruleset;
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
    );
  }
  return out;
}

/** The compiled circuit in `dir` is that of `hash`, with its witness generator. */
function compileCached(dir: string, name: string, hash: string): boolean {
  return (
    readJson<{ hash: string }>(path.join(dir, 'compile.json'))?.hash === hash &&
    existsSync(path.join(dir, `${name}_js`, `${name}.wasm`)) &&
    existsSync(path.join(dir, `${name}_js`, 'witness_calculator.cjs'))
  );
}

/**
 * The keys in `dir` are those of `hash`. A record without devSetup predates it: set up again rather than guess
 * where its keys come from. Keys from the development ptau are redone when the user now points at a ptau of
 * their own.
 */
function setupCached(dir: string, name: string, hash: string, opts: PtauChoice): boolean {
  const record = readJson<SetupRecord>(path.join(dir, 'setup.json'));
  const userPtau = Boolean(opts.ptau || userPtauDir(opts.ptauDir));
  return (
    record?.hash === hash &&
    record.devSetup !== undefined &&
    !(record.devSetup && userPtau) &&
    existsSync(path.join(dir, `${name}.zkey`))
  );
}

/**
 * Whether `buildCircuits(opts)` would take every circuit from the cache, compiling and setting up nothing: a
 * caller can then build them in line, or else in the background. Per-ruleset circuits only.
 */
export function circuitsCached(
  opts: Omit<BuildOptions, 'circuits'> & { circuits: readonly CircuitName[] },
): boolean {
  const r = typeof opts.ruleset === 'string' ? shippedRuleset(opts.ruleset) : opts.ruleset;
  const { board: _b, ...plain } = r;
  return opts.circuits.every((name) => {
    const src = mainSource(name, r);
    const hash = cacheHash(src, JSON.stringify(plain));
    const dir = path.join(ROOT, 'build', 'circuits', r.name, name);
    return compileCached(dir, name, hash) && (opts.setup === false || setupCached(dir, name, hash, opts));
  });
}

/** Compiles and sets up one circuit under build/circuits/<group>/<name>/, reusing what the cache holds. */
async function buildOne(b: OneBuild, opts: GlobalBuildOptions): Promise<CircuitArtifacts> {
  const { name, group, src, hash } = b;
  const log = opts.log ?? ((m: string) => console.error(m));
  const progress = opts.progress ?? silentProgress;
  const dir = path.join(ROOT, 'build', 'circuits', group, name);
  const id = `${group}/${name}`;
  return withLock(dir, async () => {
    const r1cs = path.join(dir, `${name}.r1cs`);
    const wasm = path.join(dir, `${name}_js`, `${name}.wasm`);
    const wc = path.join(dir, `${name}_js`, 'witness_calculator.cjs');
    if (opts.force || !compileCached(dir, name, hash)) {
      await timed(progress, `compile ${id}`, undefined, () => compile(name, id, src, dir, hash));
    } else log(`${id}: compiled (cached ${hash.slice(0, 12)})`);
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
      let record: Partial<SetupRecord> | undefined;
      if (opts.force || !setupCached(dir, name, hash, opts)) {
        const ptau = await resolvePtau(info.power, opts, {
          log: (m) => progress.line(`· ${m}`),
          onDevProgress: devPtauProgress(progress),
        });
        record = await timed(
          progress,
          `setup ${id} (${info.constraints.toLocaleString('en-US')} constraints, ${path.basename(ptau.file)})`,
          expectedMs(`setup ${id}`, () => (ptau.dev ? devSetupModelMs : setupModelMs)(info.constraints)),
          (f) => setup(name, dir, hash, ptau, f),
          `setup ${id}`,
        );
        art.ptau = ptau.file;
      } else {
        log(`${id}: zkey (cached)`);
        record = readJson<SetupRecord>(path.join(dir, 'setup.json'))!;
        art.ptau = record.ptau;
      }
      art.devSetup = record.devSetup;
      art.zkey = zkey;
      art.vkey = path.join(dir, `${name}.vkey.json`);
      art.verifier = path.join(dir, `${name}Verifier.sol`);
    }
    return art;
  });
}

/**
 * Runs one long step under the progress display and records its duration for the next estimate.
 * `key` defaults to the label (labels with details pass a stable key).
 */
export async function timed<T>(
  progress: Progress,
  label: string,
  expected: number | undefined,
  fn: (fraction: (f: number) => void) => T | Promise<T>,
  key = label,
): Promise<T> {
  const step = progress.step(label, expected ?? expectedMs(key));
  const t0 = Date.now();
  try {
    const v = await fn((f) => step.fraction(f));
    step.done();
    recordMs(key, Date.now() - t0);
    return v;
  } catch (e) {
    step.fail();
    throw e;
  }
}

/** A progress step for a development ptau being generated (opened on the first report). */
function devPtauProgress(progress: Progress): (done: number, power: number) => void {
  let step: Step | undefined;
  let power = 0;
  let started = 0;
  return (done, p) => {
    if (!step) {
      power = p;
      started = Date.now();
      step = progress.step(
        `development ptau, power ${p}`,
        expectedMs(`ptau ${p}`, () => ptauModelMs(p)),
      );
    }
    step.fraction(done);
    if (done >= 1) {
      step.done();
      recordMs(`ptau ${power}`, Date.now() - started);
      step = undefined;
    }
  };
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

const USAGE = `usage: npm run circuits:build -- --ruleset NAME[,NAME…] [--circuits a,b] [--ptau FILE | --ptau-dir DIR] [--no-setup] [--force]
       npm run circuits:build -- --circuits seal [...]   (ruleset-independent: no --ruleset needed)

Compiles the ruleset's circuits and runs their Groth16 setup, cached under build/circuits/<ruleset>/
(compiler and snarkjs output in <circuit>/build.log). Prints constraints and signals per circuit.
  --ruleset     shipped rulesets: ${shippedRulesetNames.join(', ')} (repeatable)
  --circuits    a subset of: ${[...ALL_CIRCUITS, ...GLOBAL_CIRCUITS].join(', ')} (default: ${CIRCUITS.join(', ')});
                seal, the sealed-share circuit, is built once under _global/seal
  --ptau        a prepared powers-of-tau file (phase 2)
  --ptau-dir    a folder of them (the smallest that fits); also $SHROUD_PTAU_DIR
                (neither: an INSECURE development ptau is made in build/circuits/ptau, local chains only)
  --no-setup    compile only
  --force       rebuild even when cached`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('circuits:build', async () => {
    const { values } = parseCli({
      name: 'circuits:build',
      usage: USAGE,
      options: {
        ruleset: { type: 'string', multiple: true },
        circuits: { type: 'string' },
        ptau: { type: 'string' },
        'ptau-dir': { type: 'string' },
        'no-setup': { type: 'boolean' },
        force: { type: 'boolean' },
      },
    });
    const rulesets = (values.ruleset ?? []).flatMap((r) => r.split(',')).filter(Boolean);
    const circuits = values.circuits?.split(',').filter(Boolean) as
      | (CircuitName | GlobalCircuitName)[]
      | undefined;
    const globalOnly = circuits?.every(isGlobalCircuit) === true;
    if (rulesets.length === 0 && !globalOnly) throw new UsageError('--ruleset is required (see --help)');
    for (const r of rulesets)
      if (!shippedRulesetNames.includes(r))
        throw new UsageError(`--ruleset ${r}: unknown; shipped: ${shippedRulesetNames.join(', ')}`);
    for (const c of circuits ?? [])
      if (!ALL_CIRCUITS.includes(c as CircuitName) && !isGlobalCircuit(c))
        throw new UsageError(
          `--circuits ${c}: unknown; circuits: ${[...ALL_CIRCUITS, ...GLOBAL_CIRCUITS].join(', ')}`,
        );
    const o: Omit<BuildOptions, 'ruleset'> = {
      ...(circuits ? { circuits } : {}),
      ...(values.ptau ? { ptau: inputFile('ptau', values.ptau) } : {}),
      ...(values['ptau-dir'] ? { ptauDir: inputDir('ptau-dir', values['ptau-dir']) } : {}),
      ...(values['no-setup'] ? { setup: false } : {}),
      ...(values.force ? { force: true } : {}),
      progress: consoleProgress({ out: process.stderr }),
    };
    const table: Record<string, Record<string, number | string>> = {};
    if (rulesets.length === 0) Object.assign(table, summary({ seal: await buildSealCircuit(o) }));
    for (const rs of rulesets) Object.assign(table, summary(await buildCircuits({ ...o, ruleset: rs })));
    console.log(JSON.stringify(table, null, 2));
  });
}
