import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { addPoint } from '../../core/babyjub.ts';
import { FIELD_MODULUS } from '../../core/index.ts';
import { smallOrderPoints } from '../core/babyjub-points.ts';
import {
  as,
  BOND,
  commitAll,
  createGame,
  DURATIONS,
  dealMap,
  dealtZoneRoots,
  type Env,
  expectRevert,
  gameParams,
  increaseTime,
  Phase,
  phaseOf,
  postRoot,
  revealAll,
  type Scenario,
  SEAL,
  SEAL_KEY,
  sealedShareOf,
  sealProof,
  setup,
} from './helpers.ts';

describe('ShroudGame ceremony: create, commit, sealed reveal, root', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    env = await setup();
    G = env.game;
  });

  const create = (over: Parameters<typeof gameParams>[2] & { players?: string[] } = {}, value = BOND) =>
    as(env, env.dealer).getFunction('createGame')(
      gameParams(env, over.players ?? env.players.slice(0, 2).map((p) => p.address), over),
      { value },
    );

  /** Seat `i` posts its sealed share; `tamper` edits what is sent after the mock proof was made. */
  const seal = (
    sc: Scenario,
    i: number,
    tamper: (a: { y: bigint; c: bigint; signals: bigint[] }) => void = () => {},
  ) => {
    const { sealed, plan } = sealedShareOf(env, sc, i);
    const a = { y: sealed.ephemeralY, c: sealed.ciphertext, signals: [...plan.publicSignals] };
    tamper(a);
    return as(env, sc.players[i]!).getFunction('sealedReveal')(sc.id, a.y, a.c, sealProof(a.signals));
  };

  it('creates a game: phase Commit, bond held, config readable, events emitted', async () => {
    const s = await createGame(env, { width: 40, height: 26 });
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[0], env.dealer.address);
    assert.equal(g[1], Phase.Commit);
    assert.equal(g[9], BOND);
    const cfg = await G.getFunction('getGameConfig')(s.id);
    assert.equal(cfg[1], BigInt(s.board.depth), 'tree depth as makeBoard');
    assert.deepEqual([...cfg[5]], SEAL_KEY);
    const standard = await createGame(env, { width: 84, height: 54 });
    assert.equal(
      (await G.getFunction('getGameConfig')(standard.id))[1],
      7n,
      '3 levels per zone, 4 over 77 zones',
    );
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
    // The seal key must be a Baby Jubjub point other than the identity, with field-element coordinates.
    await expectRevert(create({ sealKey: [SEAL_KEY[0], SEAL_KEY[1] + 1n] }), G, 'BadSealKey');
    await expectRevert(create({ sealKey: [0n, 1n] }), G, 'BadSealKey');
    // The seven points of order 2, 4 or 8: with (0, −1) every share's pad would be public; with the others no
    // seal proof can be made and every honest seat would be blamed for missing the reveal.
    for (const T of smallOrderPoints()) await expectRevert(create({ sealKey: [...T] }), G, 'BadSealKey');
    // A subgroup key plus a small-order part is on the curve and of large order: the contract accepts it (the SDK
    // refuses it, test/client/terms.test.ts; a dealer posting one only risks its own games).
    const mixed = addPoint(SEAL.publicKey, smallOrderPoints()[3]!);
    await (await create({ sealKey: [...mixed] })).wait();
    await expectRevert(create({ sealKey: [SEAL_KEY[0] + FIELD_MODULUS, SEAL_KEY[1]] }), G, 'BadSealKey');
    await expectRevert(create({ board: { kind: 2, width: 16, height: 12, maxTurns: 10 } }), G, 'BadBoard');
    await expectRevert(create({ board: { kind: 0, width: 0, height: 12, maxTurns: 10 } }), G, 'BadBoard');
    await expectRevert(create({ board: { kind: 0, width: 16, height: 12, maxTurns: 0 } }), G, 'BadBoard');
    // 256 zones > 253: a zone bitmask must fit one field element.
    await expectRevert(create({ board: { kind: 1, width: 128, height: 128, maxTurns: 10 } }), G, 'BadBoard');
    // A side over 1024 (10-bit coordinates), even with few zones: 1032 × 8 is 129 zones.
    await expectRevert(create({ board: { kind: 1, width: 1032, height: 8, maxTurns: 10 } }), G, 'BadBoard');
    await expectRevert(create({ stake: 10n, disputeDeposit: 11n }), G, 'DepositAboveStake');
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
    await expectRevert(seal(s, 0), G, 'WrongPhase');
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

  it('sealed reveal: after all commits, each player once, field elements, in time; (E, c) emitted, nothing stored but a flag', async () => {
    const s = await createGame(env);
    await commitAll(env, s);
    assert.equal(await phaseOf(env, s.id), Phase.Reveal);
    const [p1] = s.players as [typeof env.other];
    await expectRevert(as(env, p1).getFunction('commit')(s.id, 1n), G, 'WrongPhase');
    const { sealed, plan } = sealedShareOf(env, s, 0);
    await expectRevert(
      as(env, env.other).getFunction('sealedReveal')(
        s.id,
        sealed.ephemeralY,
        sealed.ciphertext,
        sealProof(plan.publicSignals),
      ),
      G,
      'NotPlayer',
    );
    await expectRevert(
      seal(s, 0, (a) => (a.c = FIELD_MODULUS)),
      G,
      'NotInField',
    );
    await expectRevert(
      seal(s, 0, (a) => (a.y = FIELD_MODULUS)),
      G,
      'NotInField',
    );
    const rc = await (await seal(s, 0)).wait();
    const ev = rc.logs
      .map((l: { topics: string[]; data: string }) => G.interface.parseLog(l))
      .find((e: { name: string } | null) => e?.name === 'SealedReveal');
    assert.equal(ev.args.ephemeralY, sealed.ephemeralY);
    assert.equal(ev.args.ciphertext, sealed.ciphertext);
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).revealed, true);
    await expectRevert(seal(s, 0), G, 'AlreadyRevealed');
    await increaseTime(env, DURATIONS.revealSeconds + 1);
    await expectRevert(seal(s, 1), G, 'DeadlinePassed');
  });

  it('P1: a sealed share whose proof is wrong, or bound to another game, player, commitment or key, is refused', async () => {
    const a = await createGame(env);
    const b = await createGame(env);
    await commitAll(env, a);
    await commitAll(env, b);
    // The contract builds every signal but E.y and c itself; a "proof" for any other set of signals fails.
    // Signal 0 is Poseidon(gameId, sealKey): another game's context, or another key's.
    const otherContext = (gameId: bigint, key: readonly bigint[]) => env.h.hash([gameId, key[0]!, key[1]!]);
    await expectRevert(
      seal(a, 0, (x) => (x.signals[0] = otherContext(b.id, SEAL_KEY))),
      G,
      'InvalidProof',
    ); // another game
    await expectRevert(
      seal(a, 0, (x) => (x.signals[1] = BigInt(a.players[1]!.address))),
      G,
      'InvalidProof',
    );
    await expectRevert(
      seal(a, 0, (x) => (x.signals[2] = a.commitments[1]!)),
      G,
      'InvalidProof',
    );
    await expectRevert(
      seal(a, 0, (x) => (x.signals[0] = otherContext(a.id, [SEAL_KEY[0] + 1n, SEAL_KEY[1]]))),
      G,
      'InvalidProof',
    ); // another seal key
    await expectRevert(
      seal(a, 0, (x) => (x.c += 1n)),
      G,
      'InvalidProof',
    ); // c edited after proving
    await expectRevert(
      seal(a, 0, (x) => (x.y = x.signals[3]! + 1n)),
      G,
      'InvalidProof',
    ); // E edited after proving
    // Copying game A's sealed share (E.y, c and its proof) into game B, even by the same player: refused.
    const { sealed, plan } = sealedShareOf(env, a, 0);
    await expectRevert(
      as(env, a.players[0]!).getFunction('sealedReveal')(
        b.id,
        sealed.ephemeralY,
        sealed.ciphertext,
        sealProof(plan.publicSignals),
      ),
      G,
      'InvalidProof',
    );
    // Another seat's share, copied into the copier's own seat of the same game: refused (player and C_i differ).
    await expectRevert(
      as(env, a.players[1]!).getFunction('sealedReveal')(
        a.id,
        sealed.ephemeralY,
        sealed.ciphertext,
        sealProof(plan.publicSignals),
      ),
      G,
      'InvalidProof',
    );
    await (await seal(a, 0)).wait();
    await (await seal(a, 1)).wait();
    assert.equal(await phaseOf(env, a.id), Phase.Deal);
  });

  it('P1: durations below a floor or above a ceiling revert, naming the field', async () => {
    const [min, max] = await G.getFunction('durationBounds')();
    for (const f of Object.keys(DURATIONS) as (keyof typeof DURATIONS)[]) {
      const lo = Number(min[f]);
      const hi = Number(max[f]);
      assert.ok(lo > 0 && hi > lo, f);
      const short = await expectRevert(
        create({ durations: { ...DURATIONS, [f]: lo - 1 } }),
        G,
        'DurationTooShort',
      );
      assert.deepEqual(short, [f, BigInt(lo), BigInt(lo - 1)]);
      const long = await expectRevert(
        create({ durations: { ...DURATIONS, [f]: hi + 1 } }),
        G,
        'DurationTooLong',
      );
      assert.deepEqual(long, [f, BigInt(hi), BigInt(hi + 1)]);
      await (await create({ durations: { ...DURATIONS, [f]: lo } })).wait();
    }
    // The audit window above all: a dealer cannot make it too short for a fraud proof to land.
    assert.equal(Number(min.auditSeconds), 86_400);
  });

  it('postRoot: dealer only, once, after every reveal, field elements, one zone root per zone, before the deadline', async () => {
    const s = await createGame(env);
    await commitAll(env, s);
    const d = dealMap(env, s);
    const zones = dealtZoneRoots(s, d);
    const post = (who: Parameters<typeof as>[1], root: bigint, mc: bigint, z: readonly bigint[] = zones) =>
      as(env, who).getFunction('postRoot')(s.id, root, mc, z);
    await expectRevert(post(env.dealer, d.tree.root, 1n), G, 'WrongPhase');
    await revealAll(env, s);
    assert.equal(await phaseOf(env, s.id), Phase.Deal);
    await expectRevert(post(s.players[0]!, d.tree.root, 1n), G, 'NotDealer');
    await expectRevert(post(env.dealer, FIELD_MODULUS, 1n), G, 'NotInField');
    await expectRevert(post(env.dealer, 1n, FIELD_MODULUS), G, 'NotInField');
    // The zone roots: one per zone, each a field element (the players build their witnesses from them).
    await expectRevert(post(env.dealer, d.tree.root, 1n, zones.slice(1)), G, 'WrongLength');
    await expectRevert(
      post(env.dealer, d.tree.root, 1n, [FIELD_MODULUS, ...zones.slice(1)]),
      G,
      'NotInField',
    );
    assert.equal(await G.getFunction('rootBlock')(s.id), 0n, 'no root yet');
    await postRoot(env, s, d);
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    assert.equal(g[6], d.tree.root);
    const block = Number(await G.getFunction('rootBlock')(s.id));
    const [posted] = await G.queryFilter(G.filters.RootPosted!(s.id), block, block);
    assert.deepEqual([...G.interface.parseLog(posted!)!.args.zoneRoots], zones, 'in the log at rootBlock');
    await expectRevert(post(env.dealer, d.tree.root, 1n), G, 'WrongPhase');

    const late = await createGame(env);
    await commitAll(env, late);
    await revealAll(env, late);
    await increaseTime(env, DURATIONS.rootSeconds + 1);
    await expectRevert(
      as(env, env.dealer).getFunction('postRoot')(late.id, 1n, 1n, zones),
      G,
      'DeadlinePassed',
    );
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
    await (await seal(s, 0)).wait();
    await (await seal(s, 2)).wait();
    const c0 = (await G.getFunction('credit')(s.players[0]!.address)) as bigint;
    const c2 = (await G.getFunction('credit')(s.players[2]!.address)) as bigint;
    const c1 = (await G.getFunction('credit')(s.players[1]!.address)) as bigint;
    await increaseTime(env, DURATIONS.revealSeconds + 1);
    await (await as(env, env.other).getFunction('cancelMissed')(s.id)).wait();
    assert.equal((await G.getFunction('credit')(s.players[0]!.address)) - c0, 1500n);
    assert.equal((await G.getFunction('credit')(s.players[2]!.address)) - c2, 1500n);
    assert.equal((await G.getFunction('credit')(s.players[1]!.address)) - c1, 0n);
  });

  it('P1: once every share is sealed, the dealer has no way to cancel the game or blame a seat', async () => {
    const s = await createGame(env, { stake: 1000n });
    await commitAll(env, s);
    await revealAll(env, s);
    const dealerG = as(env, env.dealer);
    // There is no bad-share report any more: nothing the dealer sends cancels a Deal-phase game.
    assert.equal(G.interface.getFunction('reportBadCiphertext'), null);
    await expectRevert(dealerG.getFunction('cancelMissed')(s.id), G, 'WrongPhase');
    await expectRevert(dealerG.getFunction('startForceOpen')(s.id), G, 'DeadlineNotPassed');
    // Its only ways out: post the root, or let the deadline pass and be slashed (force-open), never paid.
    await increaseTime(env, DURATIONS.rootSeconds + 1);
    await expectRevert(dealerG.getFunction('cancelMissed')(s.id), G, 'WrongPhase');
    await (await as(env, env.other).getFunction('startForceOpen')(s.id)).wait();
    assert.equal(await phaseOf(env, s.id), Phase.ForceOpen);
    for (const i of [0, 1]) assert.equal((await G.getFunction('getSeat')(s.id, i)).atFault, false);
  });

  it('funds: when every seat is at fault, each stake returns to its owner, never to the dealer', async () => {
    const s = await createGame(env, { stake: 700n, nPlayers: 2 });
    await commitAll(env, s);
    const before = await Promise.all(
      [env.dealer, ...s.players].map((a) => G.getFunction('credit')(a.address) as Promise<bigint>),
    );
    await increaseTime(env, DURATIONS.revealSeconds + 1); // nobody sealed: both at fault
    await (await as(env, env.other).getFunction('cancelMissed')(s.id)).wait();
    const after = await Promise.all(
      [env.dealer, ...s.players].map((a) => G.getFunction('credit')(a.address) as Promise<bigint>),
    );
    assert.equal(after[0]! - before[0]!, BOND, 'the dealer gets its bond back and nothing else');
    assert.equal(after[1]! - before[1]!, 700n);
    assert.equal(after[2]! - before[2]!, 700n);
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
