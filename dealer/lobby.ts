/**
 * Lobbies: the operator configures kinds of game (ruleset, seats, stake, deposit, turn limit, bond); the
 * dealer keeps one open lobby of each. Players join with an EIP-712 `Join` (core/lobby.ts); the join that
 * takes the last seat fills the lobby and opens the next one of its kind in the same DB transaction. The
 * dealer then creates the game from its transaction key, crash-safely:
 *
 *   filled ──sign createGame, persist it (creating)──▶ broadcast ──▶ GameCreated seen (created)
 *
 * The signed transaction is stored before it is broadcast, so after a crash the very same transaction
 * (same nonce) is looked up, or broadcast again: at most one game per lobby. Only when its nonce went to
 * another transaction and no matching GameCreated exists is a new one signed. Players then commit their
 * stakes on-chain themselves, as for any game; the watcher deals it (the tx key is its dealer, the seal
 * key its seal key).
 */
import { getAddress, isHexString, Signature } from 'ethers';
import type { Logger } from 'pino';
import type { Point } from '../core/babyjub.ts';
import { InputError } from '../core/errors.ts';
import { packStartAreas } from '../core/generator/index.ts';
import type { Durations } from '../core/limits.ts';
import {
  checkJoinDeadline,
  checkJoinTerms,
  fromJoinBody,
  type JoinBody,
  type JoinMessage,
  type JoinRefusalCode,
  JoinRefusedError,
  type JoinStatusView,
  type LobbiesView,
  type LobbyView,
  lobbyDomain,
  randomBytes32,
  recoverJoinSigner,
} from '../core/lobby.ts';
import { fromLeaveBody, type LeaveBody, type LeaveView, recoverLeaveSigner } from '../core/lobby-leave.ts';
import { rulesetHash } from '../core/ruleset/hash.ts';
import { shippedRuleset, shippedRulesetNames } from '../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../core/ruleset/validate.ts';
import { createGameParams, durationsOf, type GameTerms, matchesCreate } from './chain/create-game.ts';
import { CreateGameRevert, type GameCreator } from './chain/types.ts';
import { DealerError } from './errors.ts';
import type { LobbyReads, LobbyRecord, LobbyStore, NewLobby } from './store/types.ts';

/** One configured kind of lobby (dealer/config.ts `lobbyKinds`). */
export interface LobbyKind extends GameTerms {
  name: string;
  ruleset: ValidRuleset;
  seats: number;
}

export interface LobbyDeps {
  store: LobbyStore;
  creator: GameCreator;
  chainId: bigint;
  /** The game contract: the games' home and the `Join` domain's verifying contract. */
  gameContract: string;
  /** This dealer's seal public key: the games' `sealKey`. */
  sealKey: Point;
  kinds: readonly LobbyKind[];
  log: Logger;
  /** Furthest ahead a join's deadline may be, seconds. */
  maxJoinAheadSeconds: number;
  /**
   * Most games created for lobbies that may still be waiting for their players (default
   * DEFAULT_MAX_PENDING_GAMES): a join that would fill a lobby beyond it is refused (503 `lobbies-busy`),
   * bounding what free addresses that never commit cost the dealer in createGame gas and locked bonds.
   */
  maxPendingGames?: number;
  /** Unix seconds. */
  now: () => number;
  /** How often a creation in flight is followed up (ms; default 2000). */
  pollMs?: number;
}

/** HTTP status per refusal of core/lobby.ts: an expired join is stale (401, as reveal requests); a mismatch conflicts. */
const REFUSAL_STATUS: Record<JoinRefusalCode, number> = {
  expired: 401,
  'deadline-too-far': 400,
  'lobby-mismatch': 400,
  'ruleset-mismatch': 409,
  'seats-mismatch': 409,
  'stake-too-low': 409,
};

const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

export const DEFAULT_MAX_PENDING_GAMES = 8;

/**
 * How long after a left join's deadline its spent nonce is kept (`LobbyLeave.forgetBefore`): the join is refused
 * as expired from its deadline on, and the store refuses any join older than what it forgot, whatever this process's
 * clock; the margin keeps a dealer process whose clock runs behind another's from seeing its fresh joins refused.
 * The spent nonces kept are those of the leaves of the last `maxJoinAheadSeconds` plus this (review 34).
 */
