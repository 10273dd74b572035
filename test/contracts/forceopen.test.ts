/**
 * Force-open of a passability game (P7): once the seed is public, turn proofs need a map root anyone can
 * regenerate. The salt-0 tree of Gen(seed) is proposed with its zone roots and leaves, challengeable leaf by leaf
 * and zone by zone, and adopted when it stands; a proposer caught lying forfeits at fault.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { commitOpenMap, FIELD_MODULUS, generateMap, leafCoord } from '../../core/index.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { as, DURATIONS, type Env, expectRevert, increaseTime, Phase, phaseOf, setup } from './helpers.ts';
import { mockPlay, type Playing } from './mock-play.ts';

const LEAVES = [0, 1, 9];
const BLINDING = 77n;

describe('ShroudGame force-open with passability: the open map root', () => {
  let env: Env;
  let G: Contract;
  let mp: Awaited<ReturnType<typeof mockPlay>>;

  before(async () => {
    env = await setup();
    G = env.game;
    mp = await mockPlay(env, 'mock-open', true);
  });

  /** A passability game whose dealer ignored a dispute: forced open, every share revealed (phase OpenRoot). */
  async function opened(o: { stake?: bigint } = {}): Promise<Playing> {
    const s = await mp.playing({ stake: o.stake ?? 0n });
    await mp.spawnBoth(s, [mp.revealing(0n, LEAVES, BLINDING), mp.move(10n)]);
    await (await as(env, s.players[0]!).getFunction('openDispute')(s.id, LEAVES, BLINDING)).wait();
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimDisputeTimeout')(s.id)).wait();
    for (const [i, p] of s.players.entries()) {
      await (await as(env, p).getFunction('revealShare')(s.id, s.shares[i])).wait();
    }
    return s;
  }

  /** The honest open map: zone roots and zone-major leaves of the salt-0 tree of Gen(seed). */
  function openMap(s: Playing) {
    const open = commitOpenMap(env.h, s.board, generateMap(env.h, s.board, s.dealt.seed));
    return { root: open.tree.root, zoneRoots: zoneRoots(open, s.board), leaves: [...open.tree.levels[0]!] };
  }
  const propose = (s: Playing, seat: number, d: { zoneRoots: bigint[]; leaves: bigint[] }) =>
    as(env, s.players[seat]!).getFunction('proposeOpenRoot')(s.id, d.zoneRoots, d.leaves);
  const challenge = (s: Playing, d: { zoneRoots: bigint[]; leaves: bigint[] }, leaf: number) =>
    as(env, env.other).getFunction('challengeOpenRoot')(s.id, d.zoneRoots, d.leaves, leaf);

  it('P7: the honest open root is proposed, stands its challenge window, and passability turns prove against it', async () => {
    const s = await opened();
    assert.equal(await phaseOf(env, s.id), Phase.OpenRoot);
    const d = openMap(s);
    const rc = await (await propose(s, 1, d)).wait();
    const ev = rc.logs
      .map((l: never) => G.interface.parseLog(l))
      .find((e: { name: string } | null) => e?.name === 'OpenRootProposed');
    assert.equal(ev.args.root, d.root, 'the contract computes the same root from the zone roots');
    // Every kind of challenge of an honest proposal fails.
    for (const leaf of [0, 5, 64 + 3, d.leaves.length - 1])
      await expectRevert(challenge(s, d, leaf), G, 'NoFraud');
    await expectRevert(as(env, env.other).getFunction('claimOpenRootTimeout')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimOpenRootTimeout')(s.id)).wait();
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    assert.equal(g[6], d.root, 'the adopted root');
    // The next passability turn carries the adopted root as its last signal (mp.turn appends getGame's root).
    await mp.turn(s, 0, 40n);
  });

  it('P7: a proposal with a leaf that is not Gen(seed) is challenged; the proposer forfeits at fault', async () => {
    const s = await opened({ stake: 500n });
    const d = openMap(s);
    // Lie about one on-board tile, consistently up to the root (so only the leaf check can catch it).
    const leaf = 70;
    assert.ok(leafCoord(s.board, leaf));
    const lie = { ...d, leaves: d.leaves.slice() };
    lie.leaves[leaf] = 12345n;
    const fake = commitFromLeaves(s, lie.leaves);
    lie.zoneRoots = fake.zoneRoots;
    await (await propose(s, 0, lie)).wait();
    await expectRevert(challenge(s, lie, leaf + 1), G, 'NoFraud');
    const c1 = (await G.getFunction('credit')(s.players[1]!.address)) as bigint;
    await (await challenge(s, lie, leaf)).wait();
    const seat0 = await G.getFunction('getSeat')(s.id, 0);
    assert.equal(seat0.atFault, true);
    assert.equal(seat0.forfeited, true);
    // Two seats: one left, so the game ended and settled; the liar's stake went to the other seat.
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    assert.equal((await G.getFunction('credit')(s.players[1]!.address)) - c1, 1000n);
  });

  it('P7: a zone whose leaves do not hash to its proposed zone root is challenged', async () => {
    const s = await opened();
    const d = openMap(s);
    const lie = { ...d, leaves: d.leaves.slice() };
    lie.leaves[3] = 1n; // zone 0's root is left as it was: the zone check catches it at any of its leaves
    await (await propose(s, 1, lie)).wait();
    await (await challenge(s, lie, 10)).wait();
    assert.equal((await G.getFunction('getSeat')(s.id, 1)).atFault, true);
  });

  it('no proposal before the deadline: the game is cancelled, nobody at fault', async () => {
    const s = await opened();
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    const rc = await (await as(env, env.other).getFunction('claimOpenRootTimeout')(s.id)).wait();
    const ev = rc.logs
      .map((l: never) => G.interface.parseLog(l))
      .find((e: { name: string } | null) => e?.name === 'GameCancelled');
    assert.equal(ev.args.reason, 9n, 'NoOpenRoot');
    assert.equal(ev.args.faultMask, 0n);
    assert.equal(await phaseOf(env, s.id), Phase.Cancelled);
  });

  it('proposeOpenRoot and challengeOpenRoot reverts', async () => {
    const s = await opened();
    const d = openMap(s);
    await expectRevert(challenge(s, d, 0), G, 'NoProposal');
    await expectRevert(
      as(env, env.other).getFunction('proposeOpenRoot')(s.id, d.zoneRoots, d.leaves),
      G,
      'NotPlayer',
    );
    await expectRevert(propose(s, 0, { ...d, zoneRoots: d.zoneRoots.slice(1) }), G, 'WrongLength');
    await expectRevert(propose(s, 0, { ...d, leaves: d.leaves.slice(1) }), G, 'WrongLength');
    await expectRevert(
      propose(s, 0, { ...d, leaves: [FIELD_MODULUS, ...d.leaves.slice(1)] }),
      G,
      'NotInField',
    );
    await expectRevert(
      propose(s, 0, { ...d, zoneRoots: [FIELD_MODULUS, ...d.zoneRoots.slice(1)] }),
      G,
      'NotInField',
    );
    await (await propose(s, 0, d)).wait();
    await expectRevert(propose(s, 1, d), G, 'AlreadyProposed');
    await expectRevert(challenge(s, { ...d, leaves: [...d.leaves.slice(1), 0n] }, 0), G, 'ProposalMismatch');
    await expectRevert(challenge(s, d, d.leaves.length), G, 'BadLeafIndex');
    const early = await mp.playing();
    await expectRevert(propose(early, 0, d), G, 'WrongPhase');
  });

  /** Zone roots of a (possibly false) leaf array, as a proposer would compute them. */
  function commitFromLeaves(s: Playing, leaves: bigint[]) {
    const zones: bigint[] = [];
    for (let z = 0; z < s.board.zoneCount; z++) {
      let level = leaves.slice(z * 64, z * 64 + 64);
      while (level.length > 1) {
        const up: bigint[] = [];
        for (let i = 0; i < level.length; i += 2) up.push(env.h.hash([level[i]!, level[i + 1]!]));
        level = up;
      }
      zones.push(level[0]!);
    }
    return { zoneRoots: zones };
  }
});
