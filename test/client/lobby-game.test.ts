/**
 * The player CLI's `--lobby` path (client/play/game-id.ts): the dealer answers the game id once the lobby
 * filled, and that answer is only a pointer. Before anything is staked, the game it names is read on-chain
 * and must be the one the player signed for: this dealer's, this player seated, the lobby's seat count and
 * ruleset, a stake no higher than the signed one (nor `--max-stake`), the listed deposit, turn limit and
 * durations, a bond no lower than the listed one, and no more turns or deposit than the caller agreed to (the
 * page's funded listing). A lying dealer gets a GameTermsRejectedError (or, for a later view of the lobby, a
 * LobbyTermsRejectedError) naming the term, and no commit is ever sent.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Wallet } from 'ethers';
import { parsePlayArgs } from '../../client/play/args.ts';
import { resolveGameId } from '../../client/play/game-id.ts';
import type { GameConfig, GameState, SeatState } from '../../client/sdk/chain.ts';
import { GameTermsRejectedError, LobbyTermsRejectedError } from '../../client/sdk/errors.ts';
import { rulesetHash, shippedRuleset } from '../../core/index.ts';
import { generateSealKey } from '../../core/sealed.ts';

const TINY = shippedRuleset('tiny');
const PLAYER = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const OTHER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
const DEALER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const LOBBY_ID = `0x${'ab'.repeat(32)}`;
const GAME_ID = 777n;
const SEAL = generateSealKey().publicKey;

const lobby = {
  id: LOBBY_ID,
  kind: 'tiny-duel',
  ruleset: 'tiny',
  rulesetHash: rulesetHash(TINY).toLowerCase(),
  seats: 2,
  filled: 0,
  stake: '1000',
  disputeDeposit: '100',
  maxTurns: 40,
  bond: '1000000000000000000',
  durations: { ...TINY.deadlines },
  status: 'open',
  gameId: null,
};

/**
 * A dealer that lists `lobby`, seats the player, and answers GAME_ID as the lobby's game; every answer after its
 * first listing shows `later` (a dealer changing the terms between the listing and the join).
 */
function dealerFetch(later: typeof lobby = lobby): typeof fetch {
  let listings = 0;
  const json = (b: unknown) =>
    new Response(JSON.stringify(b), { status: 200, headers: { 'content-type': 'application/json' } });
  return (async (input: string | URL | Request) => {
    const url = new URL(String(input));
    const seat = {
      lobbyId: LOBBY_ID,
      player: PLAYER.address.toLowerCase(),
      seat: 0,
      filled: 2,
      seats: 2,
      message: null,
    };
    if (url.pathname === '/v1/lobbies')
      return json({
        chainId: '31337',
        gameContract: CONTRACT,
        dealer: DEALER,
        sealKey: SEAL.map(String),
        lobbies: [listings++ === 0 ? lobby : later],
      });
    if (url.pathname === `/v1/lobbies/${LOBBY_ID}`) return json(later);
    if (url.pathname === `/v1/lobbies/${LOBBY_ID}/joins`)
      return json({ ...seat, filled: 1, status: 'waiting', gameId: null });
    if (url.pathname.startsWith(`/v1/lobbies/${LOBBY_ID}/joins/`))
      return json({ ...seat, status: 'created', gameId: GAME_ID.toString() });
    return new Response('{}', { status: 404 });
  }) as typeof fetch;
}

