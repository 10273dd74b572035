/**
 * The page's session key audits its game (P3 after the secrets, client/web/session.ts `closeStep` with `audit`):
 * the reserve it keeps after play pays a zone challenge, an unanswered challenge's deposit comes home with the
 * settlement, and a look reads the game's logs from its own blocks. Found by the attacker review of the audit.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Wallet } from 'ethers';
import {
  closeFinished,
  closeStep,
  closingReserve,
  payToWallet,
  sweepSession,
} from '../../client/web/session.ts';
import type { SessionRecord } from '../../client/web/session-store.ts';
import { commitMap, generateMap, type MapCommitment } from '../../core/index.ts';
import { DEV_KEYS } from '../../scripts/demo/setup.ts';
import {
  commitAll,
  createGame,
  type Dealt,
  DURATIONS,
  dealMap,
  type Env,
  endByForfeit,
  increaseTime,
  Phase,
  phaseOf,
  postRoot,
  publishSecrets,
  revealAll,
  type Scenario,
  setup,
} from '../contracts/helpers.ts';

const STAKE = 10n ** 17n;
const DEPOSIT = 10n ** 16n;

describe('P3: the page audits its game from its session key', () => {
  let env: Env;
  before(async () => {
    env = await setup();
  });

  /** The honest tree with the tile at (col, row) given another terrain (a lie nobody is served). */
  const lieAt = (h: Dealt, s: Scenario, col: number, row: number): MapCommitment => {
    const tiles = generateMap(env.h, s.board, h.seed);
    const k = row * s.board.width + col;
    const t = tiles[k]!;
    tiles[k] = { ...t, terrain: (t.terrain === 3 ? 4 : 3) as typeof t.terrain };
    return commitMap(env.h, s.board, tiles, h.masterSecret);
  };

  /** A game (seat 1 forfeits) whose dealer posted a tree lying at (col,row); played to the Secrets phase. */
  async function lyingGame(col = 7, row = 5, deposit = DEPOSIT) {
    const s = await createGame(env, { stake: STAKE, disputeDeposit: deposit });
    await commitAll(env, s);
    await revealAll(env, s);
    const honest = dealMap(env, s);
    const posted = lieAt(honest, s, col, row);
    const d: Dealt = { ...honest, tree: posted.tree, salts: posted.salts };
    await postRoot(env, s, d);
    await endByForfeit(env, s);
    return { s, honest: honest as MapCommitment, posted, d };
  }

  /** Seat 0's key (#2) funded again (an earlier test swept it to its reserve). */
  const topUp = async () => {
    await (
      await env.other.sendTransaction({ to: new Wallet(DEV_KEYS[2]!).address, value: 10n ** 19n })
    ).wait();
  };

  for (const deposit of [DEPOSIT, 0n])
    it(`the reserve the page keeps after play pays the zone challenge of a lying root (deposit ${deposit})`, async () => {
      await topUp();
      const { s, d } = await lyingGame(7, 5, deposit);
      const provider = env.ethers.provider;
      const contract = String(env.game.target);
      const key = new Wallet(DEV_KEYS[2]!, provider); // seat 0 = the page's session key
      assert.equal(key.address, s.players[0]!.address);
      const owner = Wallet.createRandom().address;
      await payToWallet(key, owner, contract);
      // What page.ts does when play ends: keep the closing reserve, send the rest home.
      await sweepSession(key, owner, contract, await closingReserve(provider, { disputeDeposit: deposit }));
      await publishSecrets(env, s, d);
      assert.equal(await phaseOf(env, s.id), Phase.Audit);
      let step: Awaited<ReturnType<typeof closeStep>> | undefined;
      let err = '';
      try {
        step = await closeStep(key, owner, contract, s.id, { h: env.h, board: s.board });
      } catch (e) {
        err = (e as Error).message.split('\n')[0]!;
      }
      assert.equal(err, '', `the page's audit look threw: ${err}`);
      assert.equal(step?.audited?.kind, 'zone', 'the lying root was challenged on-chain');
    });

  it('an unanswered challenge: the settlement the page sends brings its deposit home', async () => {
    await topUp();
    const { s, d } = await lyingGame(3, 9);
    const provider = env.ethers.provider;
    const contract = String(env.game.target);
    const key = new Wallet(DEV_KEYS[2]!, provider); // seat 0, fully funded (no reserve problem here)
    const owner = Wallet.createRandom().address;
    await payToWallet(key, owner, contract);
    await publishSecrets(env, s, d);
    const audit = { h: env.h, board: s.board };
    const first = await closeStep(key, owner, contract, s.id, audit);
    assert.equal(first.audited?.kind, 'zone', 'challenged');
    // The lying dealer never answers. The audit and the answer window pass; the page's next look settles.
    await increaseTime(env, DURATIONS.auditSeconds + DURATIONS.disputeSeconds + 1);
    const last = await closeStep(key, owner, contract, s.id);
    assert.equal(last.phase, 'Settled');
    assert.equal(last.closed, true, 'the page forgets the key now');
    const c = await env.game.getFunction('getZoneChallenge')(s.id, 0);
    assert.equal(c.open, false, 'refunded at the settlement');
  });

  it('a game whose page closed before the audit: the next visit audits it from the saved record', async () => {
    await topUp();
    const { s, d } = await lyingGame(11, 2);
    const provider = env.ethers.provider;
    const contract = String(env.game.target);
    const key = new Wallet(DEV_KEYS[2]!, provider);
    const owner = Wallet.createRandom().address;
    await payToWallet(key, owner, contract);
    await publishSecrets(env, s, d);
    const record: SessionRecord & { gameId: bigint } = {
      version: 2,
      key: key.privateKey,
      owner,
      chainId: 31337n,
      gameContract: contract,
      lobby: null,
      gameId: s.id,
      funded: 1n,
      over: true,
      history: [],
    };
    const boards: bigint[] = [];
    const boardOf = async (_: unknown, gameId: bigint) => {
      boards.push(gameId);
      return s.board;
    };
    // A ruleset the page does not ship (no board): closed without the audit (nothing is sent).
    const unknown = await closeFinished(key, record, env.h, async () => null);
    assert.equal(unknown.audited, null);
    const step = await closeFinished(key, record, env.h, boardOf);
    assert.deepEqual(boards, [s.id]);
    assert.equal(step.audited?.kind, 'zone', 'the lying root was challenged from the saved record');
    assert.equal((await env.game.getFunction('getZoneChallenge')(s.id, 0)).open, true);
  });

  it("a look reads the game's logs from the block of its root, not from genesis", async () => {
    await topUp();
    // The chain is old: a million blocks before this game (any L2 has tens of millions).
    await env.ethers.provider.send('hardhat_mine', ['0xf4240']);
    const s = await createGame(env, { stake: STAKE, disputeDeposit: DEPOSIT });
    await commitAll(env, s);
    await revealAll(env, s);
    const d = dealMap(env, s);
    await postRoot(env, s, d);
    await endByForfeit(env, s);
    await publishSecrets(env, s, d);
    const provider = env.ethers.provider;
    const key = new Wallet(DEV_KEYS[2]!, provider);
    let calls = 0;
    const orig = provider.getLogs.bind(provider);
    (provider as { getLogs: typeof orig }).getLogs = (f) => {
      calls++;
      return orig(f);
    };
    try {
      const step = await closeStep(key, Wallet.createRandom().address, String(env.game.target), s.id, {
        h: env.h,
        board: s.board,
      });
      assert.equal(step.audited?.kind, 'honest');
    } finally {
      (provider as { getLogs: typeof orig }).getLogs = orig;
    }
    assert.ok(
      calls <= 5,
      `one look made ${calls} sequential eth_getLogs calls (5000-block chunks from block 0)`,
    );
  });
});
