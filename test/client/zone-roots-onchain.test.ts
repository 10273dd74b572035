/**
 * The zone roots are posted on-chain with the root (ShroudCeremony.postRoot), and players read them from there
 * (GamePlayer builds every passability turn's witness from them). Found by review 31: when the dealer's
 * `GET /zone-roots` was their only source, a dealer that withheld them for one seat made that seat miss its turn
 * deadline (no passability proof can be built without them) and lose its stake to an accomplice, while the dealer
 * kept its bond. And zone roots that do not build the root are proven so during play (`proveZoneRootsFraud`): the
 * dealer is slashed and the game force-opened, since no seat could prove a passability turn against that root.
 *
 * Real ShroudGame with mock verifiers (test/client/resume-fixture.ts), the bot as the CLI and the page run it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { DealerClient } from '../../client/sdk/dealer-client.ts';
import { DealerUnavailableError, ZoneRootsRejectedError } from '../../client/sdk/errors.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { type Env, expectRevert, increaseTime } from '../contracts/helpers.ts';
import { deal, type MockGame, mockEnv, mockGame } from './resume-fixture.ts';

const STAKE = 10n ** 15n;

describe('zone roots on-chain (passability rulesets)', () => {
  let env: Env;
  before(async () => {
    env = await mockEnv(['tiny-pass']);
  });

  const bot = (g: MockGame, i: number) => g.seats[i]!.bot;
  const ceremony = async (g: MockGame) => {
    for (const want of ['commit', 'seal'])
      for (let i = 0; i < 2; i++) assert.equal((await bot(g, i).act())?.kind, want);
  };

  it("a dealer that withholds its zone-roots route cannot stall a seat: it reads them from the root's log and plays", async () => {
    let asked = 0;
    const g = await mockGame(env, 'tiny-pass', {
      stake: STAKE,
      maxTurns: 8,
      dealer: (seat, honest) =>
        seat === 0
          ? ({
              ...honest,
              fetchVerifiedZoneRoots: async () => {
                asked++;
                throw new DealerUnavailableError(5, 503, new Error('zone-roots withheld'));
              },
            } as unknown as DealerClient)
          : honest,
    });
    await ceremony(g);
    const map = await deal(g);
    assert.equal((await bot(g, 0).act())?.kind, 'spawn');
    assert.equal((await bot(g, 1).act())?.kind, 'spawn');
    assert.equal((await bot(g, 0).act())?.kind, 'turn', 'seat 0 played its turn');
    assert.equal(asked, 0, 'the dealer was not asked');
    assert.deepEqual(bot(g, 0).player.zoneRoots, await bot(g, 0).player.chain.postedZoneRoots(g.gameId));
    assert.equal((await bot(g, 0).player.chain.game(g.gameId)).root, map.root);
  });

  it('zone roots that do not build the root: the first seat to spawn proves it on-chain, the dealer is slashed and the game force-opened', async () => {
    const g = await mockGame(env, 'tiny-pass', { stake: STAKE, maxTurns: 8 });
    await ceremony(g);
    const zones = shippedRuleset('tiny-pass').board.zoneCount;
    await expectRevert(deal(g, new Array(zones + 1).fill(7n)), env.game, 'WrongLength');
    await deal(g, new Array(zones).fill(7n));
    const chain = bot(g, 0).player.chain;
    let err: unknown;
    try {
      await bot(g, 0).act();
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof ZoneRootsRejectedError, `refused: ${String(err)}`);
    const game = await chain.game(g.gameId);
    assert.equal(
      game.phase,
      'ForceOpen',
      'force-opened: the seats reveal their shares and play on the open map',
    );
    assert.equal(game.bond, 0n, 'slashed');
    const events = await chain.events(g.gameId, await chain.rootBlock(g.gameId));
    assert.ok(events.some((e) => e.kind === 'DealerSlashed' && e.reason === 'BadZoneRoots'));
    // Not again: a force-opened game's zone roots are no dealer's word any more.
    await expectRevert(
      (env.game.connect(env.other) as typeof env.game).getFunction('proveZoneRootsFraud')(
        g.gameId,
        new Array(zones).fill(7n),
      ),
      env.game,
      'WrongPhase',
    );
  });

  it('proveZoneRootsFraud: not before the root, not for zone roots that build it or are not the posted ones, not past a deadline', async () => {
    const g = await mockGame(env, 'tiny-pass', { stake: STAKE, maxTurns: 8 });
    await ceremony(g);
    const G = env.game;
    const prove = (zones: readonly bigint[]) =>
      (G.connect(env.other) as typeof G).getFunction('proveZoneRootsFraud')(g.gameId, zones);
    await expectRevert(prove([]), G, 'WrongPhase');
    await deal(g);
    const chain = bot(g, 1).player.chain;
    const posted = (await chain.postedZoneRoots(g.gameId))!;
    await expectRevert(prove(posted), G, 'NoFraud');
    await expectRevert(prove(posted.map((z) => z + 1n)), G, 'ZoneRootsMismatch');
    await increaseTime(env, 7 * 86_400);
    await expectRevert(prove(posted), G, 'DeadlinePassed');
  });
});
