/**
 * The page's Leave while it waits for a lobby (client/web/session.ts `lobbyGame`, the page's Leave button): a
 * Leave is offered only once the dealer answered the join. While the join's answer is on its way (held here by a
 * slow dealer) or was lost, it is not (`joining`): a leave sent then could find no seat, the join take one after
 * it, and, if that join filled the lobby, its game would be created for a key whose funds went home. A join that
 * filled the lobby never offers it (`full`): the game is the seat's. A join left waiting in an open lobby offers it
 * (`open`), and a Leave then stops the wait; a refused join offers it too (nothing was taken; the funds must go
 * home). A seat the dealer holds already (a retry, a reload) is taken up, not joined again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Wallet } from 'ethers';
import type { GameConfig, GameState, SeatState } from '../../client/sdk/chain.ts';
import {
  DealerRefusedError,
  DealerUnavailableError,
  GameTermsRejectedError,
} from '../../client/sdk/errors.ts';
import { type LeaveOffer, lobbyGame } from '../../client/web/session.ts';
import type { SessionLobby } from '../../client/web/session-store.ts';
import { rulesetHash, shippedRuleset } from '../../core/index.ts';
import { generateSealKey } from '../../core/sealed.ts';

const TINY = shippedRuleset('tiny');
const PLAYER = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const OTHER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
const DEALER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const LOBBY_ID = `0x${'cd'.repeat(32)}`;
const GAME_ID = 4242n;
const SEAL = generateSealKey().publicKey;

const SESSION_LOBBY: SessionLobby = {
  id: LOBBY_ID,
  kind: 'tiny-duel',
  stake: 1000n,
  maxTurns: 40,
  gameContract: CONTRACT,
  disputeDeposit: 100n,
  durations: { ...TINY.deadlines },
  pinned: { rulesetHash: rulesetHash(TINY).toLowerCase(), seats: 2, bond: 10n ** 18n, dealer: DEALER },
};

interface Seat {
  seat: number;
  nonce: string;
}

/**
 * A dealer with one two-seat lobby in which `others` players sit already. The player's join is answered once
 * `release()` is called (while `held`); its answer is lost (`lose` joins: the connection drops after the dealer
 * seated it; `loseFirst`: only the first attempt's, its retries answered). Once the lobby is full, the game is
 * created after `createAfter` status looks. As dealer/lobby.ts, a lobby no longer open refuses a join
 * (`lobby-closed`) before its seats are looked at.
 */
function slowDealer(o: {
  others: number;
  held?: boolean;
  lose?: boolean;
  loseFirst?: boolean;
  refuse?: string;
  createAfter?: number;
}) {
  const seats = new Map<string, Seat>();
  let filled = o.others;
  let looksWhenFull = 0;
  let release: () => void = () => {};
  const held = o.held ? new Promise<void>((r) => (release = r)) : Promise.resolve();
  const log = { joinsPosted: 0, joinsAnswered: 0, leaves: 0 };
  let joinArrived: () => void = () => {};
  const arrived = new Promise<void>((r) => (joinArrived = r));
  const json = (b: unknown, status = 200) =>
    new Response(JSON.stringify(b), { status, headers: { 'content-type': 'application/json' } });
  const created = () => filled === 2 && looksWhenFull > (o.createAfter ?? 1);
  const lobbyView = () => ({
    id: LOBBY_ID,
    kind: 'tiny-duel',
    ruleset: 'tiny',
    rulesetHash: rulesetHash(TINY).toLowerCase(),
    seats: 2,
    filled,
    stake: '1000',
    disputeDeposit: '100',
    maxTurns: 40,
    bond: '1000000000000000000',
    durations: { ...TINY.deadlines },
    status: filled < 2 ? 'open' : created() ? 'created' : 'filled',
    gameId: created() ? GAME_ID.toString() : null,
  });
  const seatView = (player: string, s: Seat) => ({
    lobbyId: LOBBY_ID,
    player,
    seat: s.seat,
    nonce: s.nonce,
    status: created() ? 'created' : 'waiting',
    filled,
    seats: 2,
    gameId: created() ? GAME_ID.toString() : null,
    message: null,
  });
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    if (url.pathname === '/v1/lobbies')
      return json({
        chainId: '31337',
        gameContract: CONTRACT,
        dealer: DEALER,
        sealKey: SEAL.map(String),
        lobbies: filled < 2 ? [lobbyView()] : [],
      });
    if (url.pathname === `/v1/lobbies/${LOBBY_ID}`) return json(lobbyView());
    if (url.pathname === `/v1/lobbies/${LOBBY_ID}/joins` && method === 'POST') {
      log.joinsPosted++;
      joinArrived();
      await held;
      if (o.refuse) return json({ error: o.refuse, message: `lobbyId: ${o.refuse}` }, 409);
      const body = JSON.parse(String(init!.body)) as { player: string; nonce: string };
      const player = body.player.toLowerCase();
      if (o.lose || (o.loseFirst && log.joinsPosted === 1)) {
        // Seated by the first; its answer lost (`lose`: the client's retries' too).
        if (!seats.has(player)) seats.set(player, { seat: filled++, nonce: body.nonce });
        throw new TypeError('fetch failed: the connection dropped');
      }
      if (filled >= 2) return json({ error: 'lobby-closed', message: 'lobbyId: the lobby is filled' }, 409);
      if (seats.has(player)) return json({ error: 'already-joined', message: 'already' }, 409);
      const s = { seat: filled, nonce: body.nonce };
      seats.set(player, s);
      filled++;
      log.joinsAnswered++;
      return json(seatView(player, s));
    }
    const st = /^\/v1\/lobbies\/[^/]+\/joins\/([^/]+)$/.exec(url.pathname);
    if (st && method === 'GET') {
      const player = decodeURIComponent(st[1]!).toLowerCase();
      const s = seats.get(player);
      if (!s) return json({ error: 'not-joined', message: 'player: no seat' }, 404);
      if (filled === 2) looksWhenFull++;
      return json(seatView(player, s));
    }
    if (url.pathname === `/v1/lobbies/${LOBBY_ID}/leaves`) {
      log.leaves++;
      return json({ error: 'unexpected', message: 'not in this test' }, 400);
    }
    return json({ error: 'not-found', message: url.pathname }, 404);
  }) as typeof globalThis.fetch;
  return { fetch, log, release, arrived, seats };
}

