/**
 * P7 after force-open: a seat's rebind that landed on-chain while the SDK saw an error (a receipt wait that timed
 * out, an RPC hiccup) must not leave the player proving on the dealer's root. GamePlayer reads the root its
 * commitment binds from the chain for every proof (review 38: a cached root kept the replaced one, the seat could
 * never move again and forfeited at fault).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { BotPlayer } from '../../client/bot-player.ts';
import { GameChain } from '../../client/sdk/chain.ts';
import { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { isLivePhase } from '../../core/game-phases.ts';
import { commitMap, generateMap, masterCommitment } from '../../core/index.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { rulesetHash } from '../../scripts/contracts/rulesets.ts';
import { mockProver, registerMock } from '../client/resume-fixture.ts';
import { BOND, type Env, gameParams, increaseTime, lastGameId, setup } from '../contracts/helpers.ts';

describe('GamePlayer rebind (mock verifiers, a dealer that never serves)', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    env = await setup();
    G = env.game;
    await registerMock(env, shippedRuleset('tiny-pass'));
  });

  it('P7: a rebind that landed but was reported failed: the seat plays on over the open root', async () => {
    const r = shippedRuleset('tiny-pass');
    const players = env.players.slice(0, 2);
    const params = gameParams(
      env,
      players.map((p) => p.address),
      {
        rulesetHash: rulesetHash('tiny-pass'),
        durations: r.deadlines,
        board: { kind: 0, width: r.board.width, height: r.board.height, maxTurns: 12 },
      },
    );
    await (
      await (G.connect(env.dealer) as Contract).getFunction('createGame')(params, { value: BOND })
    ).wait();
    const gameId = await lastGameId(env);
    const b: BotPlayer[] = [];
    for (const [i, p] of players.entries()) {
      const player = await GamePlayer.join({
        chain: new GameChain(await G.getAddress(), p),
        dealer: new DealerClient({
          baseUrl: 'http://127.0.0.1:9',
          chainId: 31337n,
          gameContract: await G.getAddress(),
          signer: p,
          maxAttempts: 1,
        }),
        prover: mockProver,
        h: env.h,
        ruleset: r,
        gameId,
        revealWaitMs: 0,
      });
      b.push(new BotPlayer(player, `seat-${i}`));
    }
    for (const bot of b) await bot.act();
    for (const bot of b) await bot.act();
    const seed = env.h.hash(b.map((x) => x.player.share!));
    const map = commitMap(env.h, r.board, generateMap(env.h, r.board, seed), 4242n);
    await (
      await (G.connect(env.dealer) as Contract).getFunction('postRoot')(
        gameId,
        map.tree.root,
        masterCommitment(env.h, 4242n),
        zoneRoots(map, r.board),
      )
    ).wait();

    // Seat 0's first rebind lands on-chain, but the SDK's wait for the receipt fails.
    const chain0 = b[0]!.player.chain;
    const orig = chain0.rebind.bind(chain0);
    let injected = 0;
    chain0.rebind = async (...a: Parameters<typeof orig>) => {
      const tx = await orig(...a);
      if (injected++ === 0) throw new Error('simulated: timeout waiting for the receipt (tx was mined)');
      return tx;
    };

    let played0 = false;
    const errors: string[] = [];
    const turnsAfterRebind: number[] = [];
    for (let step = 0; step < 300; step++) {
      const g = await b[0]!.player.chain.game(gameId);
      if (!isLivePhase(g.phase)) break;
      let acted = false;
      // Seat 0 plays one ordinary turn on the dealer's root before the force-open (as a live game would).
      if (!played0 && g.phase === 'Play' && g.toMove === 0 && (await chain0.seat(gameId, 0)).spawned) {
        played0 = true;
        await b[0]!.player.playTurn({ moves: b[0]!.player.units.map(() => null), reveal: [] });
        continue;
      }
      for (const [i, bot] of b.entries()) {
        try {
          const a = await bot.act();
          if (!a) continue;
          acted = true;
          if (i === 0 && injected > 0 && (a.kind === 'turn' || a.kind === 'attack'))
            turnsAfterRebind.push(step);
        } catch (e) {
          if (i !== 0) throw e;
          errors.push(String((e as Error).message).slice(0, 160));
          // Retry at once (within the turn's deadline) a few times before letting time pass.
          if (errors.length < 6) acted = true;
        }
      }
      if (!acted) await increaseTime(env, 601);
    }
    const g = await b[0]!.player.chain.game(gameId);
    const s0 = await b[0]!.player.chain.seat(gameId, 0);
    assert.equal(g.rootAdopted, true, 'the open root was adopted');
    assert.equal(injected >= 1, true, 'seat 0 rebound');
    assert.equal(s0.rebound, true, 'the rebind is on-chain');
    // The rebind is on-chain: the client goes on playing over the open root.
    assert.ok(
      turnsAfterRebind.length > 0 && !s0.forfeited,
      `seat 0 never moved again after its rebind landed (forfeited=${s0.forfeited}); errors: ${errors.slice(0, 4).join(' | ')} (${errors.length} total)`,
    );
  });
});
