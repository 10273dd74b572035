import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import * as snarkjs from 'snarkjs';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { loadHasher } from '../../core/poseidon.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import {
  attackWitness,
  combatWitness,
  spawnSlots,
  spawnWitness,
  turnWitness,
} from '../../core/witness/inputs.ts';
import { buildCircuits } from '../../scripts/circuits/build.ts';
import type { CircuitName } from '../../scripts/circuits/generate.ts';
import { DEV_PTAU_DIR, readPtauPower, resolvePtau } from '../../scripts/circuits/ptau.ts';
import { P } from './helpers.ts';

after(async () => {
  await releaseSnarkjsThreads();
});

const quiet = { log: () => {}, info: () => {}, debug: () => {}, warn: () => {}, error: () => {} };

async function proveAndVerify(ruleset: string, name: CircuitName, input: unknown, expected: bigint[]) {
  const art = (await buildCircuits({ ruleset, circuits: [name], log: () => {} }))[name]!;
  assert.ok(art.zkey && existsSync(art.zkey) && art.vkey && art.verifier);
  if (!process.env.SHROUD_PTAU_DIR) assert.equal(art.devSetup, true, 'keys from the development ptau');
  const sol = readFileSync(art.verifier!, 'utf8');
  assert.match(sol, /function verifyProof/);
  const vkey = JSON.parse(readFileSync(art.vkey!, 'utf8'));
  assert.equal(vkey.nPublic, expected.length);
  const { proof, publicSignals } = await snarkjs.groth16.fullProve(input as never, art.wasm, art.zkey!);
  assert.deepEqual(publicSignals.map(BigInt), expected);
  assert.equal(await snarkjs.groth16.verify(vkey, publicSignals, proof, quiet), true);
  // Any edited public signal fails; so does a public signal shifted by p (≥ the field modulus).
  for (let i = 0; i < publicSignals.length; i++) {
    const edited = publicSignals.slice();
    edited[i] = ((BigInt(edited[i]!) + 1n) % P).toString();
    assert.equal(
      await snarkjs.groth16.verify(vkey, edited, proof, quiet),
      false,
      `${name} signal ${i} edited`,
    );
  }
  for (let i = 0; i < publicSignals.length; i++) {
    const wrapped = publicSignals.slice();
    wrapped[i] = (BigInt(wrapped[i]!) + P).toString();
    assert.equal(await snarkjs.groth16.verify(vkey, wrapped, proof, quiet), false, `${name} signal ${i} ≥ p`);
  }
  return { art, publicSignals };
}

describe('Groth16 pipeline on tiny rulesets', () => {
  test('ptau selection: development ptau by default, the user folder when given, loud failures', async (t) => {
    const saved = process.env.SHROUD_PTAU_DIR;
    delete process.env.SHROUD_PTAU_DIR;
    t.after(() => {
      if (saved === undefined) delete process.env.SHROUD_PTAU_DIR;
      else process.env.SHROUD_PTAU_DIR = saved;
    });
    // Nothing pointed at: a development ptau under build/circuits/ptau, never a folder outside the clone.
    const dev = await resolvePtau(12, {});
    assert.equal(path.dirname(dev.file), DEV_PTAU_DIR);
    assert.equal(dev.dev, true);
    assert.match(path.basename(dev.file), /^pot\d+\.dev\.ptau$/);
    assert.ok(readPtauPower(dev.file) >= 12);
    assert.equal((await resolvePtau(dev.power, {})).file, dev.file, 'the cached file is reused');
    await assert.rejects(resolvePtau(dev.power + 1, { ptau: dev.file }), /needs power/);
    await assert.rejects(resolvePtau(12, { ptau: '/nonexistent/pot.ptau' }), /no such file/);
    // A folder given by flag or environment: its smallest fitting file, or an error naming it.
    const dir = mkdtempSync(path.join(tmpdir(), 'shroud-ptau-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    symlinkSync(dev.file, path.join(dir, 'mine.ptau'));
    assert.equal((await resolvePtau(10, { ptauDir: dir })).file, path.join(dir, 'mine.ptau'));
    await assert.rejects(resolvePtau(dev.power + 1, { ptauDir: dir }), /power ≥/);
    await assert.rejects(resolvePtau(10, { ptauDir: path.join(dir, 'nope') }), /no such folder/);
    process.env.SHROUD_PTAU_DIR = dir;
    assert.equal((await resolvePtau(10, {})).file, path.join(dir, 'mine.ptau'));
  });

  test('turn, spawn, attack and combat prove and verify (tiny), turn on tiny-square', async () => {
    const h = await loadHasher();
    for (const name of ['tiny', 'tiny-square']) {
      const r = shippedRuleset(name);
      const slots = spawnSlots(r, [
        { col: 3, row: 4 },
        { col: 4, row: 5 },
        { col: 5, row: 8 },
      ]);
      const moved = slots.map((u, i) => (u && i === 1 ? { ...u, col: 6, row: 5 } : u));
      const turn = turnWitness(r, h, {
        player: 0xdeadbeefn,
        seat: 0,
        turn: 5n,
        oldSlots: slots,
        oldBlinding: 1n,
        oldRevealCommit: 2n,
        newSlots: moved,
        newBlinding: 2n,
        revealed: [
          { col: 7, row: 5 },
          { col: 8, row: 5 },
        ],
        revealBlinding: 3n,
        oppMasks: [1n],
        mapRoot: 88n,
      });
      assert.equal(turn.forced.length, 2); // (5,8) stands in zone 2, outside the mask
      await proveAndVerify(name, 'turn', turn.input, turn.publicSignals);
      if (name !== 'tiny') continue;
      const spawn = spawnWitness(r, h, {
        gameId: 77n,
        player: 5n,
        seat: 0,
        slots,
        blinding: 9n,
        revealed: [{ col: 2, row: 2 }],
        revealBlinding: 4n,
        oppMasks: [0n],
        mapRoot: 88n,
      });
      await proveAndVerify(name, 'spawn', spawn.input, spawn.publicSignals);
      const attack = attackWitness(r, h, {
        gameId: 77n,
        player: 5n,
        turn: 5n,
        slots,
        blinding: 9n,
        revealCommit: spawn.revealCommit,
        mapRoot: 88n,
        slot: 1,
        target: { col: 5, row: 5 },
      });
      await proveAndVerify(name, 'attack', attack.input, attack.publicSignals);
      const combat = combatWitness(r, h, {
        gameId: 77n,
        player: 5n,
        turn: 5n,
        slots,
        blinding: 9n,
        revealCommit: spawn.revealCommit,
        mapRoot: 88n,
        target: { col: 4, row: 5 },
        damage: 3,
      });
      assert.equal(combat.present, true);
      await proveAndVerify(name, 'combat', combat.input, combat.publicSignals);
    }
  });
});