/**
 * What the chain says of GAME_ID: by default the lobby's game, with the other player and the page's key seated;
 * `over` makes it another game (more seats, a 1-wei bond, another ruleset).
 */
function chainOf(over: { others?: string[]; bond?: bigint; rulesetHash?: string } = {}) {
  const players = [...(over.others ?? [OTHER]), PLAYER.address.toLowerCase()];
  return {
    async game(): Promise<GameState> {
      return {
        dealer: DEALER,
        phase: 'Commit',
        nPlayers: players.length,
        bond: over.bond ?? 10n ** 18n,
      } as GameState;
    },
    async seat(_id: bigint, i: number): Promise<SeatState> {
      return { player: players[i]! } as SeatState;
    },
    async config(): Promise<GameConfig> {
      return {
        kind: 0,
        width: 16,
        height: 12,
        maxTurns: 40,
        depth: 4,
        rulesetHash: over.rulesetHash ?? rulesetHash(TINY).toLowerCase(),
        stake: 1000n,
        durations: { ...TINY.deadlines },
        sealKey: SEAL,
        disputeDeposit: 100n,
      };
    },
  };
}
const chain = chainOf();

/**
 * The page's wait for its lobby, with its Leave button: a click is honoured only while the offer is `open` (as
 * client/web/page.ts's handler), and aborts the wait.
 */
function pageWait(dealer: ReturnType<typeof slowDealer>) {
  const offers: LeaveOffer[] = [];
  const exit = new AbortController();
  const leave = () => {
    if (offers.at(-1) === 'open') exit.abort(new Error('left the lobby'));
    return exit.signal.aborted;
  };
  const run = () =>
    lobbyGame(PLAYER, SESSION_LOBBY, {
      dealerUrl: 'http://dealer.test',
      chainId: 31337n,
      chain,
      pollMs: 5,
      signal: exit.signal,
      onOffer: (o) => offers.push(o),
      fetch: dealer.fetch,
    });
  return { offers, exit, leave, run };
}

