import { bytesToHex } from '@noble/hashes/utils.js';
import type { Logger } from 'pino';
import { type DealingDeps, dealGame } from './dealing.ts';

export interface WatcherOptions {
  pollMs: number;
  /** First block to scan when the DB has no cursor yet (the game contract's deployment block). */
  startBlock: number;
  /** This dealer's compressed `dealerEncKey`: games naming another key are not ours. */
  encPublicKey: Uint8Array;
}

/**
 * Polls the chain: records new games for this dealer (cursor persisted), deals games whose sealed
 * shares are all in, and publishes secrets of ended games. Ticks never overlap.
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
    const from = ((await store.getCursor()) ?? this.#o.startBlock - 1) + 1;
    if (head >= from) {
      const ours = bytesToHex(this.#o.encPublicKey);
      for (const gameId of await chain.gamesCreated(from, head)) {
        const info = await chain.game(gameId);
        if (!info || bytesToHex(info.dealerEncKey) !== ours) continue;
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
    for (const g of await store.listGames(['dealt'])) {
      if ((await chain.phase(g.gameId)) !== 'ended') continue;
      const s = await store.getSecrets(g.gameId);
      if (!s) continue;
      // Read first: a publish that landed before a crash is not sent again.
      if (!(await chain.secretsPublished(g.gameId)))
        await chain.publishSecrets(g.gameId, s.masterSecret, s.shares);
      await store.updateGame(g.gameId, { status: 'published' });
      this.#log.info({ gameId: g.gameId.toString() }, 'secrets published for the audit');
    }
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
