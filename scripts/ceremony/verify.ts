/**
 * `ceremony verify`: what anyone can check with the folder and the ptau. Per circuit: the files are the
 * ones recorded, the record's chain of zkeys and every attestation signature hold, `snarkjs zkey verify`
 * accepts the latest zkey against the r1cs and the ptau, and the contributions it lists are exactly the
 * recorded ones (names and hashes, then the beacon). The cheap checks run for every circuit first.
 */
import path from 'node:path';
import { inputDir, inputFile, parseCli, required } from '../../lib/cli.ts';
import { timed } from '../circuits/build.ts';
import { attestationProblem } from './attest.ts';
import { checkLatest } from './chain.ts';
import { sha256File } from './digest.ts';
import { publishedPtau } from './hermez.ts';
import { findCeremonyPtau } from './ptau.ts';
import { inDir, logFile, readCeremony } from './record.ts';
import type { CeremonyRecord, CircuitRecord } from './types.ts';
import type { Ui } from './ui.ts';
import { BEACON_NAME, verifyZkey, type ZkeyContribution } from './zkey.ts';

export interface VerifyOptions {
  dir: string;
  /** The ptau, when it is not where init read it. */
  ptau?: string;
}

/** `contribution #2 (Bob)`, or `the beacon (#4)`. */
function who(c: CircuitRecord, index: number): string {
  const k = c.contributions[index - 1];
  if (k) return `contribution #${index} (${k.name})`;
  return c.beacon && index === c.contributions.length + 1
    ? `the beacon (#${index})`
    : `contribution #${index}`;
}

/** The record's own consistency: files, the chain of zkey hashes, the attestations. */
async function recordProblem(dir: string, c: CircuitRecord): Promise<string | undefined> {
  for (const [file, sha] of [
    [c.r1cs, c.r1csSha256],
    [c.wasm, c.wasmSha256],
  ] as const)
    if ((await sha256File(inDir(dir, file))) !== sha) return `${file} is not the file init recorded`;
  let prev = c.initialSha256;
  for (const [i, k] of c.contributions.entries()) {
    if (k.index !== i + 1) return `${who(c, i + 1)} is recorded as #${k.index}`;
    if (k.prev !== prev) return `${who(c, k.index)} was built on ${k.prev}, not on the previous zkey ${prev}`;
    const p = attestationProblem(c.id, k);
    if (p) return `${who(c, k.index)}: ${p}`;
    prev = k.zkeySha256;
  }
  if (c.beacon) {
    if (c.beacon.prev !== prev) return `the beacon was applied to ${c.beacon.prev}, not to ${prev}`;
    prev = c.beacon.zkeySha256;
  }
  if (prev !== c.zkeySha256) return `the latest zkey ${c.zkey} is not the output of the last recorded step`;
  return undefined;
}

/** Differences between the contributions `zkey verify` lists and the record. */
function listProblem(c: CircuitRecord, listed: ZkeyContribution[]): string | undefined {
  const expected: ZkeyContribution[] = c.contributions.map(({ index, name, hash }) => ({
    index,
    name,
    hash,
  }));
  if (c.beacon)
    expected.push({
      index: expected.length + 1,
      name: BEACON_NAME,
      hash: c.beacon.contributionHash,
      beacon: { hash: c.beacon.hash, iterations: c.beacon.iterations },
    });
  if (listed.length !== expected.length)
    return `the zkey holds ${listed.length} contributions, ceremony.json records ${expected.length}`;
  for (const [i, want] of expected.entries()) {
    const got = listed[i]!;
    const what = who(c, i + 1);
    if (got.hash !== want.hash)
      return `${what}: the zkey's contribution hash ${got.hash.slice(0, 16)}… is not the recorded ${want.hash.slice(0, 16)}…`;
    if (got.name !== want.name) return `${what}: the zkey names it "${got.name}"`;
    if (JSON.stringify(got.beacon) !== JSON.stringify(want.beacon))
      return `${what}: the zkey's beacon ${JSON.stringify(got.beacon ?? null)} is not the recorded one`;
  }
  return undefined;
}

/** Verifies the whole ceremony; throws one line naming the circuit (and contribution) that fails. */
export async function verifyCeremony(o: VerifyOptions, ui: Ui): Promise<CeremonyRecord> {
  const rec = readCeremony(o.dir);
  if (!rec.dev && !publishedPtau(rec.ptau.blake2b))
    throw new Error(`ceremony.json: production keys recorded on an unpublished ptau (${rec.ptau.name})`);
  for (const c of rec.circuits) {
    await checkLatest(o.dir, c, 'the file changed after it was recorded');
    const p = await recordProblem(o.dir, c);
    if (p) throw new Error(`${c.id}: ${p}`);
  }
  const ptau = await findCeremonyPtau(rec.ptau, o.ptau, ui.progress);
  for (const c of rec.circuits) {
    const check = await timed(
      ui.progress,
      `zkey verify ${c.id}`,
      undefined,
      () => verifyZkey(inDir(o.dir, c.r1cs), ptau, inDir(o.dir, c.zkey), logFile(o.dir), c.id),
      `ceremony verify ${c.id}`,
    );
    if (!check.ok) {
      const at = check.index === undefined ? '' : `${who(c, check.index)}: `;
      throw new Error(`${c.id}: ${at}zkey verify rejects ${path.basename(c.zkey)}: ${check.reason}`);
    }
    const p = listProblem(c, check.contributions);
    if (p) throw new Error(`${c.id}: ${p}`);
    const names = c.contributions.map((k) => k.name).join(', ');
    ui.print(
      `${c.id}: ok, ${c.contributions.length} contributions (${names})${c.beacon ? ' and the beacon' : ''}`,
    );
  }
  ui.print(
    `ceremony verified: ${rec.circuits.length} circuits on ${rec.ptau.name}` +
      `${rec.dev ? ' (development keys: local chains only)' : ''}`,
  );
  return rec;
}

export const VERIFY_USAGE = `usage: npm run ceremony -- verify --dir DIR [--ptau FILE]

Checks the ceremony in DIR, circuit by circuit: the files are the recorded ones, every attestation
signature holds, \`snarkjs zkey verify\` accepts the latest zkey against the r1cs and the ptau, and the
contributions in the zkey are exactly the recorded ones. Exit 1 naming the circuit and contribution.
  --dir    the ceremony folder
  --ptau   the ceremony's ptau (default: where init read it; the blake2b must match)`;

/** `--ptau` as verify and finalize take it. */
export const ptauOption = { ptau: { type: 'string' } } as const;

export async function verifyCli(argv: string[], ui: Ui): Promise<void> {
  const { values } = parseCli(
    { name: 'ceremony', usage: VERIFY_USAGE, options: { dir: { type: 'string' }, ...ptauOption } },
    argv,
  );
  await verifyCeremony(
    {
      dir: inputDir('dir', required('dir', values.dir)),
      ...(values.ptau ? { ptau: inputFile('ptau', values.ptau) } : {}),
    },
    ui,
  );
}
