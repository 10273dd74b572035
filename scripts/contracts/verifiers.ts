/**
 * Generates the Groth16 verifier contracts the game calls, per ruleset:
 *
 *   node scripts/contracts/verifiers.ts --ruleset tiny [--ruleset duel] [--ptau-dir DIR]
 *
 * Runs the circuit pipeline (`buildCircuits`, cached under build/circuits/<ruleset>/) for spawn, turn,
 * attack, combat and maproot (the map proof's root, checked on-chain by MapProofRegistry), then copies each snarkjs `<name>Verifier.sol` into the git-ignored
 * `contracts/generated/<Ruleset><Name>Verifier.sol`, renaming `contract Groth16Verifier` so Hardhat can
 * compile several of them side by side. Verifiers are not committed: each build's phase-2 contribution is
 * random, so a verifier only matches the zkey it was exported with. Writes `contracts/generated/manifest.json`
 * (contract names, public-signal counts, selectors, ruleset hashes, and `devKeys` when the keys come from the
 * INSECURE development ptau) for the deployer, with a copy of each circuit's zkey, wasm and vkey under
 * `contracts/generated/<ruleset>/` (the proving artifacts matching the verifier).
 *
 * It always builds the ruleset-independent sealed-share circuit too (`buildSealCircuit`, cached under
 * build/circuits/_global/seal/): `contracts/generated/SealVerifier.sol`, its zkey, wasm and vkey under
 * `contracts/generated/seal/`, recorded in `contracts/generated/seal.json` (`readSealArtifacts`), so the
 * ruleset-keyed manifest keeps its shape.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import { inputDir, intFlag, parseCli, runCli, UsageError } from '../../lib/cli.ts';
import { buildCircuits, buildSealCircuit, type CircuitArtifacts, GLOBAL_DIR } from '../circuits/build.ts';
import type { CircuitName } from '../circuits/generate.ts';
import { expectedMs } from '../circuits/timings.ts';
import { mapPool } from '../lib/pool.ts';
import type { Progress } from '../lib/progress.ts';
import { consoleProgress } from '../lib/progress.ts';
import {
  GENERATED_DIR,
  type GeneratedRuleset,
  readManifest,
  rulesetHash,
  rulesetInfo,
  SEAL_CONTRACT,
  SEAL_PUBLIC_SIGNALS,
  type SealArtifacts,
  selectorFor,
  VERIFIED_CIRCUITS,
  type VerifiedCircuit,
  verifierContractName,
} from './rulesets.ts';

/** Renames the snarkjs contract; fails loudly if the template changed. */
export function renameVerifier(source: string, contractName: string): string {
  const re = /\bcontract Groth16Verifier\b/g;
  const hits = source.match(re)?.length ?? 0;
  if (hits !== 1)
    throw new Error(`expected one "contract Groth16Verifier" in the snarkjs verifier, found ${hits}`);
  return source.replace(re, `contract ${contractName}`);
}

/** Public-signal count of a snarkjs verifier (`uint[N] calldata _pubSignals`). */
export function publicSignalCount(source: string): number {
  const m = /uint\[(\d+)\] calldata _pubSignals/.exec(source);
  if (!m) throw new Error('no verifyProof(..., uint[N] calldata _pubSignals) in the verifier');
  return Number(m[1]);
}

export interface GenerateOptions {
  rulesets: readonly string[];
  ptauDir?: string;
  /** The circuits to build (default: every verified one); the manifest keeps earlier entries of the others. */
  circuits?: readonly VerifiedCircuit[];
  log?: (m: string) => void;
  /** Output folder (default contracts/generated). */
  outDir?: string;
  progress?: Progress;
  /**
   * Also build and write the sealed-share verifier (default true); false leaves seal.json and its files as they
   * are (the demo adds a ruleset's maproot verifier while players read the seal artifacts).
   */
  seal?: boolean;
  /** Circuits compiled and set up at once (default `defaultJobs()`). */
  jobs?: number;
}

