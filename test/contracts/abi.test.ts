/**
 * One typed contract surface: the committed `as const` ABIs (core/abi/) are exactly what
 * scripts/contracts/abi.ts makes of the current Hardhat artifacts, so a contract change whose ABI was not
 * regenerated (`npm run contracts:build`) fails here rather than in a transaction.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { SHROUD_GAME_ABI } from '../../core/abi/shroud-game.ts';
import {
  ABI_MODULES,
  ARTIFACTS_DIR,
  abiModuleSource,
  generateAbiModules,
  staleAbiModules,
} from '../../scripts/contracts/abi.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-abi-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the three artifacts the generator reads, for editing. */
function artifactsCopy(): string {
  const dir = mkdtempSync(path.join(tmp, 'artifacts-'));
  for (const { contract } of ABI_MODULES) {
    const rel = path.join('contracts', `${contract}.sol`, `${contract}.json`);
    cpSync(path.join(ARTIFACTS_DIR, rel), path.join(dir, rel));
  }
  return dir;
}

describe('generated ABIs', () => {
  it('every committed core/abi module is what the generator makes of the current artifacts', () => {
    assert.deepEqual(staleAbiModules(), [], 'run npm run contracts:build and commit core/abi/');
  });

  it('a changed contract ABI is reported stale (the check above can fail)', () => {
    const dir = artifactsCopy();
    const f = path.join(dir, 'contracts', 'ShroudGame.sol', 'ShroudGame.json');
    const art = JSON.parse(readFileSync(f, 'utf8')) as { abi: { type: string; name?: string }[] };
    art.abi = art.abi.filter((x) => x.name !== 'getGame');
    writeFileSync(f, JSON.stringify(art));
    assert.deepEqual(staleAbiModules(dir), [path.join('core', 'abi', 'shroud-game.ts')]);
  });

  it('missing artifacts name the build to run', () => {
    assert.throws(() => generateAbiModules(path.join(tmp, 'none')), /missing: run npx hardhat build first/);
  });

  it('refuses overloaded functions: typed calls are by name', () => {
    const f = { type: 'function', name: 'play', inputs: [], outputs: [], stateMutability: 'nonpayable' };
    assert.throws(() => abiModuleSource(ABI_MODULES[0], [f, f]), /overloaded function play/);
  });

  it('the ABI has every contract error and no bad-share path', () => {
    const names = (type: string) =>
      SHROUD_GAME_ABI.flatMap((x) => (x.type === type && 'name' in x ? [x.name as string] : []));
    assert.ok(names('error').includes('CommitmentInLogs'));
    assert.ok(names('event').includes('SealedReveal'));
    assert.ok(!names('function').includes('reportBadCiphertext'), 'no bad-share path left on-chain');
  });
});
