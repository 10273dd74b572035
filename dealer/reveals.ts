import { createSecretKey } from 'node:crypto';
import { recoverAddress, type TypedDataDomain } from 'ethers';
import { leafCoord } from '../core/geometry.ts';
import {
  FIELD_MODULUS,
  type Hasher,
  InputError,
  playCommitment,
  revealCommitment,
  toField,
} from '../core/index.ts';
import { recoverReceiptSigner } from '../core/reveal-receipt.ts';
import {
  type RevealSessionMessage,
  revealSessionDigest,
  sessionKeyHash,
  sessionMacKey,
} from '../core/reveal-session.ts';
import { shippedRuleset } from '../core/ruleset/shipped.ts';
import {
  type RevealRequestMessage,
  RevealSignatureVerifier,
  revealDomain,
  type SignatureCheck,
} from './auth.ts';
import { type CacheLimits, cacheLimits } from './cache-limits.ts';
import { type ChainView, IN_LOGS } from './chain/types.ts';
import { DealerError } from './errors.ts';
import { Lru } from './lru.ts';
import type { MapCache } from './maps.ts';
import type { PlayerRateLimiter } from './rate-limit.ts';
import { canonicalSignature } from './receipts.ts';
import { macMatches, SessionTable } from './sessions.ts';
import { type DealerStore, type GameRecord, ROOT_POSTED } from './store/types.ts';

/** The request body as it arrives, after the JSON schema checked its shape. */
export interface RevealRequestBody {
  gameId: string;
  player: string;
  turn: number;
  leaves: number[];
  blinding: string;
  /** Decimal or 0x-hex field element: the state commitment S that, with the reveal list, opens the turn's C. */
  stateCommit: string;
  nonce: string;
  expiry: number;
  signature: string;
}

export interface RevealDeps {
  h: Hasher;
  chain: ChainView;
  store: DealerStore;
  maps: MapCache;
  chainId: bigint;
  /** Furthest ahead a request's expiry may be, in seconds (bounds how long nonces must be kept). */
  maxExpirySeconds: number;
  /** Longest session, in seconds (at most core MAX_SESSION_SECONDS). */
  maxSessionSeconds: number;
  sessions?: SessionTable;
  /** Unix seconds. */
  now: () => number;
  onServed?: () => void;
  /**
   * The confirmed head block and turn-index reach as last published by the chain watcher
   * (dealer/chain/head.ts). What the `playCommitment` view answered (a value a combat answer may replace, or
   * none at all when the turn index cannot settle it either) is cached until its `epoch` changes, so a request
   * replayed any number of times reads the chain at most once per block. Without it, view answers are not
   * cached.
   */
  head?: { readonly epoch: number };
  /** Per-player token buckets, taken after authentication (none: no per-player limit). */
  limiter?: PlayerRateLimiter;
  /** Bounds of the service's caches (config `caches`); DEFAULT_CACHE_LIMITS when absent. */
  caches?: CacheLimits;
  /** Signature checker; defaults to RevealSignatureVerifier. Injectable for tests and the bench's diagnostics. */
  signatures?: {
    check(
      domain: TypedDataDomain,
      msg: RevealRequestMessage,
      signature: string,
      claimed: string,
    ): SignatureCheck;
  };
}

/** `POST /v1/games/:gameId/sessions` body. */
export interface SessionRequestBody {
  gameId: string;
  player: string;
  /** 0x-hex, 32 bytes: the client-random session key (sent once; hashed for the signed message). */
  sessionKey: string;
  expiry: number;
  nonce: string;
  signature: string;
}

/** `POST /v1/games/:gameId/session-reveals` body. */
export interface SessionRevealBody {
  sessionId: string;
  turn: number;
  leaves: number[];
  blinding: string;
  /** As RevealRequestBody.stateCommit. */
  stateCommit: string;
  nonce: string;
  expiry: number;
  mac: string;
}

/** `POST /v1/games/:gameId/receipts` body (client/sdk/dealer-client.ts `sendReceipt`). */
export interface ReceiptBody {
  player: string;
  turn: number;
  /** Decimal or 0x-hex uint256: the turn's reveal commitment R (what the receipt signs). */
  revealCommit: string;
  /**
   * Decimal or 0x-hex field element, not signed: the state commitment S with which R opens the turn's on-chain
   * play commitment, Poseidon(S, R, mapRoot) (mapRoot: the game's root this dealer posted, never sent).
   */
  stateCommit: string;
  /** EIP-712 `RevealReceipt` signature, 65 bytes. */
  signature: string;
}

