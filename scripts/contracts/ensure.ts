/**
 * What the contract scripts (deploy, bench gas, audit, the demo) need before they start: compiled
 * contracts, and the generated verifiers of the rulesets they register. `hardhat build` is
 * incremental (under a second when nothing changed), so it simply runs every time.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Progress } from '../lib/progress.ts';
import { readManifest, rulesetHash, VERIFIED_CIRCUITS } from './rulesets.ts';
import { generateVerifiers } from './verifiers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HARDHAT = path.join(ROOT, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js');
/** Hardhat's compiler output, kept out of the terminal. */
export const CONTRACTS_BUILD_LOG = path.join(ROOT, 'build', 'hardhat-build.log');

/** `hardhat build --quiet` in a child process; throws one line naming the log on failure. */
export function buildContracts(): void {
  const res = spawnSync(process.execPath, [HARDHAT, 'build', '--quiet'], { cwd: ROOT, encoding: 'utf8' });
  mkdirSync(path.dirname(CONTRACTS_BUILD_LOG), { recursive: true });
  writeFileSync(CONTRACTS_BUILD_LOG, `${res.stdout ?? ''}${res.stderr ?? ''}`);
  if (res.status !== 0)
    throw new Error(
      `hardhat build failed (exit ${res.status ?? res.signal}); log ${path.relative(process.cwd(), CONTRACTS_BUILD_LOG)}`,
    );
}

/** Rulesets whose verifiers are missing from contracts/generated or were generated for an older ruleset. */
export function missingVerifiers(rulesets: readonly string[]): string[] {
  const m = readManifest();
  return rulesets.filter(
    (r) => m[r]?.hash !== rulesetHash(r) || VERIFIED_CIRCUITS.some((c) => m[r]?.verifiers[c] === undefined),
  );
}

/** The command that generates verifiers for `rulesets`, for one-line hints. */
export const verifiersCommand = (rulesets: readonly string[]) =>
  `node scripts/contracts/verifiers.ts ${rulesets.map((r) => `--ruleset ${r}`).join(' ')}`;

/**
 * Generates the missing verifiers (development keys unless `ptauDir` is given: fine for local
 * chains), then compiles the contracts.
 */
export async function ensureBuilt(
  rulesets: readonly string[],
  o: { ptauDir?: string; progress?: Progress } = {},
): Promise<void> {
  const missing = missingVerifiers(rulesets);
  if (missing.length > 0)
    await generateVerifiers({
      rulesets: missing,
      ...(o.ptauDir ? { ptauDir: o.ptauDir } : {}),
      log: () => {},
      ...(o.progress ? { progress: o.progress } : {}),
    });
  const step = o.progress?.step('compiling contracts (hardhat build)');
  try {
    buildContracts();
    step?.done();
  } catch (e) {
    step?.fail();
    throw e;
  }
}
