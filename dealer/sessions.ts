import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import { type SessionRevealMessage, sessionRevealMacInput } from '../core/reveal-session.ts';
import { DEFAULT_CACHE_LIMITS } from './cache-limits.ts';
import { Lru } from './lru.ts';

/** One live reveal session: who it speaks for, until when, its MAC key and the nonces it has used. */
export interface Session {
  id: string;
  gameId: bigint;
  player: string;
  expiry: number;
  /** Imported once: a raw Buffer key would be re-imported by every createHmac call. */
  macKey: KeyObject;
  /**
   * Nonces (decimal) burned until their request's expiry. Burned synchronously, before any await, so a
   * concurrent replay sees it. Full of live nonces, it refuses new ones (`full`): it never forgets a nonce
   * that could still be replayed.
   */
  nonces: Lru<string, true>;
}

/** What `add` takes: the session without its (new, empty) nonce memory. */
export type NewSession = Omit<Session, 'nonces'>;

export type NonceOutcome = 'fresh' | 'replayed' | 'full';

export interface SessionTableOptions {
  /** Live sessions per (game, player); a player's oldest goes beyond it (default 4). */
  perPlayer?: number;
  /**
   * Live nonces per session (default 200,000). Beyond it, requests are refused until some expire. The
   * per-player rate limit keeps a session far below it (10/s × a 600 s request lifetime = 6,000).
   */
  maxNoncesPerSession?: number;
  /** Live sessions in all (default DEFAULT_CACHE_LIMITS.sessions); the least recently used goes beyond it. */
  maxSessions?: number;
  /** Unix seconds (default: the wall clock). */
  now?: () => number;
}

/**
 * Live sessions, in memory only. Deliberately not persisted: the MAC key never touches the disk, and a
 * restart drops every session, so a request answered before a crash cannot be replayed after it (its
 * session is unknown) and per-request nonces need no fsync at all. The cost: after a restart (or on
 * another process behind a non-sticky balancer) a client signs one new session. The session-creation
 * nonce itself is burned durably in the store.
 *
 * Evicting a session (the least recently used, once `maxSessions` are live) is safe for the same reason as
 * a restart: its nonces go with its MAC key, so nothing sent under it can be replayed, and it cannot be
 * opened again (its creation nonce is burned). Its client signs a new one.
 */
export class SessionTable {
  readonly #sessions: Lru<string, Session>;
  /** Session ids per `${gameId}:${player}`, oldest first. */
  readonly #byPlayer: Lru<string, string[]>;
  readonly #perPlayer: number;
  readonly #maxNonces: number;
  readonly #now: () => number;

  constructor(o: SessionTableOptions = {}) {
    this.#perPlayer = o.perPlayer ?? 4;
    this.#maxNonces = o.maxNoncesPerSession ?? 200_000;
    this.#now = o.now ?? (() => Math.floor(Date.now() / 1000));
    const max = o.maxSessions ?? DEFAULT_CACHE_LIMITS.sessions;
    this.#sessions = new Lru({ max, now: this.#now });
    // One entry per (game, player) with a live session at most, bar stale ones that `prune` drops.
    this.#byPlayer = new Lru({ max, now: this.#now });
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Live sessions and the nonces they hold (a walk over the sessions: for metrics, not the hot path). */
  cacheSizes(): { sessions: number; 'session-nonces': number } {
    let nonces = 0;
    for (const s of this.#sessions.values()) nonces += s.nonces.size;
    return { sessions: this.#sessions.size, 'session-nonces': nonces };
  }

  /** Adds a session; a player's oldest live session is evicted beyond `perPlayer` (bounds memory). */
  add(n: NewSession): Session {
    const known = this.#sessions.peek(n.id);
    if (known) return known;
    const k = `${n.gameId}:${n.player}`;
    const ids = (this.#byPlayer.peek(k) ?? []).filter((id) => this.#sessions.peek(id) !== undefined);
    ids.push(n.id);
    while (ids.length > this.#perPlayer) this.#sessions.delete(ids.shift()!);
    this.#byPlayer.set(k, ids);
    const s: Session = {
      ...n,
      nonces: new Lru({ max: this.#maxNonces, whenFull: 'refuse', now: this.#now }),
    };
    this.#sessions.set(n.id, s, n.expiry);
    return s;
  }

  /** The live session (a use: it becomes the most recent), or undefined if unknown or expired. */
  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /**
   * Burns `nonce` in `s` until `expiry` (the request's: past it the request is refused as expired, so the
   * nonce no longer needs remembering). `full`: the session holds `maxNoncesPerSession` live nonces.
   */
  burn(s: Session, nonce: string, expiry: number): NonceOutcome {
    if (s.nonces.has(nonce)) return 'replayed';
    return s.nonces.set(nonce, true, expiry) ? 'fresh' : 'full';
  }

  /** Drops expired sessions, expired nonces of live ones, and players with no live session left. */
  prune(): void {
    this.#sessions.prune();
    for (const s of this.#sessions.values()) s.nonces.prune();
    for (const k of this.#byPlayer.keys()) {
      const live = (this.#byPlayer.peek(k) ?? []).filter((id) => this.#sessions.peek(id) !== undefined);
      if (live.length) this.#byPlayer.set(k, live);
      else this.#byPlayer.delete(k);
    }
  }
}

/**
 * Constant-time MAC check. Node's HMAC (OpenSSL) here, noble's in the SDK (core/reveal-session.ts): the
 * same HMAC-SHA256 over the same canonical bytes; the tests cross-check the two.
 */
export function macMatches(macKey: KeyObject, m: SessionRevealMessage, macHex: string): boolean {
  const want = createHmac('sha256', macKey).update(sessionRevealMacInput(m)).digest();
  const got = Buffer.from(macHex.slice(2), 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}
