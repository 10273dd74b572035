/**
 * Spawn, turns and combat against a MockVerifier that binds each "proof" to its public signals (a[0] =
 * keccak256(signals)): every public input the contract supplies from its own state is checked by building the
 * proof for the intended signals and changing one of them. The real Groth16 verifiers run in e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { FIELD_MODULUS } from '../../core/index.ts';
import {
  as,
  commitAll,
  createGame,
  DURATIONS,
  dealMap,
  type Env,
  expectRevert,
  increaseTime,
  Phase,
  phaseOf,
  postRoot,
  revealAll,
  type Scenario,
  setup,
} from './helpers.ts';
import { DAMAGE, mockPlay, N, proofFor, targetWord, ZERO_PROOF } from './mock-play.ts';

const P = FIELD_MODULUS;

describe('ShroudGame spawn, turns and combat (binding mock verifier)', () => {
  let env: Env;
  let G: Contract;
  let rulesetHash: string;
  let mp: Awaited<ReturnType<typeof mockPlay>>;
  // Bound after `before`: the mock ruleset's helpers.
  let playing: typeof mp.playing;
  let addr: typeof mp.addr;
  let mask: typeof mp.mask;
  let commitOf: typeof mp.commitOf;
  let turnOf: typeof mp.turnOf;
  let move: typeof mp.move;
  let spawnSignals: typeof mp.spawnSignals;
  let turnSignals: typeof mp.turnSignals;
  let callSpawn: typeof mp.callSpawn;
  let callTurn: typeof mp.callTurn;
  let spawnBoth: typeof mp.spawnBoth;
  let turn: typeof mp.turn;

  before(async () => {
    env = await setup();
    G = env.game;
    mp = await mockPlay(env, 'mock-play');
    ({
      rulesetHash,
      playing,
      addr,
      mask,
      commitOf,
      turnOf,
      move,
      spawnSignals,
      turnSignals,
      callSpawn,
      callTurn,
      spawnBoth,
      turn,
    } = mp);
  });

  it("copies the registry verifiers at the ruleset's first game and checks proofs with the copy", async () => {
    const none = await G.getFunction('verifierOf')(rulesetHash, 1);
    assert.equal(none.target, '0x0000000000000000000000000000000000000000', 'nothing copied before a game');
    await playing();
    const v = await G.getFunction('verifierOf')(rulesetHash, 1);
    const r = await env.registry.getFunction('getVerifier')(rulesetHash, 1);
    assert.deepEqual([...v], [...r]);
    assert.equal(Number(v.nPublic), N.turn);
  });

  it('spawns in seat order, then round-robin turns; stores commitments, masks and reveal commitments', async () => {
    const s = await playing();
    const m0 = move(0n, [51n, 0n, 1n]); // lanes 0 and 2: zone 3 type 2, zone 0 type 0
    const rc = await (await callSpawn(s, 0, proofFor(await spawnSignals(s, 0, m0)), m0)).wait();
    const events = rc.logs
      .map((l: { topics: string[]; data: string }) => G.interface.parseLog(l))
      .filter(Boolean);
    const names = events.map((e: { name: string }) => e.name);
    assert.deepEqual(names.slice(0, 2), ['Spawned', 'TurnSubmitted']);
    // One ZoneReveals log for the proof, its lanes (zone << 4 | type) in lane order.
    const reveals = events.filter((e: { name: string }) => e.name === 'ZoneReveals');
    assert.equal(reveals.length, 1);
    assert.deepEqual([...reveals[0].args[2]], [(3n << 4n) | 2n, 0n]);
    // The log names the next turn's seat and deadline: no TurnStarted beside it.
    const ts = events.find((e: { name: string }) => e.name === 'TurnSubmitted');
    const deadline = (await G.getFunction('getGame')(s.id))[3] as bigint;
    assert.deepEqual([...ts.args], [s.id, s.players[0]!.address, 0n, m0.newCommit, 1n, deadline]);
    assert.ok(!names.includes('TurnStarted'));
    const seat0 = await G.getFunction('getSeat')(s.id, 0);
    assert.equal(seat0.spawned, true);
    assert.equal(seat0.playCommitment, m0.newCommit);
    assert.equal(seat0.zoneMask, m0.zoneMask);
    assert.equal(await G.getFunction('playCommitment')(s.id, s.players[0]!.address, 0n), m0.newCommit);
    assert.equal(await G.getFunction('playCommitment')(s.id, s.players[1]!.address, 0n), 0n);
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[4], 1n, 'turn 1');
    assert.equal(g[5], 1n, 'seat 1 to move');
    // Seat 1's spawn carries seat 0's stored mask as its opponent mask.
    const m1 = move(10n);
    const rc1 = await (await callSpawn(s, 1, proofFor(await spawnSignals(s, 1, m1)), m1)).wait();
    const names1 = rc1.logs.map((l: { topics: string[]; data: string }) => G.interface.parseLog(l)?.name);
    assert.ok(
      names1.includes('TurnSubmitted') && !names1.includes('ZoneReveals'),
      'no forced reveal, no log',
    );
    const t2 = await turn(s, 0, 20n);
    assert.equal(await commitOf(s, 0), t2.newCommit);
    assert.equal(await G.getFunction('playCommitment')(s.id, s.players[0]!.address, 2n), t2.newCommit);
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).lastTurn, 2n);
    // Only the latest play commitment is stored: an earlier turn's is read from the TurnSubmitted logs.
    const superseded = await expectRevert(
      G.getFunction('playCommitment')(s.id, s.players[0]!.address, 0n),
      G,
      'CommitmentInLogs',
    );
    assert.deepEqual(superseded, [2n]);
    const logged = await G.queryFilter(G.filters['TurnSubmitted']!(s.id, s.players[0]!.address));
    assert.deepEqual(
      logged.map((l) => [
        (l as never as { args: bigint[] }).args[2],
        (l as never as { args: bigint[] }).args[3],
      ]),
      [
        [0n, m0.newCommit],
        [2n, t2.newCommit],
      ],
    );
    assert.equal(
      await G.getFunction('playCommitment')(s.id, s.players[0]!.address, 3n),
      0n,
      'no such turn yet',
    );
    assert.equal(await G.getFunction('playCommitment')(s.id, env.other.address, 0n), 0n, 'not a player');
    await turn(s, 1, 30n);
    assert.equal(await turnOf(s), 4n);
  });

  it("the game's last turn logs no next seat or deadline (0, 0); GameEnded follows it", async () => {
    const s = await playing({ maxTurns: 3 });
    await spawnBoth(s);
    const m = move(5n);
    const rc = await (await callTurn(s, 0, proofFor(await turnSignals(s, 0, m)), m)).wait();
    const names: string[] = [];
    let submitted: unknown[] = [];
    for (const l of rc.logs) {
      const e = G.interface.parseLog(l);
      if (!e) continue;
      names.push(e.name);
      if (e.name === 'TurnSubmitted') submitted = [...e.args];
    }
    assert.deepEqual(submitted, [s.id, s.players[0]!.address, 2n, m.newCommit, 0n, 0n]);
    assert.ok(names.indexOf('GameEnded') > names.indexOf('TurnSubmitted'), names.join(' '));
    assert.ok(!names.includes('TurnStarted'));
    assert.equal(await phaseOf(env, s.id), Phase.Secrets);
  });

  it('rejects the wrong caller, the wrong phase, a double spawn and a turn before the spawn', async () => {
    const s = await createGame(env, { rulesetHash });
    const m = move(0n);
    await expectRevert(callSpawn(s, 0, ZERO_PROOF, m), G, 'WrongPhase');
    await commitAll(env, s);
    await revealAll(env, s);
    await postRoot(env, s, dealMap(env, s));
    await expectRevert(callSpawn(s, 1, proofFor(await spawnSignals(s, 1, m)), m), G, 'NotYourTurn');
    await expectRevert(as(env, env.other).getFunction('spawn')(s.id, ZERO_PROOF, [0n], 1n), G, 'NotPlayer');
    await expectRevert(callTurn(s, 0, proofFor(await turnSignals(s, 0, m)), m), G, 'NotSpawned');
    await spawnBoth(s);
    await expectRevert(callSpawn(s, 0, proofFor(await spawnSignals(s, 0, m)), m), G, 'AlreadySpawned');
    await expectRevert(callTurn(s, 1, proofFor(await turnSignals(s, 1, m)), m), G, 'NotYourTurn');
  });

  it('rejects proofs for another player, turn, game, seat, state or a stale opponent mask', async () => {
    const s = await playing();
    const other = await playing();
    const m = move(0n);
    const otherRoot = other.dealt.tree.root;
    for (const over of [
      { step: 1n },
      { gameId: other.id },
      { seat: 1n },
      { opp: 7n },
      { empty: 1n },
      { root: otherRoot },
    ]) {
      await expectRevert(callSpawn(s, 0, proofFor(await spawnSignals(s, 0, m, over)), m), G, 'InvalidProof');
    }
    await spawnBoth(s);
    const staleOpp = await mask(s, 1);
    const t = move(40n);
    const turnNow = await turnOf(s);
    for (const over of [{ seat: 1n }, { turn: turnNow + 2n }, { oldCommit: 999n }, { opp: staleOpp + 1n }]) {
      await expectRevert(callTurn(s, 0, proofFor(await turnSignals(s, 0, t, over)), t), G, 'InvalidProof');
    }
    // Another game: turn proofs carry no gameId, the stored commitment binds the game. Seat 0 of `third` spawned
    // another state, so seat 0's turn proof there (same player, seat, turn and masks) fails here.
    const third = await playing();
    await spawnBoth(third, [move(7n), move(10n)]);
    assert.notEqual(await commitOf(third, 0), await commitOf(s, 0));
    const there = proofFor(await turnSignals(third, 0, t));
    await (await callTurn(third, 0, there, t)).wait();
    await expectRevert(callTurn(s, 0, there, t), G, 'InvalidProof');
    // Replay: seat 0's accepted turn-2 proof fails at turn 4 (turn, old commitment and the opponent's mask moved on).
    const replay = proofFor(await turnSignals(s, 0, t));
    await (await callTurn(s, 0, replay, t)).wait();
    await turn(s, 1, 50n);
    await expectRevert(callTurn(s, 0, replay, t), G, 'InvalidProof');
    // A proof built against the opponent's mask before its last turn is stale.
    await expectRevert(
      callTurn(s, 0, proofFor(await turnSignals(s, 0, move(60n), { opp: staleOpp })), move(60n)),
      G,
      'InvalidProof',
    );
    // The ruleset's report-word count is enforced through the signal count.
    const m2 = { ...move(61n), report: [move(61n).report[0]!, 0n] };
    await expectRevert(
      callTurn(s, 0, proofFor(await turnSignals(s, 0, m2)), m2),
      env.registry,
      'WrongSignalCount',
    );
    // The contract ORs its context (seat bits 0..7, turn 8..39, opponent masks 40..47) into the report word: a report
    // with any of those bits set could turn another seat, turn or mask into this one, so it is refused before the
    // proof is checked; so is a word of 2^253 or more.
    for (const bit of [0n, 7n, 8n, 39n, 40n, 47n]) {
      const bad = { ...move(62n), report: [move(62n).report[0]! | (1n << bit)] };
      await expectRevert(callTurn(s, 0, proofFor(await turnSignals(s, 0, bad)), bad), G, 'ContextBitsSet');
      await expectRevert(
        callSpawn(other, 0, proofFor(await spawnSignals(other, 0, bad)), bad),
        G,
        'ContextBitsSet',
      );
    }
    const huge = { ...move(63n), report: [move(63n).report[0]! | (1n << 253n)] };
    await expectRevert(callTurn(s, 0, ZERO_PROOF, huge), G, 'NotInField');
  });

  it('every spawn binds the game root as its last signal; turns carry no root signal (passability or not)', async () => {
    const pass = await mockPlay(env, 'mock-play-pass', true);
    assert.equal((await env.registry.getFunction('getRuleset')(pass.rulesetHash)).passability, true);
    for (const [label, r] of [
      ['fog only', mp],
      ['passability', pass],
    ] as const) {
      const s = await r.playing();
      const root = s.dealt.tree.root;
      assert.equal(await r.rootOf(s), root);
      assert.equal(
        Number((await G.getFunction('verifierOf')(r.rulesetHash, 0)).nPublic),
        N.spawn,
        `${label}: spawn signals [packed, gameId, newCommit, root]`,
      );
      assert.equal(Number((await G.getFunction('verifierOf')(r.rulesetHash, 1)).nPublic), N.turn, label);
      const m = r.move(0n, [], 2000n, root);
      const spawnSig = await r.spawnSignals(s, 0, m);
      assert.equal(spawnSig.at(-1), root, 'the spawn signals end with the game root');
      const withoutRoot = spawnSig.slice(0, -1);
      // The spawn's signals are exactly [packed, gameId, newCommit, root]: without the root, another root, or the
      // root in another place, refused.
      await expectRevert(r.callSpawn(s, 0, proofFor(withoutRoot), m), G, 'InvalidProof');
      await expectRevert(r.callSpawn(s, 0, proofFor([...withoutRoot, root + 1n]), m), G, 'InvalidProof');
      await expectRevert(
        r.callSpawn(s, 0, proofFor([spawnSig[0]!, s.id, root, m.newCommit]), m),
        G,
        'InvalidProof',
      );
      await (await r.callSpawn(s, 0, proofFor(spawnSig), m)).wait();
      const m1 = r.move(10n, [], 2010n, root);
      await (await r.callSpawn(s, 1, proofFor(await r.spawnSignals(s, 1, m1)), m1)).wait();
      // A turn: [packed, oldCommit, newCommit]; the root appended (the old passability layout) is refused.
      const t = r.move(70n, [], 2070n, root);
      const sig = await r.turnSignals(s, 0, t);
      assert.equal(sig.length, N.turn);
      assert.equal(sig[1], m.newCommit, 'the old commitment is the stored one');
      await expectRevert(r.callTurn(s, 0, proofFor([...sig, root]), t), G, 'InvalidProof');
      // One report word too many cannot shift the signals: the count is fixed.
      const longer = { ...t, report: [...t.report, 1n] };
      await expectRevert(
        r.callTurn(s, 0, proofFor(await r.turnSignals(s, 0, longer)), longer),
        G,
        'WrongSignalCount',
      );
      await (await r.callTurn(s, 0, proofFor(sig), t)).wait();
      assert.equal(await r.commitOf(s, 0), t.newCommit, label);
    }
  });

  it('rejects prover-supplied values ≥ the field modulus before verification', async () => {
    const s = await playing();
    const ok = move(0n);
    for (const bad of [
      { ...ok, report: [P] },
      { ...ok, report: [1n, P] },
      { ...ok, newCommit: P },
      { ...ok, newCommit: P + 5n },
    ]) {
      await expectRevert(callSpawn(s, 0, ZERO_PROOF, bad), G, 'NotInField');
    }
    await spawnBoth(s);
    await expectRevert(callTurn(s, 0, ZERO_PROOF, { ...ok, report: [P + 1n] }), G, 'NotInField');
    await expectRevert(
      as(env, s.players[0]!).getFunction('attack')(s.id, ZERO_PROOF, P, 1n, 1n, 1n),
      G,
      'NotInField',
    );
  });

  it('turn deadlines: late spawns and turns revert, and a timeout forfeits the mover at fault', async () => {
    const s = await playing();
    await spawnBoth(s);
    await increaseTime(env, DURATIONS.turnSeconds + 1);
    const m = move(70n);
    await expectRevert(callTurn(s, 0, proofFor(await turnSignals(s, 0, m)), m), G, 'DeadlinePassed');
    await (await as(env, env.other).getFunction('claimTurnTimeout')(s.id)).wait();
    const seat0 = await G.getFunction('getSeat')(s.id, 0);
    assert.equal(seat0.forfeited, true);
    assert.equal(seat0.atFault, true);
    assert.equal(seat0.zoneMask, 0n, 'a forfeited seat shows opponents an empty mask');
    assert.equal(await phaseOf(env, s.id), Phase.Secrets);
  });

  /** Seat 0 attacks (col, row) of seat 1 at its turn 2; returns the attack's nullifier. */
  async function attack(s: Scenario, nullifier: bigint, col = 5n, row = 6n) {
    const sig = [nullifier, s.id, targetWord(addr(s, 0), await turnOf(s), col, row), await commitOf(s, 0)];
    return as(env, s.players[0]!).getFunction('attack')(s.id, proofFor(sig), nullifier, col, row, 1n);
  }
  async function combatSignals(
    s: Scenario,
    present: bigint,
    unitType: bigint,
    hp: bigint,
    nc: bigint,
    over: Partial<Record<string, bigint>> = {},
  ) {
    return [
      nc,
      s.id,
      targetWord(
        over['player'] ?? addr(s, 1),
        over['turn'] ?? (await turnOf(s)),
        over['col'] ?? 5n,
        over['row'] ?? 6n,
        over['damage'] ?? DAMAGE,
      ) |
        ((present | (unitType << 1n) | (hp << 5n)) << 220n),
      over['oldCommit'] ?? (await commitOf(s, 1)),
    ];
  }

  it('attack → combat: only the named defender answers; nothing else moves; the attacker resumes its turn', async () => {
    const s = await playing();
    await spawnBoth(s);
    const bad = (await combatSignals(s, 1n, 2n, 3n, 77n)) as bigint[];
    // Attack checks: defender seat, board, proof against the attacker's stored commitment.
    await expectRevert(
      as(env, s.players[0]!).getFunction('attack')(s.id, ZERO_PROOF, 1n, 1n, 1n, 0n),
      G,
      'BadDefender',
    );
    await expectRevert(
      as(env, s.players[0]!).getFunction('attack')(s.id, ZERO_PROOF, 1n, 1n, 1n, 2n),
      G,
      'BadDefender',
    );
    await expectRevert(
      as(env, s.players[0]!).getFunction('attack')(s.id, ZERO_PROOF, 1n, 16n, 1n, 1n),
      G,
      'OffBoard',
    );
    await expectRevert(
      as(env, s.players[1]!).getFunction('attack')(s.id, ZERO_PROOF, 1n, 1n, 1n, 0n),
      G,
      'NotYourTurn',
    );
    const sigWrong = [
      11n,
      s.id,
      targetWord(addr(s, 0), (await turnOf(s)) + 1n, 5n, 6n),
      await commitOf(s, 0),
    ];
    await expectRevert(
      as(env, s.players[0]!).getFunction('attack')(s.id, proofFor(sigWrong), 11n, 5n, 6n, 1n),
      G,
      'InvalidProof',
    );
    const before = await G.getFunction('getGame')(s.id);
    await increaseTime(env, 100);
    const rc = await (await attack(s, 11n)).wait();
    const ev = rc.logs
      .map((l: { topics: string[]; data: string }) => G.interface.parseLog(l))
      .find((e: { name: string } | null) => e?.name === 'AttackDeclared');
    assert.deepEqual([...ev.args].slice(0, 6), [
      s.id,
      s.players[0]!.address,
      s.players[1]!.address,
      5n,
      6n,
      11n,
    ]);
    assert.equal(await phaseOf(env, s.id), Phase.Combat);
    assert.equal(await G.getFunction('nullifierUsed')(s.id, 11n), true);
    const c = await G.getFunction('getCombat')(s.id);
    assert.deepEqual([c.attacker, c.defender, c.col, c.row], [0n, 1n, 5n, 6n]);
    // Nothing else moves during a combat: no turn, no other attack, no forfeit, no turn timeout.
    const m = move(80n);
    await expectRevert(callTurn(s, 0, proofFor(await turnSignals(s, 0, m)), m), G, 'WrongPhase');
    await expectRevert(attack(s, 12n), G, 'WrongPhase');
    await expectRevert(as(env, env.other).getFunction('claimTurnTimeout')(s.id), G, 'WrongPhase');
    await expectRevert(as(env, env.other).getFunction('claimCombatTimeout')(s.id), G, 'DeadlineNotPassed');
    // Only the defender, with a proof for the stored state, the attack's tile and the ruleset's damage.
    await expectRevert(
      as(env, s.players[0]!).getFunction('defend')(s.id, proofFor(bad), 1n, 2n, 3n, 77n),
      G,
      'NotDefender',
    );
    await expectRevert(
      as(env, s.players[1]!).getFunction('defend')(s.id, ZERO_PROOF, 2n, 2n, 3n, 77n),
      G,
      'NotInField',
    );
    await expectRevert(
      as(env, s.players[1]!).getFunction('defend')(s.id, ZERO_PROOF, 1n, 2n, 3n, P),
      G,
      'NotInField',
    );
    // The outcome fields must fit their packed widths: type 4 bits, hp 8 bits.
    for (const [t, hp] of [
      [16n, 3n],
      [2n, 256n],
    ] as const) {
      await expectRevert(
        as(env, s.players[1]!).getFunction('defend')(s.id, ZERO_PROOF, 1n, t, hp, 77n),
        G,
        'NotInField',
      );
    }
    for (const over of [
      { damage: 5n },
      { col: 6n },
      { row: 7n },
      { oldCommit: 1n },
      { player: addr(s, 0) },
      { turn: 3n },
    ]) {
      const sig = await combatSignals(s, 1n, 2n, 3n, 77n, over);
      await expectRevert(
        as(env, s.players[1]!).getFunction('defend')(s.id, proofFor(sig), 1n, 2n, 3n, 77n),
        G,
        'InvalidProof',
      );
    }
    const sig = await combatSignals(s, 1n, 2n, 3n, 77n);
    const rc2 = await (
      await as(env, s.players[1]!).getFunction('defend')(s.id, proofFor(sig), 1n, 2n, 3n, 77n)
    ).wait();
    const res = rc2.logs
      .map((l: { topics: string[]; data: string }) => G.interface.parseLog(l))
      .find((e: { name: string } | null) => e?.name === 'CombatResolved');
    assert.deepEqual(
      [...res.args],
      [s.id, s.players[0]!.address, s.players[1]!.address, 5n, 6n, 2n, 3n, true],
    );
    assert.equal(await commitOf(s, 1), 77n);
    const after = await G.getFunction('getGame')(s.id);
    assert.equal(after[1], Phase.Play);
    assert.equal(after[4], before[4], 'same turn');
    assert.equal(after[5], 0n, 'attacker still to move');
    // The turn clock was paused: the attacker keeps the time it had left when it attacked.
    const ts = async (r: { blockNumber: number }) =>
      (await env.ethers.provider.getBlock(r.blockNumber))!.timestamp;
    const left = Number(before[3]) - (await ts(rc));
    assert.equal(Number(after[3]), (await ts(rc2)) + left);
    // The nullifier cannot be used again; a fresh one can, and a miss fizzles.
    await expectRevert(attack(s, 11n), G, 'NullifierUsed');
    await (await attack(s, 13n)).wait();
    const miss = await combatSignals(s, 0n, 0n, 0n, 77n);
    const rc3 = await (
      await as(env, s.players[1]!).getFunction('defend')(s.id, proofFor(miss), 0n, 0n, 0n, 77n)
    ).wait();
    const names = rc3.logs.map((l: { topics: string[]; data: string }) => G.interface.parseLog(l)?.name);
    assert.ok(names.includes('CombatFizzled') && !names.includes('CombatResolved'));
    await turn(s, 0, 90n);
    assert.equal(await turnOf(s), 3n);
  });

  it("P7: an attack in its turn's last second still leaves the attacker a minimum turn after the answer", async () => {
    const s = await playing();
    await spawnBoth(s);
    const deadline = (await G.getFunction('getGame')(s.id))[3] as bigint;
    await env.ethers.provider.send('evm_setNextBlockTimestamp', [Number(deadline)]);
    await (await attack(s, 31n)).wait();
    assert.equal((await G.getFunction('getCombat')(s.id)).turnLeft, 0n, 'no time left when it attacked');
    const oc = await commitOf(s, 1);
    const rc = await (
      await as(env, s.players[1]!).getFunction('defend')(
        s.id,
        proofFor(await combatSignals(s, 0n, 0n, 0n, oc)),
        0n,
        0n,
        0n,
        oc,
      )
    ).wait();
    const answered = (await env.ethers.provider.getBlock(rc.blockNumber))!.timestamp;
    assert.equal(Number((await G.getFunction('getGame')(s.id))[3]), answered + 60, 'MIN_TURN (1 minute)');
    await expectRevert(as(env, env.other).getFunction('claimTurnTimeout')(s.id), G, 'DeadlineNotPassed');
    await turn(s, 0, 90n); // the next block: in time
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).atFault, false);
  });

  it('a silent defender loses: late responses revert, the timeout forfeits it at fault', async () => {
    const s = await playing();
    await spawnBoth(s);
    await (await attack(s, 21n)).wait();
    await increaseTime(env, DURATIONS.combatSeconds + 1);
    const sig = await combatSignals(s, 0n, 0n, 0n, await commitOf(s, 1));
    await expectRevert(
      as(env, s.players[1]!).getFunction('defend')(s.id, proofFor(sig), 0n, 0n, 0n, sig[3]),
      G,
      'DeadlinePassed',
    );
    await (await as(env, env.other).getFunction('claimCombatTimeout')(s.id)).wait();
    const d = await G.getFunction('getSeat')(s.id, 1);
    assert.equal(d.forfeited, true);
    assert.equal(d.atFault, true);
    assert.equal(await phaseOf(env, s.id), Phase.Secrets, 'one player left: the game ends');
    await expectRevert(as(env, env.other).getFunction('claimCombatTimeout')(s.id), G, 'WrongPhase');
  });
});
