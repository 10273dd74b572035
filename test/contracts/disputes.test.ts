/**
 * Reveal disputes (P7 after the root): a player the dealer did not serve puts its turn's opening on-chain; the
 * dealer must answer before the deadline or be slashed with the game force-opened; a wrong answer is challenged;
 * a false dispute costs the disputer its deposit; a dealer that fails is never paid from the game.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { reasonName } from '../../core/game-phases.ts';
import {
  answerStride,
  encodeDisputeAnswer,
  FIELD_MODULUS,
  generateMap,
  leafCoord,
  merklePath,
  playCommitment,
  revealCommitment,
} from '../../core/index.ts';
import { signRevealReceipt } from '../../core/reveal-receipt.ts';
import { revealDomain, type ServedTile } from '../../core/reveal-request.ts';
import {
  aliasFields,
  as,
  BOND,
  DURATIONS,
  type Env,
  endByForfeit,
  expectRevert,
  increaseTime,
  Phase,
  phaseOf,
  publishSecrets,
  setup,
} from './helpers.ts';
import {
  DAMAGE,
  MAX_REVEALED,
  mockPlay,
  type Playing,
  proofFor,
  stateOf,
  targetWord,
  ZERO_PROOF,
} from './mock-play.ts';

const LEAVES = [0, 1, 9, 70, 130];
const BLINDING = 0xb11dn;
const STAKE = 1000n;
const DEPOSIT = 100n;

describe('ShroudGame reveal disputes (P7 after the root)', () => {
  let env: Env;
  let G: Contract;
  let mp: Awaited<ReturnType<typeof mockPlay>>;

  before(async () => {
    env = await setup();
    G = env.game;
    mp = await mockPlay(env, 'mock-disputes');
  });

  /** A game in play where both seats spawned; seat 0's spawn commits to revealing LEAVES with BLINDING. */
  async function spawned(): Promise<Playing> {
    const s = await mp.playing({ stake: STAKE, disputeDeposit: DEPOSIT });
    await mp.spawnBoth(s, [mp.revealing(0n, LEAVES, BLINDING, s.dealt.tree.root), mp.move(10n)]);
    return s;
  }

  /** The honest dealer's answer: each leaf's tile, salt and path from its map. */
  function honestTiles(s: Playing, leaves: readonly number[]): ServedTile[] {
    const tiles = generateMap(env.h, s.board, s.dealt.seed);
    return leaves.map((leaf) => {
      const c = leafCoord(s.board, leaf)!;
      return {
        leaf,
        ...c,
        ...tiles[c.row * s.board.width + c.col]!,
        salt: s.dealt.salts[leaf]!.toString(),
        path: merklePath(s.dealt.tree, leaf).map(String),
      };
    });
  }
  const answerOf = (s: Playing, tiles = honestTiles(s, LEAVES)) => encodeDisputeAnswer(tiles, s.board.depth);
  /** Seat `seat` disputes its spawn (`spawned`: move 10 · seat, state commitment `stateOf(10 · seat)`). */
  const open = (
    s: Playing,
    seat = 0,
    leaves = LEAVES,
    blinding = BLINDING,
    value = DEPOSIT,
    stateCommit = stateOf(10n * BigInt(seat)),
  ) => as(env, s.players[seat]!).getFunction('openDispute')(s.id, leaves, blinding, stateCommit, { value });
  const credit = async (a: { address: string }) => (await G.getFunction('credit')(a.address)) as bigint;
  const eventsOf = async (tx: Promise<{ wait(): Promise<{ logs: never[] }> }>) =>
    (await (await tx).wait()).logs.map((l) => G.interface.parseLog(l)).filter(Boolean) as {
      name: string;
      args: Record<string, unknown> & unknown[];
    }[];

  it('P7: an unanswered dispute slashes the bond and force-opens the game; play resumes where it stopped', async () => {
    const s = await spawned();
    const turnBefore = await mp.turnOf(s);
    const opened = await eventsOf(open(s));
    const ev = opened.find((e) => e.name === 'DisputeOpened')!;
    // What the dispute gives up (P6): the opening is public from now on.
    assert.deepEqual([...(ev.args['leaves'] as bigint[])].map(Number), LEAVES);
    assert.equal(await phaseOf(env, s.id), Phase.Dispute);
    // The game is paused: nobody moves until the dispute ends.
    await expectRevert(mp.callTurn(s, 0, ZERO_PROOF, mp.move(30n)), G, 'WrongPhase');
    await expectRevert(as(env, env.other).getFunction('claimDisputeTimeout')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    const c0 = await credit(s.players[0]!);
    const events = await eventsOf(as(env, env.other).getFunction('claimDisputeTimeout')(s.id));
    const slashed = events.find((e) => e.name === 'DealerSlashed')!;
    assert.equal(reasonName(slashed.args['reason'] as bigint), 'UnansweredDispute');
    assert.equal(slashed.args['amount'], BOND);
    assert.equal(await phaseOf(env, s.id), Phase.ForceOpen);
    assert.equal(
      (await credit(s.players[0]!)) - c0,
      BOND / 2n + DEPOSIT,
      'half the bond and the deposit back',
    );
    // Force-open: both shares revealed on-chain, the seed is public, and play resumes at the same turn.
    for (const [i, p] of s.players.entries()) {
      const evs = await eventsOf(as(env, p).getFunction('revealShare')(s.id, s.shares[i]));
      if (i === s.players.length - 1) {
        assert.equal(evs.find((e) => e.name === 'MapOpened')!.args['seed'], s.dealt.seed);
        const started = evs.find((e) => e.name === 'TurnStarted')!;
        assert.equal(started.args['turn'], turnBefore);
      }
    }
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    assert.equal(g[10], true, 'open map');
    await mp.turn(s, 0, 40n);
    // The dealer failed: it is paid nothing from this game (no bond, no deposit).
    const d0 = await credit(env.dealer);
    await endByForfeit(env, s);
    assert.equal(await phaseOf(env, s.id), Phase.Settled, 'an open game settles at its end');
    assert.equal(await credit(env.dealer), d0);
  });

  /** Seat `seat`'s EIP-712 receipt for its latest turn (what the SDK signs once its tiles verified). */
  async function receiptOf(s: Playing, seat: number, turn = 0n, revealCommit?: bigint): Promise<string> {
    const rc = revealCommit ?? revealCommitment(env.h, LEAVES, MAX_REVEALED, BLINDING);
    const domain = revealDomain(31337n, await G.getAddress());
    return signRevealReceipt(s.players[seat]!, domain, {
      gameId: s.id,
      turn: Number(turn),
      revealCommit: rc,
    });
  }

  it('P7: an answered dispute resumes play with its time; without a receipt the deposit goes back to the disputer', async () => {
    const s = await spawned();
    const left =
      BigInt((await G.getFunction('getGame')(s.id))[3]) -
      BigInt((await env.ethers.provider.getBlock('latest'))!.timestamp);
    await (await open(s)).wait();
    const answer = answerOf(s);
    await expectRevert(
      as(env, s.players[0]!).getFunction('answerDispute')(s.id, answer, '0x'),
      G,
      'NotDealer',
    );
    await expectRevert(
      as(env, env.dealer).getFunction('answerDispute')(s.id, answer.slice(1), '0x'),
      G,
      'WrongAnswerLength',
    );
    const events = await eventsOf(as(env, env.dealer).getFunction('answerDispute')(s.id, answer, '0x'));
    const ans = events.find((e) => e.name === 'DisputeAnswered')!;
    assert.deepEqual([...(ans.args['answer'] as bigint[])], answer);
    await expectRevert(
      as(env, env.dealer).getFunction('answerDispute')(s.id, answer, '0x'),
      G,
      'AlreadyAnswered',
    );
    // Still paused during the challenge window, unless the disputer accepts.
    await expectRevert(as(env, s.players[1]!).getFunction('acceptDisputeAnswer')(s.id), G, 'NotDisputer');
    await expectRevert(
      as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(s.id, LEAVES, answer, 2),
      G,
      'NoFraud',
    );
    const c0 = await credit(s.players[0]!);
    const resumed = await eventsOf(as(env, s.players[0]!).getFunction('acceptDisputeAnswer')(s.id));
    assert.ok(resumed.some((e) => e.name === 'DisputeClosed'));
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    const now = BigInt((await env.ethers.provider.getBlock('latest'))!.timestamp);
    assert.ok(
      BigInt(g[3]) - now <= left && BigInt(g[3]) - now >= left - 5n,
      'the interrupted turn keeps its time',
    );
    // No receipt: the dealer did not show the dispute false, so it earns nothing from it.
    assert.equal((await credit(s.players[0]!)) - c0, DEPOSIT);
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).escrow, 0n);
    // The same turn cannot be disputed twice.
    await expectRevert(open(s), G, 'NothingToDispute');
  });

  it("P7: a false dispute (the dealer shows the disputer's receipt) costs the deposit, paid to the dealer at settlement", async () => {
    const s = await spawned();
    await (await open(s)).wait();
    const answer = answerOf(s);
    // Receipts that are not the disputer's, for this turn and commitment, are refused.
    const bad = [
      await receiptOf(s, 1, 0n), // another signer
      await receiptOf(s, 0, 1n), // another turn
      await receiptOf(s, 0, 0n, 12345n), // another opening
      '0x1234',
    ];
    for (const r of bad) {
      await expectRevert(as(env, env.dealer).getFunction('answerDispute')(s.id, answer, r), G, 'BadReceipt');
    }
    await (
      await as(env, env.dealer).getFunction('answerDispute')(s.id, answer, await receiptOf(s, 0))
    ).wait();
    assert.equal((await G.getFunction('getDispute')(s.id)).receipted, true);
    const c0 = await credit(s.players[0]!);
    await (await as(env, s.players[0]!).getFunction('acceptDisputeAnswer')(s.id)).wait();
    assert.equal((await credit(s.players[0]!)) - c0, 0n, 'the deposit is not returned');
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).escrow, DEPOSIT);
    // Settlement: the dealer, which never failed, receives the deposit with its bond.
    const d0 = await credit(env.dealer);
    await endByForfeit(env, s);
    await publishSecrets(env, s, s.dealt);
    await increaseTime(env, DURATIONS.auditSeconds + 1);
    await (await as(env, env.other).getFunction('settle')(s.id)).wait();
    assert.equal((await credit(env.dealer)) - d0, BOND + DEPOSIT);
  });

  it('P7: a dispute opened at the end of a turn cannot run the mover out of time: play resumes with ≥ 1 min', async () => {
    const s = await spawned();
    // Seat 0 is to move; seat 1 disputes when seat 0 has 5 s left.
    const g0 = await G.getFunction('getGame')(s.id);
    const now0 = BigInt((await env.ethers.provider.getBlock('latest'))!.timestamp);
    await increaseTime(env, Number(BigInt(g0[3]) - now0) - 5);
    await expectRevert(open(s, 1), G, 'OpeningMismatch'); // seat 1 did not reveal LEAVES
    await (await open(s, 0)).wait();
    await (await as(env, env.dealer).getFunction('answerDispute')(s.id, answerOf(s), '0x')).wait();
    await (await as(env, s.players[0]!).getFunction('acceptDisputeAnswer')(s.id)).wait();
    const g = await G.getFunction('getGame')(s.id);
    const now = BigInt((await env.ethers.provider.getBlock('latest'))!.timestamp);
    assert.ok(BigInt(g[3]) - now >= 59n, `resumed with ${BigInt(g[3]) - now} s`);
  });

  it('P7: an answered tile that does not verify against the root is challenged: slash and force-open', async () => {
    const s = await spawned();
    await (await open(s)).wait();
    const tiles = honestTiles(s, LEAVES);
    tiles[3] = { ...tiles[3]!, salt: (BigInt(tiles[3]!.salt) + 1n).toString() };
    const answer = answerOf(s, tiles);
    await expectRevert(
      as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(s.id, LEAVES, answer, 3),
      G,
      'NotAnswered',
    );
    await (await as(env, env.dealer).getFunction('answerDispute')(s.id, answer, '0x')).wait();
    await expectRevert(
      as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(s.id, LEAVES, answerOf(s), 3),
      G,
      'AnswerMismatch',
    );
    await expectRevert(
      as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(s.id, [...LEAVES].reverse(), answer, 3),
      G,
      'AnswerMismatch',
    );
    await expectRevert(
      as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(s.id, LEAVES, answer, 5),
      G,
      'BadLeafIndex',
    );
    await expectRevert(
      as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(s.id, LEAVES, answer, 1),
      G,
      'NoFraud',
    );
    // Anyone may challenge; the disputer's deposit comes back and the bond goes to the players.
    const c0 = await credit(s.players[0]!);
    const events = await eventsOf(
      as(env, env.other).getFunction('challengeDisputeAnswer')(s.id, LEAVES, answer, 3),
    );
    assert.equal(
      reasonName(events.find((e) => e.name === 'DealerSlashed')!.args['reason'] as bigint),
      'BadDisputeAnswer',
    );
    assert.equal(await phaseOf(env, s.id), Phase.ForceOpen);
    assert.equal((await credit(s.players[0]!)) - c0, BOND / 2n + DEPOSIT);
  });

  it('P7: a word outside the field in the answer is a failed answer, not a stuck challenge', async () => {
    const s = await spawned();
    await (await open(s)).wait();
    const answer = answerOf(s);
    answer[4] = FIELD_MODULUS + 1n; // the first tile's salt
    await (await as(env, env.dealer).getFunction('answerDispute')(s.id, answer, '0x')).wait();
    await (
      await as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(s.id, LEAVES, answer, 0)
    ).wait();
    assert.equal(await phaseOf(env, s.id), Phase.ForceOpen);
  });

  it('P7: an answered tile with non-byte fields (the same leaf word, another tile) is a failed answer', async () => {
    const s = await spawned();
    await (await open(s)).wait();
    const answer = answerOf(s);
    const stride = answerStride(s.board.depth);
    const k = LEAVES.findIndex((_, i) => answer.slice(i * stride + 1, i * stride + 4).some((v) => v > 0n));
    answer.splice(k * stride, 4, ...aliasFields(answer.slice(k * stride, k * stride + 4)));
    await (await as(env, env.dealer).getFunction('answerDispute')(s.id, answer, '0x')).wait();
    await expectRevert(
      as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(
        s.id,
        LEAVES,
        answer,
        (k + 1) % LEAVES.length,
      ),
      G,
      'NoFraud',
    );
    await (
      await as(env, s.players[0]!).getFunction('challengeDisputeAnswer')(s.id, LEAVES, answer, k)
    ).wait();
    assert.equal(await phaseOf(env, s.id), Phase.ForceOpen);
  });

  it('P7: an answered dispute closes by itself after the challenge window', async () => {
    const s = await spawned();
    await (await open(s)).wait();
    await (await as(env, env.dealer).getFunction('answerDispute')(s.id, answerOf(s), '0x')).wait();
    await expectRevert(as(env, env.other).getFunction('claimDisputeTimeout')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.disputeSeconds + 1);
    await expectRevert(
      as(env, env.dealer).getFunction('answerDispute')(s.id, answerOf(s), '0x'),
      G,
      'DeadlinePassed',
    );
    await (await as(env, env.other).getFunction('claimDisputeTimeout')(s.id)).wait();
    assert.equal(await phaseOf(env, s.id), Phase.Play);
    assert.equal((await G.getFunction('getGame')(s.id))[9], BOND, 'bond intact');
  });

  it('funds: a dealer that answered a dispute and failed later is not paid that deposit', async () => {
    const s = await spawned();
    await (await open(s)).wait();
    await (
      await as(env, env.dealer).getFunction('answerDispute')(s.id, answerOf(s), await receiptOf(s, 0))
    ).wait();
    await (await as(env, s.players[0]!).getFunction('acceptDisputeAnswer')(s.id)).wait();
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).escrow, DEPOSIT, 'held for the dealer');
    await endByForfeit(env, s);
    const d0 = await credit(env.dealer);
    const p0 = await credit(s.players[0]!);
    await increaseTime(env, DURATIONS.secretsSeconds + 1); // no secrets: slashed
    await (await as(env, env.other).getFunction('claimSecretsTimeout')(s.id)).wait();
    assert.equal(await credit(env.dealer), d0);
    // Seat 0 gets half the slashed bond, its stake (nobody is at fault: seat 1 forfeited by choice) and its deposit.
    assert.equal((await credit(s.players[0]!)) - p0, BOND / 2n + STAKE + DEPOSIT);
  });

  it('P7: after a combat answer the dispute opens the stored play commitment with the answer’s state; the reveal list is the turn’s', async () => {
    const s = await mp.playing({ stake: STAKE, disputeDeposit: DEPOSIT });
    await mp.spawnBoth(s, [mp.move(0n), mp.revealing(10n, LEAVES, BLINDING, s.dealt.tree.root)]);
    const R = revealCommitment(env.h, LEAVES, MAX_REVEALED, BLINDING);
    // Seat 0 attacks seat 1 at (5, 6); seat 1 answers with a hit: its stored value becomes Poseidon(S', R, root).
    const turn = await mp.turnOf(s);
    const addr = (seat: number) => BigInt(s.players[seat]!.address);
    const atk = [31n, s.id, targetWord(addr(0), turn, 5n, 6n), await mp.commitOf(s, 0)];
    await (await as(env, s.players[0]!).getFunction('attack')(s.id, proofFor(atk), 31n, 5n, 6n, 1n)).wait();
    const answered = playCommitment(env.h, 5555n, R, s.dealt.tree.root);
    const outcome = (1n | (2n << 1n) | (3n << 5n)) << 220n;
    const cmb = [
      answered,
      s.id,
      targetWord(addr(1), turn, 5n, 6n, DAMAGE) | outcome,
      await mp.commitOf(s, 1),
    ];
    await (
      await as(env, s.players[1]!).getFunction('defend')(s.id, proofFor(cmb), 1n, 2n, 3n, answered)
    ).wait();
    assert.equal(await mp.commitOf(s, 1), answered);
    // The spawn's own state commitment no longer opens the seat's value; the answer's does, with the same list.
    await expectRevert(open(s, 1, LEAVES, BLINDING, DEPOSIT, stateOf(10n)), G, 'OpeningMismatch');
    await (await open(s, 1, LEAVES, BLINDING, DEPOSIT, 5555n)).wait();
    const d = await G.getFunction('getDispute')(s.id);
    assert.equal(d.revealCommit, R, 'the dispute keeps the reveal commitment its receipt must sign');
    assert.equal(d.seat, 1n);
  });

  it('openDispute reverts: wrong phase, stranger, nothing to dispute, wrong deposit, a wrong opening', async () => {
    const s = await mp.playing({ stake: STAKE, disputeDeposit: DEPOSIT });
    await expectRevert(open(s), G, 'NothingToDispute'); // not spawned yet
    await mp.spawnBoth(s, [mp.revealing(0n, LEAVES, BLINDING, s.dealt.tree.root), mp.move(10n)]);
    await expectRevert(
      as(env, env.other).getFunction('openDispute')(s.id, LEAVES, BLINDING, stateOf(0n), { value: DEPOSIT }),
      G,
      'NotPlayer',
    );
    await expectRevert(open(s, 0, LEAVES, BLINDING, DEPOSIT - 1n), G, 'WrongDeposit');
    await expectRevert(open(s, 0, LEAVES, BLINDING + 1n), G, 'OpeningMismatch');
    // The reveal list is right but the state commitment is not the one the play commitment binds (another seat's).
    await expectRevert(open(s, 0, LEAVES, BLINDING, DEPOSIT, stateOf(10n)), G, 'OpeningMismatch');
    await expectRevert(open(s, 0, LEAVES.slice(1)), G, 'OpeningMismatch');
    await expectRevert(open(s, 0, [...LEAVES].reverse()), G, 'OpeningMismatch');
    await expectRevert(open(s, 0, []), G, 'OpeningMismatch');
    await expectRevert(
      open(
        s,
        0,
        Array.from({ length: 29 }, (_, i) => i),
      ),
      G,
      'OpeningMismatch',
    );
    await expectRevert(open(s, 0, LEAVES, FIELD_MODULUS), G, 'NotInField');
    await expectRevert(open(s, 0, LEAVES, BLINDING, DEPOSIT, FIELD_MODULUS + stateOf(0n)), G, 'NotInField');
    // Seat 1's spawn committed to other tiles: seat 0's opening does not open it.
    await expectRevert(open(s, 1), G, 'OpeningMismatch');
    const notPlaying = await mp.playing();
    await (await as(env, notPlaying.players[0]!).getFunction('forfeit')(notPlaying.id)).wait();
    await expectRevert(open(notPlaying), G, 'WrongPhase');
    await increaseTime(env, DURATIONS.turnSeconds + 1);
    await expectRevert(open(s), G, 'DeadlinePassed');
  });

  it('the opening is Poseidon(stateCommit, revealCommit, root) with the game root: the two-input form and other roots are refused', async () => {
    const R = revealCommitment(env.h, LEAVES, MAX_REVEALED, BLINDING);
    const forms: [string, (root: bigint) => bigint][] = [
      ['Poseidon(stateCommit, revealCommit), the old form', () => env.h.hash([stateOf(0n), R])],
      ['another root', (root) => playCommitment(env.h, stateOf(0n), R, root + 1n)],
    ];
    for (const [label, commit] of forms) {
      const s = await mp.playing({ stake: STAKE, disputeDeposit: DEPOSIT });
      await mp.spawnBoth(s, [{ ...mp.move(0n, [], R), newCommit: commit(s.dealt.tree.root) }]);
      await expectRevert(open(s), G, 'OpeningMismatch').catch((e) => assert.fail(`${label}: ${e}`));
    }
    // The same opening, on a commitment that binds the game's root, opens it.
    const s = await mp.playing({ stake: STAKE, disputeDeposit: DEPOSIT });
    const m = mp.revealing(0n, LEAVES, BLINDING, s.dealt.tree.root);
    assert.equal(m.newCommit, env.h.hash([stateOf(0n), R, s.dealt.tree.root]));
    await mp.spawnBoth(s, [m]);
    await (await open(s)).wait();
    assert.equal(await phaseOf(env, s.id), Phase.Dispute);
  });

  it('accept and timeout revert outside an answered dispute', async () => {
    const s = await spawned();
    await expectRevert(as(env, s.players[0]!).getFunction('acceptDisputeAnswer')(s.id), G, 'WrongPhase');
    await (await open(s)).wait();
    await expectRevert(as(env, s.players[0]!).getFunction('acceptDisputeAnswer')(s.id), G, 'NotAnswered');
    await expectRevert(as(env, env.other).getFunction('claimDisputeTimeout')(s.id), G, 'DeadlineNotPassed');
  });
});
