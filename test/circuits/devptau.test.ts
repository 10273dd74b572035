/**
 * The INSECURE development ptau (scripts/circuits/devptau.ts) is a genuine snarkjs ptau: byte for byte
 * what `prepare phase2` derives from its own powers, accepted by `powersoftau verify` (which re-derives the
 * beacon contribution from its public hash), and a Groth16 setup on it passes `zkey verify`, proves and
 * verifies. The circuit fills the file's top power, so the last Lagrange section (the one snarkjs derives
 * from a truncated list of powers) is exercised.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as snarkjs from 'snarkjs';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { ROOT, readPtauPower, readR1csInfo } from '../../scripts/circuits/build.ts';
import {
  DEV_CONTRIBUTION_NAME,
  devPtauName,
  generateDevPtau,
  isDevPtau,
} from '../../scripts/circuits/devptau.ts';

const POWER = 6;
const quiet = { log: () => {}, info: () => {}, debug: () => {}, warn: () => {}, error: () => {} };
const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-devptau-'));
const ptau = path.join(tmp, devPtauName(POWER));

// 40 chained products: 40 constraints + 1 public input + 1 output + 1 = 43 > 2^5, so the setup needs power 6.
const CIRCUIT = `pragma circom 2.1.0;
template Chain(n) {
  signal input x;
  signal input k;
  signal output y;
  signal t[n];
  t[0] <== x * k;
  for (var i = 1; i < n; i++) t[i] <== t[i - 1] * t[i - 1] + x;
  y <== t[n - 1];
}
component main {public [x]} = Chain(40);
`;

before(async () => {
  const lines: string[] = [];
  await generateDevPtau(POWER, ptau, { log: (m) => lines.push(m) });
  assert.match(lines.join('\n'), /INSECURE development setup: the toxic waste is public/);
});
after(async () => {
  await releaseSnarkjsThreads();
  rmSync(tmp, { recursive: true, force: true });
});

describe('development powers of tau', () => {
  test('is what snarkjs prepare phase2 makes of its own powers, and says what it is', async () => {
    assert.equal(readPtauPower(ptau), POWER);
    const again = path.join(tmp, 'prepared-by-snarkjs.ptau');
    await snarkjs.powersOfTau.preparePhase2(ptau, again, quiet);
    assert.ok(readFileSync(ptau).equals(readFileSync(again)), 'sections 12–15 equal snarkjs’s FFT output');
    assert.equal(isDevPtau(ptau), true);
    assert.ok(readFileSync(ptau).includes(Buffer.from(DEV_CONTRIBUTION_NAME)));
  });

  test('passes snarkjs powersoftau verify (the beacon is re-derived from its public hash)', async () => {
    assert.equal(await snarkjs.powersOfTau.verify(ptau, quiet), true);
  });

  test('is deterministic: the same bytes every time (the secret is public)', async () => {
    const other = path.join(tmp, 'again.ptau');
    await generateDevPtau(POWER, other);
    assert.ok(readFileSync(ptau).equals(readFileSync(other)));
  });

  test('Groth16 on a circuit of the full power: zkey verify, prove, verify, reject a wrong signal', async () => {
    writeFileSync(path.join(tmp, 'chain.circom'), CIRCUIT);
    const c = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'circom2', 'cli.js'), 'chain.circom', '--r1cs', '--wasm', '-o', '.'],
      { cwd: tmp, encoding: 'utf8' },
    );
    assert.equal(c.status, 0, `${c.stdout}${c.stderr}`);
    const r1cs = path.join(tmp, 'chain.r1cs');
    assert.equal(readR1csInfo(r1cs).power, POWER);
    const zkey = path.join(tmp, 'chain.zkey');
    await snarkjs.zKey.newZKey(r1cs, ptau, zkey, quiet);
    assert.equal(await snarkjs.zKey.verifyFromR1cs(r1cs, ptau, zkey, quiet), true, 'zkey verify');
    const vkey = await snarkjs.zKey.exportVerificationKey(zkey, quiet);
    const wasm = path.join(tmp, 'chain_js', 'chain.wasm');
    const { proof, publicSignals } = await snarkjs.groth16.fullProve({ x: 3, k: 5 }, wasm, zkey);
    assert.equal(await snarkjs.groth16.verify(vkey, publicSignals, proof, quiet), true);
    const wrong = publicSignals.map((s, i) => (i === publicSignals.length - 1 ? String(BigInt(s) + 1n) : s));
    assert.equal(await snarkjs.groth16.verify(vkey, wrong, proof, quiet), false);
  });
});
