import { zoneLeaves, zoneRoots } from '../core/mapproof/witness.ts';
import type { DealingDeps } from './dealing.ts';

/**
 * The zone roots published with the secrets: the dealt tree's nodes at the zone level. The audit's zone
 * challenges are judged against them (ShroudAudit), so they must be this tree's, which `maps` rebuilds from the
 * stored secrets.
 */
export async function publishedZoneRoots(d: Pick<DealingDeps, 'maps'>, gameId: bigint): Promise<bigint[]> {
  const map = await d.maps.get(gameId);
  return zoneRoots(map.commitment, map.ruleset.board);
}

/** One look at a game's zone challenges: how many were open, and how many of them this look answered. */
export interface ZoneAnswers {
  open: number;
  answered: number;
}

/**
 * Answers every open zone challenge of a game whose secrets this dealer published (P3 after the secrets):
 * a seat posted a zone's 64 leaves saying they are the tree's, and unless the dealer shows its own leaves of
 * that zone before the answer window closes, its bond is slashed at settlement. The answer is the dealt tree's
 * leaves: after the secrets every leaf is public (anyone recomputes them), so answering reveals nothing. A
 * challenger whose leaves are wrong loses its deposit to the dealer; an honest dealer always wins, since its
 * leaves are `Gen(seed)` under its salts. Safe to retry: the chain view reads each challenge first.
 */
export async function answerZoneChallenges(d: DealingDeps, gameId: bigint): Promise<ZoneAnswers> {
  const game = await d.store.getGame(gameId);
  if (game?.status !== 'published') return { open: 0, answered: 0 };
  const open = await d.chain.openZoneChallenges(gameId, game.createdBlock ?? undefined);
  if (open.length === 0) return { open: 0, answered: 0 };
  const map = await d.maps.get(gameId);
  const log = d.log.child({ gameId: gameId.toString() });
  let answered = 0;
  for (const c of open) {
    const mine = zoneLeaves(map.commitment, c.zone);
    if (mine.length !== c.leaves.length || mine.every((x, i) => x === c.leaves[i])) {
      // The contract refuses a challenge whose leaves build the dealer's zone root: this one cannot exist.
      log.error({ seat: c.seat, zone: c.zone }, 'a zone challenge repeats this dealer’s own leaves');
      continue;
    }
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
    answered++;
    log.warn({ seat: c.seat, zone: c.zone, tx: tx.hash }, 'audit zone challenge answered on-chain');
    d.onZoneChallengeAnswered?.(gameId);
  }
  return { open: open.length, answered };
}
