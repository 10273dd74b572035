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
  /** A player whose map-proof check is `check`, on a chain whose game read is the seat's duty (a sentinel). */
  function seatWith(check: () => Promise<unknown>) {
    const looks = { checks: 0, duties: 0 };
    const duty = new Error('the seat went on to its duty');
    const player = {
      seat: 1,
      checksMapProof: true,
      mapProof: null,
      checkMapProof: async () => {
        looks.checks++;
        return check();
      },
      chain: {
        game: async () => {
          looks.duties++;
          throw duty;
        },
      },
    } as unknown as GamePlayer;
    return { bot: new BotPlayer(player, 'seed'), looks, duty };
  }
  const tick = () => new Promise((r) => setImmediate(r));

  it('reports a refused map proof once, beside the seat’s duties, then never asks again', async () => {
    const { bot, looks, duty } = seatWith(async () => {
      throw new MapProofError(2, 'chunk proof does not verify');
    });
    await assert.rejects(bot.act(), (e) => e === duty, 'the check runs beside the duty, not before it');
    await tick();
    const a = await bot.act();
    assert.ok(a?.kind === 'map-proof-refused' && a.error instanceof MapProofError && a.seat === 1, String(a));
    assert.equal(bot.mapProofRefused, a.error);
    await assert.rejects(bot.act(), (e) => e === duty);
    assert.deepEqual(looks, { checks: 1, duties: 2 });
  });

  it('a dealer that never serves the proof holds up nothing: one check at a time, the duty every call', async () => {
    // Review 32: the check ran first and was awaited, so a hostile map-proof route (each poll ~50–80 s of
    // retries) kept the seat from its turn and combat deadlines.
    const { bot, looks, duty } = seatWith(() => new Promise(() => {}));
    for (let i = 0; i < 3; i++) await assert.rejects(bot.act(), (e) => e === duty);
    assert.deepEqual(looks, { checks: 1, duties: 3 });
    assert.equal(bot.mapProofRefused, null);
  });

  it('any other failure of the check is not a verdict: nothing reported, asked again at the next poll', async () => {
    const { bot, looks, duty } = seatWith(async () => {
      throw new Error('RPC down');
    });
    await assert.rejects(bot.act(), (e) => e === duty);
    await tick();
    await assert.rejects(bot.act(), (e) => e === duty, 'no news: the duty');
    assert.equal(bot.mapProofRefused, null);
    assert.equal(looks.checks, 1, 'not again within MAP_PROOF_POLL_MS');
  });
});