/** A game record whose map root is confirmed on-chain (RevealService `#game`): `root` is set. */
type DealtGame = GameRecord & { root: bigint };

const UINT256 = 1n << 256n;

function parseUint256(v: string, field: string): bigint {
  if (!/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(v)) {
    throw new DealerError(400, 'invalid-request', `${field}: not a decimal or 0x-hex uint256`, field);
  }
  const n = BigInt(v);
  if (n >= UINT256) throw new DealerError(400, 'invalid-request', `${field}: exceeds uint256`, field);
  return n;
}

/**
 * `s` as UTF-8 in a buffer of exactly its size, for answers kept in a cache. `Buffer.from(string)` slices a
 * shared 64 KB pool, or (above a few KB) makes a 64 KB one of its own: each cached ~8 KB answer pinned
 * 64 KB outside the heap (the soak bench's external memory).
 */
function ownBytes(s: string): Buffer {
  const b = Buffer.allocUnsafeSlow(Buffer.byteLength(s));
  b.write(s); // every byte written: nothing of the uninitialized allocation remains
  return b;
}

function parseField(v: string, field: string): bigint {
  try {
    return toField(v, field);
  } catch (e) {
    if (e instanceof InputError) throw new DealerError(400, 'invalid-request', e.message, field);
    throw e;
  }
}

/**
 * Serves one signed reveal request. Every check runs before the nonce is burned, so a refused request
 * changes nothing; the answer is only ever the opened leaves, from the cached tree.
 * Returns the response body, already serialized to bytes.
 */
/** The 404 for a turn with no on-chain play commitment (yet): clients retry. */
function unknownTurn(turn: number): DealerError {
  return new DealerError(404, 'unknown-turn', `turn: no play commitment on-chain for turn ${turn}`, 'turn');
}

export class RevealService {
  readonly #d: RevealDeps;
  // Every cache below is bounded (dealer/lru.ts, sizes from RevealDeps.caches) and only saves work: an
  // evicted entry is read again from the store or the chain, or recomputed. None of them guards a nonce.
  /**
   * Play commitment per (game, player, turn) as its `TurnSubmitted` log has it (from the turn index): final
   * once logged, so safe to cache.
   */
  readonly #logged: Lru<string, bigint>;
  /**
   * What the `playCommitment` view answered per (game, player, turn) as of head epoch `#epochAt` (null: none,
   * or an earlier turn than the player's latest). Not final: a combat answer replaces a seat's stored value.
   */
  readonly #viewed: Lru<string, bigint | null>;
  /** (game, player, turn) the turn index did not have as of head epoch `#epochAt` (it grows only with the epoch). */
  readonly #misses: Lru<string, true>;
  /** (game, player, turn) that never had a play commitment: the turn index holds a later turn of the player. */
  readonly #never: Lru<string, true>;
  #epochAt = Number.NaN;
  /** Turn-index and view lookups in flight (deleted when done, so bounded by the requests in flight). */
  readonly #indexLookups = new Map<string, Promise<{ value: bigint | null; later: boolean }>>();
  readonly #viewLookups = new Map<string, Promise<bigint | null>>();
  /** (game, player, turn) already recorded as served: re-fetches skip the write. */
  readonly #recorded: Lru<string, true>;
  /** (game, player, turn) whose receipt is stored: re-posts skip the write. */
  readonly #receipted: Lru<string, true>;
  readonly #signatures: NonNullable<RevealDeps['signatures']>;
  /** Games whose root is confirmed, as of the current head epoch (a force-open or a re-org changes a record). */
  readonly #dealt: Lru<string, DealtGame>;
  /** Serialized answers of verified openings (see #opening). */
  readonly #openings: Lru<string, Buffer>;
  readonly #sessions: SessionTable;

  constructor(d: RevealDeps) {
    this.#d = d;
    const c = d.caches ?? cacheLimits();
    this.#signatures = d.signatures ?? new RevealSignatureVerifier(c.signers);
    this.#sessions = d.sessions ?? new SessionTable({ maxSessions: c.sessions, now: d.now });
    this.#logged = new Lru({ max: c.entries });
    this.#viewed = new Lru({ max: c.entries });
    this.#misses = new Lru({ max: c.entries });
    this.#never = new Lru({ max: c.entries });
    this.#recorded = new Lru({ max: c.entries });
    this.#receipted = new Lru({ max: c.entries });
    this.#dealt = new Lru({ max: c.games });
    this.#openings = new Lru({ max: c.openings });
  }

