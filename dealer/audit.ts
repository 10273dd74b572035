import { zoneLeaves } from '../core/mapproof/witness.ts';
import type { ZoneChallengeRecord } from './chain/types.ts';
import type { DealingDeps } from './dealing.ts';

/**
 * Answers a game's zone challenges (P3 after the secrets), each as its `ZoneChallenged` log posted it: a seat
 * said a zone's 64 leaves are the tree's, and unless the dealer shows its own leaves of that zone before the
 * answer window closes, its bond is slashed at settlement. The answer is the dealt tree's leaves: after the
 * secrets every leaf is public (anyone recomputes them), so answering reveals nothing. A challenger whose leaves
 * are wrong loses its deposit to the dealer; an honest dealer always wins, since its leaves are `Gen(seed)` under
 * its salts. Safe to retry: the chain view reads each challenge first (closed: nothing sent). Returns the
 * challenges to look at again: all but those closed at the confirmed block (a failed answer, or one a re-org may
 * still drop, is sent again while the game is published).
 */
export async function answerZoneChallenges(
  d: DealingDeps,
  gameId: bigint,
  posted: readonly ZoneChallengeRecord[],
): Promise<ZoneChallengeRecord[]> {
  const game = await d.store.getGame(gameId);
  if (game?.status !== 'published' || posted.length === 0) return [];
  const map = await d.maps.get(gameId);
  const log = d.log.child({ gameId: gameId.toString() });
  const watch: ZoneChallengeRecord[] = [];
  for (const c of posted) {
    const mine = zoneLeaves(map.commitment, c.zone);
    if (mine.length !== c.leaves.length || mine.every((x, i) => x === c.leaves[i])) {
      // The contract refuses a challenge whose leaves build the dealer's zone root: this one cannot exist.
      log.error({ seat: c.seat, zone: c.zone }, 'a zone challenge repeats this dealer’s own leaves');
      continue;
    }
    if (await d.chain.zoneChallengeClosed(gameId, c.seat)) continue;
    watch.push(c);
    let tx: Awaited<ReturnType<typeof d.chain.answerZoneChallenge>>;
    try {
      tx = await d.chain.answerZoneChallenge(gameId, c.seat, c.leaves, mine);
    } catch (e) {
      // One failed answer does not hold up the game's others; the watcher retries it next tick.
      log.error(
        { seat: c.seat, zone: c.zone, err: (e as Error).message },
        'answering a zone challenge failed',
      );
      continue;
    }
    if (!tx) continue;
    log.warn({ seat: c.seat, zone: c.zone, tx: tx.hash }, 'audit zone challenge answered on-chain');
    d.onZoneChallengeAnswered?.(gameId);
  }
  return watch;
}
