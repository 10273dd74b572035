/**
 * `ceremony finalize`: verifies the ceremony, checks this clone compiles the very circuits it covered,
 * exports each final zkey's verification key and Solidity verifier, and writes them where the deployer
 * reads them (contracts/generated: renamed verifiers, manifest.json, seal.json, with copies of the zkey,
 * wasm and vkey), each entry carrying the files' SHA-256, the contributions and the beacon.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inputDir, inputFile, outputDir, parseCli, required } from '../../lib/cli.ts';
import {
  GENERATED_DIR,
  type GeneratedRuleset,
  type KeyProvenance,
  readManifest,
  rulesetHash,
  rulesetInfo,
  type SealArtifacts,
  selectorFor,
  type VerifiedCircuit,
  verifierContractName,
} from '../contracts/rulesets.ts';
import { publicSignalCount, renameVerifier, writeSealVerifier } from '../contracts/verifiers.ts';
import { compileTargets } from './circuits.ts';
import { sha256File } from './digest.ts';
import { inDir, logFile } from './record.ts';
import type { CeremonyRecord, CircuitRecord } from './types.ts';
import type { Ui } from './ui.ts';
import { ptauOption, verifyCeremony } from './verify.ts';
import { exportKeys } from './zkey.ts';

export interface FinalizeOptions {
  dir: string;
  /** Where the deployer reads verifiers (default contracts/generated). */
  out?: string;
  ptau?: string;
}

interface KeyFiles {
  zkey: string;
  wasm: string;
  vkey: string;
}

/** The provenance fields of a manifest entry, hashed from the copies the deployer and clients read. */
async function provenance(c: CircuitRecord, files: KeyFiles): Promise<KeyProvenance> {
  const zkeySha256 = await sha256File(files.zkey);
  if (zkeySha256 !== c.zkeySha256)
    throw new Error(`${c.id}: the copied zkey ${files.zkey} changed while copying`);
  return {
    zkeySha256,
    wasmSha256: await sha256File(files.wasm),
    r1csSha256: c.r1csSha256,
    vkeySha256: await sha256File(files.vkey),
    contributions: c.contributions.map(({ name, hash, address }) => ({ name, hash, address })),
    beacon: c.beacon ? { hash: c.beacon.hash, iterations: c.beacon.iterations } : null,
  };
}

/** Refuses keys nobody contributed secret randomness to, and a clone whose circuits differ. */
async function checkFinalizable(rec: CeremonyRecord, ui: Ui) {
  for (const c of rec.circuits)
    if (c.contributions.length === 0)
      throw new Error(`${c.id}: no contribution: its keys would be forgeable by anyone`);
  if (rec.circuits.some((c) => !c.beacon))
    ui.progress.line(
      '· no beacon applied: the last contributor could have chosen theirs after seeing the others',
    );
  for (const [name, hash] of Object.entries(rec.rulesets))
    if (rulesetHash(name) !== hash)
      throw new Error(
        `ruleset ${name} changed since init (hash ${rulesetHash(name)}, the ceremony's ${hash})`,
      );
  const arts = await compileTargets(rec.circuits, ui.progress);
  for (const c of rec.circuits) {
    const a = arts.get(c.id)!;
    if ((await sha256File(a.r1cs)) !== c.r1csSha256)
      throw new Error(`${c.id}: this clone compiles another circuit than the ceremony's ${c.r1cs}`);
    if ((await sha256File(a.wasm)) !== c.wasmSha256)
      throw new Error(`${c.id}: this clone's witness generator differs from the ceremony's ${c.wasm}`);
  }
  return arts;
}

