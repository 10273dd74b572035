/**
 * Rebinding play commitments to an adopted open root. Every play commitment is Poseidon(stateCommit, revealCommit,
 * mapRoot): a spawn binds the game's root (its last public signal) and turns carry it privately. After force-open
 * of a passability game the open root (the salt-0 tree of Gen(seed)) replaces the dealer's, whose salted tree
 * nobody can open any more: a seat that spawned on the dealer's root must `rebind` (open its commitment on the
 * replaced root, store the same pair on the adopted one) before its next turn, or `playTurn` refuses it
 * (`NotRebound`). A seat that spawns after adoption binds the open root from the start.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import {
  commitOpenMap,
  FIELD_MODULUS,
  generateMap,
  playCommitment,
  revealCommitment,
} from '../../core/index.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { as, DURATIONS, type Env, expectRevert, increaseTime, Phase, phaseOf, setup } from './helpers.ts';
import {
  DAMAGE,
  MAX_REVEALED,
  type Move,
  mockPlay,
  type Playing,
  proofFor,
  stateOf,
  targetWord,
} from './mock-play.ts';

type Signer = Env['dealer'];

const LEAVES = [0, 1, 9];
const BLINDING = 77n;

interface Adopted {
  s: Playing;
  /** The dealer's root, which seats 0 and 1 bound at their spawns. */
  dealerRoot: bigint;
  /** The adopted open root. */
  openRoot: bigint;
  /** Seat 0's and seat 1's spawns (on the dealer's root). */
  spawns: [Move, Move];
}