/** What the chain says of GAME_ID: by default exactly the lobby's game, with the player in seat 0. */
interface OnChain {
  dealer: string;
  bond: bigint;
  players: string[];
  config: Partial<GameConfig>;
}
function chainOf(o: Partial<OnChain> = {}) {
  const players = o.players ?? [PLAYER.address.toLowerCase(), OTHER];
  const config: GameConfig = {
    kind: 0,
    width: 16,
    height: 12,
    maxTurns: 40,
    depth: 4,
    rulesetHash: rulesetHash(TINY).toLowerCase(),
    stake: 1000n,
    durations: { ...TINY.deadlines },
    sealKey: SEAL,
    disputeDeposit: 100n,
    ...o.config,
  };
  const reads: bigint[] = [];
  return {
    reads,
    async game(id: bigint): Promise<GameState> {
      reads.push(id);
      return {
        dealer: o.dealer ?? DEALER,
        phase: 'Commit',
        nPlayers: players.length,
        deadline: 0,
        turn: 0,
        toMove: 0,
        root: 0n,
        masterCommitment: 0n,
        seed: 0n,
        bond: o.bond ?? 10n ** 18n,
        openMap: false,
      } as GameState;
    },
    async seat(_id: bigint, i: number): Promise<SeatState> {
      return { player: players[i]! } as SeatState;
    },
    async config(_id: bigint): Promise<GameConfig> {
      return config;
    },
  };
}

const resolve = (
  chain: ReturnType<typeof chainOf>,
  maxStake = 1000n,
  agreed: { maxTurns?: number; maxDisputeDeposit?: bigint; floors?: Partial<typeof TINY.deadlines> } = {},
  signal?: AbortSignal,
) =>
  resolveGameId(
    { kind: 'lobby', lobby: 'tiny-duel', maxStake, ...agreed },
    {
      signer: PLAYER,
      dealerUrl: 'http://dealer.test',
      chainId: 31337n,
      gameContract: CONTRACT,
      pollMs: 10,
      chain,
      ...(signal ? { signal } : {}),
    },
  );

const rejects = (p: Promise<unknown>, field: string, before: 'staking' | 'signing' = 'staking') =>
  assert.rejects(p, (e) => {
    const want = before === 'staking' ? GameTermsRejectedError : LobbyTermsRejectedError;
    assert.ok(e instanceof want, `${want.name}, got ${(e as Error).message}`);
    assert.equal(e.field, field, e.message);
    return true;
  });

describe('player CLI --lobby: the game the dealer names is checked on-chain before staking', () => {
  let saved: typeof fetch;
  beforeEach(() => {
    saved = globalThis.fetch;
    globalThis.fetch = dealerFetch();
  });
  afterEach(() => {
    globalThis.fetch = saved;
  });

  it('the lobby’s own game passes, read from the chain', async () => {
    const chain = chainOf();
    assert.equal(await resolve(chain), GAME_ID);
    assert.deepEqual(chain.reads, [GAME_ID], 'the game was read on-chain');
  });

  it('a Leave (the signal) while the poll that names the game is on its way wins: no game id (review 34)', async () => {
    const exit = new AbortController();
    const inner = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      // The person clicks Leave while the status poll that answers `created` is in flight.
      if (new URL(String(input)).pathname.startsWith(`/v1/lobbies/${LOBBY_ID}/joins/`))
        exit.abort(new Error('left'));
      return inner(input, init);
    }) as typeof fetch;
    const chain = chainOf();
    await assert.rejects(resolve(chain, 1000n, {}, exit.signal), /^Error: left$/);
    assert.deepEqual(chain.reads, [], 'the game was not even read');
    // Aborted before the join: nothing is signed or sent.
    const joins: string[] = [];
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      if (init?.method === 'POST') joins.push(String(input));
      return inner(input, init);
    }) as typeof fetch;
    await assert.rejects(
      resolve(chain, 1000n, {}, AbortSignal.abort(new Error('left before joining'))),
      /left before joining/,
    );
    assert.deepEqual(joins, []);
  });

  it('a game with a bigger stake than the player signed for (a lying dealer) is refused', async () => {
    await rejects(resolve(chainOf({ config: { stake: 10n ** 20n } }), 10n ** 21n), 'stake');
  });

  it('a game the player is not seated in, or with other seats, is refused', async () => {
    await rejects(resolve(chainOf({ players: [OTHER, DEALER] })), 'players');
    await rejects(
      resolve(chainOf({ players: [PLAYER.address.toLowerCase(), OTHER, '0x' + '12'.repeat(20)] })),
      'players',
    );
  });

  it('a game whose bond is below the listed one (what the players share if the dealer is slashed) is refused', async () => {
    await rejects(resolve(chainOf({ bond: 1n })), 'bond');
  });

  it('another dealer’s game, another ruleset, a higher deposit, other turns or shorter durations are refused', async () => {
    await rejects(resolve(chainOf({ dealer: OTHER })), 'dealer');
    await rejects(resolve(chainOf({ config: { rulesetHash: `0x${'11'.repeat(32)}` } })), 'rulesetHash');
    await rejects(resolve(chainOf({ config: { disputeDeposit: 1000n } })), 'disputeDeposit');
    await rejects(resolve(chainOf({ config: { maxTurns: 4000 } })), 'maxTurns');
    await rejects(
      resolve(
        chainOf({
          config: { durations: { ...TINY.deadlines, turnSeconds: TINY.deadlines.turnSeconds - 1 } },
        }),
      ),
      'durations.turnSeconds',
    );
  });
});