describe("the page's Leave while its join is on its way", () => {
  it('a Leave clicked while the join that fills the lobby is on its way is not taken: the game is played, not abandoned', async () => {
    const dealer = slowDealer({ others: 1, held: true });
    const page = pageWait(dealer);
    const game = page.run();
    await dealer.arrived;
    assert.deepEqual(page.offers, ['joining'], 'a Leave is not offered while the join is on its way');
    assert.equal(page.leave(), false, 'the Leave clicked meanwhile is not taken');
    dealer.release();
    assert.equal(await game, GAME_ID, "the seat's game is played");
    assert.equal(page.exit.signal.aborted, false);
    assert.ok(!page.offers.includes('open'), `a full lobby never offers a Leave: ${page.offers.join(', ')}`);
    assert.equal(page.offers.at(-1), 'full');
    assert.equal(dealer.log.leaves, 0, 'no leave was sent');
    assert.equal(page.leave(), false);
  });

  it('a join answered into an open lobby offers the Leave, which stops the wait', async () => {
    const dealer = slowDealer({ others: 0, held: true });
    const page = pageWait(dealer);
    const game = page.run();
    await dealer.arrived;
    assert.equal(page.leave(), false, 'not while the join is on its way');
    dealer.release();
    while (page.offers.at(-1) !== 'open') await new Promise((r) => setTimeout(r, 1));
    assert.equal(page.leave(), true, 'offered once the dealer answered: the seat waits in an open lobby');
    await assert.rejects(game, /left the lobby/);
    assert.equal(dealer.seats.size, 1, 'the seat is held: the leave (session.ts leaveLobby) gives it up');
  });

  it('a join whose answer was lost keeps the Leave waiting; the retry asks for the seat first and joins no more', async () => {
    const dealer = slowDealer({ others: 1, lose: true, createAfter: 2 });
    const page = pageWait(dealer);
    await assert.rejects(page.run(), DealerUnavailableError);
    assert.equal(page.offers.at(-1), 'joining', 'the seat may be taken: no Leave until the dealer says');
    assert.equal(page.leave(), false);
    const posted = dealer.log.joinsPosted;
    const before = page.offers.length;
    assert.equal(await page.run(), GAME_ID, 'the retry finds the seat, which filled the lobby: its game');
    assert.equal(dealer.log.joinsPosted, posted, 'no second join');
    assert.ok(!page.offers.slice(before).includes('open'), 'the lobby is full: no Leave');
  });

  it('a refused join offers the Leave: nothing was taken, and the funds must go home', async () => {
    const dealer = slowDealer({ others: 1, refuse: 'lobby-closed' });
    const page = pageWait(dealer);
    await assert.rejects(page.run(), DealerRefusedError);
    assert.equal(page.offers.at(-1), 'open');
    assert.equal(page.leave(), true);
  });

  it('a join refused as lobby-closed after its lost first attempt filled the lobby: the seat is found, no Leave', async () => {
    // Review 37: the SDK retries a join whose answer was lost; the dealer answers the retry lobby-closed.
    const dealer = slowDealer({ others: 1, loseFirst: true });
    const page = pageWait(dealer);
    assert.equal(await page.run(), GAME_ID, "the seat's game is played");
    assert.equal(dealer.log.joinsPosted, 2, 'the lost attempt and its refused retry');
    assert.ok(!page.offers.includes('open'), `never offered: ${page.offers.join(', ')}`);
  });
});

describe('a seat taken up without a join of this page', () => {
  it('has its game held to the lobby the person picked, not to the listing the dealer shows now', async () => {
    // Review 37: a dealer answers "seat taken earlier" on the first look (or a reload finds the seat): no join is
    // signed, and the lobby's listing now says another ruleset, 4 seats and a 1-wei bond, as the game does.
    const evil = { rulesetHash: `0x${'ee'.repeat(32)}`, bond: 1n };
    const others = [
      OTHER,
      '0x2222222222222222222222222222222222222222',
      '0x3333333333333333333333333333333333333333',
    ];
    const answers: Record<string, unknown> = {
      [`/v1/lobbies/${LOBBY_ID}`]: {
        id: LOBBY_ID,
        kind: 'tiny-duel',
        ruleset: 'x',
        rulesetHash: evil.rulesetHash,
        seats: 4,
        filled: 4,
        stake: '1000',
        disputeDeposit: '100',
        maxTurns: 40,
        bond: '1',
        durations: { ...TINY.deadlines },
        status: 'created',
        gameId: GAME_ID.toString(),
      },
      [`/v1/lobbies/${LOBBY_ID}/joins/${PLAYER.address.toLowerCase()}`]: {
        lobbyId: LOBBY_ID,
        player: PLAYER.address.toLowerCase(),
        seat: 3,
        nonce: `0x${'00'.repeat(32)}`,
        status: 'created',
        filled: 4,
        seats: 4,
        gameId: GAME_ID.toString(),
        message: null,
      },
      '/v1/lobbies': {
        chainId: '31337',
        gameContract: CONTRACT,
        dealer: DEALER,
        sealKey: SEAL.map(String),
        lobbies: [],
      },
    };
    let joins = 0;
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const path = decodeURIComponent(new URL(String(input)).pathname).toLowerCase();
      if (init?.method === 'POST') joins++;
      const body = answers[path] ?? answers[Object.keys(answers).find((k) => k.toLowerCase() === path) ?? ''];
      return new Response(JSON.stringify(body ?? { error: 'not-found', message: path }), {
        status: body ? 200 : 404,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof globalThis.fetch;
    const via = { dealerUrl: 'http://dealer.test', chainId: 31337n, pollMs: 5, fetch };
    const game = chainOf({ others, ...evil });
    await assert.rejects(lobbyGame(PLAYER, SESSION_LOBBY, { ...via, chain: game }), GameTermsRejectedError);
    assert.equal(joins, 0, 'no join was signed');
    // A record saved before `pinned` is held to the listing, as before.
    const { pinned: _, ...unpinned } = SESSION_LOBBY;
    assert.equal(await lobbyGame(PLAYER, unpinned, { ...via, chain: game }), GAME_ID);
  });
});
