import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import { type SessionRevealMessage, sessionRevealMacInput } from '../core/reveal-session.ts';

/** One live reveal session: who it speaks for, until when, its MAC key and the nonces it has used. */
export interface Session {
  id: string;
  gameId: bigint;
  player: string;
  expiry: number;
  /** Imported once: a raw Buffer key would be re-imported by every createHmac call. */
  macKey: KeyObject;
  /** Nonce (decimal) → request expiry. Burned synchronously, before any await, so a concurrent replay sees it. */
  nonces: Map<string, number>;
}

export type NonceOutcome = 'fresh' | 'replayed' | 'full';

/**
 * Live sessions, in memory only. Deliberately not persisted: the MAC key never touches the disk, and a
 * restart drops every session, so a request answered before a crash cannot be replayed after it (its
 * session is unknown) and per-request nonces need no fsync at all. The cost: after a restart (or on
 * another process behind a non-sticky balancer) a client signs one new session. The session-creation
 * nonce itself is burned durably in the store.
 */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  /** Session ids per `${gameId}:${player}`, oldest first. */
  readonly #byPlayer = new Map<string, string[]>();
  readonly #perPlayer: number;
  readonly #maxNonces: number;

  constructor(o: { perPlayer?: number; maxNoncesPerSession?: number } = {}) {
    this.#perPlayer = o.perPlayer ?? 4;
    this.#maxNonces = o.maxNoncesPerSession ?? 200_000;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Adds a session; a player's oldest live session is evicted beyond `perPlayer` (bounds memory). */
  add(s: Session): void {
    if (this.#sessions.has(s.id)) return;
    const k = `${s.gameId}:${s.player}`;
    const ids = (this.#byPlayer.get(k) ?? []).filter((id) => this.#sessions.has(id));
    ids.push(s.id);
    while (ids.length > this.#perPlayer) this.#sessions.delete(ids.shift()!);
    this.#byPlayer.set(k, ids);
    this.#sessions.set(s.id, s);
  }

  /** The live session, or undefined if unknown or expired at `now`. */
  get(id: string, now: number): Session | undefined {
    const s = this.#sessions.get(id);
    if (!s) return undefined;
    if (s.expiry <= now) {
      this.#sessions.delete(id);
      return undefined;
    }
    return s;
  }

  /** Burns `nonce` in `s`. Expired entries are swept when the set grows, so memory follows the live window. */
  burn(s: Session, nonce: string, expiry: number, now: number): NonceOutcome {
    if (s.nonces.has(nonce)) return 'replayed';
    if (s.nonces.size >= this.#maxNonces) {
      for (const [n, exp] of s.nonces) if (exp < now) s.nonces.delete(n);
      if (s.nonces.size >= this.#maxNonces) return 'full';
    }
    s.nonces.set(nonce, expiry);
    return 'fresh';
  }

  /** Drops expired sessions. */
  prune(now: number): void {
    for (const [id, s] of this.#sessions) if (s.expiry <= now) this.#sessions.delete(id);
    for (const [k, ids] of this.#byPlayer) {
      const live = ids.filter((id) => this.#sessions.has(id));
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
