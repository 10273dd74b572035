/**
 * One seat's loop against a live game: `act()` until the game leaves play, one progress line per action.
 * The same for the bot and the terminal player (only the planner differs).
 */
import { isFinalPhase } from '../../core/deadlines.ts';
import { isLivePhase } from '../../core/game-phases.ts';
import type { BotAction, BotPlayer } from '../bot-player.ts';
import type { GameChain } from '../sdk/chain.ts';

/** The progress line of one action (the CLI player's output since before the terminal player). */
export function describeAction(a: BotAction): string {
  switch (a.kind) {
    case 'commit':
    case 'seal':
    case 'dispute':
    case 'share':
      return `${a.kind}: gas ${a.gas}`;
    case 'follow':
      return `${a.what.kind}${'index' in a.what ? ` (tile ${a.what.index})` : ''}`;
    case 'spawn':
    case 'turn': {
      const t = a.report;
      return `turn ${t.turn} ${a.kind}: moved ${t.moved}${t.provedPassable ? ' (destinations proven passable)' : ''}, ${t.tilesRevealed} tiles verified against the on-chain root, ${t.zoneReveals} zone reveals, proof ${Math.round(t.proofMs)} ms, gas ${t.gas}`;
    }
    case 'attack':
      return `turn ${a.report.turn} attack (${a.report.target.col},${a.report.target.row}) → seat ${a.report.defender}`;
    case 'combat':
      return `combat answered: ${a.report.present ? `hit (hp ${a.report.hpBefore})` : 'fizzled'}`;
    case 'map-proof':
      return `map proof verified at turn ${a.check.turn} (every zone's proof and the root proof, ${Math.round(a.check.verifyMs)} ms)`;
    case 'map-proof-refused':
      return `map proof REFUSED: ${a.error.message}; playing on (leaving would forfeit the stake), the audit judges the map`;
    case 'expired':
      return `deadline passed: ${a.claim.kind}: gas ${a.claim.gas}`;
  }
}

export interface LoopOptions {
  chain: GameChain;
  gameId: bigint;
  pollMs: number;
  print: (line: string) => void;
  /** Say who the seat waits for whenever that changes (the terminal player; the bot stays terse). */
  narrate?: boolean;
  /** Failed reads or actions in a row the loop rides out before it gives up (default `MAX_ACT_FAILURES`). */
  maxFailures?: number;
}

/**
 * Failed reads or actions in a row (an RPC node or the dealer briefly away) that `playToEnd` retries, with a
 * growing pause, before it throws: a seat that stops playing forfeits its stake at its next deadline.
 */
export const MAX_ACT_FAILURES = 6;

/** Plays until the game is over; returns the final phase and turn. */
export async function playToEnd(seat: BotPlayer, o: LoopOptions): Promise<{ phase: string; turn: number }> {
  let waitingFor = '';
  const max = o.maxFailures ?? MAX_ACT_FAILURES;
  let failures = 0;
  for (;;) {
    let g: Awaited<ReturnType<GameChain['game']>>;
    let a: BotAction | null;
    try {
      g = await o.chain.game(o.gameId);
      if (!isLivePhase(g.phase)) return { phase: g.phase, turn: g.turn };
      a = await seat.act();
      failures = 0;
    } catch (e) {
      if (++failures >= max) throw e;
      o.print(`error (${failures} of ${max} in a row): ${(e as Error)?.message ?? e}; trying again`);
      await new Promise((r) => setTimeout(r, o.pollMs * 2 ** Math.min(failures, 4)));
      continue;
    }
    if (a) {
      o.print(describeAction(a));
      waitingFor = '';
      continue;
    }
    if (o.narrate) {
      const who =
        g.phase === 'Play' && g.toMove !== seat.seat
          ? `seat ${g.toMove} (turn ${g.turn})`
          : g.phase === 'Play'
            ? ''
            : `the ${g.phase} phase`;
      if (who && who !== waitingFor) o.print(`waiting for ${who}…`);
      waitingFor = who;
    }
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
}

export interface CloseOptions {
  chain: GameChain;
  gameId: bigint;
  pollMs: number;
  print: (line: string) => void;
  /** Stay until the game is closed (the secrets and audit windows may be long); otherwise only what is due now. */
  wait: boolean;
}

/**
 * After play: during the audit proves a posted root that is not Gen(seed) (`auditRoot`), past the dealer's
 * secrets deadline slashes it, past the audit window settles, and once the game is settled or cancelled withdraws
 * this seat's credit (its stake back, its share of a slashed bond). Without `wait` it does what is due now and
 * says when the rest will be. Returns the last phase and what was withdrawn.
 */
export async function closeToEnd(
  seat: BotPlayer,
  o: CloseOptions,
): Promise<{ phase: string; withdrawn: bigint }> {
  const p = seat.player;
  let withdrawn = 0n;
  for (;;) {
    // A failed audit (a node that failed the read, a fee above the balance) is reported, not fatal: the next
    // look runs it again, and the rest of the closing goes on.
    const audit = await p.auditRoot().catch((e: unknown) => {
      o.print(`audit: ${e instanceof Error ? e.message : String(e)}; trying again at the next look`);
      return null;
    });
    if (audit?.kind === 'zone-roots')
      o.print(`audit: the dealer's zone roots do not build its root: proven on-chain, gas ${audit.gas}`);
    else if (audit?.kind === 'zone')
      o.print(
        `audit: the posted root is not Gen(seed): zone ${audit.zone} challenged on-chain, gas ${audit.gas}`,
      );
    const claim = await p.claimExpired();
    if (claim) o.print(`deadline passed: ${claim.kind}: gas ${claim.gas}`);
    const paid = await p.withdrawCredit();
    if (paid) {
      withdrawn += paid.wei;
      o.print(`withdrew ${paid.wei} wei (stake and payouts): gas ${paid.gas}`);
    }
    const g = await o.chain.game(o.gameId);
    if (isFinalPhase(g.phase)) return { phase: g.phase, withdrawn };
    if (!o.wait) {
      const when = new Date(g.deadline * 1000).toISOString();
      o.print(
        `the ${g.phase} phase ends at ${when}: then run again with --settle to close the game and withdraw your credit`,
      );
      return { phase: g.phase, withdrawn };
    }
    // Windows last hours or days: sleep towards the deadline (a minute at most between looks), not a poll.
    const ms = claim ? 0 : Math.max(o.pollMs, Math.min(60_000, g.deadline * 1000 - Date.now()));
    await new Promise((r) => setTimeout(r, ms));
  }
}
