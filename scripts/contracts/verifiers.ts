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
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import { inputDir, parseCli, runCli, UsageError } from '../../lib/cli.ts';
import { buildCircuits, buildSealCircuit, type CircuitArtifacts } from '../circuits/build.ts';
import type { CircuitName } from '../circuits/generate.ts';
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
  mkdirSync(path.join(dir, 'seal'), { recursive: true });
  writeFileSync(path.join(dir, `${SEAL_CONTRACT}.sol`), renameVerifier(src, SEAL_CONTRACT));
  const copy = (from: string, ext: string) => {
    const to = path.join(dir, 'seal', `seal${ext}`);
    copyFileSync(from, to);
    return to;
  };
  const entry: SealArtifacts = {
    contract: SEAL_CONTRACT,
    nPublic: SEAL_PUBLIC_SIGNALS,
    selector: selectorFor(n),
    vkey: copy(art.vkey, '.vkey.json'),
    zkey: copy(art.zkey, '.zkey'),
    wasm: copy(art.wasm, '.wasm'),
    devKeys: art.devSetup === true,
  };
  writeFileSync(path.join(dir, 'seal.json'), `${JSON.stringify(entry, null, 2)}\n`);
  return entry;
}

/**
 * Builds (or reuses) the seal circuit and the circuits of each ruleset, and writes their renamed verifiers,
 * the manifest and seal.json.
 */
export async function generateVerifiers(o: GenerateOptions): Promise<Record<string, GeneratedRuleset>> {
  const log = o.log ?? ((m: string) => console.error(m));
  const outDir = o.outDir ?? GENERATED_DIR;
  mkdirSync(outDir, { recursive: true });
  if (o.seal !== false) {
    const seal = await buildSealCircuit({
      ...(o.ptauDir ? { ptauDir: o.ptauDir } : {}),
      log,
      ...(o.progress ? { progress: o.progress } : {}),
    });
    writeSealVerifier(seal, outDir);
    log(`${SEAL_CONTRACT}: ${SEAL_PUBLIC_SIGNALS} public signals`);
  }
  const manifest = readManifest(outDir);
  for (const name of o.rulesets) {
    const circuits = o.circuits ?? VERIFIED_CIRCUITS;
    const arts = await buildCircuits({
      ruleset: name,
      circuits: circuits as readonly CircuitName[],
      ...(o.ptauDir ? { ptauDir: o.ptauDir } : {}),
      log,
      ...(o.progress ? { progress: o.progress } : {}),
    });
    const hash = rulesetHash(name);
    const kept = manifest[name]?.hash === hash ? manifest[name].verifiers : {};
    const entry: GeneratedRuleset = { ...rulesetInfo(name), hash, verifiers: { ...kept } };
    for (const c of circuits) {
      const art = arts[c];
      if (!art?.verifier) throw new Error(`${name}/${c}: no verifier (setup skipped?)`);
      const src = readFileSync(art.verifier, 'utf8');
      const n = publicSignalCount(src);
      if (n !== art.publicSignals)
        throw new Error(`${name}/${c}: verifier has ${n} signals, r1cs ${art.publicSignals}`);
      const contract = verifierContractName(name, c);
      writeFileSync(path.join(outDir, `${contract}.sol`), renameVerifier(src, contract));
      // The zkey, wasm and vkey are copied next to the verifier: the shared build cache may be rebuilt (with a
      // new random contribution) by other work, and proofs must come from the zkey this verifier was exported from.
      const dir = path.join(outDir, name);
      mkdirSync(dir, { recursive: true });
      const copy = (from: string, ext: string) => {
        const to = path.join(dir, `${c}${ext}`);
        copyFileSync(from, to);
        return to;
      };
      entry.verifiers[c] = {
        contract,
        nPublic: n,
        selector: selectorFor(n),
        devKeys: art.devSetup === true,
        vkey: copy(art.vkey!, '.vkey.json'),
        zkey: copy(art.zkey!, '.zkey'),
        wasm: copy(art.wasm, '.wasm'),
      };
      log(`${contract}: ${n} public signals${art.devSetup ? ' (development keys: local chain only)' : ''}`);
    }
    manifest[name] = entry;
  }
  writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

const USAGE = `usage: node scripts/contracts/verifiers.ts --ruleset NAME[,NAME…] [--ptau-dir DIR]

Builds the ruleset's circuits and keys (cached under build/circuits/) and writes their Groth16
verifiers to contracts/generated/ with manifest.json; then \`npm run contracts:build\` compiles them.
  --ruleset    shipped rulesets: ${shippedRulesetNames.join(', ')} (repeatable)
  --ptau-dir   a folder of prepared powers of tau (also $SHROUD_PTAU_DIR); without one the keys come
               from an INSECURE development ptau and are deployable on the local chain only`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('verifiers', async () => {
    const { values } = parseCli({
      name: 'verifiers',
      usage: USAGE,
      options: { ruleset: { type: 'string', multiple: true }, 'ptau-dir': { type: 'string' } },
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
      log: () => {},
      progress: consoleProgress({ out: process.stderr }),
    });
    console.log(JSON.stringify(Object.fromEntries(rulesets.map((k) => [k, m[k]!.hash])), null, 2));
  });
}
