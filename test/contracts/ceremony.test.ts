import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { FIELD_MODULUS } from '../../core/index.ts';
import {
  as,
  BOND,
  ciphertextOf,
  commitAll,
  createGame,
  DURATIONS,
  dealMap,
  ENC_KEY,
  type Env,
  expectRevert,
  increaseTime,
  Phase,
  phaseOf,
  postRoot,
  RULESET_HASH,
  revealAll,
  setup,
} from './helpers.ts';

describe('ShroudGame ceremony: create, commit, sealed reveal, root', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    env = await setup();
    G = env.game;
  });

  const create = (over: Record<string, unknown> = {}, value = BOND) => {
    const a = {
      players: env.players.slice(0, 2).map((p) => p.address),
      dealer: env.dealer.address,
      key: ENC_KEY,
      durations: DURATIONS,
      board: { kind: 0, width: 16, height: 12, maxTurns: 10 },
      stake: 0n,
      rulesetHash: RULESET_HASH,
      ...over,
    };
    return as(env, env.dealer).getFunction('createGame')(
      a.players,
      a.dealer,
      a.key,
      a.rulesetHash,
      a.durations,
      a.board,
      a.stake,
      { value },
    );
  };

  it('creates a game: phase Commit, bond held, config readable, events emitted', async () => {
    const s = await createGame(env, { width: 40, height: 26 });
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[0], env.dealer.address);
    assert.equal(g[1], Phase.Commit);
    assert.equal(g[9], BOND);
    const cfg = await G.getFunction('getGameConfig')(s.id);
    assert.equal(cfg[1], BigInt(s.board.depth), 'tree depth as makeBoard');
    assert.equal(cfg[5], ENC_KEY);
    const standard = await createGame(env, { width: 84, height: 54 });
    assert.equal((await G.getFunction('getGameConfig')(standard.id))[1], 13n);
  });

  it('createGame rejects bad parameters', async () => {
    await expectRevert(create({ players: [env.players[0]!.address] }), G, 'BadPlayerCount');
    await expectRevert(
      create({ players: env.players.map((p) => p.address).concat(env.other.address) }),
      G,
      'BadPlayerCount',
    );
    await expectRevert(
      create({ players: [env.players[0]!.address, env.players[0]!.address] }),
      G,
      'BadPlayer',
    );
    await expectRevert(create({ players: [env.players[0]!.address, env.dealer.address] }), G, 'BadPlayer');
    await expectRevert(
      create({ players: [env.players[0]!.address, `0x${'00'.repeat(20)}`] }),
      G,
      'BadPlayer',
    );
    await expectRevert(create({ dealer: env.other.address }), G, 'BadDealer');
    await expectRevert(create({ key: `0x04${'11'.repeat(32)}` }), G, 'BadEncKey');
    await expectRevert(create({ key: `0x02${'11'.repeat(31)}` }), G, 'BadEncKey');
    await expectRevert(create({ board: { kind: 2, width: 16, height: 12, maxTurns: 10 } }), G, 'BadBoard');
    await expectRevert(create({ board: { kind: 0, width: 0, height: 12, maxTurns: 10 } }), G, 'BadBoard');
    await expectRevert(create({ board: { kind: 0, width: 16, height: 12, maxTurns: 0 } }), G, 'BadBoard');
    // 256 zones > 253: a zone bitmask must fit one field element.
    await expectRevert(create({ board: { kind: 1, width: 128, height: 128, maxTurns: 10 } }), G, 'BadBoard');
    // A side over 1024 (10-bit coordinates), even with few zones: 1032 × 8 is 129 zones.
    await expectRevert(create({ board: { kind: 1, width: 1032, height: 8, maxTurns: 10 } }), G, 'BadBoard');
    await expectRevert(create({ durations: { ...DURATIONS, rootSeconds: 0 } }), G, 'BadDurations');
    await expectRevert(create({}, 0n), G, 'BondRequired');
    // The ruleset must be registered, for this board, with enough seats.
    await expectRevert(create({ rulesetHash: `0x${'22'.repeat(32)}` }), G, 'UnknownRuleset');
    await expectRevert(
      create({ board: { kind: 1, width: 16, height: 12, maxTurns: 10 } }),
      G,
      'RulesetMismatch',
    );
    await expectRevert(
      create({ board: { kind: 0, width: 16, height: 13, maxTurns: 10 } }),
      G,
      'RulesetMismatch',
    );
  });

  it('game ids are field elements bound to the chain, the contract and the counter', async () => {
    const s = await createGame(env);
    const n = (await G.getFunction('gameCount')()) as bigint;
    const want =
      BigInt(
        env.ethers.keccak256(
          env.ethers.AbiCoder.defaultAbiCoder().encode(
            ['uint256', 'address', 'uint256'],
            [31337n, await G.getAddress(), n],
          ),
        ),
      ) % FIELD_MODULUS;
    assert.equal(s.id, want);
    assert.ok(s.id < FIELD_MODULUS && s.id !== n);
    assert.notEqual(await G.getFunction('gameIdOf')(n - 1n), s.id);
  });

  it('commit: each player once, field element, exact stake, only players, only in time', async () => {
    const s = await createGame(env, { stake: 1000n });
    const [p1, p2] = s.players as [typeof env.other, typeof env.other];
    await expectRevert(as(env, env.other).getFunction('commit')(s.id, 1n, { value: 1000n }), G, 'NotPlayer');
    await expectRevert(
      as(env, p1).getFunction('commit')(s.id, FIELD_MODULUS, { value: 1000n }),
      G,
      'NotInField',
    );
    await expectRevert(as(env, p1).getFunction('commit')(s.id, 1n, { value: 999n }), G, 'WrongStake');
    await expectRevert(as(env, p1).getFunction('sealedReveal')(s.id, ciphertextOf(0)), G, 'WrongPhase');
    await (await as(env, p1).getFunction('commit')(s.id, s.commitments[0], { value: 1000n })).wait();
    await expectRevert(as(env, p1).getFunction('commit')(s.id, 5n, { value: 1000n }), G, 'AlreadyCommitted');
    const seat = await G.getFunction('getSeat')(s.id, 0);
    assert.equal(seat.commitment, s.commitments[0]);
    assert.equal(await phaseOf(env, s.id), Phase.Commit);
    await increaseTime(env, DURATIONS.commitSeconds + 1);
    await expectRevert(
      as(env, p2).getFunction('commit')(s.id, s.commitments[1], { value: 1000n }),
      G,
      'DeadlinePassed',
    );
    await expectRevert(as(env, p1).getFunction('commit')(999n, 1n), G, 'WrongPhase');
  });

  it('sealed reveal: after all commits, each player once, non-empty, in time; hash stored, blob emitted', async () => {
    const s = await createGame(env);
    await commitAll(env, s);
    assert.equal(await phaseOf(env, s.id), Phase.Reveal);
    const [p1, p2] = s.players as [typeof env.other, typeof env.other];
    await expectRevert(as(env, p1).getFunction('commit')(s.id, 1n), G, 'WrongPhase');
    await expectRevert(as(env, env.other).getFunction('sealedReveal')(s.id, ciphertextOf(0)), G, 'NotPlayer');
    await expectRevert(as(env, p1).getFunction('sealedReveal')(s.id, '0x'), G, 'EmptyCiphertext');
    const tx = await as(env, p1).getFunction('sealedReveal')(s.id, ciphertextOf(0));
    const rc = await tx.wait();
    const ev = rc.logs
      .map((l: { topics: string[]; data: string }) => G.interface.parseLog(l))
      .find((e: { name: string } | null) => e?.name === 'SealedReveal');
    assert.equal(ev.args.ciphertext, ciphertextOf(0));
    const seat = await G.getFunction('getSeat')(s.id, 0);
    assert.equal(seat.ciphertextHash, env.ethers.keccak256(ciphertextOf(0)));
    await expectRevert(as(env, p1).getFunction('sealedReveal')(s.id, ciphertextOf(0)), G, 'AlreadyRevealed');
    await increaseTime(env, DURATIONS.revealSeconds + 1);
    await expectRevert(as(env, p2).getFunction('sealedReveal')(s.id, ciphertextOf(1)), G, 'DeadlinePassed');
  });

  it('postRoot: dealer only, once, after every reveal, field elements, before the deadline', async () => {
    const s = await createGame(env);
    await commitAll(env, s);
    const d = dealMap(env, s);
    await expectRevert(as(env, env.dealer).getFunction('postRoot')(s.id, d.tree.root, 1n), G, 'WrongPhase');
    await revealAll(env, s);
    assert.equal(await phaseOf(env, s.id), Phase.Deal);
    await expectRevert(as(env, s.players[0]!).getFunction('postRoot')(s.id, d.tree.root, 1n), G, 'NotDealer');
    await expectRevert(as(env, env.dealer).getFunction('postRoot')(s.id, FIELD_MODULUS, 1n), G, 'NotInField');
    await expectRevert(as(env, env.dealer).getFunction('postRoot')(s.id, 1n, FIELD_MODULUS), G, 'NotInField');
    await postRoot(env, s, d);
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    assert.equal(g[6], d.tree.root);
    await expectRevert(as(env, env.dealer).getFunction('postRoot')(s.id, d.tree.root, 1n), G, 'WrongPhase');

    const late = await createGame(env);
    await commitAll(env, late);
    await revealAll(env, late);
    await increaseTime(env, DURATIONS.rootSeconds + 1);
    await expectRevert(as(env, env.dealer).getFunction('postRoot')(late.id, 1n, 1n), G, 'DeadlinePassed');
  });

  it('missed commit: anyone cancels after the deadline; the missing player is at fault, stakes settle', async () => {
    const s = await createGame(env, { stake: 900n, nPlayers: 3 });
    await (
      await as(env, s.players[0]!).getFunction('commit')(s.id, s.commitments[0], { value: 900n })
    ).wait();
    await (
      await as(env, s.players[1]!).getFunction('commit')(s.id, s.commitments[1], { value: 900n })
    ).wait();
    await expectRevert(as(env, env.other).getFunction('cancelMissed')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.commitSeconds + 1);
    const before = (await G.getFunction('credit')(env.dealer.address)) as bigint;
    const rc = await (await as(env, env.other).getFunction('cancelMissed')(s.id)).wait();
    const ev = rc.logs
      .map((l: never) => G.interface.parseLog(l))
      .find((e: { name: string } | null) => e?.name === 'GameCancelled');
    assert.equal(ev.args.reason, 1n);
    assert.equal(ev.args.faultMask, 0b100n);
    assert.equal(await phaseOf(env, s.id), Phase.Cancelled);
    assert.equal(
      (await G.getFunction('credit')(env.dealer.address)) - before,
      BOND,
      'bond back to the dealer',
    );
    assert.equal(await G.getFunction('credit')(s.players[0]!.address), 900n);
    assert.equal((await G.getFunction('getSeat')(s.id, 2)).atFault, true);
    await expectRevert(as(env, env.other).getFunction('cancelMissed')(s.id), G, 'WrongPhase');
  });

  it('missed reveal: the silent player is at fault and loses the stake to the others', async () => {
    const s = await createGame(env, { stake: 1000n, nPlayers: 3 });
    await commitAll(env, s);
    await (await as(env, s.players[0]!).getFunction('sealedReveal')(s.id, ciphertextOf(0))).wait();
    await (await as(env, s.players[2]!).getFunction('sealedReveal')(s.id, ciphertextOf(2))).wait();
    const c0 = (await G.getFunction('credit')(s.players[0]!.address)) as bigint;
    const c2 = (await G.getFunction('credit')(s.players[2]!.address)) as bigint;
    const c1 = (await G.getFunction('credit')(s.players[1]!.address)) as bigint;
    await increaseTime(env, DURATIONS.revealSeconds + 1);
    await (await as(env, env.other).getFunction('cancelMissed')(s.id)).wait();
    assert.equal((await G.getFunction('credit')(s.players[0]!.address)) - c0, 1500n);
    assert.equal((await G.getFunction('credit')(s.players[2]!.address)) - c2, 1500n);
    assert.equal((await G.getFunction('credit')(s.players[1]!.address)) - c1, 0n);
  });

  it('bad ciphertext: the dealer names the player with evidence; cancelled, that player at fault', async () => {
    const s = await createGame(env);
    await commitAll(env, s);
    await (await as(env, s.players[0]!).getFunction('sealedReveal')(s.id, ciphertextOf(0))).wait();
    const dealerG = as(env, env.dealer);
    await expectRevert(
      as(env, env.other).getFunction('reportBadCiphertext')(s.id, 0, ciphertextOf(0), '0x01'),
      G,
      'NotDealer',
    );
    await expectRevert(
      dealerG.getFunction('reportBadCiphertext')(s.id, 1, ciphertextOf(1), '0x01'),
      G,
      'NotRevealed',
    );
    await expectRevert(
      dealerG.getFunction('reportBadCiphertext')(s.id, 5, ciphertextOf(1), '0x01'),
      G,
      'NotPlayer',
    );
    await expectRevert(
      dealerG.getFunction('reportBadCiphertext')(s.id, 0, ciphertextOf(1), '0x01'),
      G,
      'CiphertextMismatch',
    );
    await expectRevert(
      dealerG.getFunction('reportBadCiphertext')(s.id, 0, ciphertextOf(0), '0x'),
      G,
      'EmptyEvidence',
    );
    const rc = await (
      await dealerG.getFunction('reportBadCiphertext')(s.id, 0, ciphertextOf(0), '0xdead')
    ).wait();
    const names = rc.logs.map((l: never) => G.interface.parseLog(l)?.name);
    assert.ok(names.includes('BadCiphertext') && names.includes('GameCancelled'));
    assert.equal(await phaseOf(env, s.id), Phase.Cancelled);
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).atFault, true);
    assert.equal((await G.getFunction('getSeat')(s.id, 1)).atFault, false);
    await expectRevert(
      dealerG.getFunction('reportBadCiphertext')(s.id, 0, ciphertextOf(0), '0x01'),
      G,
      'WrongPhase',
    );
  });

  it('withdraw pays credit once', async () => {
    const amount = (await G.getFunction('credit')(env.dealer.address)) as bigint;
    assert.ok(amount > 0n);
    const bal = await env.ethers.provider.getBalance(env.dealer.address);
    const rc = await (await as(env, env.dealer).getFunction('withdraw')()).wait();
    const fee = (rc.gasUsed as bigint) * (rc.gasPrice as bigint);
    assert.equal((await env.ethers.provider.getBalance(env.dealer.address)) as bigint, bal + amount - fee);
    await expectRevert(as(env, env.dealer).getFunction('withdraw')(), G, 'NothingToWithdraw');
  });

  it('views reject unknown games and seats', async () => {
    await expectRevert(G.getFunction('getGame')(12345n), G, 'UnknownGame');
    await expectRevert(G.getFunction('getGameConfig')(12345n), G, 'UnknownGame');
    await expectRevert(G.getFunction('getSeat')(1n, 6), G, 'NotPlayer');
  });
});