export async function finalize(o: FinalizeOptions, ui: Ui): Promise<void> {
  const rec = await verifyCeremony({ dir: o.dir, ...(o.ptau ? { ptau: o.ptau } : {}) }, ui);
  const arts = await checkFinalizable(rec, ui);
  const outDir = o.out ?? GENERATED_DIR;
  mkdirSync(outDir, { recursive: true });
  const exported = new Map<string, { vkey: string; sol: string }>();
  for (const c of rec.circuits) {
    const vkey = inDir(o.dir, path.join(c.id, `${c.circuit}.vkey.json`));
    const sol = inDir(o.dir, path.join(c.id, `${c.circuit}Verifier.sol`));
    await exportKeys(inDir(o.dir, c.zkey), vkey, sol, logFile(o.dir), c.id);
    exported.set(c.id, { vkey, sol });
  }

  const seal = rec.circuits.find((c) => c.ruleset === null);
  if (seal) {
    const { vkey, sol } = exported.get(seal.id)!;
    const zkey = inDir(o.dir, seal.zkey);
    const wasm = inDir(o.dir, seal.wasm);
    const art = { ...arts.get(seal.id)!, zkey, wasm, vkey, verifier: sol, devSetup: rec.dev };
    const entry = writeSealVerifier(art, outDir);
    const full: SealArtifacts = { ...entry, ...(await provenance(seal, entry)) };
    writeFileSync(path.join(outDir, 'seal.json'), `${JSON.stringify(full, null, 2)}\n`);
    ui.print(`${entry.contract}: zkey sha256 ${full.zkeySha256}`);
  }

  const manifest = readManifest(outDir);
  for (const [name, hash] of Object.entries(rec.rulesets)) {
    // Verifiers of circuits this ceremony did not cover stay as they were (the deployer flags dev keys).
    const kept = manifest[name]?.hash === hash ? manifest[name].verifiers : {};
    const entry: GeneratedRuleset = { ...rulesetInfo(name), hash, verifiers: { ...kept } };
    for (const c of rec.circuits.filter((k) => k.ruleset === name)) {
      const { vkey, sol } = exported.get(c.id)!;
      const src = readFileSync(sol, 'utf8');
      const n = publicSignalCount(src);
      if (n !== c.publicSignals)
        throw new Error(`${c.id}: verifier has ${n} signals, r1cs ${c.publicSignals}`);
      const contract = verifierContractName(name, c.circuit);
      writeFileSync(path.join(outDir, `${contract}.sol`), renameVerifier(src, contract));
      const files = copyKeyFiles(path.join(outDir, name), c.circuit, {
        zkey: inDir(o.dir, c.zkey),
        wasm: inDir(o.dir, c.wasm),
        vkey,
      });
      entry.verifiers[c.circuit as VerifiedCircuit] = {
        contract,
        nPublic: n,
        selector: selectorFor(n),
        devKeys: rec.dev,
        ...files,
        ...(await provenance(c, files)),
      };
      ui.print(`${contract}: zkey sha256 ${entry.verifiers[c.circuit as VerifiedCircuit]!.zkeySha256}`);
    }
    manifest[name] = entry;
  }
  if (Object.keys(rec.rulesets).length > 0)
    writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  ui.print(
    `finalized into ${outDir}${rec.dev ? ' (development keys: local chains only)' : ''}; ` +
      'next: npm run contracts:build, then deploy',
  );
}

/** Copies a circuit's proving files next to its verifier: `<dir>/<circuit>.zkey`, `.wasm`, `.vkey.json`. */
function copyKeyFiles(dir: string, circuit: string, from: KeyFiles): KeyFiles {
  mkdirSync(dir, { recursive: true });
  const to = {
    zkey: path.join(dir, `${circuit}.zkey`),
    wasm: path.join(dir, `${circuit}.wasm`),
    vkey: path.join(dir, `${circuit}.vkey.json`),
  };
  for (const k of ['zkey', 'wasm', 'vkey'] as const) copyFileSync(from[k], to[k]);
  return to;
}

export const FINALIZE_USAGE = `usage: npm run ceremony -- finalize --dir DIR [--out DIR] [--ptau FILE]

Verifies the ceremony (as verify does), checks that this clone compiles the same circuits, and writes
the verifiers the deployer reads: renamed Solidity verifiers, manifest.json and seal.json (devKeys false
unless the ceremony ran on a development ptau), with each circuit's zkey, wasm and vkey copied beside
them and their SHA-256, contributions and beacon recorded. Then: npm run contracts:build, and deploy.
  --dir    the ceremony folder
  --out    where to write (default contracts/generated)
  --ptau   the ceremony's ptau (default: where init read it; the blake2b must match)`;

export async function finalizeCli(argv: string[], ui: Ui): Promise<void> {
  const { values } = parseCli(
    {
      name: 'ceremony',
      usage: FINALIZE_USAGE,
      options: { dir: { type: 'string' }, out: { type: 'string' }, ...ptauOption },
    },
    argv,
  );
  await finalize(
    {
      dir: inputDir('dir', required('dir', values.dir)),
      ...(values.out ? { out: outputDir('out', values.out) } : {}),
      ...(values.ptau ? { ptau: inputFile('ptau', values.ptau) } : {}),
    },
    ui,
  );
}
