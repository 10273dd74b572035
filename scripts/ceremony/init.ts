/**
 * `ceremony init`: identifies the ptau, compiles the circuits, runs `zkey new` for each into the ceremony
 * folder (with a copy of its r1cs and wasm, so the folder is all a contributor or verifier needs besides
 * the ptau) and writes ceremony.json.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { inputFile, outputDir, parseCli, required, UsageError } from '../../lib/cli.ts';
import { timed } from '../circuits/build.ts';
import { rulesetHash } from '../contracts/rulesets.ts';
import { zkeyName } from './chain.ts';
import {
  CEREMONY_CIRCUITS,
  type CeremonyCircuit,
  compileTargets,
  parseSelection,
  targetsOf,
} from './circuits.ts';
import { sha256File } from './digest.ts';
import { identifyPtau } from './ptau.ts';
import { inDir, logFile, recordFile, writeCeremony } from './record.ts';
import { CEREMONY_FILE, type CeremonyRecord, type CircuitRecord } from './types.ts';
import type { Ui } from './ui.ts';
import { newZkey } from './zkey.ts';

export interface InitOptions {
  ptau: string;
  rulesets: string[];
  circuits: CeremonyCircuit[];
  dir: string;
  /** Accept an unpublished ptau; the keys are then development keys. */
  dev: boolean;
}

export async function initCeremony(o: InitOptions, ui: Ui): Promise<CeremonyRecord> {
  if (existsSync(recordFile(o.dir))) throw new UsageError(`--dir ${o.dir}: already holds a ${CEREMONY_FILE}`);
  const ptau = await identifyPtau(o.ptau, o.dev, ui.progress);
  const targets = targetsOf(o.rulesets, o.circuits);
  const arts = await compileTargets(targets, ui.progress);
  for (const t of targets) {
    const a = arts.get(t.id)!;
    if (a.power > ptau.power)
      throw new Error(
        `${t.id}: ${a.constraints.toLocaleString('en-US')} constraints need a ptau of power ${a.power}; ` +
          `${ptau.name} has power ${ptau.power}`,
      );
  }
  mkdirSync(o.dir, { recursive: true });
  const circuits: CircuitRecord[] = [];
  for (const t of targets) {
    const a = arts.get(t.id)!;
    mkdirSync(inDir(o.dir, t.id), { recursive: true });
    const r1cs = path.join(t.id, `${t.circuit}.r1cs`);
    const wasm = path.join(t.id, `${t.circuit}.wasm`);
    const zkey = path.join(t.id, zkeyName(t.circuit, 0));
    copyFileSync(a.r1cs, inDir(o.dir, r1cs));
    copyFileSync(a.wasm, inDir(o.dir, wasm));
    await timed(
      ui.progress,
      `zkey new ${t.id} (${a.constraints.toLocaleString('en-US')} constraints)`,
      undefined,
      () => newZkey(inDir(o.dir, r1cs), ptau.path, inDir(o.dir, zkey), logFile(o.dir), t.id),
      `ceremony new ${t.id}`,
    );
    const zkeySha256 = await sha256File(inDir(o.dir, zkey));
    circuits.push({
      ...t,
      constraints: a.constraints,
      power: a.power,
      publicSignals: a.publicSignals,
      r1cs,
      r1csSha256: await sha256File(inDir(o.dir, r1cs)),
      wasm,
      wasmSha256: await sha256File(inDir(o.dir, wasm)),
      initialSha256: zkeySha256,
      zkey,
      zkeySha256,
      contributions: [],
      beacon: null,
    });
  }
  const rec: CeremonyRecord = {
    version: 1,
    ptau,
    dev: o.dev || !ptau.published,
    rulesets: Object.fromEntries(o.rulesets.map((r) => [r, rulesetHash(r)])),
    circuits,
  };
  writeCeremony(o.dir, rec);
  ui.print(
    `ceremony ready in ${o.dir}: ${circuits.length} circuits on ${ptau.name}` +
      `${rec.dev ? ' (development keys: local chains only)' : ''}; next: contribute`,
  );
  return rec;
}

export const INIT_USAGE = `usage: npm run ceremony -- init --ptau FILE --ruleset NAME[,NAME…] --dir DIR [--circuits a,b] [--dev]

Starts a phase-2 ceremony in DIR: checks the ptau's blake2b-512 against the published Hermez
powersOfTau28_hez_final files, compiles the circuits, and writes each one's first zkey and ceremony.json.
  --ptau      a published Hermez powers of tau (the smallest whose power fits every circuit)
  --ruleset   the rulesets whose verified circuits get keys (repeatable; not needed for --circuits seal)
  --dir       the ceremony folder (created; it must not hold a ceremony yet)
  --circuits  a subset of: ${CEREMONY_CIRCUITS.join(', ')} (default: all; seal is ruleset-independent)
  --dev       accept any ptau (e.g. the development one): the keys are development keys, local chains only`;

export async function initCli(argv: string[], ui: Ui): Promise<void> {
  const { values } = parseCli(
    {
      name: 'ceremony',
      usage: INIT_USAGE,
      options: {
        ptau: { type: 'string' },
        ruleset: { type: 'string', multiple: true },
        dir: { type: 'string' },
        circuits: { type: 'string' },
        dev: { type: 'boolean' },
      },
    },
    argv,
  );
  const rulesets = (values.ruleset ?? []).flatMap((r) => r.split(',')).filter(Boolean);
  const circuits = parseSelection(rulesets, values.circuits?.split(',').filter(Boolean));
  await initCeremony(
    {
      ptau: inputFile('ptau', required('ptau', values.ptau)),
      rulesets,
      circuits,
      dir: outputDir('dir', required('dir', values.dir)),
      dev: values.dev === true,
    },
    ui,
  );
}