  /** Entries per cache, for the `shroud_dealer_cache_entries` gauge and the soak bench. */
  cacheSizes(): Record<string, number> {
    const signers = this.#signatures instanceof RevealSignatureVerifier ? this.#signatures.size : 0;
    return {
      'reveal-commitments': this.#logged.size,
      'reveal-viewed': this.#viewed.size,
      'reveal-misses': this.#misses.size,
      'reveal-never': this.#never.size,
      'reveal-recorded': this.#recorded.size,
      'reveal-receipted': this.#receipted.size,
      'reveal-lookups': this.#indexLookups.size + this.#viewLookups.size,
      'dealt-games': this.#dealt.size,
      openings: this.#openings.size,
      signers,
      ...this.#sessions.cacheSizes(),
      ...(this.#d.limiter ? { 'rate-buckets': this.#d.limiter.size } : {}),
    };
  }

  /**
   * The game's record, if its map root is confirmed on-chain: its `root` is then the root this dealer computed
   * and posted, which the chain holds (dealer/dealing.ts checks the chain's root against it, and the watcher
   * moves the record back to root-computed when a re-org drops it). Every seat of a game this dealer serves
   * spawned under that root, so its play commitments bind it (core/state.ts `playCommitment`); after a
   * force-open (the only way a seat plays on another root) nothing is served.
   */
  async #game(gameId: bigint): Promise<DealtGame> {
    this.#syncEpoch();
    const hit = this.#dealt.get(gameId.toString());
    if (hit) return hit;
    const game = await this.#d.store.getGame(gameId);
    if (!game)
      throw new DealerError(404, 'unknown-game', `gameId: no game ${gameId} at this dealer`, 'gameId');
    if (game.status === 'forced-open') {
      throw new DealerError(
        409,
        'forced-open',
        'gameId: the game was force-opened: its map is public (regenerate it from the on-chain seed)',
        'gameId',
      );
    }
    // A settled game's map is public (its secrets were published): its tiles are still served, as after play.
    // A posted game always has its root (stored at root-computed); a record without one is served nothing.
    if (!ROOT_POSTED.includes(game.status) || game.root === null) {
      throw new DealerError(409, 'root-not-posted', 'gameId: the map root is not posted yet', 'gameId');
    }
    const dealt: DealtGame = { ...game, root: game.root };
    this.#dealt.set(gameId.toString(), dealt);
    return dealt;
  }

  /** Per-request EIP-712 route (what the SDK uses today). The nonce is burned durably before answering. */
  async serve(urlGameId: string, body: RevealRequestBody): Promise<Buffer> {
    const d = this.#d;
    const gameId = parseField(urlGameId, 'gameId');
    if (parseField(body.gameId, 'gameId') !== gameId) {
      throw new DealerError(400, 'invalid-request', 'gameId: body and URL name different games', 'gameId');
    }
    const blinding = parseField(body.blinding, 'blinding');
    const stateCommit = parseField(body.stateCommit, 'stateCommit');
    const nonce = parseUint256(body.nonce, 'nonce');
    const now = d.now();
    this.#checkExpiry(body.expiry, now, now + d.maxExpirySeconds);

    const game = await this.#game(gameId);

    const player = body.player.toLowerCase();
    const msg: RevealRequestMessage = {
      gameId,
      player: body.player,
      turn: body.turn,
      leaves: body.leaves,
      blinding,
      stateCommit,
      nonce,
      expiry: body.expiry,
    };
    // Who plays is public: a stranger is refused before any signature work (a recovered key is cached, and its
    // tables cost ~60 ms to build: throwaway keys must not evict the players' or hold the event loop).
    if (!game.players.includes(player)) {
      throw new DealerError(403, 'not-a-player', 'player: not a player of this game', 'player');
    }
    const sig = this.#signatures.check(revealDomain(d.chainId, game.contract), msg, body.signature, player);
    if (sig === 'malformed') {
      throw new DealerError(
        401,
        'bad-signature',
        'signature: not a valid low-s secp256k1 signature',
        'signature',
      );
    }
    if (sig === 'not-signer') {
      throw new DealerError(401, 'bad-signature', 'signature: not signed by player', 'signature');
    }
    this.#limit(player);

    const payload = await this.#opening(gameId, player, body.turn, body.leaves, blinding, stateCommit);
    if (!(await d.store.burnNonce(player, nonce, body.expiry))) {
      throw new DealerError(409, 'nonce-replayed', 'nonce: already used', 'nonce');
    }
    await this.#record(gameId, player, body.turn, body.leaves, blinding);
    d.onServed?.();
    return payload;
  }

