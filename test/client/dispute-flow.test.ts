/**
 * The SDK's liveness paths end to end on the real ShroudGame, with MockVerifiers standing in for Groth16 (each
 * "proof" is bound to the exact public signals the witness builders produce, so every signal the contract
 * builds is still checked): bots whose dealer never serves dispute every turn on-chain and accept honest answers
 * (the tiles join their model); a wrong answer is challenged and the game forced open; after force-open the bots
 * reveal their shares, settle the open map's root (passability), and play on to the end with tiles computed from
 * the public seed.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract, EventLog } from 'ethers';
import { BotPlayer } from '../../client/bot-player.ts';
import { GameChain, type Prover } from '../../client/sdk/chain.ts';
import { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { isLivePhase } from '../../core/game-phases.ts';
import {
  buildTree,
  commitMap,
  commitOpenMap,
  encodeDisputeAnswer,
  generateMap,
  leafCoord,
  masterCommitment,
  merklePath,
  ZONE_DEPTH,
} from '../../core/index.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import type { ServedTile } from '../../core/reveal-request.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import type { Tile } from '../../core/tile.ts';
import { rulesetHash } from '../../scripts/contracts/rulesets.ts';
import {
  aliasFields,
  BOND,
  type Env,
  gameParams,
  increaseTime,
  lastGameId,
  setup,
} from '../contracts/helpers.ts';
import { proofFor } from '../contracts/mock-play.ts';
import { registerMock } from './resume-fixture.ts';

/** Proves by hashing the plan's public signals: what contracts/harness/MockVerifier.sol accepts. */
const mockProver: Prover = { prove: async (_c, plan) => proofFor(plan.publicSignals) as never };

