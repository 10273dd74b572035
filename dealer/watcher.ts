import type { Logger } from 'pino';
import { eqPoint, type Point } from '../core/babyjub.ts';
import { answerZoneChallenges } from './audit.ts';
import type { ChainHead } from './chain/head.ts';
import type { GamePhase, ZoneChallengeRecord } from './chain/types.ts';
import { GameCloser } from './closing.ts';
import { type DealingDeps, dealGame, markStopped } from './dealing.ts';
import { answerDispute } from './disputes.ts';
import type { DealStatus, TurnCommit } from './store/types.ts';

export interface WatcherOptions {
  pollMs: number;
  /** First block to scan when the DB has no cursor yet (the game contract's deployment block). */
  startBlock: number;
  /** This dealer's seal key, `sealPublicKey(keys.dealerKey)`: games naming another key are not ours. */
  sealPublicKey: Point;
  /** Where each tick publishes the head block it read (the reveal service's refusal cache follows it). */
  head?: ChainHead;
  /**
   * Most blocks the turn index scans in one tick (default 100,000): a first scan over a long history (an
   * upgraded dealer's backfill) is spread over ticks instead of holding up dispute answers and dealing.
   */
  maxScanBlocks?: number;
}

/**
 * Games whose turns are indexed: every tracked game that is not stopped (reveals are served until the end; a
 * settled game has no new turns, but a dealer backfilling its index after an upgrade still needs its old ones).
 */
const INDEXED: readonly DealStatus[] = ['watching', 'root-computed', 'dealt', 'published', 'settled'];

/**
 * Polls the chain: answers reveal disputes of dealt games (first: the one on-chain duty during play, with
 * a deadline), records new games for this dealer with their creation blocks (cursor persisted), indexes the
 * `TurnSubmitted` logs of tracked games (one scan per block range for all of them, cursor persisted: the
 * reveal service answers past turns from this index, never from a log scan of its own), deals games whose
 * sealed shares are all in, publishes secrets of ended games (with the zone roots), answers their audit's zone
 * challenges, notes games the chain stopped, and closes games whose deadlines allow it, withdrawing the bonds
 * (closing.ts). Ticks never overlap; a failure in one game does
 * not hold up the others.
 */
export class ChainWatcher {
  readonly #d: DealingDeps;
  readonly #o: WatcherOptions;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;
  readonly #closer: GameCloser;
  /** Next block to scan for `ZoneChallenged` logs (null: from the oldest published game's creation block). */
  #challengeCursor: number | null = null;
  /** Zone challenges of this dealer's games seen in the logs and not yet closed, by `gameId/seat`. */
  readonly #challenges = new Map<string, ZoneChallengeRecord>();
  /** Set once every tracked game has its creation block (after the one-time backfill of older rows). */
  #createdBlocksKnown = false;

  constructor(d: DealingDeps, o: WatcherOptions) {
    this.#d = d;
    this.#o = o;
    this.#log = d.log.child({ component: 'watcher' });
    this.#closer = new GameCloser(d);
  }

  async tick(): Promise<void> {
    const { chain, store } = this.#d;
    const head = await chain.headBlock();
    let indexedTo: number | null = null;
    try {
      await this.#followDealt();
      const from = ((await store.getCursor()) ?? this.#o.startBlock - 1) + 1;
      if (head >= from) {
        for (const { gameId, block } of await chain.gamesCreated(from, head)) {
          const known = await store.getGame(gameId);
          if (known) {
            // Seen again (the re-org overlap), or tracked without its creation block: fill that in.
            if (known.createdBlock === null) await store.updateGame(gameId, { createdBlock: block });
            continue;
          }
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
            createdBlock: block,
          });
          this.#log.info({ gameId: gameId.toString(), createdBlock: block }, 'tracking new game');
        }
        await store.setCursor(head);
      }
      try {
        await this.#backfillCreatedBlocks();
        indexedTo = await this.#indexTurns(head);
      } catch (e) {
        this.#log.warn({ err: (e as Error).message }, 'indexing turns failed; will retry next tick');
      }
    } finally {
      // Published once this tick's index is in: a refusal cached from now on saw the index this far.
      this.#o.head?.set(head, indexedTo ?? undefined);
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
    try {
      await this.#closer.tick();
    } catch (e) {
      this.#log.warn({ err: (e as Error).message }, 'closing games failed; will retry next tick');
    }
  }

