/**
 * The seat loop of the CLI player (client/play/loop.ts playToEnd) and the bot's map-proof check: a blip of the
 * RPC node or the dealer must not stop a seat (it would forfeit its stake at its next deadline), and a refused
 * map proof is reported once while play goes on (the audit judges the map).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type BotAction, BotPlayer } from '../../client/bot-player.ts';
import { playToEnd } from '../../client/play/loop.ts';
import type { GameChain } from '../../client/sdk/chain.ts';
import { MapProofError } from '../../client/sdk/errors.ts';
import type { GamePlayer } from '../../client/sdk/game-player.ts';

/** A chain whose game is in Play until `over()` is called. */
function chainOf() {
  let phase = 'Play';
  const chain = { game: async () => ({ phase, turn: 3, toMove: 1 }) } as unknown as GameChain;
  return { chain, over: () => (phase = 'Secrets') };
}

describe('playToEnd', () => {
  it('rides out failed actions in a row, printing each, and plays on', async () => {
    const { chain, over } = chainOf();
    let calls = 0;
    const seat = {
      seat: 0,
      act: async (): Promise<BotAction | null> => {
        calls++;
        if (calls <= 2) throw new Error(`RPC blip ${calls}`);
        over();
        return null;
      },
    } as unknown as BotPlayer;
    const lines: string[] = [];
    const end = await playToEnd(seat, { chain, gameId: 1n, pollMs: 1, print: (l) => lines.push(l) });
    assert.deepEqual(end, { phase: 'Secrets', turn: 3 });
    assert.equal(calls, 3);
    assert.deepEqual(
      lines.map((l) => l.replace(/\d+ of \d+/, 'n of m')),
      [
        'error (n of m in a row): RPC blip 1; trying again',
        'error (n of m in a row): RPC blip 2; trying again',
      ],
    );
  });

  it('gives up with the error after maxFailures in a row; a success in between resets the count', async () => {
    const { chain } = chainOf();
    let calls = 0;
    const seat = {
      seat: 0,
      act: async (): Promise<BotAction | null> => {
        calls++;
        if (calls === 3) return null; // one success after two failures
        throw new Error(`down ${calls}`);
      },
    } as unknown as BotPlayer;
    await assert.rejects(
      playToEnd(seat, { chain, gameId: 1n, pollMs: 1, print: () => {}, maxFailures: 3 }),
      /down 6/,
    );
    assert.equal(calls, 6, 'two failures, a success, then three failures');
  });
});

describe('BotPlayer map-proof check', () => {
  it('reports a refused map proof once, then plays on without asking again', async () => {
    let checks = 0;
    const reached = new Error('reached the chain');
    const player = {
      seat: 1,
      checksMapProof: true,
      mapProof: null,
      checkMapProof: async () => {
        checks++;
        throw new MapProofError(2, 'chunk proof does not verify');
      },
      chain: {
        game: async () => {
          throw reached;
        },
      },
    } as unknown as GamePlayer;
    const bot = new BotPlayer(player, 'seed');
    const a = await bot.act();
    assert.equal(a?.kind, 'map-proof-refused');
    assert.ok(a?.kind === 'map-proof-refused' && a.error instanceof MapProofError && a.seat === 1);
    assert.equal(bot.mapProofRefused, a.error);
    // The next act() goes on to the game (here a sentinel error), without checking the proof again.
    await assert.rejects(bot.act(), (e) => e === reached);
    assert.equal(checks, 1);
  });

  it('lets any other error of the check through (not a verdict on the map)', async () => {
    const player = {
      seat: 0,
      checksMapProof: true,
      mapProof: null,
      checkMapProof: async () => {
        throw new Error('RPC down');
      },
    } as unknown as GamePlayer;
    const bot = new BotPlayer(player, 'seed');
    await assert.rejects(bot.act(), /RPC down/);
    assert.equal(bot.mapProofRefused, null);
  });
});
