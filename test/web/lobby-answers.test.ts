/**
 * What `lobbyGame` (client/web/session.ts) makes of a dealer's answers that review 37 attacked: a refused join that
 * is a retry of one whose answer was lost after it took the seat (the seat is looked up before a Leave is offered),
 * and a seat taken up without a join of this page (a reload, or a dealer answering "taken earlier"), whose game is
 * held to what the person picked (`SessionLobby.pinned`), not to the dealer's later listing.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Wallet } from 'ethers';
import type { GameConfig, GameState, SeatState } from '../../client/sdk/chain.ts';
import { GameTermsRejectedError } from '../../client/sdk/errors.ts';
import { type LeaveOffer, lobbyGame } from '../../client/web/session.ts';
import type { SessionLobby } from '../../client/web/session-store.ts';
import { rulesetHash, shippedRuleset } from '../../core/index.ts';
import { shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import { generateSealKey } from '../../core/sealed.ts';

const TINY = shippedRuleset('tiny');
const OTHER_RS = shippedRuleset(shippedRulesetNames.find((n) => n !== 'tiny')!);
const PLAYER = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const DEALER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const LOBBY_ID = `0x${'cd'.repeat(32)}`;
const SEAL = generateSealKey().publicKey;
const BOND = 10n ** 18n;
/** What the person picked: a 2-seat tiny duel with a 1 ETH bond, pinned in the session record. */
const SESSION_LOBBY: SessionLobby = {
  id: LOBBY_ID,
  kind: 'tiny-duel',
  stake: 1000n,
  maxTurns: 40,
  gameContract: CONTRACT,
  disputeDeposit: 100n,
  durations: { ...TINY.deadlines },
  pinned: { rulesetHash: rulesetHash(TINY).toLowerCase(), seats: 2, bond: BOND, dealer: DEALER },
};
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

it('a join refused as lobby-closed after its lost first attempt filled the lobby: the seat is found, Leave is not offered', async () => {
  let filled = 1; // another player sits already; two seats
  const seats = new Map<string, number>();
  const view = () => ({
    id: LOBBY_ID,
    kind: 'tiny-duel',
    ruleset: 'tiny',
    rulesetHash: rulesetHash(TINY).toLowerCase(),
    seats: 2,
    filled,
    stake: '1000',
    disputeDeposit: '100',
    maxTurns: 40,
    bond: BOND.toString(),
    durations: { ...TINY.deadlines },
    status: filled < 2 ? 'open' : 'filled',
    gameId: null,
  });
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname === '/v1/lobbies')
      return json({
        chainId: '31337',
        gameContract: CONTRACT,
        dealer: DEALER,
        sealKey: SEAL.map(String),
        lobbies: filled < 2 ? [view()] : [],
      });
    if (url.pathname === `/v1/lobbies/${LOBBY_ID}`) return json(view());
    if (url.pathname.endsWith('/joins') && init?.method === 'POST') {
      const player = (JSON.parse(String(init.body)) as { player: string }).player.toLowerCase();
      // As dealer/lobby.ts: a lobby no longer open is refused (lobby-closed) before the store's nonce check.
      if (filled >= 2) return json({ error: 'lobby-closed', message: 'lobbyId: the lobby is filled' }, 409);
      seats.set(player, filled++); // the first attempt takes the last seat ...
      throw new TypeError('fetch failed: the connection dropped'); // ... and its answer is lost
    }
    if (/\/joins\/[^/]+$/.test(url.pathname)) {
      const p = decodeURIComponent(url.pathname.split('/').at(-1)!).toLowerCase();
      if (!seats.has(p)) return json({ error: 'not-joined', message: 'player: no seat' }, 404);
      return json({
        lobbyId: LOBBY_ID,
        player: p,
        seat: seats.get(p),
        nonce: '',
        status: 'waiting',
        filled,
        seats: 2,
        gameId: null,
        message: null,
      });
    }
    return json({ error: 'not-found', message: url.pathname }, 404);
  }) as typeof globalThis.fetch;
  const offers: LeaveOffer[] = [];
  const stop = new AbortController();
  const done = lobbyGame(PLAYER, SESSION_LOBBY, {
    dealerUrl: 'http://dealer.test',
    chainId: 31337n,
    chain: {} as never,
    pollMs: 5,
    fetch,
    signal: stop.signal,
    onOffer: (o) => {
      offers.push(o);
      // The game is the seat's now; the test stops waiting for it.
      if (o === 'full') stop.abort(new Error('test: stop waiting'));
    },
  });
  await assert.rejects(done, /test: stop waiting/);
  assert.deepEqual(offers, ['joining', 'full'], 'never open: the key holds a seat in a full lobby');
  assert.ok(seats.has(PLAYER.address.toLowerCase()) && filled === 2);
});

it('a seat taken up without a join of this page: its game is held to the lobby the person picked, not to the listing now', async () => {
  const evil = { rulesetHash: rulesetHash(OTHER_RS).toLowerCase(), seats: 4, bond: 1n };
  let joinsPosted = 0;
  const lobbyView = {
    id: LOBBY_ID,
    kind: 'tiny-duel',
    ruleset: 'x',
    rulesetHash: evil.rulesetHash,
    seats: evil.seats,
    filled: 4,
    stake: '1000',
    disputeDeposit: '100',
    maxTurns: 40,
    bond: evil.bond.toString(),
    durations: { ...TINY.deadlines },
    status: 'created',
    gameId: '777',
  };
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname === '/v1/lobbies')
      return json({
        chainId: '31337',
        gameContract: CONTRACT,
        dealer: DEALER,
        sealKey: SEAL.map(String),
        lobbies: [],
      });
    if (url.pathname === `/v1/lobbies/${LOBBY_ID}`) return json(lobbyView);
    if (url.pathname.endsWith('/joins') && init?.method === 'POST') {
      joinsPosted++;
      return json({}, 500);
    }
    if (/\/joins\/[^/]+$/.test(url.pathname))
      // "Taken earlier" on the first look: no join is signed.
      return json({
        lobbyId: LOBBY_ID,
        player: PLAYER.address.toLowerCase(),
        seat: 3,
        nonce: `0x${'00'.repeat(32)}`,
        status: 'created',
        filled: 4,
        seats: 4,
        gameId: '777',
        message: null,
      });
    return json({ error: 'not-found', message: url.pathname }, 404);
  }) as typeof globalThis.fetch;
  const others = [
    '0x1111111111111111111111111111111111111111',
    '0x2222222222222222222222222222222222222222',
    '0x3333333333333333333333333333333333333333',
  ];
  const chain = {
    async game(): Promise<GameState> {
      return { dealer: DEALER, phase: 'Commit', nPlayers: 4, bond: evil.bond } as GameState;
    },
    async seat(_id: bigint, i: number): Promise<SeatState> {
      return { player: [...others, PLAYER.address.toLowerCase()][i]! } as SeatState;
    },
    async config(): Promise<GameConfig> {
      return {
        kind: 0,
        width: 16,
        height: 12,
        maxTurns: 40,
        depth: 4,
        rulesetHash: evil.rulesetHash,
        stake: 1000n,
        durations: { ...TINY.deadlines },
        sealKey: SEAL,
        disputeDeposit: 100n,
      };
    },
  };
  await assert.rejects(
    lobbyGame(PLAYER, SESSION_LOBBY, {
      dealerUrl: 'http://dealer.test',
      chainId: 31337n,
      chain,
      pollMs: 5,
      fetch,
    }),
    (e: unknown) => e instanceof GameTermsRejectedError,
  );
  assert.equal(joinsPosted, 0);
});
