/**
 * Force-open (P7): the share window, and for passability games the open map's root. Once the seed is public,
 * turn proofs need a root anyone can regenerate: the salt-0 tree of Gen(seed), proposed by its zone roots and
 * challenged zone by zone (the challenger's 64 leaves against the proposal's, the first difference recomputed
 * with MapGen); whoever lied forfeits at fault; an unchallenged proposal is adopted.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import {
  buildTree,
  commitOpenMap,
  FIELD_MODULUS,
  generateMap,
  leafCoord,
  playCommitment,
  revealCommitment,
  ZONE_DEPTH,
} from '../../core/index.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { as, DURATIONS, type Env, expectRevert, increaseTime, Phase, phaseOf, setup } from './helpers.ts';
import { MAX_REVEALED, mockPlay, type Playing, stateOf } from './mock-play.ts';

const LEAVES = [0, 1, 9];
const BLINDING = 77n;

interface OpenData {
  root: bigint;
  zoneRoots: bigint[];
  /** Zone-major leaves of the salt-0 tree. */
  leaves: bigint[];
}

describe('ShroudGame force-open: the share window and the open map root', () => {
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
    const s = await forcedOpen(o);
    for (const [i, p] of s.players.entries()) {
      await (await as(env, p).getFunction('revealShare')(s.id, s.shares[i])).wait();
    }
    return s;
  }

  async function forcedOpen(o: { stake?: bigint } = {}): Promise<Playing> {
    const s = await mp.playing({ stake: o.stake ?? 0n });
    await mp.spawnBoth(s, [mp.revealing(0n, LEAVES, BLINDING, s.dealt.tree.root), mp.move(10n)]);
    await (
      await as(env, s.players[0]!).getFunction('openDispute')(s.id, LEAVES, BLINDING, stateOf(0n))
    ).wait();
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimDisputeTimeout')(s.id)).wait();
    return s;
  }

  /** The honest open map. */
  function openMap(s: Playing): OpenData {
    const open = commitOpenMap(env.h, s.board, generateMap(env.h, s.board, s.dealt.seed));
    return { root: open.tree.root, zoneRoots: zoneRoots(open, s.board), leaves: [...open.tree.levels[0]!] };
  }
  /** A lie about one leaf, consistent with its zone root (so only the leaf check can catch it). */
  function lieAt(s: Playing, honest: OpenData, leaf: number, value = 12345n): OpenData {
    const leaves = honest.leaves.slice();
    leaves[leaf] = value;
    const zone = Math.floor(leaf / 64);
    const roots = honest.zoneRoots.slice();
    roots[zone] = zoneRootOf(leaves.slice(zone * 64, zone * 64 + 64));
    void s;
    return { root: 0n, zoneRoots: roots, leaves };
  }
  const zoneRootOf = (leaves: bigint[]): bigint => buildTree(env.h, leaves, ZONE_DEPTH).root;
  const zoneOf = (d: OpenData, zone: number) => d.leaves.slice(zone * 64, zone * 64 + 64);
  const propose = (s: Playing, seat: number, d: OpenData) =>
    as(env, s.players[seat]!).getFunction('proposeOpenRoot')(s.id, d.zoneRoots);
  const challenge = (s: Playing, seat: number, proposal: OpenData, zone: number, leaves: bigint[]) =>
    as(env, s.players[seat]!).getFunction('challengeOpenRoot')(s.id, proposal.zoneRoots, zone, leaves);
  const answer = (s: Playing, proposal: OpenData, challenger: bigint[], proposer: bigint[]) =>
    as(env, env.other).getFunction('answerOpenRootChallenge')(s.id, proposal.zoneRoots, challenger, proposer);
  const eventsOf = async (tx: Promise<{ wait(): Promise<{ logs: never[] }> }>) =>
    (await (await tx).wait()).logs.map((l) => G.interface.parseLog(l)).filter(Boolean) as {
      name: string;
      args: Record<string, unknown>;
    }[];

  it('P7: the honest open root is proposed, stands its challenge window, and passability turns prove against it', async () => {
    const s = await opened();
    assert.equal(await phaseOf(env, s.id), Phase.OpenRoot);
    const d = openMap(s);
    const ev = (await eventsOf(propose(s, 1, d))).find((e) => e.name === 'OpenRootProposed')!;
    assert.equal(ev.args['root'], d.root, 'the contract computes the same root from the zone roots');
    // A "challenge" agreeing with the proposal is no challenge.
    for (const z of [0, s.board.zoneCount - 1])
      await expectRevert(challenge(s, 0, d, z, zoneOf(d, z)), G, 'NoFraud');
    await expectRevert(as(env, env.other).getFunction('claimOpenRootTimeout')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimOpenRootTimeout')(s.id)).wait();
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    assert.equal(g[6], d.root, 'the adopted root');
    // The dealer's zone roots (posted with its root) do not build the open root, and no longer matter: they
    // cannot be used to force the game open again.
    const block = Number(await G.getFunction('rootBlock')(s.id));
    const [posted] = await G.queryFilter(G.filters.RootPosted!(s.id), block, block);
    const dealers = [...G.interface.parseLog(posted!)!.args.zoneRoots] as bigint[];
    await expectRevert(as(env, env.other).getFunction('proveZoneRootsFraud')(s.id, dealers), G, 'NoFraud');
    // Seat 0 spawned on the dealer's root: it moves its commitment to the adopted root before its next turn
    // (rebind.test.ts covers rebind itself), and its turns then carry that root inside the commitment.
    await expectRevert(mp.turn(s, 0, 40n), G, 'NotRebound');
    const rc = revealCommitment(env.h, LEAVES, MAX_REVEALED, BLINDING);
    await (await as(env, s.players[0]!).getFunction('rebind')(s.id, stateOf(0n), rc)).wait();
    assert.equal(await mp.commitOf(s, 0), playCommitment(env.h, stateOf(0n), rc, d.root));
    await mp.turn(s, 0, 40n, mp.move(40n, [], 2040n, d.root));
  });

  it('P7: a proposal lying about one leaf is challenged with the true zone and decided by MapGen; the liar forfeits', async () => {
    const s = await opened({ stake: 500n });
    const honest = openMap(s);
    const leaf = 70;
    assert.ok(leafCoord(s.board, leaf));
    const lie = lieAt(s, honest, leaf);
    await (await propose(s, 0, lie)).wait();
    const zone = Math.floor(leaf / 64);
    await expectRevert(answer(s, lie, zoneOf(honest, zone), zoneOf(lie, zone)), G, 'NotChallenged');
    await (await challenge(s, 1, lie, zone, zoneOf(honest, zone))).wait();
    await expectRevert(challenge(s, 1, lie, zone, zoneOf(honest, zone)), G, 'AlreadyChallenged');
    // The answer must be the proposal's own leaves of that zone, and the challenger's as posted.
    await expectRevert(answer(s, lie, zoneOf(honest, zone), zoneOf(honest, zone)), G, 'ZoneMismatch');
    await expectRevert(answer(s, lie, zoneOf(lie, zone), zoneOf(lie, zone)), G, 'ProposalMismatch');
    const c1 = (await G.getFunction('credit')(s.players[1]!.address)) as bigint;
    const decided = (await eventsOf(answer(s, lie, zoneOf(honest, zone), zoneOf(lie, zone)))).find(
      (e) => e.name === 'OpenRootDecided',
    )!;
    assert.deepEqual(
      [decided.args['leafIndex'], decided.args['loser'], decided.args['proposalStands']],
      [BigInt(leaf), 0n, false],
    );
    const seat0 = await G.getFunction('getSeat')(s.id, 0);
    assert.equal(seat0.atFault, true);
    assert.equal(seat0.forfeited, true);
    // Two seats: one left, so the game ended and settled; the liar's stake went to the other seat.
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    assert.equal((await G.getFunction('credit')(s.players[1]!.address)) - c1, 1000n);
  });

  it('P7: a challenger lying about a zone of an honest proposal forfeits, and the proposal stands', async () => {
    const s = await opened();
    const honest = openMap(s);
    await (await propose(s, 0, honest)).wait();
    const wrong = lieAt(s, honest, 5, 999n);
    await (await challenge(s, 1, honest, 0, zoneOf(wrong, 0))).wait();
    const decided = (await eventsOf(answer(s, honest, zoneOf(wrong, 0), zoneOf(honest, 0)))).find(
      (e) => e.name === 'OpenRootDecided',
    )!;
    assert.deepEqual([decided.args['loser'], decided.args['proposalStands']], [1n, true]);
    assert.equal((await G.getFunction('getSeat')(s.id, 1)).atFault, true);
    // One seat left: the game settled, and a finished game keeps no proposal.
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    assert.equal((await G.getFunction('getOpenRoot')(s.id)).proposed, false);
  });

  it('P7: a challenge nobody answers sinks the proposal: its proposer forfeits', async () => {
    const s = await opened();
    const honest = openMap(s);
    const lie = lieAt(s, honest, 3, 1n);
    await (await propose(s, 1, lie)).wait();
    await (await challenge(s, 0, lie, 0, zoneOf(honest, 0))).wait();
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimOpenRootTimeout')(s.id)).wait();
    assert.equal((await G.getFunction('getSeat')(s.id, 1)).atFault, true);
  });

  it('no proposal before the deadline: the game is cancelled, nobody at fault', async () => {
    const s = await opened();
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    const ev = (await eventsOf(as(env, env.other).getFunction('claimOpenRootTimeout')(s.id))).find(
      (e) => e.name === 'GameCancelled',
    )!;
    assert.equal(ev.args['reason'], 9n, 'NoOpenRoot');
    assert.equal(ev.args['faultMask'], 0n);
    assert.equal(await phaseOf(env, s.id), Phase.Cancelled);
  });

  it('proposeOpenRoot, challengeOpenRoot and answerOpenRootChallenge reverts', async () => {
    const s = await opened();
    const d = openMap(s);
    await expectRevert(challenge(s, 1, d, 0, zoneOf(d, 0)), G, 'NoProposal');
    await expectRevert(as(env, env.other).getFunction('proposeOpenRoot')(s.id, d.zoneRoots), G, 'NotPlayer');
    await expectRevert(propose(s, 0, { ...d, zoneRoots: d.zoneRoots.slice(1) }), G, 'WrongLength');
    await expectRevert(
      propose(s, 0, { ...d, zoneRoots: [FIELD_MODULUS, ...d.zoneRoots.slice(1)] }),
      G,
      'NotInField',
    );
    await (await propose(s, 0, d)).wait();
    await expectRevert(propose(s, 1, d), G, 'AlreadyProposed');
    const wrong = lieAt(s, d, 2, 7n);
    await expectRevert(challenge(s, 0, d, 0, zoneOf(wrong, 0)), G, 'NotPlayer'); // the proposer itself
    await expectRevert(
      as(env, env.other).getFunction('challengeOpenRoot')(s.id, d.zoneRoots, 0, zoneOf(wrong, 0)),
      G,
      'NotPlayer',
    );
    await expectRevert(
      challenge(s, 1, { ...d, zoneRoots: [...d.zoneRoots].reverse() }, 0, zoneOf(wrong, 0)),
      G,
      'ProposalMismatch',
    );
    await expectRevert(challenge(s, 1, d, s.board.zoneCount, zoneOf(wrong, 0)), G, 'BadLeafIndex');
    const bigLeaf = zoneOf(wrong, 0);
    bigLeaf[1] = FIELD_MODULUS;
    await expectRevert(challenge(s, 1, d, 0, bigLeaf), G, 'NotInField');
    const early = await mp.playing();
    await expectRevert(propose(early, 0, d), G, 'WrongPhase');
  });

  it('P7: the share window lasts at least a turn, and a seat that already left is not blamed for its share', async () => {
    const plain = await mockPlay(env, 'mock-open-3');
    const s = await plain.playing({ stake: 300n, nPlayers: 3 });
    await plain.spawnBoth(s, [plain.revealing(0n, LEAVES, BLINDING, s.dealt.tree.root)]);
    // Seat 2 leaves the game by choice (not at fault), then seat 0 disputes and the dealer stays silent.
    await (await as(env, s.players[2]!).getFunction('forfeit')(s.id)).wait();
    await (
      await as(env, s.players[0]!).getFunction('openDispute')(s.id, LEAVES, BLINDING, stateOf(0n))
    ).wait();
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimDisputeTimeout')(s.id)).wait();
    const g = await G.getFunction('getGame')(s.id);
    const now = BigInt((await env.ethers.provider.getBlock('latest'))!.timestamp);
    const window = BigInt(Math.max(DURATIONS.revealSeconds, DURATIONS.turnSeconds));
    assert.ok(BigInt(g[3]) - now >= window - 2n, 'max(revealSeconds, turnSeconds)');
    // Seats 0 and 1 reveal; seat 2, gone, does not: the game cannot be opened and is cancelled, nobody blamed.
    for (const i of [0, 1])
      await (await as(env, s.players[i]!).getFunction('revealShare')(s.id, s.shares[i])).wait();
    await increaseTime(env, Number(window) + 1);
    const ev = (await eventsOf(as(env, env.other).getFunction('cancelMissed')(s.id))).find(
      (e) => e.name === 'GameCancelled',
    )!;
    assert.equal(ev.args['faultMask'], 0n);
    assert.equal((await G.getFunction('getSeat')(s.id, 2)).atFault, false);
    // Its stake comes back like everyone else's (the dealer, slashed, gets none of it).
    assert.equal(await G.getFunction('credit')(s.players[2]!.address), 300n + 333333333333333333n);
  });
});
