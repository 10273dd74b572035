import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
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
import { buildCircuits, readPtauPower, resolvePtau } from '../../scripts/circuits/build.ts';
import type { CircuitName } from '../../scripts/circuits/generate.ts';
import { P, PTAU_DIR } from './helpers.ts';

after(async () => {
  await releaseSnarkjsThreads();
});

const quiet = { log: () => {}, info: () => {}, debug: () => {}, warn: () => {}, error: () => {} };

async function proveAndVerify(ruleset: string, name: CircuitName, input: unknown, expected: bigint[]) {
  const art = (await buildCircuits({ ruleset, circuits: [name], ptauDir: PTAU_DIR, log: () => {} }))[name]!;
  assert.ok(art.zkey && existsSync(art.zkey) && art.vkey && art.verifier);
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
  test('ptau selection: smallest fitting file, loud failure when too small', () => {
    const pot12 = path.join(PTAU_DIR, 'pot12.ptau');
    assert.equal(readPtauPower(pot12), 12);
    assert.equal(
      path.basename(resolvePtau(12, { ruleset: 'tiny', ptauDir: PTAU_DIR }, () => {})),
      'pot12.ptau',
    );
    assert.equal(
      path.basename(resolvePtau(13, { ruleset: 'tiny', ptauDir: PTAU_DIR }, () => {})),
      'pot14.ptau',
    );
    assert.throws(() => resolvePtau(14, { ruleset: 'tiny', ptau: pot12 }, () => {}), /needs power 14/);
    assert.throws(() => resolvePtau(18, { ruleset: 'tiny', ptauDir: PTAU_DIR }, () => {}), /power ≥ 18/);
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
        gameId: 77n,
        player: 0xdeadbeefn,
        turn: 5n,
        oldSlots: slots,
        oldBlinding: 1n,
        newSlots: moved,
        newBlinding: 2n,
        revealed: [
          { col: 7, row: 5 },
          { col: 8, row: 5 },
        ],
        revealBlinding: 3n,
        oppMasks: [1n],
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
      });
      await proveAndVerify(name, 'spawn', spawn.input, spawn.publicSignals);
      const attack = attackWitness(r, h, {
        gameId: 77n,
        player: 5n,
        turn: 5n,
        slots,
        blinding: 9n,
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
        target: { col: 4, row: 5 },
        damage: 3,
      });
      assert.equal(combat.present, true);
      await proveAndVerify(name, 'combat', combat.input, combat.publicSignals);
    }
  });
});
