/**
 * The INSECURE development proving key (scripts/circuits/devzkey.ts) is a genuine snarkjs zkey: byte for byte what
 * `groth16 setup` writes on the development ptau, and what `zkey beacon` then makes of it (contribution record
 * included, so `zkey verify` accepts it); it proves and verifies, and refuses a wrong public signal. One circuit
 * fills the ptau's top power (the H points come from the Lagrange level snarkjs derives from a truncated list), one
 * is smaller than the ptau; both have outputs, public and private inputs, and a signal in no constraint. A third,
 * of 2^15 at the top power, is the case every circuit build is in (the ptau of exactly the circuit's power).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as snarkjs from 'snarkjs';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { ROOT } from '../../scripts/circuits/build.ts';
import { devPtauName, generateDevPtau } from '../../scripts/circuits/devptau.ts';
import { generateDevZkey } from '../../scripts/circuits/devzkey.ts';
import { DEV_PTAU_DIR } from '../../scripts/circuits/ptau.ts';

const POWER = 6;
const quiet = { log: () => {}, info: () => {}, debug: () => {}, warn: () => {}, error: () => {} };
const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-devzkey-'));
const ptau = path.join(tmp, devPtauName(POWER));
const BEACON = { hash: 'a1b2c3d4e5f60718', iterationsExp: 10, name: 'shroud beacon' };

/** n chained products with a public input, a private key, an unconstrained input, two outputs and linear rows. */
const circuit = (n: number) => `pragma circom 2.1.0;
template Chain(n) {
  signal input x;
  signal input k;
  signal input unused;
  signal output y;
  signal output z;
  signal t[n];
  t[0] <== x * k;
  for (var i = 1; i < n; i++) t[i] <== t[i - 1] * t[i - 1] + 3 * x - i;
  y <== t[n - 1];
  z <== 7 * y + k;
}
component main {public [x]} = Chain(${n});
`;

/** Compiles `circuit(n)` in the temp folder; returns its r1cs and wasm (when `wasm`). */
function compile(name: string, n: number, wasm = true) {
  writeFileSync(path.join(tmp, `${name}.circom`), circuit(n));
  const c = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'circom2', 'cli.js'),
      `${name}.circom`,
      '--r1cs',
      ...(wasm ? ['--wasm'] : []),
      '-o',
      '.',
    ],
    { cwd: tmp, encoding: 'utf8' },
  );
  assert.equal(c.status, 0, `${c.stdout}${c.stderr}`);
  return { r1cs: path.join(tmp, `${name}.r1cs`), wasm: path.join(tmp, `${name}_js`, `${name}.wasm`) };
}

before(async () => {
  await generateDevPtau(POWER, ptau);
});
after(async () => {
  await releaseSnarkjsThreads();
  rmSync(tmp, { recursive: true, force: true });
});

describe('development proving keys', () => {
  // 40 constraints + 3 public signals > 2^5: the top power; 12 + 3 < 2^4: a domain below the ptau's.
  for (const [name, n] of [
    ['full', 40],
    ['small', 12],
  ] as const) {
    test(`${name} circuit: groth16 setup's bytes, then zkey beacon's; zkey verify, prove, verify`, async () => {
      const { r1cs, wasm } = compile(name, n);
      const bySnarkjs = path.join(tmp, `${name}.snarkjs.zkey`);
      await snarkjs.zKey.newZKey(r1cs, ptau, bySnarkjs, quiet);
      const bare = path.join(tmp, `${name}.bare.zkey`);
      await generateDevZkey(r1cs, POWER, bare);
      assert.ok(
        readFileSync(bare).equals(readFileSync(bySnarkjs)),
        'the groth16 setup output, byte for byte',
      );

      const beaconBySnarkjs = path.join(tmp, `${name}.snarkjs-beacon.zkey`);
      await snarkjs.zKey.beacon(
        bySnarkjs,
        beaconBySnarkjs,
        BEACON.name,
        BEACON.hash,
        BEACON.iterationsExp,
        quiet,
      );
      const zkey = path.join(tmp, `${name}.zkey`);
      let last = 0;
      await generateDevZkey(r1cs, POWER, zkey, { beacon: BEACON, onProgress: (f) => (last = f) });
      assert.ok(
        readFileSync(zkey).equals(readFileSync(beaconBySnarkjs)),
        'the zkey beacon output, byte for byte',
      );
      assert.ok(last > 0.5 && last <= 1, `progress reported (${last})`);

      assert.equal(await snarkjs.zKey.verifyFromR1cs(r1cs, ptau, zkey, quiet), true, 'zkey verify');
      const vkey = await snarkjs.zKey.exportVerificationKey(zkey, quiet);
      const { proof, publicSignals } = await snarkjs.groth16.fullProve({ x: 3, k: 5, unused: 9 }, wasm, zkey);
      assert.equal(await snarkjs.groth16.verify(vkey, publicSignals, proof, quiet), true);
      const wrong = publicSignals.map((s, i) => (i === 0 ? String(BigInt(s) + 1n) : s));
      assert.equal(await snarkjs.groth16.verify(vkey, wrong, proof, quiet), false);
    });
  }

  test('a domain of 2^15 at the top power: the circuit hash takes the point snarkjs reads past the powers', async () => {
    // snarkjs hashes the H points in chunks of 2^14 and always hashes whole chunks: one point more than there are,
    // read one past section 2 at the top power. 16,400 products + 2 public signals need 2^15.
    // The build's own copy when there is one (npm test's pretest makes it for duel): the same bytes, 20 s less.
    let big = path.join(DEV_PTAU_DIR, devPtauName(15));
    if (!existsSync(big)) {
      big = path.join(tmp, devPtauName(15));
      await generateDevPtau(15, big);
    }
    const { r1cs } = compile('chunked', 16_400, false);
    const bySnarkjs = path.join(tmp, 'chunked.snarkjs.zkey');
    await snarkjs.zKey.newZKey(r1cs, big, bySnarkjs, quiet);
    const ours = path.join(tmp, 'chunked.zkey');
    await generateDevZkey(r1cs, 15, ours);
    assert.ok(readFileSync(ours).equals(readFileSync(bySnarkjs)), 'the groth16 setup output, byte for byte');
  });

  test('refuses a circuit larger than the ptau power, as snarkjs does', async () => {
    const { r1cs } = compile('big', 70);
    await assert.rejects(
      generateDevZkey(r1cs, POWER, path.join(tmp, 'big.zkey')),
      /too big for power 6 \(needs 7\)/,
    );
  });
});
