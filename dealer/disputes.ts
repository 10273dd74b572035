import { encodeDisputeAnswer, merklePath, pathLength } from '../core/index.ts';
import type { ServedTile } from '../core/reveal-request.ts';
import type { TxRef } from './chain/types.ts';
import type { DealingDeps } from './dealing.ts';
import type { DealtMap } from './maps.ts';

export type DisputeOutcome = 'answered' | 'already-answered' | 'none';

/**
 * The answer entry for one disputed leaf: the served tile (tile, salt, path) from the dealt map. A leaf the
 * map does not serve (off the board) cannot be answered truthfully with a tile; it gets the zero tile and
 * its real path, which a challenge will show wrong. The turn proof keeps such leaves out of a reveal list.
 */
function answerTile(map: DealtMap, leaf: number): { tile: ServedTile; onBoard: boolean } {
  const entry = map.entries.get(leaf);
  if (entry !== undefined) return { tile: JSON.parse(entry) as ServedTile, onBoard: true };
  const depth = map.ruleset.board.depth;
  let path: string[];
  try {
    path = merklePath(map.commitment.tree, leaf).map(String);
  } catch {
    path = Array.from({ length: pathLength(depth) }, () => '0');
  }
  const tile = { leaf, col: -1, row: -1, terrain: 0, feature: 0, resource: 0, rivers: 0, salt: '0', path };
  return { tile, onBoard: false };
}

/**
 * Answers the open reveal dispute of a game this dealer dealt (P7 after the root): the disputing player put
 * its turn's opening on-chain because it says it was not served, and the dealer must post each opened
 * leaf's tile, salt and Merkle path (`answerDispute`) before the deadline, or be slashed and the game
 * force-opened. The answer is built from the dealt map whatever the serving history says: the leaves are
 * already public (the player opened them on-chain), so answering reveals nothing the dealer would not
 * serve. With it goes the disputer's receipt for that turn when the dealer holds one (the player signed
 * that it was served: a false dispute, whose deposit the contract keeps for the dealer), else `0x` (the
 * deposit goes back to the disputer). Answering comes first: should the contract refuse the stored receipt
 * (`BadReceipt`), the dispute is answered at once without it. Safe to retry: it reads the dispute first and
 * sends nothing when it is answered or gone.
 */
export async function answerDispute(d: DealingDeps, gameId: bigint): Promise<DisputeOutcome> {
  const game = await d.store.getGame(gameId);
  // Only games this dealer dealt: the watcher tracked them after checking dealer and seal key.
  if (game?.status !== 'dealt') return 'none';
  const dispute = await d.chain.dispute(gameId, game.createdBlock ?? undefined);
  if (!dispute) return 'none';
  if (dispute.answered || !dispute.leaves) return 'already-answered';
  const log = d.log.child({ gameId: gameId.toString() });
  const map = await d.maps.get(gameId);
  const entries = dispute.leaves.map((leaf) => answerTile(map, leaf));
  const offBoard = entries.filter((e) => !e.onBoard).length;
  if (offBoard > 0) {
    log.error({ seat: dispute.seat, offBoard }, 'a disputed opening names leaves this map does not serve');
  }
  const answer = encodeDisputeAnswer(
    entries.map((e) => e.tile),
    map.ruleset.board.depth,
  );
  const served = await d.store.getReveal(gameId, dispute.player, dispute.turn);
  const receipt = await d.store.getReceipt(gameId, dispute.player, dispute.turn);
  let receipted = receipt !== null;
  let tx: TxRef | null;
  try {
    tx = await d.chain.answerDispute(gameId, answer, receipt?.signature ?? '0x');
  } catch (e) {
    if (!receipt || !/BadReceipt/.test((e as Error).message)) throw e;
    // Stored only if its revealCommit R, with the player's state commitment, opened the turn's on-chain play
    // commitment, which binds R: the dispute's opening (checked against it by the contract) has the same R,
    // so this should not happen (a re-org?):
    // losing the deposit is nothing next to losing the bond, so answer without it now.
    log.error(
      { seat: dispute.seat, player: dispute.player, turn: dispute.turn },
      'the contract refused the stored reveal receipt; answering the dispute without it',
    );
    receipted = false;
    tx = await d.chain.answerDispute(gameId, answer, '0x');
  }
  if (!tx) return 'already-answered';
  log.warn(
    {
      seat: dispute.seat,
      player: dispute.player,
      turn: dispute.turn,
      leaves: dispute.leaves.length,
      servedBefore: served !== null,
      receipted,
      deadline: dispute.deadline,
      tx: tx.hash,
    },
    'reveal dispute answered on-chain',
  );
  d.onDisputeAnswered?.(gameId);
  return 'answered';
}