  /**
   * Games tracked before creation blocks were stored have none: one `GameCreated` scan from the start block
   * finds them all, once (a game it does not find gets the start block, a safe lower bound, so the scan is
   * never repeated, not even after a restart).
   */
  async #backfillCreatedBlocks(): Promise<void> {
    if (this.#createdBlocksKnown) return;
    const { chain, store } = this.#d;
    const missing = (await store.listGames()).filter((g) => g.createdBlock === null);
    const cursor = await store.getCursor();
    if (missing.length > 0 && cursor !== null) {
      const found = new Map(
        (await chain.gamesCreated(this.#o.startBlock, cursor)).map((g) => [g.gameId.toString(), g.block]),
      );
      for (const g of missing) {
        await store.updateGame(g.gameId, {
          createdBlock: found.get(g.gameId.toString()) ?? this.#o.startBlock,
        });
      }
      this.#log.info({ games: missing.length }, 'creation blocks of tracked games backfilled from the chain');
    }
    this.#createdBlocksKnown = true;
  }

  /**
   * Extends the turn index by up to `maxScanBlocks` blocks towards `head` (never past the game cursor, so
   * every game created in the scanned blocks is already tracked), storing the logs of tracked games with the
   * new turn cursor in one transaction. The first scan starts at the oldest indexed game's creation block
   * (an upgraded dealer backfills its history once); later ones where the last stopped.
   */
  async #indexTurns(head: number): Promise<number | null> {
    const { chain, store } = this.#d;
    const gamesCursor = await store.getCursor();
    if (gamesCursor === null) return null;
    const to = Math.min(head, gamesCursor);
    const games = await store.listGames(INDEXED);
    const cursor = await store.getTurnCursor();
    let from: number;
    if (cursor !== null) from = cursor + 1;
    else if (games.length > 0) {
      from = Math.min(...games.map((g) => g.createdBlock ?? this.#o.startBlock));
    } else {
      // Nothing tracked yet: the index starts complete here (a game found later has no turns before its root).
      await store.putTurnCommits([], to);
      return to;
    }
    if (from > to) return cursor;
    const hi = Math.min(to, from + (this.#o.maxScanBlocks ?? 100_000) - 1);
    const tracked = new Set(games.map((g) => g.gameId.toString()));
    const turns: TurnCommit[] = (await chain.turnsSubmitted(from, hi)).filter((t) =>
      tracked.has(t.gameId.toString()),
    );
    await store.putTurnCommits(turns, hi);
    if (turns.length > 0 || hi < to) {
      this.#log.debug({ from, to: hi, turns: turns.length, behind: to - hi }, 'turns indexed');
    }
    return hi;
  }

  /**
   * Published games' audit zone challenges answered first (one log scan for all), then dealt games: disputes
   * answered, ended games' secrets published, a root a re-org dropped posted again, stopped games noted.
   */
  async #followDealt(): Promise<void> {
    const { chain, store } = this.#d;
    try {
      await this.#answerZoneChallenges();
    } catch (e) {
      this.#log.error(
        { err: (e as Error).message },
        'finding audit zone challenges failed; will retry next tick',
      );
    }
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
        else if (phase === 'dealing') {
          // The root was posted, then dropped by a re-org (only the dealer posts it): this tick's deal step
          // posts the same root again before the root deadline would force the game open.
          await store.updateGame(gameId, { status: 'root-computed' });
          this.#log.warn(
            { gameId: gameId.toString() },
            'posted root no longer on-chain (re-org): posting again',
          );
        } else if (phase === 'cancelled' || phase === 'forced-open') {
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
    // Published only once confirmed: a re-org that drops the publish leaves the game dealt and in the Secrets
    // phase, so a later tick sends it again (nobody else may: a dropped publish would slash this dealer).
    if (!(await chain.secretsPublished(gameId, true))) return;
    await store.updateGame(gameId, { status: 'published' });
    this.#log.info({ gameId: gameId.toString() }, 'secrets published for the audit');
  }

  /**
   * Published games: their audit's zone challenges, found with their leaves by one `ZoneChallenged` log scan a
   * tick for all games (the first from the oldest published game's creation block), and answered; a challenge
   * is watched (and answered again if need be) until it is closed at the confirmed block, so that neither a failed
   * answer nor one dropped by a re-org leaves it unanswered. Nothing is read while no game is published.
   */
  async #answerZoneChallenges(): Promise<void> {
    const { chain, store } = this.#d;
    const tracked = await store.listGames(['dealt', 'published']);
    const published = tracked.filter((g) => g.status === 'published');
    if (published.length === 0) {
      this.#challengeCursor = null;
      this.#challenges.clear();
      return;
    }
    const from =
      this.#challengeCursor ?? Math.min(...published.map((g) => g.createdBlock ?? this.#o.startBlock));
    const found = await chain.zoneChallenges(from);
    // The scan overlaps the last one (re-orgs): a seat's later log replaces the one kept.
    for (const c of found.challenges) this.#challenges.set(`${c.gameId}/${c.seat}`, c);
    this.#challengeCursor = found.toBlock + 1;
    const ours = new Set(published.map((g) => g.gameId.toString()));
    // A dealt game with a challenge: its publish waits for its confirmations; answered once it is published.
    const pending = new Set(tracked.filter((g) => g.status === 'dealt').map((g) => g.gameId.toString()));
    const byGame = new Map<string, ZoneChallengeRecord[]>();
    for (const [key, c] of this.#challenges) {
      const id = c.gameId.toString();
      if (!ours.has(id)) {
        if (!pending.has(id)) this.#challenges.delete(key);
        continue;
      }
      byGame.set(id, [...(byGame.get(id) ?? []), c]);
      this.#challenges.delete(key);
    }
    for (const [id, posted] of byGame) {
      let watch = posted;
      try {
        watch = await answerZoneChallenges(this.#d, BigInt(id), posted);
      } catch (e) {
        this.#log.error(
          { gameId: id, err: (e as Error).message },
          'answering an audit zone challenge failed; will retry next tick',
        );
      }
      for (const c of watch) this.#challenges.set(`${c.gameId}/${c.seat}`, c);
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
