/**
 * The SDK's answer to a dealer that has not yet indexed a turn (play commitments): the seat's stored value is
 * Poseidon(S, R); a combat answer since the turn replaced S, so a dealer reading only the seat's current commitment
 * refuses the turn's own S (`opening-mismatch`). Asking again for an unserved turn, the player then opens with its
 * current S, is served, and sends its receipt with the S the dealer checked. On the real ShroudGame with
 * MockVerifiers; seat 0's dealer is scripted (down, then lagging), seat 1's honest.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { DealerClient } from '../../client/sdk/dealer-client.ts';
import { DealerRefusedError, DealerUnavailableError } from '../../client/sdk/errors.ts';
import type { GamePlayer } from '../../client/sdk/game-player.ts';
import { type Coord, leafIndex } from '../../core/geometry.ts';
import { playCommitment, revealCommitment } from '../../core/state.ts';
import { visibleTiles } from '../../core/vision/radius.ts';
import type { Env } from '../contracts/helpers.ts';
import { deal, mockEnv, mockGame } from './resume-fixture.ts';

type Mode = 'honest' | 'down' | 'lagging';

/** Tiles in the vision of the player's units (zone-major leaves, up to the ruleset's limit). */
function inVision(p: GamePlayer): number[] {
  const r = p.ruleset;
  const sources = p.units.flatMap((u) =>
    u ? [{ coord: { col: u.col, row: u.row }, radius: r.unitTypes[u.type]!.vision }] : [],
  );
  return [...visibleTiles(r.board, r.vision.model, sources)]
    .slice(0, r.maxRevealedTiles)
    .map((i) => leafIndex(r.board, { col: i % r.board.width, row: Math.floor(i / r.board.width) }));
}

describe('SDK: an unserved turn after a combat answer is asked for again with the current state commitment', () => {
  let env: Env;
  before(async () => {
    env = await mockEnv(['tiny']);
  });

  it('the lagging dealer refuses the turn’s own S; the retry opens with the current S, is served, and signs for it', async () => {
    let mode: Mode = 'honest';
    /** The state commitments seat 0 opened with, while the dealer lagged; and those its receipts carried. */
    const opened: bigint[] = [];
    const receipts: bigint[] = [];
    const game = await mockGame(env, 'tiny', {
      maxTurns: 10,
      dealer: (seat, honest) =>
        seat !== 0
          ? honest
          : ({
              ...honest,
              fetchVerifiedTiles: async (h, board, root, o) => {
                if (mode === 'down') throw new DealerUnavailableError(3, 503, new Error('down'));
                if (mode === 'lagging') {
                  opened.push(o.stateCommit);
                  // Only the seat's current commitment (the view) is known: the turn's log is not indexed yet.
                  const stored = (await game.seats[0]!.bot.player.chain.seat(game.gameId, 0)).playCommitment;
                  const r = revealCommitment(h, o.leaves, game.ruleset.maxRevealedTiles, o.blinding);
                  if (playCommitment(h, o.stateCommit, r, root) !== stored) {
                    throw new DealerRefusedError(409, {
                      statusCode: 409,
                      error: 'opening-mismatch',
                      message: 'the opening does not open the play commitment',
                      field: 'stateCommit',
                    });
                  }
                }
                return honest.fetchVerifiedTiles(h, board, root, o);
              },
              sendReceipt: async (_g: bigint, _t: number, _r: bigint, stateCommit: bigint) => {
                receipts.push(stateCommit);
              },
            } as DealerClient),
    });
    const [p0, p1] = game.seats.map((s) => s.bot.player) as [GamePlayer, GamePlayer];
    for (const p of [p0, p1]) await p.commitShare();
    for (const p of [p0, p1]) await p.sealShare();
    await deal(game);
    const at = (col: number, row: number): Coord => ({ col, row });
    // Spawn order hq, infantry, scout (slots 0, 1, 2); the start areas are columns 2–5 and 10–13.
    await p0.spawn([at(2, 6), at(4, 6), at(5, 6)]);
    await p1.spawn([at(13, 6), at(10, 6), at(11, 4)]);
    // Turn 2: seat 0's scout runs to (8, 6); turn 3: seat 1's infantry steps next to it, to (9, 6).
    await p0.playTurn({ moves: [null, null, at(8, 6), null], reveal: [] });
    await p1.playTurn({ moves: [null, at(9, 6), null, null], reveal: [] });
    // Turn 4: seat 0 stands still and reveals what it sees; the dealer is down, so the turn is unserved.
    mode = 'down';
    await p0.playTurn({ moves: [null, null, null, null], reveal: inVision(p0) });
    const unserved = p0.unserved;
    assert.ok(unserved && unserved.turn === 4 && unserved.leaves.length > 0, 'turn 4 is unserved');
    // Turn 5: seat 1's infantry hits the scout; seat 0's answer commits to the damaged scout (a new S).
    await p1.attack(1, at(8, 6), 0);
    assert.equal(await p0.mustRespond(), true);
    const answer = await p0.respondCombat();
    assert.equal(answer.present, true, 'the attack hit');
    const before = opened.length;
    mode = 'lagging';
    assert.equal(await p0.retryUnserved(), true, 'served on the retry');
    assert.equal(p0.unserved, null);
    const [first, second] = opened.slice(before);
    assert.equal(opened.length - before, 2, 'one refused opening, then one served');
    assert.equal(first, unserved.stateCommit, "first the turn's own S (what its log holds)");
    assert.notEqual(second, first, 'then another S');
    const stored = (await p0.chain.seat(game.gameId, 0)).playCommitment;
    const r = revealCommitment(env.h, unserved.leaves, game.ruleset.maxRevealedTiles, unserved.blinding);
    assert.equal(
      playCommitment(env.h, second!, r, game.map!.commitment.tree.root),
      stored,
      'the S that opens the seat now',
    );
    assert.deepEqual(receipts.slice(-1), [second], 'the receipt names the S the dealer checked');
    // The tiles joined the player's openings.
    for (const leaf of unserved.leaves)
      assert.ok(
        p0.served.some((t) => t.leaf === leaf),
        `leaf ${leaf}`,
      );
  });
});