describe('the terms the page funded its session key for (found by review 31)', () => {
  // The page funds its key from the listing (`sessionBudget(stake, maxTurns, disputeDeposit)`) and passes those
  // terms: a later view of the lobby, or a game, asking more turns or a larger deposit is refused, not played
  // until the key runs out of gas mid-game.
  const funded = { maxTurns: 40, maxDisputeDeposit: 100n };
  let saved: typeof fetch;
  beforeEach(() => {
    saved = globalThis.fetch;
  });
  afterEach(() => {
    globalThis.fetch = saved;
  });

  it('a later view of the lobby with more turns or a larger deposit: refused before signing', async () => {
    globalThis.fetch = dealerFetch({ ...lobby, maxTurns: 2000 });
    await rejects(resolve(chainOf({ config: { maxTurns: 2000 } }), 1000n, funded), 'maxTurns', 'signing');
    globalThis.fetch = dealerFetch({ ...lobby, disputeDeposit: '1000' });
    await rejects(
      resolve(chainOf({ config: { disputeDeposit: 1000n } }), 1000n, funded),
      'disputeDeposit',
      'signing',
    );
  });

  it('a later view of the lobby, or a game, with a shorter window than the listing showed: refused', async () => {
    // The durations the page showed are the join's floors (found by review 31: only the protocol's were).
    const shown = { ...funded, floors: TINY.deadlines };
    const shorter = { ...TINY.deadlines, turnSeconds: TINY.deadlines.turnSeconds - 1 };
    globalThis.fetch = dealerFetch({ ...lobby, durations: shorter });
    await rejects(resolve(chainOf(), 1000n, shown), 'durations.turnSeconds', 'signing');
    globalThis.fetch = dealerFetch();
    await rejects(
      resolve(chainOf({ config: { durations: shorter } }), 1000n, shown),
      'durations.turnSeconds',
    );
  });

  it('the agreed terms kept: the game is accepted', async () => {
    globalThis.fetch = dealerFetch();
    assert.equal(await resolve(chainOf(), 1000n, funded), GAME_ID);
  });
});

describe('player CLI --game: --max-stake bounds a game joined by id too', () => {
  const env = {
    SHROUD_PLAYER_KEY: `0x${'11'.repeat(32)}`,
    RPC_URL: 'http://127.0.0.1:1',
    SHROUD_GAME_CONTRACT: CONTRACT,
    SHROUD_DEALER_URL: 'http://127.0.0.1:2',
  };

  it('is accepted with --game and kept as the most the player stakes (unset: any, as before)', () => {
    assert.deepEqual(parsePlayArgs(['--game', '7', '--max-stake', '1000'], env).target, {
      kind: 'game',
      id: 7n,
      maxStake: 1000n,
    });
    assert.deepEqual(parsePlayArgs(['--game', '7'], env).target, { kind: 'game', id: 7n });
    assert.deepEqual(parsePlayArgs(['--lobby', 'tiny-duel'], env).target, {
      kind: 'lobby',
      lobby: 'tiny-duel',
      maxStake: 0n,
    });
  });
});