/**
 * Builds at once by default: up to 4, one per core. A snarkjs setup keeps about 1.4 of 2 cores busy, so two side
 * by side take ~1.5× less time than one after the other (measured: two tiny-pass/turn setups, 60.8 s together
 * against 46.3 s alone).
 */
export function defaultJobs(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Copies a build's zkey, wasm and vkey to `dir/<stem>.*`, next to the verifier exported from that zkey: the shared
 * build cache may be rebuilt (with a new random contribution) by other work, and proofs must come from this zkey.
 */
function copyKeys(
  art: CircuitArtifacts,
  dir: string,
  stem: string,
): { vkey: string; zkey: string; wasm: string } {
  mkdirSync(dir, { recursive: true });
  const copy = (from: string, ext: string) => {
    const to = path.join(dir, `${stem}${ext}`);
    copyFileSync(from, to);
    return to;
  };
  return {
    vkey: copy(art.vkey!, '.vkey.json'),
    zkey: copy(art.zkey!, '.zkey'),
    wasm: copy(art.wasm, '.wasm'),
  };
}

/** Writes SealVerifier.sol, the matching zkey/wasm/vkey under seal/, and seal.json into `dir`. */
export function writeSealVerifier(art: CircuitArtifacts, dir = GENERATED_DIR): SealArtifacts {
  if (!art.verifier || !art.zkey || !art.vkey) throw new Error('seal: no verifier (setup skipped?)');
  const src = readFileSync(art.verifier, 'utf8');
  const n = publicSignalCount(src);
  if (n !== SEAL_PUBLIC_SIGNALS || art.publicSignals !== SEAL_PUBLIC_SIGNALS)
    throw new Error(
      `seal: verifier has ${n} signals, r1cs ${art.publicSignals}, expected ${SEAL_PUBLIC_SIGNALS}`,
    );
  const keys = copyKeys(art, path.join(dir, 'seal'), 'seal');
  writeFileSync(path.join(dir, `${SEAL_CONTRACT}.sol`), renameVerifier(src, SEAL_CONTRACT));
  const entry: SealArtifacts = {
    contract: SEAL_CONTRACT,
    nPublic: SEAL_PUBLIC_SIGNALS,
    selector: selectorFor(n),
    ...keys,
    devKeys: art.devSetup === true,
  };
  writeFileSync(path.join(dir, 'seal.json'), `${JSON.stringify(entry, null, 2)}\n`);
  return entry;
}

/** Writes one circuit's renamed verifier into `outDir` and copies its zkey, wasm and vkey under `outDir/<ruleset>/`. */
function writeCircuitVerifier(
  name: string,
  c: VerifiedCircuit,
  art: CircuitArtifacts | undefined,
  outDir: string,
  log: (m: string) => void,
): GeneratedRuleset['verifiers'][VerifiedCircuit] & object {
  if (!art?.verifier) throw new Error(`${name}/${c}: no verifier (setup skipped?)`);
  const src = readFileSync(art.verifier, 'utf8');
  const n = publicSignalCount(src);
  if (n !== art.publicSignals)
    throw new Error(`${name}/${c}: verifier has ${n} signals, r1cs ${art.publicSignals}`);
  const contract = verifierContractName(name, c);
  writeFileSync(path.join(outDir, `${contract}.sol`), renameVerifier(src, contract));
  log(`${contract}: ${n} public signals${art.devSetup ? ' (development keys: local chain only)' : ''}`);
  return {
    contract,
    nPublic: n,
    selector: selectorFor(n),
    devKeys: art.devSetup === true,
    ...copyKeys(art, path.join(outDir, name), c),
  };
}

/**
 * Builds (or reuses) the seal circuit and the circuits of each ruleset, and writes their renamed verifiers,
 * the manifest and seal.json.
 */
export async function generateVerifiers(o: GenerateOptions): Promise<Record<string, GeneratedRuleset>> {
  const log = o.log ?? ((m: string) => console.error(m));
  const outDir = o.outDir ?? GENERATED_DIR;
  mkdirSync(outDir, { recursive: true });
  const circuits = (o.circuits ?? VERIFIED_CIRCUITS) as readonly VerifiedCircuit[];
  // Every (ruleset, circuit) and the seal circuit is its own build, so the builds share the cores (each circuit's
  // cache folder has its own lock, the development ptau one for all); longest expected first, so that no long
  // setup runs alone at the end. Each build's files are written as soon as it is done (copyKeys); the manifest
  // after all of them.
  type Build = { ruleset?: string; circuit: VerifiedCircuit | 'seal' };
  const expected = (b: Build) => expectedMs(`setup ${b.ruleset ?? GLOBAL_DIR}/${b.circuit}`) ?? 0;
  const builds: Build[] = [
    ...(o.seal !== false ? [{ circuit: 'seal' as const }] : []),
    ...o.rulesets.flatMap((ruleset) => circuits.map((circuit) => ({ ruleset, circuit }))),
  ].sort((x, y) => expected(y) - expected(x));
  const common = {
    ...(o.ptauDir ? { ptauDir: o.ptauDir } : {}),
    log,
    ...(o.progress ? { progress: o.progress } : {}),
  };
  const done = await mapPool(builds, o.jobs ?? defaultJobs(), async ({ ruleset, circuit }) => {
    if (ruleset === undefined) {
      writeSealVerifier(await buildSealCircuit(common), outDir);
      log(`${SEAL_CONTRACT}: ${SEAL_PUBLIC_SIGNALS} public signals`);
      return undefined;
    }
    const art = (await buildCircuits({ ruleset, circuits: [circuit as CircuitName], ...common }))[circuit];
    return writeCircuitVerifier(ruleset, circuit as VerifiedCircuit, art, outDir, log);
  });
  const manifest = readManifest(outDir);
  for (const name of o.rulesets) {
    const hash = rulesetHash(name);
    const kept = manifest[name]?.hash === hash ? manifest[name].verifiers : {};
    const entry: GeneratedRuleset = { ...rulesetInfo(name), hash, verifiers: { ...kept } };
    for (const c of circuits)
      entry.verifiers[c] = done[builds.findIndex((b) => b.ruleset === name && b.circuit === c)]!;
    manifest[name] = entry;
  }
  writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

const USAGE = `usage: node scripts/contracts/verifiers.ts --ruleset NAME[,NAME…] [--ptau-dir DIR] [--jobs N]

Builds the ruleset's circuits and keys (cached under build/circuits/) and writes their Groth16
verifiers to contracts/generated/ with manifest.json; then \`npm run contracts:build\` compiles them.
  --ruleset    shipped rulesets: ${shippedRulesetNames.join(', ')} (repeatable)
  --ptau-dir   a folder of prepared powers of tau (also $SHROUD_PTAU_DIR); without one the keys come
               from an INSECURE development ptau and are deployable on the local chain only
  --jobs       circuits built at once, 1 to 16 (default: one per core, at most 4)`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('verifiers', async () => {
    const { values } = parseCli({
      name: 'verifiers',
      usage: USAGE,
      options: {
        ruleset: { type: 'string', multiple: true },
        'ptau-dir': { type: 'string' },
        jobs: { type: 'string' },
      },
    });
    const rulesets = (values.ruleset ?? []).flatMap((r) => r.split(',')).filter(Boolean);
    if (rulesets.length === 0) throw new UsageError('--ruleset is required (see --help)');
    for (const r of rulesets)
      if (!shippedRulesetNames.includes(r))
        throw new UsageError(`--ruleset ${r}: unknown; shipped: ${shippedRulesetNames.join(', ')}`);
    const ptauDir = values['ptau-dir'] ? inputDir('ptau-dir', values['ptau-dir']) : undefined;
    const m = await generateVerifiers({
      rulesets,
      ...(ptauDir ? { ptauDir } : {}),
      ...(values.jobs !== undefined ? { jobs: intFlag('jobs', values.jobs, 1, 16) } : {}),
      log: () => {},
      progress: consoleProgress({ out: process.stderr }),
    });
    console.log(JSON.stringify(Object.fromEntries(rulesets.map((k) => [k, m[k]!.hash])), null, 2));
  });
}
