/**
 * One seat's loop against a live game: `act()` until the game leaves play, one progress line per action.
 * The same for the bot and the terminal player (only the planner differs).
 */
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
  }
}

export interface LoopOptions {
  chain: GameChain;
  gameId: bigint;
  pollMs: number;
  print: (line: string) => void;
  /** Say who the seat waits for whenever that changes (the terminal player; the bot stays terse). */
  narrate?: boolean;
}

/** Plays until the game is over; returns the final phase and turn. */
export async function playToEnd(seat: BotPlayer, o: LoopOptions): Promise<{ phase: string; turn: number }> {
  let waitingFor = '';
  for (;;) {
    const g = await o.chain.game(o.gameId);
    if (!isLivePhase(g.phase)) return { phase: g.phase, turn: g.turn };
    const a = await seat.act();
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