describe('SDK liveness: disputes, force-open and the open map (mock verifiers)', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    env = await setup();
    G = env.game;
    for (const name of ['tiny', 'tiny-pass']) await registerMock(env, shippedRuleset(name));
  });

  /** A game of `name` between two bots whose dealer URL is dead; the test plays the dealer on-chain. */
  async function bots(name: string, maxTurns = 8) {
    const r = shippedRuleset(name);
    const players = env.players.slice(0, 2);
    const params = gameParams(
      env,
      players.map((p) => p.address),
      {
        rulesetHash: rulesetHash(name),
        durations: r.deadlines,
        board: { kind: 0, width: r.board.width, height: r.board.height, maxTurns },
      },
    );
    await (
      await (G.connect(env.dealer) as Contract).getFunction('createGame')(params, { value: BOND })
    ).wait();
    const gameId = await lastGameId(env);
    const out: BotPlayer[] = [];
    for (const [i, p] of players.entries()) {
      const player = await GamePlayer.join({
        chain: new GameChain(await G.getAddress(), p),
        // Nobody listens there: every reveal is unserved.
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
      out.push(new BotPlayer(player, `dispute-${i}`));
    }
    return { r, gameId, bots: out };
  }

  /** The dealer's map once both shares are sealed (honest unless `tamper`); posts the root. */
  async function deal(r: ValidRuleset, gameId: bigint, b: BotPlayer[], tamper?: (t: Tile) => Tile) {
    const seed = env.h.hash(b.map((x) => x.player.share!));
    const honest = generateMap(env.h, r.board, seed);
    const tiles = tamper ? honest.map(tamper) : honest;
    const map = commitMap(env.h, r.board, tiles, 4242n);
    await (
      await (G.connect(env.dealer) as Contract).getFunction('postRoot')(
        gameId,
        map.tree.root,
        masterCommitment(env.h, 4242n),
        zoneRoots(map, r.board),
      )
    ).wait();
    return { seed, tiles, map };
  }

  /**
   * The dealer's answer to the open dispute; `lie`, caught by the disputer: the first tile's salt off by one, or its
   * fields aliased (not bytes, the same tile word and leaf).
   */
  async function answer(
    r: ValidRuleset,
    gameId: bigint,
    m: Awaited<ReturnType<typeof deal>>,
    lie: 'salt' | 'alias' | null,
  ): Promise<void> {
    const events = await G.queryFilter(G.filters['DisputeOpened']!(gameId));
    const leaves = [...(events.at(-1) as unknown as { args: { leaves: bigint[] } }).args.leaves].map(Number);
    const served = leaves.map((leaf, i) => {
      const c = leafCoord(r.board, leaf)!;
      const salt = m.map.salts[leaf]! + (lie === 'salt' && i === 0 ? 1n : 0n);
      const t = m.tiles[c.row * r.board.width + c.col]!;
      const fields = [t.terrain, t.feature, t.resource, t.rivers];
      const [terrain, feature, resource, rivers] = (
        lie === 'alias' && i === 0 ? aliasFields(fields) : fields
      ).map(Number);
      return {
        leaf,
        ...c,
        terrain,
        feature,
        resource,
        rivers,
        salt: salt.toString(),
        path: merklePath(m.map.tree, leaf).map(String),
      } as ServedTile;
    });
    await (
      await (G.connect(env.dealer) as Contract).getFunction('answerDispute')(
        gameId,
        encodeDisputeAnswer(served, r.board.depth),
        '0x',
      )
    ).wait();
  }

  /** Plays until the game leaves play, the test answering disputes as told; returns what the bots did. */
  async function run(
    gameId: bigint,
    b: BotPlayer[],
    onDispute: () => Promise<void>,
    maxSteps = 400,
  ): Promise<string[]> {
    const did: string[] = [];
    for (let step = 0; step < maxSteps; step++) {
      const g = await b[0]!.player.chain.game(gameId);
      if (!isLivePhase(g.phase)) break;
      if (g.phase === 'Dispute' && !(await b[0]!.player.chain.dispute(gameId)).answered) await onDispute();
      let acted = false;
      for (const bot of b) {
        const a = await bot.act();
        if (!a) continue;
        acted = true;
        did.push(a.kind === 'follow' ? `follow:${a.what.kind}` : a.kind);
      }
      // Nothing to do: a deadline must pass (a dispute's or an open root's challenge window).
      if (!acted) await increaseTime(env, 601);
    }
    return did;
  }

  it('P7: every unserved turn is disputed; honest answers are verified and accepted; the game ends normally', async () => {
    const { r, gameId, bots: b } = await bots('tiny');
    for (const bot of b) assert.equal((await bot.act())?.kind, 'commit');
    for (const bot of b) assert.equal((await bot.act())?.kind, 'seal');
    const m = await deal(r, gameId, b);
    const did = await run(gameId, b, () => answer(r, gameId, m, null));
    const disputes = did.filter((d) => d === 'dispute').length;
    assert.ok(disputes >= 4, `disputed ${disputes} turns: ${did.join(' ')}`);
    assert.equal(did.filter((d) => d === 'follow:accepted').length, disputes, did.join(' '));
    assert.equal((await b[0]!.player.chain.game(gameId)).phase, 'Secrets', 'the dealer was never slashed');
    // Every tile the bots hold came from an on-chain answer and is Gen(seed) with its salt.
    for (const bot of b) {
      assert.ok(bot.player.served.length > 0);
      for (const t of bot.player.served) {
        assert.deepEqual(
          { terrain: t.terrain, feature: t.feature, resource: t.resource, rivers: t.rivers },
          { ...m.tiles[t.row * r.board.width + t.col]! },
        );
      }
    }
  });

  it('P7: a wrong answer is challenged, the dealer slashed, the game forced open; play ends on the public map', async () => {
    const { r, gameId, bots: b } = await bots('tiny');
    for (const bot of b) await bot.act();
    for (const bot of b) await bot.act();
    const m = await deal(r, gameId, b);
    const did = await run(gameId, b, () => answer(r, gameId, m, 'salt'));
    assert.ok(did.includes('follow:challenged'), did.join(' '));
    assert.equal(did.filter((d) => d === 'share').length, 2, 'both shares revealed on-chain');
    const g = await b[0]!.player.chain.game(gameId);
    assert.equal(g.openMap, true);
    assert.equal(g.seed, m.seed);
    assert.equal(g.phase, 'Settled', 'a force-opened game settles at its end');
    assert.equal(g.bond, 0n, 'the bond went to the players');
  });

  it('P7: an answer whose tile fields alias (not bytes, the same leaf word) is challenged like a wrong path', async () => {
    const { r, gameId, bots: b } = await bots('tiny');
    for (const bot of b) await bot.act();
    for (const bot of b) await bot.act();
    const m = await deal(r, gameId, b);
    const did = await run(gameId, b, () => answer(r, gameId, m, 'alias'));
    assert.ok(did.includes('follow:challenged'), did.join(' '));
    assert.equal((await b[0]!.player.chain.game(gameId)).openMap, true, 'slashed and forced open');
  });

  it('P3: answered tiles whose paths verify but whose contents are out of range are kept for the fraud proof, not challenged', async () => {
    const { r, gameId, bots: b } = await bots('tiny');
    for (const bot of b) await bot.act();
    for (const bot of b) await bot.act();
    // A dealer that committed a map of impossible tiles (terrain 200): the contract cannot judge contents during
    // play, so a challenge would fail; the bots accept, keep the tiles, and the audit proves fraud afterwards.
    const m = await deal(r, gameId, b, (t) => ({ ...t, terrain: 200 as Tile['terrain'] }));
    const did = await run(gameId, b, () => answer(r, gameId, m, null));
    assert.ok(!did.includes('follow:challenged'), did.join(' '));
    assert.ok(did.filter((d) => d === 'follow:accepted').length >= 4, did.join(' '));
    for (const bot of b) {
      assert.ok(bot.player.served.length > 0);
      assert.ok(
        bot.player.served.every((t) => Number(t.terrain) === 200),
        'kept as answered, for the audit',
      );
      assert.equal(
        bot.player.model!.observe().terrain.filter((v) => v === 200).length,
        0,
        'never planned on',
      );
    }
    assert.equal((await b[0]!.player.chain.game(gameId)).phase, 'Secrets');
  });

  it('P7 + passability: after force-open the bots settle the open root and prove moves against it', async () => {
    const { r, gameId, bots: b } = await bots('tiny-pass');
    for (const bot of b) await bot.act();
    for (const bot of b) await bot.act();
    const m = await deal(r, gameId, b);
    // Nobody answers: the first dispute times out and the game is forced open.
    const did = await run(gameId, b, async () => {});
    assert.ok(did.includes('follow:proposed'), did.join(' '));
    assert.ok(did.includes('follow:claimed'), did.join(' '));
    const adopted = await G.queryFilter(G.filters['OpenRootAdopted']!(gameId));
    assert.equal(adopted.length, 1);
    assert.equal((await b[0]!.player.chain.game(gameId)).phase, 'Settled');
    const turns = did.filter((d) => d === 'turn').length;
    assert.ok(turns >= 2, `turns after the open root: ${did.join(' ')}`);
    // Both seats spawned on the dealer's root: each re-bound its play commitment to the open root before its next
    // turn (the contract refuses a turn otherwise), opening it on-chain under the replaced root.
    const g = await b[0]!.player.chain.game(gameId);
    assert.equal(g.rootAdopted, true);
    assert.equal(g.replacedRoot, m.map.tree.root, "the dealer's root");
    const rebound = await G.queryFilter(G.filters['Rebound']!(gameId));
    assert.deepEqual(rebound.map((e) => Number((e as EventLog).args[1])).sort(), [0, 1]);
    for (const [i, bot] of b.entries()) assert.equal((await bot.player.chain.seat(gameId, i)).rebound, true);
  });

  it('P7: a rebind that landed but was reported failed: the seat plays on over the open root', async () => {
    // Review 38: a cached bound root outlived such a rebind; the seat proved on the dealer's root, never moved
    // again and forfeited at fault. GamePlayer now reads the root its commitment binds for every proof.
    const { r, gameId, bots: b } = await bots('tiny-pass', 12);
    for (const bot of b) await bot.act();
    for (const bot of b) await bot.act();
    await deal(r, gameId, b);

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

  it('P7 + passability: a lying open-root proposal is challenged by the honest bot and sinks; the liar forfeits', async () => {
    const { r, gameId, bots: b } = await bots('tiny-pass');
    for (const bot of b) await bot.act();
    for (const bot of b) await bot.act();
    const m = await deal(r, gameId, b);
    // Walk to OpenRoot: a dispute nobody answers, then both shares (the bots do it).
    const phase = async () => (await b[0]!.player.chain.game(gameId)).phase;
    for (let i = 0; i < 40 && (await phase()) !== 'OpenRoot'; i++) {
      let acted = false;
      for (const bot of b) if ((await phase()) !== 'OpenRoot') acted = (await bot.act()) !== null || acted;
      if (!acted && (await phase()) !== 'OpenRoot') await increaseTime(env, 601);
    }
    assert.equal((await b[0]!.player.chain.game(gameId)).phase, 'OpenRoot');
    // Seat 0 lies first: one leaf of zone 0 changed, zone root consistent with the lie.
    const open = commitOpenMap(env.h, r.board, m.tiles);
    const roots = zoneRoots(open, r.board);
    const lie = open.tree.levels[0]!.slice(0, 64);
    lie[5] = 1n;
    roots[0] = zoneRootOf(env.h, lie);
    await (
      await (G.connect(env.players[0]!) as Contract).getFunction('proposeOpenRoot')(gameId, roots)
    ).wait();
    const did = await run(gameId, b, async () => {});
    assert.ok(did.includes('follow:challenged'), did.join(' '));
    const liar = await b[0]!.player.chain.seat(gameId, 0);
    assert.equal(liar.forfeited, true);
    assert.equal((await G.queryFilter(G.filters['OpenRootAdopted']!(gameId))).length, 0);
    assert.equal((await b[0]!.player.chain.game(gameId)).phase, 'Settled', 'one seat left: the game settled');
  });
});

/** A zone's subtree root over its 64 leaves. */
function zoneRootOf(h: Env['h'], leaves: bigint[]): bigint {
  return buildTree(h, leaves, ZONE_DEPTH).root;
}
