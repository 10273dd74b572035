/**
 * P3 after the secrets (ShroudAudit): the posted root is bound to Gen(seed) whether or not a map proof was
 * submitted and whether or not a wrong tile was ever served. Each test first tries the attack: a dealer whose
 * tree differs from Gen(seed) only at a tile nobody was served (or in an off-board slot, or only in the zone
 * roots it publishes), a challenger who lies to take the dealer's bond, a challenge that would hold the slot
 * against an honest one, an answer sent too late.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { reasonName } from '../../core/game-phases.ts';
import {
  buildTree,
  commitMap,
  FIELD_MODULUS,
  generateMap,
  leafIndex,
  type MapCommitment,
} from '../../core/index.ts';
import { zoneLeaves, zoneRoots } from '../../core/mapproof/witness.ts';
import {
  as,
  BOND,
  commitAll,
  createGame,
  type Dealt,
  DURATIONS,
  dealMap,
  type Env,
  endByForfeit,
  expectRevert,
  increaseTime,
  Phase,
  phaseOf,
  postRoot,
  publishSecrets,
  revealAll,
  type Scenario,
  setup,
} from './helpers.ts';

const DEPOSIT = 1000n;
const STAKE = 10_000n;

describe('P3: audit zone challenges bind the posted root to Gen(seed)', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    env = await setup();
    G = env.game;
  });

  /**
   * A game whose dealer posted the tree `lie` makes of the honest one (none: honest), played to its end, with
   * the secrets and `zonesOf(tree)` published. `honest` is what every auditor computes from the secrets.
   */
  async function audited(
    lie?: (honest: Dealt, s: Scenario) => MapCommitment,
    zonesOf?: (posted: MapCommitment, s: Scenario) => bigint[],
  ) {
    const s = await createGame(env, { stake: STAKE, disputeDeposit: DEPOSIT });
    await commitAll(env, s);
    await revealAll(env, s);
    const honest = dealMap(env, s);
    const posted = lie ? lie(honest, s) : honest;
    const d: Dealt = { ...honest, tree: posted.tree, salts: posted.salts };
    const zones = zonesOf ? zonesOf(posted, s) : zoneRoots(posted, s.board);
    await postRoot(env, s, d, zones);
    await endByForfeit(env, s);
    await publishSecrets(env, s, d);
    assert.equal(await phaseOf(env, s.id), Phase.Audit);
    return { s, honest: honest as MapCommitment, posted, zones };
  }

  /** The honest tree with the tile at (col, row) changed to another terrain: a lie nobody is served. */
  const terrainLie = (col: number, row: number) => (h: Dealt, s: Scenario) => {
    const tiles = generateMap(env.h, s.board, h.seed);
    const k = row * s.board.width + col;
    const t = tiles[k]!;
    tiles[k] = { ...t, terrain: (t.terrain === 3 ? 4 : 3) as typeof t.terrain };
    return commitMap(env.h, s.board, tiles, h.masterSecret);
  };

  /** Seat 1 (or `who`) challenges `zone` with `leaves`, paying `value`. */
  const challenge = (
    s: Scenario,
    zones: bigint[],
    zone: number,
    leaves: bigint[],
    who = s.players[1]!,
    value = DEPOSIT,
  ) => as(env, who).getFunction('challengeZone')(s.id, zones, zone, leaves, { value });
  const answer = (s: Scenario, seat: number, theirs: bigint[], mine: bigint[]) =>
    as(env, env.dealer).getFunction('answerZoneChallenge')(s.id, seat, theirs, mine);
  const credit = async (a: { address: string }) => (await G.getFunction('credit')(a.address)) as bigint;
  const seatCredits = async (s: Scenario) => (await credit(s.players[0]!)) + (await credit(s.players[1]!));
  const openChallenges = async (s: Scenario) => Number((await G.getFunction('getAudit')(s.id)).open);
  const slashReasons = async (s: Scenario) =>
    (await G.queryFilter(G.filters.DealerSlashed!(s.id))).map((l) =>
      reasonName(G.interface.parseLog(l)!.args.reason as bigint),
    );
  const decision = (rc: { logs: readonly never[] }) =>
    rc.logs.map((l) => G.interface.parseLog(l)).find((e) => e?.name === 'ZoneChallengeDecided')!.args;

  it('a root that is not Gen(seed) at a tile nobody was served: the honest leaves win the challenge, the bond is slashed', async () => {
    const col = 7;
    const row = 5;
    const { s, honest, posted, zones } = await audited(terrainLie(col, row));
    const i = leafIndex(s.board, { col, row });
    const zone = Math.floor(i / 64);
    const truth = zoneLeaves(honest, zone);
    const c0 = await seatCredits(s);
    await (await challenge(s, zones, zone, truth)).wait();
    assert.equal(await seatCredits(s), c0, 'the deposit is held');
    // The dealer's only answer that builds its zone root is its tree's leaves, which lie at `i`.
    const decided = decision(await (await answer(s, 1, truth, zoneLeaves(posted, zone))).wait());
    assert.equal(decided.leafIndex, BigInt(i), 'judged at the lying tile');
    assert.equal(decided.dealerStands, false);
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    assert.deepEqual(await slashReasons(s), ['Fraud']);
    assert.equal(
      (await seatCredits(s)) - c0,
      BOND + 2n * STAKE + DEPOSIT,
      'the bond and the stakes go to the seats, the deposit back to its seat',
    );
    await expectRevert(answer(s, 1, truth, zoneLeaves(posted, zone)), G, 'WrongPhase');
  });

  it('an unanswered challenge slashes at settlement, not before its answer window closes; its deposit goes back', async () => {
    const { s, honest, zones } = await audited(terrainLie(3, 9));
    const zone = Math.floor(leafIndex(s.board, { col: 3, row: 9 }) / 64);
    const truth = zoneLeaves(honest, zone);
    await (await challenge(s, zones, zone, truth)).wait();
    await increaseTime(env, DURATIONS.auditSeconds + 1);
    // Past the audit: no new challenge, but the dealer still has its answer window, and settle waits for it.
    await expectRevert(challenge(s, zones, zone, truth, s.players[0]!), G, 'DeadlinePassed');
    await expectRevert(as(env, env.other).getFunction('settle')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.disputeSeconds);
    await expectRevert(answer(s, 1, truth, truth), G, 'AnswerWindowClosed');
    const b0 = await credit(env.dealer);
    const c0 = await seatCredits(s);
    await (await as(env, s.players[0]!).getFunction('settle')(s.id)).wait();
    assert.deepEqual(await slashReasons(s), ['UnansweredAuditChallenge']);
    assert.equal((await credit(env.dealer)) - b0, 0n, 'the dealer gets nothing back');
    assert.equal((await seatCredits(s)) - c0, BOND + 2n * STAKE + DEPOSIT, 'bond, stakes and the deposit');
    // The settled game holds nothing: the challenge is closed, the count at 0.
    assert.equal((await G.getFunction('getZoneChallenge')(s.id, 1)).open, false);
    assert.equal(await openChallenges(s), 0);
  });

  it('a game that ends on another proof while a challenge is open returns that deposit too', async () => {
    const { s, honest, posted, zones } = await audited(terrainLie(12, 6));
    const zone = Math.floor(leafIndex(s.board, { col: 12, row: 6 }) / 64);
    await (await challenge(s, zones, zone, zoneLeaves(honest, zone), s.players[0]!)).wait();
    await (await challenge(s, zones, zone, zoneLeaves(honest, zone))).wait();
    const c0 = await seatCredits(s);
    // Seat 1's challenge is answered (the dealer falls): seat 0's, still open, is refunded at the settlement.
    await (await answer(s, 1, zoneLeaves(honest, zone), zoneLeaves(posted, zone))).wait();
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    assert.equal((await seatCredits(s)) - c0, BOND + 2n * STAKE + 2n * DEPOSIT);
    assert.equal((await G.getFunction('getZoneChallenge')(s.id, 0)).open, false);
    assert.equal(await openChallenges(s), 0);
  });

  it('zone roots that do not build the posted root: proveZoneRootsFraud slashes (zone challenges alone would all fail)', async () => {
    // The lying dealer publishes the honest zone roots beside its lying root.
    const { s, honest, zones } = await audited(terrainLie(10, 2), (_posted, s) =>
      zoneRoots(dealMap(env, s), s.board),
    );
    const zone = Math.floor(leafIndex(s.board, { col: 10, row: 2 }) / 64);
    await expectRevert(challenge(s, zones, zone, zoneLeaves(honest, zone)), G, 'NoFraud');
    const other = zones.slice();
    other[0] = other[0]! + 1n;
    await expectRevert(
      as(env, env.other).getFunction('proveZoneRootsFraud')(s.id, other),
      G,
      'ZoneRootsMismatch',
    );
    // Anyone may prove it: the proof is the chain's own computation.
    await (await as(env, env.other).getFunction('proveZoneRootsFraud')(s.id, zones)).wait();
    assert.deepEqual(await slashReasons(s), ['BadZoneRoots']);
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
  });

  it('a leaf in an off-board slot is a lie too (the honest tree has 0 there)', async () => {
    // 16×12 hex: the bottom zones' rows 12..15 are off the board.
    const slot = 2 * 64 + 4 * 8 + 1; // zone 2, local row 4 (board row 12), col 1
    const { s, honest, posted, zones } = await audited((h, s) => {
      const leaves = [...h.tree.levels[0]!];
      leaves[slot] = 1n;
      return { tree: buildTree(env.h, leaves, s.board.depth), salts: h.salts };
    });
    const truth = zoneLeaves(honest, 2);
    assert.equal(truth[slot - 128], 0n);
    await (await challenge(s, zones, 2, truth)).wait();
    const decided = decision(await (await answer(s, 1, truth, zoneLeaves(posted, 2))).wait());
    assert.equal(decided.leafIndex, BigInt(slot));
    assert.equal(decided.dealerStands, false);
  });

  it('an honest dealer: the true leaves are no challenge, a wrong one loses its deposit to the dealer, one seat cannot hold the slot against another', async () => {
    const { s, honest, zones } = await audited();
    await expectRevert(challenge(s, zones, 1, zoneLeaves(honest, 1)), G, 'NoFraud');
    await expectRevert(as(env, env.other).getFunction('proveZoneRootsFraud')(s.id, zones), G, 'NoFraud');
    // Both seats challenge wrongly at once: the second is not blocked by the first.
    const wrong = zoneLeaves(honest, 1);
    wrong[40] = wrong[40]! + 1n;
    const wrong2 = zoneLeaves(honest, 3);
    wrong2[0] = 5n;
    await (await challenge(s, zones, 1, wrong)).wait();
    await (await challenge(s, zones, 3, wrong2, s.players[0]!)).wait();
    assert.equal(await openChallenges(s), 2);
    const d0 = await credit(env.dealer);
    const decided = decision(await (await answer(s, 1, wrong, zoneLeaves(honest, 1))).wait());
    assert.equal(decided.leafIndex, 64n + 40n);
    assert.equal(decided.dealerStands, true);
    // The wrong challenger pays for the answer: held in its seat's escrow, the dealer's unless it fails later.
    assert.equal((await credit(env.dealer)) - d0, 0n);
    assert.equal((await G.getFunction('getSeat')(s.id, 1)).escrow, DEPOSIT);
    await expectRevert(answer(s, 1, wrong, zoneLeaves(honest, 1)), G, 'ChallengeClosed');
    // One challenge per seat and game: a seat cannot make the dealer answer again and again.
    await expectRevert(challenge(s, zones, 2, wrong), G, 'AlreadyChallenged');
    await (await answer(s, 0, wrong2, zoneLeaves(honest, 3))).wait();
    assert.equal(await openChallenges(s), 0);
    await increaseTime(env, DURATIONS.auditSeconds + 1);
    const d1 = await credit(env.dealer);
    await (await as(env, env.other).getFunction('settle')(s.id)).wait();
    assert.equal((await credit(env.dealer)) - d1, BOND + 2n * DEPOSIT, 'settled: the bond and both deposits');
    assert.deepEqual(await slashReasons(s), []);
  });

  it('funds: a dealer that won a challenge and is slashed later in the audit is not paid that deposit', async () => {
    const col = 7;
    const row = 5;
    const { s, honest, posted, zones } = await audited(terrainLie(col, row));
    const lieZone = Math.floor(leafIndex(s.board, { col, row }) / 64);
    const okZone = lieZone === 0 ? 1 : 0;
    // Seat 0 challenges wrongly a zone where the dealer's tree is honest: the dealer wins it.
    const wrong = zoneLeaves(honest, okZone);
    wrong[5] = wrong[5]! + 1n;
    await (await challenge(s, zones, okZone, wrong, s.players[0]!)).wait();
    const d0 = await credit(env.dealer);
    const c0 = await seatCredits(s);
    assert.equal(
      decision(await (await answer(s, 0, wrong, zoneLeaves(posted, okZone))).wait()).dealerStands,
      true,
    );
    // Seat 1 shows the lie: the dealer is slashed and the game settles.
    const truth = zoneLeaves(honest, lieZone);
    await (await challenge(s, zones, lieZone, truth)).wait();
    await (await answer(s, 1, truth, zoneLeaves(posted, lieZone))).wait();
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    assert.equal((await credit(env.dealer)) - d0, 0n, 'the slashed dealer is paid nothing from the game');
    assert.equal(
      (await seatCredits(s)) - c0,
      BOND + 2n * STAKE + 2n * DEPOSIT,
      'both deposits back to the seats',
    );
  });

  it('reverts: not a seat, wrong deposit, zone roots, zone, leaves out of the field, phase; answers with leaves that are not the challenge’s or the zone’s', async () => {
    const { s, honest, zones } = await audited();
    const wrong = zoneLeaves(honest, 0);
    wrong[0] = wrong[0]! + 1n;
    await expectRevert(challenge(s, zones, 0, wrong, env.other), G, 'NotPlayer');
    await expectRevert(challenge(s, zones, 0, wrong, s.players[1]!, DEPOSIT - 1n), G, 'WrongDeposit');
    await expectRevert(challenge(s, zones.slice(1), 0, wrong), G, 'ZoneRootsMismatch');
    await expectRevert(challenge(s, zones, zones.length, wrong), G, 'BadLeafIndex');
    const big = wrong.slice();
    big[9] = FIELD_MODULUS;
    await expectRevert(challenge(s, zones, 0, big), G, 'NotInField');
    await expectRevert(answer(s, 1, wrong, zoneLeaves(honest, 0)), G, 'ChallengeClosed');
    await (await challenge(s, zones, 0, wrong)).wait();
    const notTheirs = wrong.slice();
    notTheirs[1] = notTheirs[1]! + 1n;
    await expectRevert(answer(s, 1, notTheirs, zoneLeaves(honest, 0)), G, 'ProposalMismatch');
    await expectRevert(answer(s, 1, wrong, zoneLeaves(honest, 1)), G, 'ZoneMismatch');
    // Before the secrets there is nothing to challenge.
    const early = await createGame(env, { stake: STAKE, disputeDeposit: DEPOSIT });
    await expectRevert(challenge(early, zones, 0, wrong), G, 'WrongPhase');
    await expectRevert(
      as(env, env.other).getFunction('proveZoneRootsFraud')(early.id, zones),
      G,
      'WrongPhase',
    );
  });
});
