/**
 * End to end on the `tiny` ruleset with real Groth16 proofs against the generated verifiers: ceremony, root,
 * both spawns, turns, one attack and its combat answer. Needs `node scripts/contracts/verifiers.ts --ruleset tiny`
 * before `hardhat build` (the verifiers are generated per build, never committed).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import * as snarkjs from 'snarkjs';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import {
  commitMap,
  FIELD_MODULUS,
  generateMap,
  masterCommitment,
  playCommitment,
  type Slots,
  seedFromShares,
  shareCommitment,
  shippedRuleset,
} from '../../core/index.ts';
import { toSolidityProof } from '../../core/mapproof/types.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import {
  attackWitness,
  combatWitness,
  spawnSlots,
  spawnWitness,
  turnWitness,
  type WitnessPlan,
} from '../../core/witness/inputs.ts';
import { readManifest, rulesetHash } from '../../scripts/contracts/rulesets.ts';
import { as, type Env, expectRevert, gameParams, lastGameId, Phase, revealAll, setup } from './helpers.ts';

after(async () => {
  await releaseSnarkjsThreads();
});

const r = shippedRuleset('tiny');
type Circuit = 'spawn' | 'turn' | 'attack' | 'combat';

/** Proves a witness plan with snarkjs; returns the Solidity proof struct (b coordinates swapped). */
async function prove(c: Circuit, plan: WitnessPlan) {
  const v = readManifest()['tiny']!.verifiers[c]!;
  const { proof, publicSignals } = await snarkjs.groth16.fullProve(plan.input as never, v.wasm, v.zkey);
  assert.deepEqual(
    publicSignals.map(BigInt),
    plan.publicSignals,
    `${c}: public signals as the witness builder`,
  );
  return toSolidityProof(proof as { pi_a: string[]; pi_b: string[][]; pi_c: string[] });
}

