/**
 * The demo's map proof, seen from the players: each seat checks it through its SDK `GamePlayer` as soon as the
 * MapProofRegistry records it (the bots do it in `act()` during play); after play the demo waits until every seat
 * has verified it, then says when it arrived and how long each seat's verification took.
 */
import type { BotPlayer } from '../../client/bot-player.ts';
import type { MapProofCheck } from '../../client/sdk/game-player.ts';
import { fmtDuration, type Progress, silentProgress } from '../lib/progress.ts';
import type { Log } from './setup.ts';

/** What the demo's dealer says of a game's map proof (`GET /v1/games/:id/map-proof`). */
export interface DealerMapProofStatus {
  status: string;
  done: number;
  total: number;
}

async function dealerStatus(dealerUrl: string, gameId: bigint): Promise<DealerMapProofStatus | null> {
  try {
    const r = await fetch(`${dealerUrl}/v1/games/${gameId}/map-proof`, { signal: AbortSignal.timeout(5000) });
    const b = (await r.json()) as Partial<DealerMapProofStatus>;
    if (r.status === 200) return { status: 'done', done: 1, total: 1 };
    if (r.status === 202 && typeof b.status === 'string')
      return { status: b.status, done: b.done ?? 0, total: b.total ?? 0 };
  } catch {}
  return null;
}

export interface AwaitMapProofOptions {
  bots: readonly BotPlayer[];
  dealerUrl: string;
  gameId: bigint;
  /** The keys' preparation (map-keys.ts): its failure ends the wait. */
  keys: Promise<void>;
  log: Log;
  print: (line: string) => void;
  progress?: Progress;
  /** Fail when, the keys ready, the dealer's proof made no progress for this long (default 10 min). */
  stallMs?: number;
  pollMs?: number;
}

/** Waits until every seat has verified the map proof (printing each as it does); throws naming what stalled. */
export async function awaitMapProof(o: AwaitMapProofOptions): Promise<void> {
  let failed: Error | null = null;
  let keysReady = false;
  o.keys.then(
    () => {
      keysReady = true;
    },
    (e: Error) => {
      failed = e;
    },
  );
  if (o.bots.every((b) => b.player.mapProof)) return;
  const step = (o.progress ?? silentProgress).step("waiting for every seat to verify the dealer's map proof");
  let last = '';
  let moved = Date.now();
  try {
    for (;;) {
      if (failed) throw failed;
      for (const b of o.bots) {
        if (b.player.mapProof) continue;
        const check = await b.player.checkMapProof();
        if (check) o.print(verifiedLine(b.seat, check));
      }
      if (o.bots.every((b) => b.player.mapProof)) break;
      const s = await dealerStatus(o.dealerUrl, o.gameId);
      if (s?.status === 'failed')
        throw new Error('map proof: the dealer failed to prove it (see logs/dealer.log)');
      const now = `${keysReady}:${s?.status}:${s?.done}`;
      if (now !== last) {
        if (s?.status === 'waiting-keys') o.log('map proof: the dealer waits for the keys');
        if (s?.status === 'proving') o.log(`map proof: the dealer has ${s.done} of ${s.total} proofs`);
        if (s?.total) step.fraction(s.done / s.total);
      }
      // Building keys shows no progress here for minutes on a first run: only the proving is watched.
      if (now !== last || !keysReady) moved = Date.now();
      else if (Date.now() - moved > (o.stallMs ?? 600_000)) {
        throw new Error(
          `map proof: no progress for ${fmtDuration(Date.now() - moved)} (dealer: ${s ? `${s.status} ${s.done}/${s.total}` : 'no answer'}; keys ${keysReady ? 'ready' : 'not ready'})`,
        );
      }
      last = now;
      await new Promise((r) => setTimeout(r, o.pollMs ?? 1000));
    }
    step.done();
  } catch (e) {
    step.fail();
    throw e;
  }
}

/** The line printed when a seat has verified the proof. */
export function verifiedLine(seat: number, c: MapProofCheck): string {
  return `map proof verified by seat ${seat} at turn ${c.turn}: every zone's proof and the root proof, in one batch, in ${Math.round(c.verifyMs)} ms`;
}

/** The summary: when the proof arrived (the first seat to see it) and each seat's verification time. */
export function mapProofSummary(
  bots: readonly BotPlayer[],
  o: { startedAt: number; maxTurns: number; zones: number },
): string {
  const checks = bots.map((b) => ({ seat: b.seat, c: b.player.mapProof! }));
  const first = checks.reduce((a, b) => (b.c.at < a.c.at ? b : a));
  const when =
    first.c.turn >= o.maxTurns
      ? `after play (turn ${first.c.turn})`
      : `at turn ${first.c.turn} of ${o.maxTurns}`;
  return `map proof: posted on-chain and verified ${when}, ${fmtDuration(first.c.at - o.startedAt)} after the start; ${o.zones} zone proofs and the root proof verified by ${checks.map((x) => `seat ${x.seat} in ${Math.round(x.c.verifyMs)} ms`).join(', ')}`;
}
