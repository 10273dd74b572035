import type { Logger } from 'pino';
import { eqPoint, type Point } from '../core/babyjub.ts';
import type { ChainHead } from './chain/head.ts';
import type { GamePhase } from './chain/types.ts';
import { type DealingDeps, dealGame, markStopped } from './dealing.ts';
import { answerDispute } from './disputes.ts';

export interface WatcherOptions {
  pollMs: number;
  /** First block to scan when the DB has no cursor yet (the game contract's deployment block). */
  startBlock: number;
  /** This dealer's seal key, `sealPublicKey(keys.dealerKey)`: games naming another key are not ours. */
  sealPublicKey: Point;
  /** Where each tick publishes the head block it read (the reveal service's refusal cache follows it). */
  head?: ChainHead;
}

/**
 * Polls the chain: answers reveal disputes of dealt games (first: the one on-chain duty during play, with
 * a deadline), records new games for this dealer (cursor persisted), deals games whose sealed shares are
 * all in, publishes secrets of ended games, and notes games the chain stopped. Ticks never overlap; a
 * failure in one game does not hold up the others.
 */
export class ChainWatcher {
  readonly #d: DealingDeps;
  readonly #o: WatcherOptions;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(d: DealingDeps, o: WatcherOptions) {
    this.#d = d;
    this.#o = o;
    this.#log = d.log.child({ component: 'watcher' });
  }

  async tick(): Promise<void> {
    const { chain, store } = this.#d;
    const head = await chain.headBlock();
    this.#o.head?.set(head);
    await this.#followDealt();
    const from = ((await store.getCursor()) ?? this.#o.startBlock - 1) + 1;
    if (head >= from) {
      for (const gameId of await chain.gamesCreated(from, head)) {
        const info = await chain.game(gameId);
        // Ours only if this tx key is its dealer AND its shares are sealed to this dealer's seal key.
        if (!info || info.dealer !== chain.dealer || !eqPoint(info.sealKey, this.#o.sealPublicKey)) {
          this.#log.debug({ gameId: gameId.toString() }, 'not our game: skipped');
          continue;
        }
        await store.addGame({
          gameId,
          contract: info.contract,
          ruleset: info.ruleset,
          players: info.players,
        });
        this.#log.info({ gameId: gameId.toString() }, 'tracking new game');
      }
      await store.setCursor(head);
    }
    for (const g of await store.listGames(['watching', 'root-computed'])) {
      try {
        await dealGame(this.#d, g.gameId);
      } catch (e) {
        this.#log.error(
          { gameId: g.gameId.toString(), err: (e as Error).message },
          'dealing failed; will retry',
        );
      }
    }
  }

  /** Dealt games: disputes answered first, then ended games' secrets published, stopped games noted. */
  async #followDealt(): Promise<void> {
    const { chain, store } = this.#d;
    const phases: [bigint, GamePhase][] = [];
    for (const g of await store.listGames(['dealt'])) {
      try {
        phases.push([g.gameId, await chain.phase(g.gameId)]);
      } catch (e) {
        this.#log.warn({ gameId: g.gameId.toString(), err: (e as Error).message }, 'phase read failed');
      }
    }
    for (const [gameId, phase] of phases) {
      if (phase !== 'dispute') continue;
      try {
        await answerDispute(this.#d, gameId);
      } catch (e) {
        this.#log.error(
          { gameId: gameId.toString(), err: (e as Error).message },
          'answering a reveal dispute failed; will retry next tick',
        );
      }
    }
    for (const [gameId, phase] of phases) {
      try {
        if (phase === 'ended') await this.#publish(gameId);
        else if (phase === 'cancelled' || phase === 'forced-open') {
          await markStopped(this.#d, gameId, phase);
          const level = phase === 'forced-open' ? 'error' : 'warn';
          this.#log[level]({ gameId: gameId.toString(), phase }, 'game stopped on-chain after the root');
        }
      } catch (e) {
        this.#log.warn({ gameId: gameId.toString(), err: (e as Error).message }, 'will retry next tick');
      }
    }
  }

  async #publish(gameId: bigint): Promise<void> {
    const { chain, store } = this.#d;
    const s = await store.getSecrets(gameId);
    if (!s) return;
    // Read first: a publish that landed before a crash is not sent again.
    if (!(await chain.secretsPublished(gameId))) await chain.publishSecrets(gameId, s.masterSecret, s.shares);
    await store.updateGame(gameId, { status: 'published' });
    this.#log.info({ gameId: gameId.toString() }, 'secrets published for the audit');
  }

  start(): void {
    const loop = async () => {
      if (this.#stopped) return;
      this.#running = this.tick().catch((e) => {
        this.#log.warn({ err: (e as Error).message }, 'watcher tick failed');
      });
      await this.#running;
      if (!this.#stopped) this.#timer = setTimeout(loop, this.#o.pollMs);
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }
}