describe('ShroudGame rebind: play commitments move to an adopted open root', () => {
  let env: Env;
  let G: Contract;
  let mp: Awaited<ReturnType<typeof mockPlay>>;
  let fog: Awaited<ReturnType<typeof mockPlay>>;

  before(async () => {
    env = await setup();
    G = env.game;
    mp = await mockPlay(env, 'mock-rebind', true);
    fog = await mockPlay(env, 'mock-rebind-fog');
  });

  const rebind = (s: Playing, who: Signer, stateCommit: bigint, revealCommit: bigint) =>
    as(env, who).getFunction('rebind')(s.id, stateCommit, revealCommit);
  const seat = (s: Playing, i: number) => G.getFunction('getSeat')(s.id, i);
  const spawnAs = async (r: typeof mp, s: Playing, i: number, m: Move) =>
    (await r.callSpawn(s, i, proofFor(await r.spawnSignals(s, i, m)), m)).wait();
  const eventsOf = async (tx: Promise<{ wait(): Promise<{ logs: never[] }> }>) =>
    (await (await tx).wait()).logs.map((l) => G.interface.parseLog(l)).filter(Boolean) as {
      name: string;
      args: Record<string, unknown> & unknown[];
    }[];

  /**
   * A 3-seat passability game: seats 0 and 1 spawn on the dealer's root, seat 0 disputes and the dealer stays
   * silent (force-open), every share is revealed, seat 1's honest open root stands its window and is adopted. Seat
   * 2, not spawned yet, is to move. `blinding`: seat 0's reveal blinding (its reveal commitment).
   */
  async function adopted(blinding = BLINDING): Promise<Adopted> {
    const s = await mp.playing({ stake: 0n, nPlayers: 3 });
    const dealerRoot = s.dealt.tree.root;
    const spawns: [Move, Move] = [
      mp.revealing(0n, LEAVES, blinding, dealerRoot),
      mp.move(10n, [], 2010n, dealerRoot),
    ];
    await spawnAs(mp, s, 0, spawns[0]);
    await spawnAs(mp, s, 1, spawns[1]);
    await (
      await as(env, s.players[0]!).getFunction('openDispute')(s.id, LEAVES, blinding, stateOf(0n))
    ).wait();
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimDisputeTimeout')(s.id)).wait();
    for (const [i, p] of s.players.entries()) {
      await (await as(env, p).getFunction('revealShare')(s.id, s.shares[i])).wait();
    }
    const open = commitOpenMap(env.h, s.board, generateMap(env.h, s.board, s.dealt.seed));
    await (
      await as(env, s.players[1]!).getFunction('proposeOpenRoot')(s.id, zoneRoots(open, s.board))
    ).wait();
    // No seat can rebind while the open root is only proposed.
    const args = await expectRevert(
      rebind(s, s.players[0]!, stateOf(0n), spawns[0].revealCommit),
      G,
      'WrongPhase',
    );
    assert.deepEqual(args, [Phase.Play, Phase.OpenRoot]);
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimOpenRootTimeout')(s.id)).wait();
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    assert.equal(g[6], open.tree.root);
    assert.equal(g[5], 2n, 'seat 2 (not spawned) to move');
    return { s, dealerRoot, openRoot: open.tree.root, spawns };
  }

  it('a seat spawned on the dealer root turns only after rebind, which stores Poseidon(sc, rc, openRoot) and logs Rebound; the turn signals are [packed, rebound commitment, newCommit]', async () => {
    const { s, dealerRoot, openRoot, spawns } = await adopted();
    // Seat 2 spawns on the open root (its signals end with it), then it is seat 0's turn.
    const m2 = mp.move(20n, [], 2020n, openRoot);
    const sig2 = await mp.spawnSignals(s, 2, m2);
    assert.equal(sig2.at(-1), openRoot);
    await expectRevert(
      mp.callSpawn(s, 2, proofFor([...sig2.slice(0, -1), dealerRoot]), m2),
      G,
      'InvalidProof',
    );
    await spawnAs(mp, s, 2, m2);
    assert.equal(await mp.commitOf(s, 0), spawns[0].newCommit);
    assert.equal((await seat(s, 0)).rebound, false);
    const t = mp.move(40n, [], 2040n, openRoot);
    await expectRevert(mp.turn(s, 0, 40n, t), G, 'NotRebound');

    const rc = revealCommitment(env.h, LEAVES, MAX_REVEALED, BLINDING);
    assert.equal(spawns[0].newCommit, playCommitment(env.h, stateOf(0n), rc, dealerRoot));
    const want = playCommitment(env.h, stateOf(0n), rc, openRoot);
    assert.equal(want, env.h.hash([stateOf(0n), rc, openRoot]));
    const ev = (await eventsOf(rebind(s, s.players[0]!, stateOf(0n), rc))).filter(
      (e) => e.name === 'Rebound',
    );
    assert.equal(ev.length, 1);
    assert.deepEqual([...ev[0]!.args], [s.id, 0n, want]);
    const st = await seat(s, 0);
    assert.equal(st.playCommitment, want);
    assert.equal(st.rebound, true);
    assert.equal(st.lastTurn, 0n, 'a rebind is no turn');
    assert.equal(await G.getFunction('playCommitment')(s.id, s.players[0]!.address, 0n), want);
    assert.equal(await phaseOf(env, s.id), Phase.Play);
    assert.equal((await G.getFunction('getGame')(s.id))[5], 0n, 'still seat 0 to move');

    // The turn: [packed, oldCommit = the rebound commitment, newCommit], no root signal.
    const sig = await mp.turnSignals(s, 0, t);
    assert.equal(sig.length, 3);
    assert.equal(sig[1], want);
    await expectRevert(mp.callTurn(s, 0, proofFor([...sig, openRoot]), t), G, 'InvalidProof');
    await expectRevert(
      mp.callTurn(s, 0, proofFor([sig[0]!, spawns[0].newCommit, t.newCommit]), t),
      G,
      'InvalidProof',
    );
    await (await mp.callTurn(s, 0, proofFor(sig), t)).wait();
    assert.equal(await mp.commitOf(s, 0), t.newCommit);
    assert.equal((await seat(s, 0)).rebound, true, 'a turn keeps the seat rebound');
    // Seat 1 has not rebound: its turn is refused, then it rebinds too.
    await expectRevert(mp.turn(s, 1, 50n, mp.move(50n, [], 2050n, openRoot)), G, 'NotRebound');
    await (await rebind(s, s.players[1]!, stateOf(10n), spawns[1].revealCommit)).wait();
    await mp.turn(s, 1, 50n, mp.move(50n, [], 2050n, openRoot));
  });

  it('a seat spawned after adoption binds the open root from the start: rebound, nothing to rebind, and it turns', async () => {
    const { s, openRoot } = await adopted();
    await expectRevert(rebind(s, s.players[2]!, stateOf(20n), 2020n), G, 'NothingToRebind'); // not spawned
    const m2 = mp.move(20n, [], 2020n, openRoot);
    await spawnAs(mp, s, 2, m2);
    const st = await seat(s, 2);
    assert.equal(st.rebound, true);
    assert.equal(st.playCommitment, m2.newCommit);
    await expectRevert(rebind(s, s.players[2]!, stateOf(20n), 2020n), G, 'NothingToRebind');
    // Seats 0 and 1 rebind, then seat 2 reaches its turn and needs nothing more.
    await (
      await rebind(s, s.players[0]!, stateOf(0n), revealCommitment(env.h, LEAVES, MAX_REVEALED, BLINDING))
    ).wait();
    await mp.turn(s, 0, 40n, mp.move(40n, [], 2040n, openRoot));
    await (await rebind(s, s.players[1]!, stateOf(10n), 2010n)).wait();
    await mp.turn(s, 1, 50n, mp.move(50n, [], 2050n, openRoot));
    await mp.turn(s, 2, 60n, mp.move(60n, [], 2060n, openRoot));
    assert.equal(await mp.commitOf(s, 2), mp.move(60n, [], 2060n, openRoot).newCommit);
  });

  it('rebind reverts: a stranger, a wrong opening, values out of the field, twice, a forfeited seat', async () => {
    const { s, dealerRoot, openRoot, spawns } = await adopted();
    const rc = spawns[0].revealCommit;
    await expectRevert(rebind(s, env.other, stateOf(0n), rc), G, 'NotPlayer');
    await expectRevert(rebind(s, env.dealer, stateOf(0n), rc), G, 'NotPlayer');
    // The opening must open the stored commitment on the replaced (dealer's) root: another state, another reveal
    // commitment, another seat's opening, or the stored value read as an opening on the open root all fail.
    await expectRevert(rebind(s, s.players[0]!, stateOf(1n), rc), G, 'OpeningMismatch');
    await expectRevert(rebind(s, s.players[0]!, stateOf(0n), rc + 1n), G, 'OpeningMismatch');
    await expectRevert(rebind(s, s.players[0]!, stateOf(10n), spawns[1].revealCommit), G, 'OpeningMismatch');
    await expectRevert(rebind(s, s.players[0]!, rc, stateOf(0n)), G, 'OpeningMismatch');
    // Aliases of the right opening (+ p) are refused before hashing.
    await expectRevert(rebind(s, s.players[0]!, stateOf(0n) + FIELD_MODULUS, rc), G, 'NotInField');
    await expectRevert(rebind(s, s.players[0]!, stateOf(0n), rc + FIELD_MODULUS), G, 'NotInField');
    await expectRevert(rebind(s, s.players[0]!, FIELD_MODULUS, 0n), G, 'NotInField');
    // The right opening, once; a second rebind finds nothing (the commitment binds the open root already).
    await (await rebind(s, s.players[0]!, stateOf(0n), rc)).wait();
    const after = await mp.commitOf(s, 0);
    assert.equal(after, playCommitment(env.h, stateOf(0n), rc, openRoot));
    await expectRevert(rebind(s, s.players[0]!, stateOf(0n), rc), G, 'NothingToRebind');
    assert.equal(await mp.commitOf(s, 0), after);
    assert.notEqual(after, playCommitment(env.h, stateOf(0n), rc, dealerRoot));
    // A forfeited seat (seat 1 leaves before rebinding) has nothing to rebind.
    await (await as(env, s.players[1]!).getFunction('forfeit')(s.id)).wait();
    await expectRevert(rebind(s, s.players[1]!, stateOf(10n), spawns[1].revealCommit), G, 'NothingToRebind');
    // The game over (seat 2 leaves too: one seat left), rebind is out of phase.
    await (await as(env, s.players[2]!).getFunction('forfeit')(s.id)).wait();
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    const args = await expectRevert(rebind(s, s.players[0]!, stateOf(0n), rc), G, 'WrongPhase');
    assert.deepEqual(args, [Phase.Play, Phase.Settled]);
  });

  it('an opening copied from another game (published by its rebind) opens nothing here; each game binds its own root', async () => {
    const a = await adopted();
    const rcA = a.spawns[0].revealCommit;
    await (await rebind(a.s, a.s.players[0]!, stateOf(0n), rcA)).wait();
    const b = await adopted(BLINDING + 1n);
    // Game A's calldata now shows seat 0's opening: the same player's seat in game B is not opened by it.
    await expectRevert(rebind(b.s, b.s.players[0]!, stateOf(0n), rcA), G, 'OpeningMismatch');
    await (await rebind(b.s, b.s.players[0]!, stateOf(0n), b.spawns[0].revealCommit)).wait();
    // Each rebound commitment binds its own game's adopted root.
    assert.notEqual(a.openRoot, b.openRoot);
    assert.equal(await mp.commitOf(a.s, 0), playCommitment(env.h, stateOf(0n), rcA, a.openRoot));
    assert.equal(
      await mp.commitOf(b.s, 0),
      playCommitment(env.h, stateOf(0n), b.spawns[0].revealCommit, b.openRoot),
    );
  });

  it('before an adopted root there is nothing to rebind: a fogged game in play, a force-opened fog-only game', async () => {
    // Play on the dealer's root.
    const s = await mp.playing({ nPlayers: 2 });
    await mp.spawnBoth(s, [mp.move(0n, [], 2000n, s.dealt.tree.root)]);
    await expectRevert(rebind(s, s.players[0]!, stateOf(0n), 2000n), G, 'NothingToRebind');
    assert.equal((await seat(s, 0)).rebound, false);
    // Force-open of a fog-only ruleset adopts no root: play resumes on the dealer's root, turns need no rebind.
    const f = await fog.playing({ stake: 0n });
    const m0 = fog.revealing(0n, LEAVES, BLINDING, f.dealt.tree.root);
    await fog.spawnBoth(f, [m0]);
    await (
      await as(env, f.players[0]!).getFunction('openDispute')(f.id, LEAVES, BLINDING, stateOf(0n))
    ).wait();
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await (await as(env, env.other).getFunction('claimDisputeTimeout')(f.id)).wait();
    const args = await expectRevert(rebind(f, f.players[0]!, stateOf(0n), m0.revealCommit), G, 'WrongPhase');
    assert.deepEqual(args, [Phase.Play, Phase.ForceOpen]);
    for (const [i, p] of f.players.entries()) {
      await (await as(env, p).getFunction('revealShare')(f.id, f.shares[i])).wait();
    }
    assert.equal(await phaseOf(env, f.id), Phase.Play);
    assert.equal((await G.getFunction('getGame')(f.id))[6], f.dealt.tree.root);
    await expectRevert(rebind(f, f.players[0]!, stateOf(0n), m0.revealCommit), G, 'NothingToRebind');
    await fog.turn(f, 0, 40n);
  });

  it('during a combat: an attacker still on the dealer root may attack, and rebind while the defender answers', async () => {
    const { s, openRoot, spawns } = await adopted();
    await spawnAs(mp, s, 2, mp.move(20n, [], 2020n, openRoot));
    // Seat 0 (not rebound) attacks seat 2 at (5, 6): attacks carry the stored commitment, no root check.
    const turn = await mp.turnOf(s);
    const atk = [31n, s.id, targetWord(mp.addr(s, 0), turn, 5n, 6n), spawns[0].newCommit];
    await (await as(env, s.players[0]!).getFunction('attack')(s.id, proofFor(atk), 31n, 5n, 6n, 2n)).wait();
    assert.equal(await phaseOf(env, s.id), Phase.Combat);
    const rc = spawns[0].revealCommit;
    await (await rebind(s, s.players[0]!, stateOf(0n), rc)).wait();
    assert.equal(await mp.commitOf(s, 0), playCommitment(env.h, stateOf(0n), rc, openRoot));
    // The defender answers against its own stored commitment (on the open root).
    const answered = playCommitment(env.h, 5555n, 2020n, openRoot);
    const cmb = [
      answered,
      s.id,
      targetWord(mp.addr(s, 2), turn, 5n, 6n, DAMAGE) | ((1n | (2n << 1n) | (3n << 5n)) << 220n),
      await mp.commitOf(s, 2),
    ];
    await (
      await as(env, s.players[2]!).getFunction('defend')(s.id, proofFor(cmb), 1n, 2n, 3n, answered)
    ).wait();
    assert.equal(await phaseOf(env, s.id), Phase.Play);
    await mp.turn(s, 0, 40n, mp.move(40n, [], 2040n, openRoot));
  });
});