  /**
   * Opens a session: one EIP-712 signature (recovered here, once per session) binds keccak256 of the
   * session key; the creation nonce is burned durably like a request nonce.
   */
  async createSession(urlGameId: string, body: SessionRequestBody): Promise<string> {
    const d = this.#d;
    const gameId = parseField(urlGameId, 'gameId');
    if (parseField(body.gameId, 'gameId') !== gameId) {
      throw new DealerError(400, 'invalid-request', 'gameId: body and URL name different games', 'gameId');
    }
    const nonce = parseUint256(body.nonce, 'nonce');
    const now = d.now();
    this.#checkExpiry(body.expiry, now, now + d.maxSessionSeconds);
    const game = await d.store.getGame(gameId);
    if (!game)
      throw new DealerError(404, 'unknown-game', `gameId: no game ${gameId} at this dealer`, 'gameId');
    const key = Buffer.from(body.sessionKey.slice(2), 'hex');
    const msg: RevealSessionMessage = {
      gameId,
      player: body.player,
      sessionKeyHash: sessionKeyHash(key),
      expiry: body.expiry,
      nonce,
    };
    const domain = revealDomain(d.chainId, game.contract);
    const sessionId = revealSessionDigest(domain, msg);
    let signer: string;
    try {
      signer = recoverAddress(sessionId, body.signature).toLowerCase();
    } catch {
      throw new DealerError(401, 'bad-signature', 'signature: not a valid secp256k1 signature', 'signature');
    }
    const player = body.player.toLowerCase();
    if (signer !== player) {
      throw new DealerError(401, 'bad-signature', 'signature: not signed by player', 'signature');
    }
    if (!game.players.includes(player)) {
      throw new DealerError(403, 'not-a-player', 'player: not a player of this game', 'player');
    }
    this.#limit(player);
    if (!(await d.store.burnNonce(player, nonce, body.expiry))) {
      throw new DealerError(409, 'nonce-replayed', 'nonce: already used', 'nonce');
    }
    this.#sessions.add({
      id: sessionId,
      gameId,
      player,
      expiry: body.expiry,
      macKey: createSecretKey(sessionMacKey(key, sessionId)),
    });
    return JSON.stringify({ sessionId, gameId: gameId.toString(), player, expiry: body.expiry });
  }

  /**
   * Session route: HMAC instead of a signature, an in-memory nonce burn (see SessionTable for why that
   * is restart-safe), and the cached payload of an already verified opening. No await on the hot path
   * once the opening is cached.
   */
  async serveSession(urlGameId: string, body: SessionRevealBody): Promise<Buffer> {
    const d = this.#d;
    const now = d.now();
    const session = this.#sessions.get(body.sessionId.toLowerCase());
    if (!session) {
      throw new DealerError(401, 'unknown-session', 'sessionId: unknown or expired session', 'sessionId');
    }
    const gameId = parseField(urlGameId, 'gameId');
    if (session.gameId !== gameId) {
      throw new DealerError(401, 'unknown-session', 'sessionId: not a session of this game', 'sessionId');
    }
    const blinding = parseField(body.blinding, 'blinding');
    const stateCommit = parseField(body.stateCommit, 'stateCommit');
    const nonce = parseUint256(body.nonce, 'nonce');
    // The MAC covers stateCommit too (core/reveal-session.ts, shroud-reveal/v2).
    const m = {
      sessionId: session.id,
      gameId,
      turn: body.turn,
      leaves: body.leaves,
      blinding,
      stateCommit,
      nonce,
      expiry: body.expiry,
    };
    if (!macMatches(session.macKey, m, body.mac)) {
      throw new DealerError(401, 'bad-mac', 'mac: does not match the request under this session', 'mac');
    }
    this.#limit(session.player);
    this.#checkExpiry(body.expiry, now, Math.min(now + d.maxExpirySeconds, session.expiry));
    const payload = await this.#opening(
      gameId,
      session.player,
      body.turn,
      body.leaves,
      blinding,
      stateCommit,
    );
    const burned = this.#sessions.burn(session, nonce.toString(), body.expiry);
    if (burned === 'replayed') throw new DealerError(409, 'nonce-replayed', 'nonce: already used', 'nonce');
    if (burned === 'full') {
      throw new DealerError(
        429,
        'session-exhausted',
        'sessionId: too many requests; open a new session',
        'sessionId',
      );
    }
    await this.#record(gameId, session.player, body.turn, body.leaves, blinding);
    d.onServed?.();
    return payload;
  }

  /**
   * Keeps a player's receipt for a turn it was served (`RevealReceipt`, core/reveal-receipt.ts): with it, the
   * dealer answering a later dispute of that turn shows the dispute false and keeps the deposit. Checked
   * before it is stored: a canonical signature (the form the contract accepts) by `player` under this dealer's
   * domain, `player` a player of the game, the player's per-player budget, and `revealCommit` the turn's
   * reveal commitment R: with the `stateCommit` sent along it must open the turn's on-chain play commitment,
   * Poseidon(stateCommit, revealCommit, mapRoot), mapRoot the game's confirmed root from its record (never from
   * the request; looked up like a reveal's: cached, the turn index, at most one chain read per block). The first
   * receipt stored stays; a re-post answers 200 again.
   */
  async receipt(urlGameId: string, body: ReceiptBody): Promise<Buffer> {
    const d = this.#d;
    const gameId = parseField(urlGameId, 'gameId');
    const revealCommit = parseUint256(body.revealCommit, 'revealCommit');
    const stateCommit = parseField(body.stateCommit, 'stateCommit');
    const game = await this.#game(gameId);
    const player = body.player.toLowerCase();
    const signature = canonicalSignature(body.signature);
    if (signature === null) {
      throw new DealerError(
        401,
        'bad-signature',
        'signature: not a valid low-s secp256k1 signature (r ‖ s ‖ v, v 27/28)',
        'signature',
      );
    }
    let signer: string;
    try {
      signer = recoverReceiptSigner(
        revealDomain(d.chainId, game.contract),
        { gameId, turn: body.turn, revealCommit },
        signature,
      );
    } catch {
      throw new DealerError(401, 'bad-signature', 'signature: not a valid secp256k1 signature', 'signature');
    }
    if (signer !== player) {
      throw new DealerError(401, 'bad-signature', 'signature: not signed by player', 'signature');
    }
    if (!game.players.includes(player)) {
      throw new DealerError(403, 'not-a-player', 'player: not a player of this game', 'player');
    }
    this.#limit(player);
    // An R at or above the field modulus opens nothing (no proof can have committed to it): refused without I/O.
    const opened =
      revealCommit < FIELD_MODULUS
        ? await this.#opens(
            gameId,
            player,
            body.turn,
            playCommitment(d.h, stateCommit, revealCommit, game.root),
          )
        : 'mismatch';
    if (opened === 'unknown-turn') throw unknownTurn(body.turn);
    if (opened === 'mismatch') {
      throw new DealerError(
        409,
        'receipt-mismatch',
        `revealCommit: with stateCommit, does not open the on-chain play commitment of turn ${body.turn}`,
        'revealCommit',
      );
    }
    const key = `${gameId}:${player}:${body.turn}`;
    let stored = false;
    if (!this.#receipted.has(key)) {
      stored = await d.store.putReceipt({ gameId, player, turn: body.turn, revealCommit, signature });
      this.#receipted.set(key, true);
    }
    return Buffer.from(
      JSON.stringify({
        gameId: gameId.toString(),
        player,
        turn: body.turn,
        revealCommit: revealCommit.toString(),
        stored: stored ? 'new' : 'already-stored',
      }),
    );
  }

  /** Drops expired sessions and nonces (app.ts runs it every minute). */
  pruneSessions(): void {
    this.#sessions.prune();
  }

  /** One token of the player's budget; called only once the request is authenticated as `player`'s. */
  #limit(player: string): void {
    const wait = this.#d.limiter?.take(player) ?? 0;
    if (wait > 0) {
      throw new DealerError(
        429,
        'rate-limited',
        `player: over this player's request budget; retry in ${wait} s`,
        'player',
        wait,
      );
    }
  }

  #checkExpiry(expiry: number, now: number, latest: number): void {
    if (expiry <= now) throw new DealerError(401, 'expired', 'expiry: the request has expired', 'expiry');
    if (expiry > latest) {
      throw new DealerError(400, 'invalid-request', `expiry: more than ${latest - now} s ahead`, 'expiry');
    }
  }

  /**
   * The serialized answer for a verified opening. Cached per (game, player, turn, leaves, blinding,
   * stateCommit): a re-fetch skips the Poseidon checks and the serialization. Only verified openings are
   * cached (a wrong guess costs the guesser two Poseidons, never memory here), and the cache is bounded. An
   * opening verified against the seat's stored play commitment stays good after a combat answer replaced it:
   * the reveal list (R) is the same, and it opened an on-chain commitment of that turn.
   */
  async #opening(
    gameId: bigint,
    player: string,
    turn: number,
    leaves: number[],
    blinding: bigint,
    stateCommit: bigint,
  ): Promise<Buffer> {
    const key = `${gameId}:${player}:${turn}:${leaves.join(',')}:${blinding}:${stateCommit}`;
    const hit = this.#openings.get(key);
    if (hit !== undefined) return hit;
    const d = this.#d;
    const game = await this.#game(gameId);
    if (!game.players.includes(player)) {
      throw new DealerError(403, 'not-a-player', 'player: not a player of this game', 'player');
    }
    // The opening is checked before the map is touched: building an uncached map holds the event loop (0.35 s on
    // duel, 1.5 s on standard), so only a request that opens an on-chain commitment may cause one.
    const ruleset = shippedRuleset(game.ruleset);
    if (leaves.length > ruleset.maxRevealedTiles) {
      throw new DealerError(400, 'invalid-request', `leaves: at most ${ruleset.maxRevealedTiles}`, 'leaves');
    }
    leaves.forEach((leaf, i) => {
      if (leafCoord(ruleset.board, leaf) === null) {
        throw new DealerError(
          400,
          'invalid-request',
          `leaves.${i}: ${leaf} is not an on-board leaf`,
          `leaves.${i}`,
        );
      }
    });
    const revealCommit = revealCommitment(d.h, leaves, ruleset.maxRevealedTiles, blinding);
    // Bound to the game's confirmed root (#game), never one from the request: an opening under any other root
    // (or the two-input form of before) is the same mismatch as any wrong opening.
    const opened = await this.#opens(
      gameId,
      player,
      turn,
      playCommitment(d.h, stateCommit, revealCommit, game.root),
    );
    if (opened === 'unknown-turn') throw unknownTurn(turn);
    if (opened === 'mismatch') {
      throw new DealerError(
        403,
        'opening-mismatch',
        "leaves: leaves, blinding and stateCommit do not open the turn's play commitment",
        'leaves',
      );
    }
    const map = await d.maps.get(gameId);
    const tiles = leaves.map((leaf) => map.entries.get(leaf)!).join(',');
    // Bytes, not a string: the socket write then skips a UTF-8 encode of several KB per request.
    const payload = ownBytes(
      `{"gameId":"${gameId}","player":"${player}","turn":${turn},"root":"${map.root}","tiles":[${tiles}]}`,
    );
    this.#openings.set(key, payload);
    return payload;
  }

  async #record(gameId: bigint, player: string, turn: number, leaves: number[], blinding: bigint) {
    const servedKey = `${gameId}:${player}:${turn}`;
    if (this.#recorded.has(servedKey)) return;
    await this.#d.store.recordReveal({ gameId, player, turn, leaves, blinding });
    this.#recorded.set(servedKey, true);
  }

  /**
   * Whether `claimed` (Poseidon(stateCommit, revealCommit, mapRoot) of an opening, mapRoot the game's confirmed
   * root) is an on-chain play commitment of the player's `turn`: the one its `TurnSubmitted` log has (final), or
   * the one its seat stores now, which a combat answer replaces by Poseidon(S', R, mapRoot) without a new turn
   * (so a player may open the turn with the state commitment of its proof or its current one; both bind the same
   * reveal list R and root).
   *
   * Looked up at most once per (game, player, turn) once logged or settled, and at most once per head block
   * while not: the store's turn index (the watcher's scan of `TurnSubmitted` logs) first: a past turn is
   * answered there, or refused for good when the index holds a later turn of the player, without touching the
   * chain. Only a turn the index lacks (or whose logged value the opening does not match) at or above the
   * player's latest indexed one costs a chain read: the contract's `playCommitment` view (one eth_call, never
   * a log scan), which answers the latest turn only. Its answer, a refusal included, is remembered until the
   * watcher sees a new block (RevealDeps.head); a past turn the index has not caught up with yet is refused
   * until then. Concurrent lookups share one. Only authenticated players of the game get here, and every
   * cache is bounded.
   */
  async #opens(
    gameId: bigint,
    player: string,
    turn: number,
    claimed: bigint,
  ): Promise<'ok' | 'unknown-turn' | 'mismatch'> {
    const key = `${gameId}:${player}:${turn}`;
    this.#syncEpoch();
    let logged = this.#logged.get(key) ?? null;
    if (logged === claimed) return 'ok';
    if (logged === null) {
      if (this.#never.has(key)) return 'unknown-turn';
      if (!this.#misses.has(key)) {
        const indexed = await this.#indexed(key, gameId, player, turn);
        // A later turn is indexed and this one is not: it never existed (the view has it in the logs anyway).
        if (indexed.later) return 'unknown-turn';
        logged = indexed.value;
        if (logged === claimed) return 'ok';
      }
    }
    const viewed = await this.#view(key, gameId, player, turn);
    if (viewed !== null && viewed === claimed) return 'ok';
    // Before the turn's log is indexed, only the seat's current value can be checked: after a combat answer that
    // is Poseidon(S', R, mapRoot), so the SDK retries a refused opening with its current state commitment.
    return logged === null && viewed === null ? 'unknown-turn' : 'mismatch';
  }

  /** Clears what holds only for one head epoch when it changed; returns the current epoch. */
  #syncEpoch(): number | undefined {
    const head = this.#d.head?.epoch;
    if (head !== undefined && head !== this.#epochAt) {
      // A new block or index: every view answer and refusal may be stale (an invalidation, not a bound), and so
      // may a game record (the watcher marks a game force-opened, or back to root-computed after a re-org).
      this.#misses.clear();
      this.#viewed.clear();
      this.#dealt.clear();
      this.#epochAt = head;
    }
    return head;
  }

  /**
   * The turn index's answer: a logged value is cached for good, a turn below a later indexed one as never, and
   * a turn the index lacks until the head epoch changes (the watcher extends the index only with it).
   */
  #indexed(
    key: string,
    gameId: bigint,
    player: string,
    turn: number,
  ): Promise<{ value: bigint | null; later: boolean }> {
    const inFlight = this.#indexLookups.get(key);
    if (inFlight) return inFlight;
    const head = this.#d.head?.epoch;
    const lookup = (async () => {
      const t = await this.#d.store.indexedTurn(gameId, player, turn);
      if (t.commitment !== null) this.#logged.set(key, t.commitment);
      else if (t.laterTurnIndexed) this.#never.set(key, true);
      // Cached only if no new block or index was seen meanwhile (a read from before it might be stale).
      else if (head !== undefined && this.#d.head?.epoch === head && this.#epochAt === head) {
        this.#misses.set(key, true);
      }
      return { value: t.commitment, later: t.laterTurnIndexed };
    })();
    this.#indexLookups.set(key, lookup);
    return lookup.finally(() => this.#indexLookups.delete(key));
  }

  /**
   * The `playCommitment` view's answer (null: none, or IN_LOGS: a past turn whose log the index has not reached
   * yet, which it will within a tick or two), cached until the head epoch changes.
   */
  #view(key: string, gameId: bigint, player: string, turn: number): Promise<bigint | null> {
    const head = this.#syncEpoch();
    if (head !== undefined) {
      const hit = this.#viewed.get(key);
      if (hit !== undefined) return Promise.resolve(hit);
    }
    const inFlight = this.#viewLookups.get(key);
    if (inFlight) return inFlight;
    const lookup = (async () => {
      const v = await this.#d.chain.playCommitment(gameId, player, turn);
      const value = v === IN_LOGS ? null : v;
      // Cached only if no new block or index was seen meanwhile (a read from before it might be stale).
      if (head !== undefined && this.#d.head?.epoch === head && this.#epochAt === head) {
        this.#viewed.set(key, value);
      }
      return value;
    })();
    this.#viewLookups.set(key, lookup);
    return lookup.finally(() => this.#viewLookups.delete(key));
  }
}