describe('end to end on tiny with real Groth16 proofs', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    assert.ok(
      readManifest()['tiny'],
      'run node scripts/contracts/verifiers.ts --ruleset tiny before hardhat build',
    );
    env = await setup(['tiny']);
    G = env.game;
  });

  it('ceremony, root, spawns, turns, an attack and its combat answer', async () => {
    const [p0, p1] = env.players as [Env['players'][0], Env['players'][0]];
    const players = [p0, p1];
    const hash = rulesetHash('tiny');
    await (
      await as(env, env.dealer).getFunction('createGame')(
        gameParams(
          env,
          players.map((p) => p.address),
          { rulesetHash: hash, board: { kind: 0, width: r.grid.width, height: r.grid.height, maxTurns: 20 } },
        ),
        { value: 10n ** 18n },
      )
    ).wait();
    const id = await lastGameId(env);
    assert.ok(id < FIELD_MODULUS);
    const shares = [0x5eedn + (id % 1000n), 0xc0ffeen];
    for (const [i, p] of players.entries()) {
      const c = shareCommitment(env.h, id, BigInt(p.address), shares[i]!);
      await (await as(env, p).getFunction('commit')(id, c)).wait();
    }
    await revealAll(env, { id, players, shares });
    const seed = seedFromShares(env.h, shares);
    const master = 424242n;
    const dealt = commitMap(env.h, r.board, generateMap(env.h, r.board, seed), master);
    const { tree } = dealt;
    await (
      await as(env, env.dealer).getFunction('postRoot')(
        id,
        tree.root,
        masterCommitment(env.h, master),
        zoneRoots(dealt, r.board),
      )
    ).wait();

    const state: { slots: Slots; blinding: bigint; revealCommit: bigint }[] = [];
    const seatOf = async (k: number) => G.getFunction('getSeat')(id, k);
    const oppMask = async (k: number) => [(await seatOf(1 - k)).zoneMask as bigint];
    const turnNow = async () => (await G.getFunction('getGame')(id))[4] as bigint;
    const forcedSeen: unknown[] = [];
    /** Keeps the ZoneReveals lanes: exactly the plan's forced reveals (zone, type), largest lane first (sorted lanes). */
    const record = (
      rc: { logs: { topics: string[]; data: string }[] },
      forced: readonly { zone: number; unitType: number }[],
    ) => {
      const seen: bigint[][] = [];
      for (const l of rc.logs) {
        const e = G.interface.parseLog(l);
        if (e?.name === 'ZoneReveals') for (const lane of e.args[2]) seen.push([lane >> 4n, lane & 15n]);
      }
      const lane = (f: { zone: number; unitType: number }) => f.zone * 16 + f.unitType;
      const want = [...forced].sort((a, b) => lane(b) - lane(a));
      assert.deepEqual(
        seen,
        want.map((f) => [BigInt(f.zone), BigInt(f.unitType)]),
      );
      forcedSeen.push(...seen);
    };

    // Turns 0 and 1: the spawns, in seat order.
    const spawnAt = [
      [
        { col: 3, row: 4 },
        { col: 5, row: 5 },
        { col: 4, row: 6 },
      ],
      [
        { col: 12, row: 4 },
        { col: 10, row: 5 },
        { col: 11, row: 6 },
      ],
    ];
    for (const k of [0, 1]) {
      const slots = spawnSlots(r, spawnAt[k]!);
      const blinding = 1000n + BigInt(k);
      const plan = spawnWitness(r, env.h, {
        gameId: id,
        player: BigInt(players[k]!.address),
        seat: k,
        slots,
        blinding,
        revealed: [spawnAt[k]![1]!],
        revealBlinding: 77n + BigInt(k),
        oppMasks: await oppMask(k),
        mapRoot: tree.root,
      });
      const proof = await prove('spawn', plan);
      const rc = await (
        await as(env, players[k]!).getFunction('spawn')(id, proof, plan.report, plan.newCommit)
      ).wait();
      record(rc, plan.forced);
      assert.equal(
        await G.getFunction('playCommitment')(id, players[k]!.address, BigInt(k)),
        playCommitment(env.h, plan.stateCommit, plan.revealCommit, tree.root),
      );
      assert.equal((await seatOf(k)).zoneMask, plan.zoneMask);
      state[k] = { slots, blinding, revealCommit: plan.revealCommit };
    }

    /** Seat k moves its infantry (slot 1) by `dc` columns along its row. */
    let turnProofOf2: { proof: unknown; args: unknown[] } | undefined;
    const moveTurn = async (k: number, dc: number) => {
      const t = await turnNow();
      const cur = state[k]!;
      const newSlots = cur.slots.map((u, i) => (u && i === 1 ? { ...u, col: u.col + dc } : u));
      const newBlinding = 5000n + t;
      const plan = turnWitness(r, env.h, {
        player: BigInt(players[k]!.address),
        seat: k,
        turn: t,
        oldSlots: cur.slots,
        oldBlinding: cur.blinding,
        oldRevealCommit: cur.revealCommit,
        newSlots,
        newBlinding,
        revealed: [newSlots[1]!],
        revealBlinding: 900n + t,
        oppMasks: await oppMask(k),
        mapRoot: tree.root,
      });
      const proof = await prove('turn', plan);
      const args = [id, proof, plan.report, plan.newCommit];
      const rc = await (await as(env, players[k]!).getFunction('playTurn')(...args)).wait();
      record(rc, plan.forced);
      assert.equal((await seatOf(k)).playCommitment, plan.newCommit);
      assert.equal(await G.getFunction('playCommitment')(id, players[k]!.address, t), plan.newCommit);
      state[k] = { slots: newSlots, blinding: newBlinding, revealCommit: plan.revealCommit };
      if (t === 2n) turnProofOf2 = { proof, args };
    };
    await moveTurn(0, 2); // turn 2: seat 0 infantry (5,5) → (7,5)
    await moveTurn(1, -1); // turn 3: seat 1 infantry (10,5) → (9,5)
    // A real proof replayed at a later turn fails (turn, commitment and masks moved on).
    await expectRevert(as(env, p0).getFunction('playTurn')(...turnProofOf2!.args), G, 'InvalidProof');
    await moveTurn(0, 1); // turn 4: (7,5) → (8,5), adjacent to seat 1's infantry
    await moveTurn(1, 0); // turn 5
    assert.ok(forcedSeen.length > 0, 'units in each other’s zones were force-revealed');

    // Turn 6: seat 0's infantry attacks (9,5) where seat 1's infantry stands; seat 1 answers with a combat proof.
    const t6 = await turnNow();
    assert.equal(t6, 6n);
    const target = { col: 9, row: 5 };
    const atk = attackWitness(r, env.h, {
      gameId: id,
      player: BigInt(p0.address),
      turn: t6,
      slots: state[0]!.slots,
      blinding: state[0]!.blinding,
      revealCommit: state[0]!.revealCommit,
      slot: 1,
      target,
      mapRoot: tree.root,
    });
    const atkProof = await prove('attack', atk);
    // The same proof with the target moved does not verify.
    await expectRevert(
      as(env, p0).getFunction('attack')(id, atkProof, atk.nullifier, target.col + 1, target.row, 1n),
      G,
      'InvalidProof',
    );
    await (
      await as(env, p0).getFunction('attack')(id, atkProof, atk.nullifier, target.col, target.row, 1n)
    ).wait();
    assert.equal((await G.getFunction('getGame')(id))[1], Phase.Combat);
    const damage = Number((await env.registry.getFunction('getRuleset')(hash)).damage);
    const cmb = combatWitness(r, env.h, {
      gameId: id,
      player: BigInt(p1.address),
      turn: t6,
      slots: state[1]!.slots,
      blinding: state[1]!.blinding,
      revealCommit: state[1]!.revealCommit,
      target,
      damage,
      mapRoot: tree.root,
    });
    assert.equal(cmb.present, true);
    const cmbProof = await prove('combat', cmb);
    // A value ≥ p is refused before verification, even with a real proof.
    await expectRevert(
      as(env, p1).getFunction('defend')(
        id,
        cmbProof,
        1n,
        cmb.unitType,
        cmb.unitHp,
        cmb.newCommit + FIELD_MODULUS,
      ),
      G,
      'NotInField',
    );
    const rc = await (
      await as(env, p1).getFunction('defend')(id, cmbProof, 1n, cmb.unitType, cmb.unitHp, cmb.newCommit)
    ).wait();
    const ev = rc.logs
      .map((l: { topics: string[]; data: string }) => G.interface.parseLog(l))
      .find((e: { name: string } | null) => e?.name === 'CombatResolved');
    assert.deepEqual(
      [...ev.args],
      [id, p0.address, p1.address, 9n, 5n, BigInt(cmb.unitType), BigInt(cmb.unitHp), cmb.unitHp <= damage],
    );
    assert.equal(cmb.unitHp, 10, 'infantry at full hp before the hit');
    // The answer keeps the defender's reveal commitment in its new play commitment.
    assert.equal((await seatOf(1)).playCommitment, cmb.newCommit);
    state[1] = { ...state[1]!, slots: cmb.after };
    // The attacker's nullifier is spent; it finishes its turn, and the defender moves on with its hurt unit.
    await expectRevert(
      as(env, p0).getFunction('attack')(id, atkProof, atk.nullifier, target.col, target.row, 1n),
      G,
      'NullifierUsed',
    );
    await moveTurn(0, 0); // turn 6
    await moveTurn(1, 1); // turn 7: the hit infantry (hp 6) moves (9,5) → (10,5)
    assert.equal(await turnNow(), 8n);
  });
});