export const FORGET_GRACE_SECONDS = 300;

/**
 * How long after its lobby filled a game of `ruleset` may still wait for its players: its commit and reveal
 * windows. After them it is under way, or cancellable (`cancelMissed`), and its seats no longer hold anyone.
 */
function waitWindow(ruleset: string): number {
  const d = shippedRuleset(ruleset).deadlines;
  return d.commitSeconds + d.revealSeconds;
}
const MAX_WAIT_WINDOW = Math.max(...shippedRulesetNames.map(waitWindow));

const sameTerms = (l: LobbyRecord, k: LobbyKind): boolean =>
  l.kind === k.name &&
  l.ruleset === k.ruleset.name &&
  l.rulesetHash === rulesetHash(k.ruleset).toLowerCase() &&
  l.seats === k.seats &&
  l.stake === k.stake &&
  l.disputeDeposit === k.disputeDeposit &&
  l.maxTurns === k.maxTurns &&
  l.bond === k.bond;

export class LobbyService {
  readonly #d: LobbyDeps;
  readonly #log: Logger;
  readonly #kinds: Map<string, LobbyKind>;
  #running: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(d: LobbyDeps) {
    this.#d = d;
    this.#log = d.log.child({ component: 'lobby' });
    this.#kinds = new Map(d.kinds.map((k) => [k.name, k]));
  }

  /**
   * Opens a lobby for each configured kind that has none open with its current terms; retires open lobbies
   * nobody joined whose kind left the config or whose terms changed (a lobby with joins keeps the terms its
   * players signed and fills as it is). Then finishes any creation a crash interrupted, and follows up
   * creations in flight every `pollMs`.
   */
  async start(): Promise<void> {
    const { store } = this.#d;
    await this.#refuseMisregistered();
    const open = await store.listLobbies(['open']);
    for (const l of open) {
      const k = this.#kinds.get(l.kind);
      if (k && sameTerms(l, k)) continue;
      if (l.filled === 0) {
        await store.updateLobby(l.id, { status: 'closed' });
        this.#log.info({ lobby: l.id, kind: l.kind }, 'lobby retired: its kind left the config or changed');
      } else {
        this.#log.warn(
          { lobby: l.id, kind: l.kind, filled: l.filled },
          'lobby keeps its old terms until it fills',
        );
      }
    }
    for (const k of this.#kinds.values()) {
      if (!open.some((l) => sameTerms(l, k))) await store.openLobby(this.#newLobby(k));
    }
    await this.drive();
    this.#timer = setInterval(() => void this.drive(), this.#d.pollMs ?? 2000);
    this.#timer.unref();
  }

  /**
   * Drops every kind whose registered ruleset the chain's registry feeds MapGen other start areas than its own:
   * fraud proofs would convict this dealer's honest map (and players' SDKs refuse to commit to such games), so
   * no lobby of it is opened. Logged as an error naming both values; the operator fixes the registration.
   */
  async #refuseMisregistered(): Promise<void> {
    for (const k of [...this.#kinds.values()]) {
      const want = packStartAreas(k.ruleset.board);
      const registered = await this.#d.creator.registeredStartAreas(rulesetHash(k.ruleset));
      // Not registered at all: createGame refuses it, and the lobby says so to whoever joins.
      if (registered === null || registered === want) continue;
      this.#kinds.delete(k.name);
      this.#log.error(
        { kind: k.name, registered: registered.toString(), ruleset: want.toString() },
        "lobby kind refused: the registry's start areas for its ruleset are not the ruleset's (fraud proofs would regenerate another map)",
      );
    }
  }

  /** Stops following up creations (the store stays usable; a restart resumes them). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  async list(): Promise<LobbiesView> {
    const d = this.#d;
    const lobbies = await d.store.listLobbies(['open']);
    return {
      chainId: d.chainId.toString(),
      gameContract: d.gameContract,
      dealer: d.creator.dealer,
      sealKey: [d.sealKey[0].toString(), d.sealKey[1].toString()],
      lobbies: lobbies.map(view),
    };
  }

  async get(id: string): Promise<LobbyView> {
    return view(await this.#lobby(id));
  }

  /**
   * Seats the signer of a valid join. Every check runs before anything is written, and the write is one
   * transaction (dealer/store/types.ts `joinLobby`): a refused join changes nothing. The checks across lobbies
   * (one seat per player, the pending-games cap) run as the join's admission, while every other join waits, so
   * two joins at once cannot both pass them.
   */
  async join(rawId: string, body: JoinBody): Promise<JoinStatusView> {
    const d = this.#d;
    const lobbyId = lobbyIdOf(rawId);
    let m: JoinMessage;
    try {
      m = fromJoinBody(lobbyId, body);
    } catch (e) {
      if (e instanceof InputError) throw new DealerError(400, 'invalid-request', e.message, e.field);
      throw e;
    }
    const lobby = await this.#lobby(lobbyId);
    const now = d.now();
    const player = m.player.toLowerCase();
    try {
      checkJoinDeadline(m, now, d.maxJoinAheadSeconds);
      this.#checkSignature(m, body.signature);
      checkJoinTerms(m, lobby);
    } catch (e) {
      if (e instanceof JoinRefusedError)
        throw new DealerError(REFUSAL_STATUS[e.code], e.code, e.message, e.field);
      throw e;
    }
    if (player === d.creator.dealer.toLowerCase()) {
      throw new DealerError(
        403,
        'dealer-cannot-play',
        'player: the dealer cannot take a seat in its own game',
        'player',
      );
    }
    if (lobby.status !== 'open') throw await this.#closed(lobby);
    // Checked first outside the join's lock (a refused join holds nothing), then again under it.
    await this.#checkPending(lobby, player, now, d.store);
    const out = await d.store.joinLobby(
      {
        lobbyId,
        player,
        nonce: m.nonce.toLowerCase(),
        deadline: m.deadline,
        signature: body.signature,
        joinedAt: now,
      },
      await this.#successor(lobby),
      (reads) => this.#checkPending(lobby, player, now, reads),
    );
    if (!out.ok) {
      switch (out.reason) {
        case 'nonce-replayed':
          throw new DealerError(409, 'nonce-replayed', 'nonce: already used by this player', 'nonce');
        case 'already-joined':
          throw new DealerError(
            409,
            'already-joined',
            `player: ${m.player} already has a seat in this lobby`,
            'player',
          );
        default:
          throw await this.#refusal(out.reason, lobby);
      }
    }
    this.#log.info({ lobby: lobbyId, player, seat: out.seat, filled: out.filled }, 'player joined');
    if (out.filled) void this.drive();
    return this.status(lobbyId, player);
  }

  /**
   * Gives up the signer's seat in a lobby that has not filled (a signed `Leave` naming the seat's join,
   * core/lobby-leave.ts): serialized with the joins, so either the leave or the join that fills the lobby
   * comes first. Refused with nothing changed: a bad signature (401), no seat (404 `not-joined`), a seat of
   * another join (409 `stale-leave`: a leave replayed after the player joined again), a lobby that filled
   * (409 `lobby-closed`: the game is the player's to play, or to leave on-chain by not committing).
   */
  async leave(rawId: string, body: LeaveBody): Promise<LeaveView> {
    const d = this.#d;
    const lobbyId = lobbyIdOf(rawId);
    let m: ReturnType<typeof fromLeaveBody>;
    try {
      m = fromLeaveBody(lobbyId, body);
    } catch (e) {
      if (e instanceof InputError) throw new DealerError(400, 'invalid-request', e.message, e.field);
      throw e;
    }
    const lobby = await this.#lobby(lobbyId);
    this.#checkSigner(m.player, body.signature, (domain) => recoverLeaveSigner(domain, m, body.signature));
    const player = m.player.toLowerCase();
    const joinNonce = m.joinNonce.toLowerCase();
    // Checked first outside the joins' lock (a leave that cannot succeed holds nothing), then again under it.
    const seat = (await d.store.lobbyJoins(lobbyId)).find((j) => j.player === player);
    const kind = this.#kinds.get(lobby.kind);
    const now = d.now();
    const out =
      seat === undefined
        ? ({ ok: false, reason: 'not-joined' } as const)
        : seat.nonce !== joinNonce
          ? ({ ok: false, reason: 'stale-leave' } as const)
          : await d.store.leaveLobby({
              lobbyId,
              player,
              joinNonce,
              leftAt: now,
              forgetBefore: now - FORGET_GRACE_SECONDS,
              retireWhenEmpty: !(kind && sameTerms(lobby, kind)),
            });
    if (!out.ok) {
      switch (out.reason) {
        case 'not-joined':
          throw new DealerError(404, 'not-joined', `player: ${m.player} has no seat in this lobby`, 'player');
        case 'stale-leave':
          throw new DealerError(
            409,
            'stale-leave',
            "joinNonce: the player's seat was taken by another join than this one",
            'joinNonce',
          );
        default:
          throw await this.#refusal(out.reason, lobby);
      }
    }
    this.#log.info({ lobby: lobbyId, player, seat: out.seat, retired: out.retired }, 'player left');
    return { lobbyId, player, seat: out.seat, status: 'left' };
  }

  /** Where a player's join stands: waiting for seats or the game, the game's id, or why it failed. */
  async status(rawId: string, rawPlayer: string): Promise<JoinStatusView> {
    const lobby = await this.#lobby(lobbyIdOf(rawId));
    const player = rawPlayer.toLowerCase();
    const join = (await this.#d.store.lobbyJoins(lobby.id)).find((j) => j.player === player);
    if (!join)
      throw new DealerError(404, 'not-joined', `player: ${rawPlayer} has no seat in this lobby`, 'player');
    const created = lobby.status === 'created';
    const failed = lobby.status === 'failed';
    return {
      lobbyId: lobby.id,
      player,
      seat: join.seat,
      nonce: join.nonce,
      status: created ? 'created' : failed ? 'failed' : 'waiting',
      filled: lobby.filled,
      seats: lobby.seats,
      gameId: created ? lobby.gameId!.toString() : null,
      message: failed ? `the dealer could not create the game (${lobby.fault ?? 'unknown'})` : null,
    };
  }

  /**
   * Advances every filled or creating lobby as far as it goes now. Runs never overlap; a call during a run
   * makes the run go round once more.
   */
  drive(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#pass();
      } while (this.#again);
    })().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** One pass over the lobbies to create; never throws (the timer's next pass retries). */
  async #pass(): Promise<void> {
    let pending: LobbyRecord[];
    try {
      pending = await this.#d.store.listLobbies(['filled', 'creating']);
    } catch (e) {
      this.#log.warn({ err: (e as Error).message }, 'lobbies: store unavailable; will retry');
      return;
    }
    for (const l of pending) {
      try {
        await this.#advance(l);
      } catch (e) {
        // Transient (RPC down, DB busy): the next pass retries from the persisted state.
        this.#log.warn({ lobby: l.id, err: (e as Error).message }, 'game creation interrupted; will retry');
      }
    }
  }

  async #advance(l: LobbyRecord): Promise<void> {
    const d = this.#d;
    const joins = await d.store.lobbyJoins(l.id);
    const ruleset = shippedRuleset(l.ruleset);
    // The players signed this hash: a dealer upgraded to another version of the ruleset must not swap it.
    if (rulesetHash(ruleset).toLowerCase() !== l.rulesetHash) {
      return this.#fail(l, `ruleset ${l.ruleset} changed since the lobby opened`);
    }
    let params: ReturnType<typeof createGameParams>;
    try {
      params = createGameParams(ruleset, {
        players: joins.map((j) => j.player),
        sealKey: d.sealKey,
        stake: l.stake,
        disputeDeposit: l.disputeDeposit,
        maxTurns: l.maxTurns,
        bond: l.bond,
        dealer: d.creator.dealer,
      });
    } catch (e) {
      if (e instanceof InputError) return this.#fail(l, e.message);
      throw e;
    }
    let tx = l.createTx;
    if (l.status === 'filled' || !tx) {
      try {
        tx = await d.creator.submitCreateGame(params, (t) =>
          d.store.updateLobby(l.id, { status: 'creating', createTx: t }),
        );
      } catch (e) {
        if (e instanceof CreateGameRevert) return this.#fail(l, e.message);
        throw e;
      }
      this.#log.info({ lobby: l.id, tx: tx.hash, nonce: tx.nonce }, 'createGame sent');
    }
    const same = matchesCreate(params);
    // Another lobby's game with the same seats and terms is not this one.
    const match = async (g: Parameters<typeof same>[0]) => {
      if (!same(g)) return false;
      const owner = await d.store.lobbyOfGame(g.gameId);
      return owner === null || owner.id === l.id;
    };
    let st = await d.creator.createStatus(tx, match);
    if (st.state === 'pending') {
      // Not mined and its nonce unused: the node may have lost it (a restart); the same bytes again are harmless.
      await d.creator.rebroadcast(tx);
      st = await d.creator.createStatus(tx, match);
    }
    switch (st.state) {
      case 'created':
        await d.store.updateLobby(l.id, { status: 'created', gameId: st.gameId, createdBlock: st.block });
        this.#log.info({ lobby: l.id, gameId: st.gameId.toString(), block: st.block }, 'game created');
        return;
      case 'reverted':
        return this.#fail(l, `createGame reverted: ${st.reason}`);
      case 'pending':
        return; // the next run looks again
      case 'dropped':
        // Its nonce went to another transaction and no game of this lobby exists: it can never be mined.
        this.#log.warn({ lobby: l.id, tx: tx.hash }, 'createGame dropped; signing a new one');
        await d.store.updateLobby(l.id, { status: 'filled', createTx: null });
        this.#again = true;
    }
  }

  async #fail(l: LobbyRecord, fault: string): Promise<void> {
    await this.#d.store.updateLobby(l.id, { status: 'failed', fault });
    this.#log.error({ lobby: l.id, kind: l.kind, fault }, 'lobby failed: the game could not be created');
  }

  /**
   * Sybil seats: anyone can make addresses, fill lobbies and never commit, and each fill costs the dealer a
   * createGame (gas, and a bond locked until the game is cancelled). So a player holds one seat at a time
   * (409 `seat-pending` while another of its seats waits: in an open lobby, until its join's deadline; in a
   * filled one, until its game is under way or its commit and reveal windows passed), and at most
   * `maxPendingGames` lobby games may be waiting for their players at once (503 `lobbies-busy` for the join
   * that would fill one more). A join retried into a lobby where the player sits already is left to the store
   * (`already-joined`, `nonce-replayed`).
   */
  async #checkPending(lobby: LobbyRecord, player: string, now: number, reads: LobbyReads): Promise<void> {
    const d = this.#d;
    const here = await reads.lobbyJoins(lobby.id);
    if (here.some((j) => j.player === player)) return;
    const pending = (await reads.pendingLobbies(now - MAX_WAIT_WINDOW))
      .map((p) => ({
        ...p,
        until: p.lobby.status === 'created' ? p.filledAt + waitWindow(p.lobby.ruleset) : undefined,
      }))
      .filter((p) => p.until === undefined || p.until > now);
    let seat: { lobby: string; until: number | undefined } | undefined;
    const game = pending.find((p) => p.players.includes(player));
    if (game) seat = { lobby: game.lobby.id, until: game.until };
    else {
      for (const o of await reads.listLobbies(['open'])) {
        if (o.id === lobby.id) continue;
        const j = (await reads.lobbyJoins(o.id)).find((x) => x.player === player && x.deadline > now);
        if (j) seat = { lobby: o.id, until: j.deadline };
      }
    }
    if (seat)
      throw new DealerError(
        409,
        'seat-pending',
        `player: ${player} already has a seat in lobby ${seat.lobby} (its game is not under way yet)`,
        'player',
        seat.until === undefined ? undefined : seat.until - now,
      );
    const cap = d.maxPendingGames ?? DEFAULT_MAX_PENDING_GAMES;
    if (here.length + 1 >= lobby.seats && pending.length >= cap) {
      const next = Math.min(...pending.map((p) => p.until ?? Number.POSITIVE_INFINITY));
      throw new DealerError(
        503,
        'lobbies-busy',
        `lobbyId: ${pending.length} games created for lobbies are still waiting for their players (at most ${cap}); try again later`,
        'lobbyId',
        Number.isFinite(next) ? Math.max(1, next - now) : 30,
      );
    }
  }

  #checkSignature(m: JoinMessage, signature: string): void {
    this.#checkSigner(m.player, signature, (domain) => recoverJoinSigner(domain, m, signature));
  }

  /** 401 `bad-signature` unless `signature` is a low-s signature by `player` (`recover`: of the typed message). */
  #checkSigner(
    player: string,
    signature: string,
    recover: (domain: ReturnType<typeof lobbyDomain>) => string,
  ): void {
    let signer: string;
    try {
      const sig = Signature.from(signature);
      if (BigInt(sig.s) > HALF_N) throw new Error('high s');
      signer = recover(lobbyDomain(this.#d.chainId, this.#d.gameContract));
    } catch {
      throw new DealerError(
        401,
        'bad-signature',
        'signature: not a valid low-s secp256k1 signature',
        'signature',
      );
    }
    if (signer !== player.toLowerCase()) {
      throw new DealerError(
        401,
        'bad-signature',
        `signature: signed by ${getAddress(signer)}, not by player ${player}`,
        'signature',
      );
    }
  }

  /** The next lobby a filling one opens: of its kind with the current terms, unless one is open already. */
  async #successor(l: LobbyRecord): Promise<NewLobby | null> {
    const k = this.#kinds.get(l.kind);
    if (!k) return null;
    if (!sameTerms(l, k)) {
      const open = await this.#d.store.listLobbies(['open']);
      if (open.some((o) => o.id !== l.id && sameTerms(o, k))) return null;
    }
    return this.#newLobby(k);
  }

  #newLobby(k: LobbyKind): NewLobby {
    return {
      id: randomBytes32(),
      kind: k.name,
      ruleset: k.ruleset.name,
      rulesetHash: rulesetHash(k.ruleset).toLowerCase(),
      seats: k.seats,
      stake: k.stake,
      disputeDeposit: k.disputeDeposit,
      maxTurns: k.maxTurns,
      bond: k.bond,
      openedAt: this.#d.now(),
    };
  }

  async #lobby(id: string): Promise<LobbyRecord> {
    const l = await this.#d.store.getLobby(id);
    if (!l) throw new DealerError(404, 'unknown-lobby', `lobbyId: no lobby ${id} at this dealer`, 'lobbyId');
    return l;
  }

  /** A join's or a leave's refusal by the store that both share: the lobby gone, not open, or the lock busy. */
  async #refusal(reason: 'not-open' | 'busy' | 'unknown-lobby', lobby: LobbyRecord): Promise<DealerError> {
    if (reason === 'not-open') return this.#closed((await this.#d.store.getLobby(lobby.id)) ?? lobby);
    if (reason === 'busy')
      return new DealerError(503, 'lobbies-busy', 'lobbyId: too many joins at once; try again', 'lobbyId', 2);
    return new DealerError(404, 'unknown-lobby', `lobbyId: no lobby ${lobby.id} at this dealer`, 'lobbyId');
  }

  /** The refusal of a join to a lobby no longer open, naming the open lobby of its kind. */
  async #closed(l: LobbyRecord): Promise<DealerError> {
    const next = (await this.#d.store.listLobbies(['open'])).find((o) => o.kind === l.kind);
    const hint = next ? `; join ${next.id}` : '';
    return new DealerError(409, 'lobby-closed', `lobbyId: the lobby is ${l.status}${hint}`, 'lobbyId');
  }
}

function lobbyIdOf(raw: string): string {
  if (!isHexString(raw, 32)) {
    throw new DealerError(400, 'invalid-request', 'lobbyId: must be 0x and 32 bytes', 'lobbyId');
  }
  return raw.toLowerCase();
}

const durationCache = new Map<string, Durations>();

function view(l: LobbyRecord): LobbyView {
  let durations = durationCache.get(l.ruleset);
  if (!durations) {
    durations = durationsOf(shippedRuleset(l.ruleset));
    durationCache.set(l.ruleset, durations);
  }
  return {
    id: l.id,
    kind: l.kind,
    ruleset: l.ruleset,
    rulesetHash: l.rulesetHash,
    seats: l.seats,
    filled: l.filled,
    stake: l.stake.toString(),
    disputeDeposit: l.disputeDeposit.toString(),
    maxTurns: l.maxTurns,
    bond: l.bond.toString(),
    durations,
    status: l.status,
    gameId: l.gameId === null ? null : l.gameId.toString(),
  };
}
