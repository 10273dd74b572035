/**
 * Closing this dealer's games, so that a dealer running for months gets its bonds back: a game whose ceremony a
 * player missed is cancelled once the deadline passed (`cancelMissed`: the bond is credited back, the seats that
 * did not act are at fault), and a published game is settled when its audit window closes without fraud
 * (`settle`: bond and dispute deposits credited); then the credit is withdrawn to the dealer's address. The
 * calls are the ones anyone may send (core/deadlines.ts): the dealer sends only these two, never one against itself
 * (`claimSecretsTimeout` is the players'). Each is read-first, so a retry or a game someone else closed costs
 * nothing; a failure is logged and retried on the next tick.
 */
import { expiredCall } from '../core/deadlines.ts';
import type { DealerCloseCall } from './chain/types.ts';
import { type DealingDeps, markStopped } from './dealing.ts';
import type { DealStatus } from './store/types.ts';

export type ClosingDeps = Pick<DealingDeps, 'chain' | 'store' | 'log' | 'onClosed' | 'onWithdrawn'>;

/** Games that may still need a closing call: ceremonies not yet dealt, and games whose secrets are published. */
const CLOSABLE: readonly DealStatus[] = ['watching', 'published'];

/** The phase each closing call ends a game in. */
const CLOSED_PHASE = { settle: 'Settled', cancelMissed: 'Cancelled' } as const satisfies Record<
  DealerCloseCall,
  string
>;
const isClosed = (phase: string): phase is 'Settled' | 'Cancelled' =>
  phase === 'Settled' || phase === 'Cancelled';

/** Closing calls one tick sends at most (each waits for its confirmation): a backlog never holds up disputes. */
export const MAX_CLOSING_CALLS_PER_TICK = 3;

/**
 * Closes every tracked game whose deadline allows it, a few per tick, then withdraws the dealer's credit. A game
 * is read once, then not again until the chain's time passes the deadline it read (an audit window lasts a day:
 * no reads meanwhile), so the cost per tick is one time read and the credit read, not a read per game.
 */
export class GameCloser {
  readonly #d: ClosingDeps;
  readonly #log: ClosingDeps['log'];
  readonly #maxCalls: number;
  /** The phase deadline each closable game had when last read (bounded by the games still closable). */
  readonly #deadlines = new Map<string, number>();

  constructor(d: ClosingDeps, o: { maxCallsPerTick?: number } = {}) {
    this.#d = d;
    this.#log = d.log.child({ component: 'closing' });
    this.#maxCalls = o.maxCallsPerTick ?? MAX_CLOSING_CALLS_PER_TICK;
  }

  async tick(): Promise<void> {
    const { chain, store } = this.#d;
    const games = await store.listGames(CLOSABLE);
    const ids = new Set(games.map((g) => g.gameId.toString()));
    for (const id of this.#deadlines.keys()) if (!ids.has(id)) this.#deadlines.delete(id);
    const now = await chain.chainTime();
    let calls = 0;
    for (const g of games) {
      if (calls >= this.#maxCalls) break;
      const gameId = g.gameId.toString();
      const known = this.#deadlines.get(gameId);
      if (known !== undefined && now <= known) continue;
      try {
        const state = await chain.closingState(g.gameId);
        this.#deadlines.set(gameId, state.deadline);
        if (isClosed(state.phase)) {
          // Closed at the head (by this dealer or anyone): recorded once the confirmed block agrees, since a re-org
          // may drop the closing call; until then the game is read again each tick.
          this.#deadlines.delete(gameId);
          await this.#closedWhenConfirmed(g.gameId, state.phase, g.closeCall);
          continue;
        }
        const call = expiredCall(state);
        // Only a ceremony this dealer has not dealt (a ForceOpen is past its root: its bond is gone).
        const mine =
          (call === 'cancelMissed' && g.status === 'watching' && state.phase !== 'ForceOpen') ||
          (call === 'settle' && g.status === 'published');
        if (!mine) continue;
        calls++;
        // Nothing sent (null): the game moved on, or someone else closed it; a later read tells.
        const tx = await chain.close(g.gameId, call);
        this.#deadlines.delete(gameId);
        if (!tx) continue;
        // Recorded in the store, not in memory: a process restarted before the call confirms still counts it
        // (only a crash between the send and this write loses the count).
        await store.updateGame(g.gameId, { closeCall: call });
        this.#log.info({ gameId, phase: state.phase, tx: tx.hash }, `${call} sent`);
        await this.#closedWhenConfirmed(g.gameId, CLOSED_PHASE[call], call);
      } catch (e) {
        this.#deadlines.delete(gameId);
        this.#log.warn(
          { gameId, err: (e as Error).message },
          'closing the game failed; will retry next tick',
        );
      }
    }
    try {
      const credit = await chain.credit();
      if (credit === 0n) return;
      const tx = await chain.withdraw();
      if (tx) this.#d.onWithdrawn?.(credit);
      this.#log.info({ wei: credit.toString(), tx: tx?.hash }, 'credit withdrawn');
    } catch (e) {
      this.#log.warn({ err: (e as Error).message }, 'withdrawing the credit failed; will retry next tick');
    }
  }

  /**
   * Records a game closed on-chain, once its confirmed phase is `phase`: the store's status (whatever it was, so the
   * game leaves the closable ones), and for a call this dealer sent (`call`, as the store recorded it), the count
   * and the log. Otherwise nothing: a dropped call is sent again later.
   */
  async #closedWhenConfirmed(
    gameId: bigint,
    phase: 'Settled' | 'Cancelled',
    call: DealerCloseCall | null,
  ): Promise<void> {
    const confirmed = await this.#d.chain.closingState(gameId, true);
    if (confirmed.phase !== phase) return;
    if (phase === 'Settled') await this.#d.store.updateGame(gameId, { status: 'settled' });
    else await markStopped(this.#d, gameId, 'cancelled');
    const id = gameId.toString();
    // Counted once across dealer processes sharing the store: by whichever clears the recorded call (review 37).
    if (!call || CLOSED_PHASE[call] !== phase || !(await this.#d.store.claimCloseCall(gameId, call))) return;
    this.#d.onClosed?.(gameId, call);
    this.#log.info(
      { gameId: id },
      call === 'settle'
        ? 'audit window closed: game settled, bond back'
        : 'ceremony missed: game cancelled, bond back',
    );
  }
}
