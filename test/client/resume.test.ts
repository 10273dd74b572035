/**
 * A player survives a crash at every step boundary (issue 14): two bots play tiny games on the real contract
 * (MockVerifiers, an honest in-process dealer), persisting through a PlayerVault; a seat is killed and resumed
 * from what its vault holds — after each of its actions, after a state transaction landed but before the player
 * recorded it, after the write-ahead but before sending, and with the transaction still in the mempool — and the
 * game still ends normally with the seat's on-chain commitment opened by the resumed state.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { BotAction } from '../../client/bot-player.ts';
import type { GameChain } from '../../client/sdk/chain.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import {
  encodeSnapshot,
  type PlayerSnapshot,
  StaleSnapshotError,
  StateLostError,
} from '../../client/sdk/snapshot.ts';
import { playCommitment, stateCommitment } from '../../core/state.ts';
import type { Env } from '../contracts/helpers.ts';
import { deal, killAndResume, type MockGame, mockEnv, mockGame } from './resume-fixture.ts';

class Crash extends Error {}

type Fault = {
  seat: number;
  fn: 'spawn' | 'submitTurn' | 'respondCombat';
  when: 'before' | 'after' | 'mempool';
};

const LIVE = ['Commit', 'Reveal', 'Deal', 'Play', 'Combat'];

describe('GamePlayer resumes from its vault (mock verifiers, honest dealer)', () => {
  let env: Env;
  /** The next armed fault (one-shot), shared by every game's chain wrapper. */
  let fault: Fault | null = null;

  before(async () => {
    env = await mockEnv(['tiny']);
  });

  /** `real` with the armed fault injected into its state-changing writes. */
  function faulty(seat: number, real: GameChain): GameChain {
    return new Proxy(real, {
      get(target, key) {
        const v = Reflect.get(target, key, target);
        if (typeof v !== 'function') return v;
        const f = fault;
        if (!f || f.seat !== seat || f.fn !== key) return v.bind(target);
        return async (...args: unknown[]) => {
          fault = null;
          if (f.when === 'before') throw new Crash(`${f.fn}: killed before sending`);
          if (f.when === 'after') {
            await v.apply(target, args);
            throw new Crash(`${f.fn}: killed after it landed`);
          }
          // In the mempool: sent, not mined; the dead process never hears of it again.
          const provider = env.ethers.provider;
          await provider.send('evm_setAutomine', [false]);
          v.apply(target, args).catch(() => {});
          while ((await provider.send('eth_getBlockByNumber', ['pending', false])).transactions.length === 0)
            await new Promise((r) => setTimeout(r, 10));
          throw new Crash(`${f.fn}: killed with the transaction in the mempool`);
        };
      },
    });
  }

  /** Plays to the end; a Crash kills and resumes the seat (then `resumed` runs); `after` runs after each action. */
  async function run(
    game: MockGame,
    after: (seat: number, a: BotAction) => Promise<void> = async () => {},
    resumed: (p: GamePlayer) => Promise<void> = async () => {},
  ): Promise<string[]> {
    const did: string[] = [];
    for (let step = 0; step < 300; step++) {
      const g = await game.seats[0]!.bot.player.chain.game(game.gameId);
      if (!LIVE.includes(g.phase)) return did;
      if (g.phase === 'Deal') await deal(game);
      let acted = false;
      for (const [i, seat] of game.seats.entries()) {
        let a: BotAction | null;
        try {
          a = await seat.bot.act();
        } catch (e) {
          if (!(e instanceof Crash)) throw e;
          did.push(`crash:${i}`);
          await resumed(await killAndResume(game, i));
          acted = true;
          continue;
        }
        if (!a) continue;
        acted = true;
        did.push(`${a.kind}:${i}`);
        await after(i, a);
      }
      assert.ok(acted || g.phase === 'Deal', `nobody can act in phase ${g.phase}: ${did.join(' ')}`);
    }
    assert.fail(`the game did not end: ${did.join(' ')}`);
  }

  /** The game ended normally and each seat's state opens its on-chain commitment. */
  async function assertEndedAndOpened(game: MockGame): Promise<void> {
    const g = await game.seats[0]!.bot.player.chain.game(game.gameId);
    assert.equal(g.phase, 'Secrets', 'the game ended normally (no forfeit)');
    for (const [i, seat] of game.seats.entries()) {
      const s = await seat.bot.player.snapshot();
      const onChain = (await seat.bot.player.chain.seat(game.gameId, i)).playCommitment;
      const state = stateCommitment(env.h, s.state!.slots, game.ruleset.unitSlots, s.state!.blinding);
      assert.equal(
        playCommitment(env.h, state, s.state!.revealCommit, game.map!.commitment.tree.root),
        onChain,
      );
      assert.deepEqual(s.pending, []);
      // Every tile the player holds is the dealer's, with its salt.
      assert.ok(s.served.length > 0);
      for (const t of s.served) assert.equal(t.salt, game.map!.commitment.salts[t.leaf]);
    }
  }

  it('killed after every one of its actions: each resume holds exactly the state before the kill; the game ends', async () => {
    const game = await mockGame(env, 'tiny', { maxTurns: 12 });
    const did = await run(game, async (i) => {
      if (i !== 0) return;
      const before = encodeSnapshot(await game.seats[0]!.bot.player.snapshot());
      const resumed = await killAndResume(game, 0);
      assert.equal(resumed.resumed, true);
      assert.equal(encodeSnapshot(await resumed.snapshot()), before, 'the resumed state is the saved one');
    });
    for (const k of ['commit', 'seal', 'spawn']) assert.ok(did.includes(`${k}:0`), did.join(' '));
    assert.ok(did.filter((d) => d === 'turn:0').length >= 5, did.join(' '));
    assert.ok(game.seats[0]!.lives >= 8, `resumed ${game.seats[0]!.lives} times`);
    await assertEndedAndOpened(game);
  });

  for (const fn of ['spawn', 'submitTurn'] as const) {
    it(`${fn} landed but the player died before recording it: the resume adopts the pending state and fetches its tiles`, async () => {
      const game = await mockGame(env, 'tiny', { chain: faulty });
      let armed = false;
      const did = await run(game, async (i, a) => {
        // Arm once seat 0 is one action away from the state change under test.
        if (i === 1 && !armed && (fn === 'spawn' ? a.kind === 'seal' : a.kind === 'spawn')) {
          fault = { seat: 0, fn, when: 'after' };
          armed = true;
        }
      });
      const crash = did.indexOf('crash:0');
      assert.ok(crash >= 0, did.join(' '));
      const p = game.seats[0]!.bot.player;
      assert.equal(p.resumed, true);
      // The crashed transaction counted: seat 0 never played the same turn twice.
      const turns = did.filter((d) => d === 'turn:0' || d === 'spawn:0' || d === 'crash:0').length;
      const other = did.filter((d) => d === 'turn:1' || d === 'spawn:1').length;
      assert.equal(turns, other, did.join(' '));
      await assertEndedAndOpened(game);
    });
  }

  it('killed after the write-ahead but before sending: the pending state is dropped once another lands', async () => {
    const game = await mockGame(env, 'tiny', { chain: faulty });
    let armed = false;
    const did = await run(game, async (i, a) => {
      if (i === 1 && a.kind === 'spawn' && !armed) {
        fault = { seat: 0, fn: 'submitTurn', when: 'before' };
        armed = true;
      }
      if (i === 0 && a.kind === 'turn' && armed) {
        assert.deepEqual((await game.seats[0]!.bot.player.snapshot()).pending, []);
      }
    });
    assert.ok(did.includes('crash:0'), did.join(' '));
    // The turn was played again after the resume.
    assert.equal(did[did.indexOf('crash:0') + 1], 'turn:0', did.join(' '));
    await assertEndedAndOpened(game);
  });

  it('killed with its turn in the mempool: resumed before it is mined, the player adopts it once it lands', async () => {
    const game = await mockGame(env, 'tiny', { chain: faulty });
    let armed = false;
    const provider = env.ethers.provider;
    let pendingAtResume = -1;
    const did = await run(
      game,
      async (i, a) => {
        if (i === 1 && a.kind === 'spawn' && !armed) {
          fault = { seat: 0, fn: 'submitTurn', when: 'mempool' };
          armed = true;
        }
      },
      async (p) => {
        // Resumed while the turn waits in the mempool: the chain still holds the old state, the pending one is kept.
        pendingAtResume = (await p.snapshot()).pending.length;
        await provider.send('evm_mine', []);
        await provider.send('evm_setAutomine', [true]);
      },
    ).finally(() => provider.send('evm_setAutomine', [true]));
    assert.equal(pendingAtResume, 1);
    // The mined turn counted: seat 0 did not play that turn again.
    const crash = did.indexOf('crash:0');
    assert.notEqual(did[crash + 1], 'turn:0', did.join(' '));
    await assertEndedAndOpened(game);
  });

  it('combat: the attacker killed after attacking keeps its spent slot; the defender killed after its answer landed adopts the hit', async () => {
    const game = await mockGame(env, 'tiny', { chain: faulty, maxTurns: 20 });
    const [a, b] = game.seats.map((s) => s.bot.player) as [GamePlayer, GamePlayer];
    for (const p of [a, b]) await p.commitShare();
    for (const p of [a, b]) await p.sealShare();
    await deal(game);
    for (const p of [a, b]) await p.waitForRoot();
    // As test/demo/cli.test.ts: the infantry (slot 1) walk towards each other along row 5.
    await a.spawn([
      { col: 3, row: 4 },
      { col: 5, row: 5 },
      { col: 4, row: 6 },
    ]);
    await b.syncEvents();
    await b.spawn([
      { col: 12, row: 4 },
      { col: 10, row: 5 },
      { col: 11, row: 6 },
    ]);
    const move = async (p: GamePlayer, dc: number) => {
      await p.syncEvents();
      return p.playTurn({
        moves: p.units.map((u, i) => (u && i === 1 ? { col: u.col + dc, row: u.row } : null)),
        reveal: [],
      });
    };
    await move(a, 2);
    await move(b, -1);
    await move(a, 1);
    await move(b, 0);
    await a.syncEvents();
    const atk = await a.attack(1, { col: 9, row: 5 });
    const a2 = await killAndResume(game, 0);
    assert.deepEqual([...a2.attackedSlots(atk.turn)], [1], 'the spent nullifier survives the kill');
    const hp = b.units[1]!.hp;
    fault = { seat: 1, fn: 'respondCombat', when: 'after' };
    await assert.rejects(b.respondCombat(), Crash);
    assert.equal(b.units[1]!.hp, hp, 'the dead incarnation never recorded the hit');
    const b2 = await killAndResume(game, 1);
    const damage = await b2.chain.damage(game.gameId);
    assert.equal(b2.units[1]!.hp, hp - damage, 'the resumed defender holds the state the chain holds');
    assert.deepEqual((await b2.snapshot()).pending, []);
    assert.equal(await b2.mustRespond(), false);
    // Play goes on from the adopted state: both commitments keep opening.
    await move(a2, 0);
    await move(b2, 1);
    for (const [i, p] of [a2, b2].entries()) {
      const s = await p.snapshot();
      const onChain = (await p.chain.seat(game.gameId, i)).playCommitment;
      const state = stateCommitment(env.h, s.state!.slots, game.ruleset.unitSlots, s.state!.blinding);
      assert.equal(
        playCommitment(env.h, state, s.state!.revealCommit, game.map!.commitment.tree.root),
        onChain,
      );
    }
  });

  it('refuses a stale snapshot (a share that does not open the seat) and a lost state (an older copy)', async () => {
    const game = await mockGame(env, 'tiny');
    let old: PlayerSnapshot | null = null;
    await run(game, async (i, a) => {
      if (i === 0 && a.kind === 'turn' && !old) old = await game.seats[0]!.bot.player.snapshot();
    });
    const seat = game.seats[0]!;
    const snap = old as PlayerSnapshot | null;
    assert.ok(snap);
    // The same game id on a restarted chain: the share does not open this seat's commitment.
    await assert.rejects(
      GamePlayer.resume(seat.options, { ...snap, share: snap.share! + 1n }),
      (e) => e instanceof StaleSnapshotError && /earlier game/.test(e.message),
    );
    // An older copy of this game's state: the seat moved on without it.
    await assert.rejects(
      GamePlayer.resume(seat.options, snap),
      (e) => e instanceof StateLostError && /opens to neither/.test(e.message),
    );
    // The same ids with another seat: an earlier game under a reused id (stale, set aside by the CLI). Another
    // game's snapshot is refused outright.
    await assert.rejects(
      GamePlayer.resume(seat.options, { ...snap, seat: 1 }),
      (e) => e instanceof StaleSnapshotError && /snapshot\.seat/.test(e.message),
    );
    await assert.rejects(
      GamePlayer.resume(seat.options, { ...snap, gameId: snap.gameId + 1n }),
      /snapshot\.gameId/,
    );
  });
});
