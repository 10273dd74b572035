/**
 * The dealer's lobbies over HTTP, on a FakeChain and a SQLite file: players join with EIP-712 `Join`s, the
 * filling join makes the dealer create the game (durations from the ruleset, its seal key, the lobby's
 * money terms) and open the next lobby; every bad join is refused with its own message and changes
 * nothing; nonces survive a restart; a crash anywhere between "filled" and "created" loses no join and
 * never creates two games.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Wallet } from 'ethers';
import { pino } from 'pino';
import { packStartAreas } from '../../core/generator/index.ts';
import {
  DURATION_FIELDS,
  DURATION_FLOORS,
  type Hasher,
  type JoinMessage,
  type LeaveMessage,
  loadHasher,
  lobbyDomain,
  randomBytes32,
  rulesetHash,
  shippedRuleset,
  signJoin,
  signLeave,
  toJoinBody,
  toLeaveBody,
} from '../../core/index.ts';
import { generateSealKey } from '../../core/sealed.ts';
import { buildApp, REDACT_PATHS } from '../../dealer/app.ts';
import { FakeChain } from '../../dealer/chain/fake.ts';
import type { GameCreator } from '../../dealer/chain/types.ts';
import { ConfigError, loadConfig, lobbyKinds } from '../../dealer/config.ts';
import { FORGET_GRACE_SECONDS, type LobbyKind, LobbyService } from '../../dealer/lobby.ts';
import { MapCache } from '../../dealer/maps.ts';
import { createMetrics } from '../../dealer/metrics.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import { ChainWatcher } from '../../dealer/watcher.ts';
import { ALICE, BOB, CHAIN_ID, CONTRACT, captureLogs, HTTP, MALLORY, tempDir } from './fixture.ts';
import { type CrashPoint, dyingCreator } from './lobby-fixture.ts';

const TINY = shippedRuleset('tiny');
const SKIRMISH = shippedRuleset('skirmish');
const TINY_DUEL: LobbyKind = {
  name: 'tiny-duel',
  ruleset: TINY,
  seats: 2,
  stake: 1000n,
  disputeDeposit: 100n,
  maxTurns: 40,
  bond: 10n ** 18n,
};
const SKIRMISH_3: LobbyKind = {
  name: 'skirmish-3',
  ruleset: SKIRMISH,
  seats: 3,
  stake: 0n,
  disputeDeposit: 0n,
  maxTurns: 60,
  bond: 5n * 10n ** 17n,
};
const SEAL = generateSealKey();
/** Hardhat's dev account #1: the FakeChain's dealer (its transaction key). */
const DEALER = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const AT_REST = new Uint8Array(32).fill(7);
const tmp = tempDir();
let h: Hasher;
before(async () => {
  h = await loadHasher();
});
after(() => tmp.cleanup());

interface LobbyJson {
  id: string;
  kind: string;
  ruleset: string;
  rulesetHash: string;
  seats: number;
  filled: number;
  stake: string;
  status: string;
  gameId: string | null;
}

let dbs = 0;

/** A dealer with lobbies over HTTP (inject), its store on a SQLite file; `restart` reopens everything on it. */
async function startLobbies(
  o: {
    kinds?: LobbyKind[];
    chain?: FakeChain;
    dbPath?: string;
    creator?: GameCreator;
    maxPendingGames?: number;
  } = {},
) {
  const dbPath = o.dbPath ?? `${tmp.dir}/lobby-${dbs++}.sqlite`;
  const chain = o.chain ?? new FakeChain({ chainId: CHAIN_ID, contract: CONTRACT });
  const logs = captureLogs();
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, logs.stream);
  const clock = { now: Math.floor(Date.now() / 1000) };
  const store = new SqliteStore(dbPath, secretBox(AT_REST));
  const service = new LobbyService({
    store,
    creator: o.creator ?? chain,
    chainId: CHAIN_ID,
    gameContract: CONTRACT,
    sealKey: SEAL.publicKey,
    kinds: o.kinds ?? [TINY_DUEL, SKIRMISH_3],
    log: logger,
    maxJoinAheadSeconds: 600,
    ...(o.maxPendingGames === undefined ? {} : { maxPendingGames: o.maxPendingGames }),
    now: () => clock.now,
    pollMs: 60_000,
  });
  await service.start();
  const app = await buildApp({
    h,
    chain,
    store,
    maps: new MapCache(h, store),
    metrics: createMetrics(),
    chainId: CHAIN_ID,
    logger,
    http: HTTP,
    now: () => clock.now,
    lobbies: service,
  });
  const d = {
    app,
    service,
    store,
    chain,
    clock,
    logs,
    dbPath,
    async close() {
      await service.stop();
      await app.close();
      await store.close();
    },
    /** Stops this dealer and starts another on the same DB and chain (a restart). */
    async restart(kinds?: LobbyKind[]) {
      await d.close();
      return startLobbies({ kinds: kinds ?? o.kinds, chain, dbPath });
    },
    /** The dealer process dies at the same point of every creation from now on (until `restart`). */
    dieAt(at: CrashPoint) {
      return startLobbies({ kinds: o.kinds, chain, dbPath, creator: dyingCreator(chain, at) });
    },
    async listing() {
      const res = await app.inject({ method: 'GET', url: '/v1/lobbies' });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as {
        chainId: string;
        gameContract: string;
        dealer: string;
        sealKey: string[];
        lobbies: LobbyJson[];
      };
    },
    async lobby(kind = 'tiny-duel'): Promise<LobbyJson> {
      const l = (await d.listing()).lobbies.find((x) => x.kind === kind);
      assert.ok(l, `an open ${kind} lobby`);
      return l;
    },
    async join(lobbyId: string, body: unknown) {
      return app.inject({
        method: 'POST',
        url: `/v1/lobbies/${lobbyId}/joins`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    },
    async status(lobbyId: string, player: string) {
      return app.inject({ method: 'GET', url: `/v1/lobbies/${lobbyId}/joins/${player}` });
    },
    async leave(lobbyId: string, body: unknown) {
      return app.inject({
        method: 'POST',
        url: `/v1/lobbies/${lobbyId}/leaves`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    },
    /** `signer`'s leave of the seat its join `joinNonce` took, as the SDK signs it; `as` signs for another. */
    async leaveBody(signer: Wallet, lobbyId: string, joinNonce: string, as?: Wallet, chainId = CHAIN_ID) {
      const m: LeaveMessage = { lobbyId, player: signer.address, joinNonce };
      return toLeaveBody(m, await signLeave(as ?? signer, lobbyDomain(chainId, CONTRACT), m));
    },
    /** `signer`'s join of `lobby` as the SDK signs it; `o` overrides signed fields, `as` signs for another. */
    async body(signer: Wallet, lobby: LobbyJson, o: Partial<JoinMessage> = {}, as?: Wallet) {
      const m: JoinMessage = {
        lobbyId: lobby.id,
        player: signer.address,
        rulesetHash: lobby.rulesetHash,
        stake: BigInt(lobby.stake),
        seats: lobby.seats,
        nonce: randomBytes32(),
        deadline: clock.now + 120,
        ...o,
      };
      return toJoinBody(m, await signJoin(as ?? signer, lobbyDomain(CHAIN_ID, CONTRACT), m));
    },
    /** What a refused join must leave as it was. */
    async snapshot(lobbyId: string) {
      return {
        listing: await d.listing(),
        lobby: await store.getLobby(lobbyId),
        joins: await store.lobbyJoins(lobbyId),
        games: (await chain.gamesCreated(0, await chain.headBlock())).length,
      };
    },
  };
  return d;
}

type Lobbies = Awaited<ReturnType<typeof startLobbies>>;

async function refused(
  d: Lobbies,
  lobbyId: string,
  body: unknown,
  want: { status: number; error: string; field: string; message: RegExp },
): Promise<void> {
  const before = await d.snapshot(lobbyId);
  const res = await d.join(lobbyId, body);
  assert.equal(res.statusCode, want.status, res.body);
  const b = res.json() as { statusCode: number; error: string; field: string; message: string };
  assert.equal(b.statusCode, want.status);
  assert.equal(b.error, want.error, res.body);
  assert.equal(b.field, want.field, res.body);
  assert.match(b.message, want.message);
  assert.deepEqual(await d.snapshot(lobbyId), before, 'a refused join changes nothing');
}

const gamesOn = async (chain: FakeChain) => (await chain.gamesCreated(0, await chain.headBlock())).length;

describe('lobbies: joining and game creation (FakeChain)', () => {
  it('lists one open lobby per kind with its terms, the Join domain and the dealer', async () => {
    const d = await startLobbies();
    try {
      const l = await d.listing();
      assert.equal(l.chainId, '31337');
      assert.equal(l.gameContract, CONTRACT);
      assert.equal(l.dealer, d.chain.dealer);
      assert.deepEqual(l.sealKey, SEAL.publicKey.map(String));
      assert.deepEqual(
        l.lobbies.map((x) => [x.kind, x.ruleset, x.rulesetHash, x.seats, x.filled, x.stake, x.status]),
        [
          ['tiny-duel', 'tiny', rulesetHash(TINY).toLowerCase(), 2, 0, '1000', 'open'],
          ['skirmish-3', 'skirmish', rulesetHash(SKIRMISH).toLowerCase(), 3, 0, '0', 'open'],
        ],
      );
      const one = await d.app.inject({ method: 'GET', url: `/v1/lobbies/${l.lobbies[0]!.id}` });
      assert.equal(one.statusCode, 200);
      assert.deepEqual(one.json().durations, TINY.deadlines);
      assert.equal(one.json().bond, (10n ** 18n).toString());
    } finally {
      await d.close();
    }
  });

  it('two players fill a 2-seat lobby: the game is created with them, the ruleset durations, the stake; a new lobby opens', async () => {
    const d = await startLobbies();
    try {
      const lobby = await d.lobby();
      const aliceJoin = await d.body(ALICE, lobby);
      const a = await d.join(lobby.id, aliceJoin);
      assert.equal(a.statusCode, 200, a.body);
      assert.deepEqual(a.json(), {
        lobbyId: lobby.id,
        player: ALICE.address.toLowerCase(),
        seat: 0,
        nonce: aliceJoin.nonce.toLowerCase(),
        status: 'waiting',
        filled: 1,
        seats: 2,
        gameId: null,
        message: null,
      });
      assert.equal((await d.lobby()).filled, 1);
      const b = await d.join(lobby.id, await d.body(BOB, lobby));
      assert.equal(b.statusCode, 200, b.body);
      assert.equal(b.json().seat, 1);
      await d.service.drive();

      const ids = await Promise.all(
        [ALICE, BOB].map(async (p) => {
          const s = await d.status(lobby.id, p.address);
          assert.equal(s.statusCode, 200, s.body);
          assert.equal(s.json().status, 'created');
          return s.json().gameId as string;
        }),
      );
      assert.equal(ids[0], ids[1], 'every joiner gets the same game id');
      const gameId = BigInt(ids[0]!);
      assert.equal(await gamesOn(d.chain), 1);
      const on = d.chain.createdWith(gameId);
      assert.deepEqual(on.players, [ALICE.address.toLowerCase(), BOB.address.toLowerCase()], 'join order');
      assert.equal(on.rulesetHash, rulesetHash(TINY));
      assert.deepEqual(on.durations, TINY.deadlines);
      for (const f of DURATION_FIELDS) assert.ok(on.durations[f] >= DURATION_FLOORS[f], `${f} ≥ its floor`);
      assert.deepEqual(on.board, { kind: 0, width: 16, height: 12, maxTurns: 40 });
      assert.deepEqual([on.stake, on.disputeDeposit, on.bond], [1000n, 100n, 10n ** 18n]);
      assert.deepEqual(on.sealKey, SEAL.publicKey);

      const next = await d.lobby();
      assert.notEqual(next.id, lobby.id, 'a fresh lobby of the same kind');
      assert.equal(next.filled, 0);
      const done = await d.app.inject({ method: 'GET', url: `/v1/lobbies/${lobby.id}` });
      assert.deepEqual([done.json().status, done.json().gameId], ['created', ids[0]]);

      // The game is this dealer's (its tx key, its seal key): the watcher tracks it to deal it.
      const watcher = new ChainWatcher(
        {
          h,
          chain: d.chain,
          store: d.store,
          maps: new MapCache(h, d.store),
          sealSecretKey: SEAL.secretKey,
          log: pino({ level: 'silent' }),
        },
        { pollMs: 1000, startBlock: 0, sealPublicKey: SEAL.publicKey },
      );
      await watcher.tick();
      const tracked = await d.store.getGame(gameId);
      assert.ok(tracked, 'tracked by the watcher');
      assert.deepEqual(tracked.players, on.players);
      assert.equal(tracked.contract, CONTRACT);
    } finally {
      await d.close();
    }
  });

  describe('refusals: each with its message, the lobby unchanged', () => {
    let d: Lobbies;
    let lobby: LobbyJson;
    let aliceJoin: Awaited<ReturnType<Lobbies['body']>>;
    before(async () => {
      d = await startLobbies();
      lobby = await d.lobby();
      // One seat taken: refusals must leave it exactly so.
      aliceJoin = await d.body(ALICE, lobby);
      assert.equal((await d.join(lobby.id, aliceJoin)).statusCode, 200);
      lobby = await d.lobby();
    });
    after(() => d.close());

    it('a malformed signature', async () => {
      const body = await d.body(BOB, lobby);
      await refused(
        d,
        lobby.id,
        { ...body, signature: `0x${'00'.repeat(65)}` },
        {
          status: 401,
          error: 'bad-signature',
          field: 'signature',
          message: /^signature: not a valid low-s secp256k1 signature$/,
        },
      );
    });

    it('a signature by someone else than the player', async () => {
      await refused(d, lobby.id, await d.body(BOB, lobby, {}, MALLORY), {
        status: 401,
        error: 'bad-signature',
        field: 'signature',
        message: new RegExp(`signed by ${MALLORY.address}, not by player ${BOB.address}`),
      });
    });

    it('an expired deadline', async () => {
      await refused(d, lobby.id, await d.body(BOB, lobby, { deadline: d.clock.now - 5 }), {
        status: 401,
        error: 'expired',
        field: 'deadline',
        message: /^deadline: passed 5 s ago$/,
      });
    });

    it('a deadline too far ahead', async () => {
      await refused(d, lobby.id, await d.body(BOB, lobby, { deadline: d.clock.now + 3600 }), {
        status: 400,
        error: 'deadline-too-far',
        field: 'deadline',
        message: /^deadline: 3600 s ahead; at most 600 s$/,
      });
    });

    it('a replayed join (same signed join, same nonce)', async () => {
      await refused(d, lobby.id, aliceJoin, {
        status: 409,
        error: 'nonce-replayed',
        field: 'nonce',
        message: /^nonce: already used by this player$/,
      });
    });

    it('another ruleset than the lobby’s', async () => {
      await refused(d, lobby.id, await d.body(BOB, lobby, { rulesetHash: rulesetHash(SKIRMISH) }), {
        status: 409,
        error: 'ruleset-mismatch',
        field: 'rulesetHash',
        message: /^rulesetHash: the lobby plays tiny \(0x[0-9a-f]{64}\), the join names 0x/,
      });
    });

    it('another seat count than the lobby’s', async () => {
      await refused(d, lobby.id, await d.body(BOB, lobby, { seats: 3 }), {
        status: 409,
        error: 'seats-mismatch',
        field: 'seats',
        message: /^seats: the lobby seats 2 players, the join names 3$/,
      });
    });

    it('a stake below the lobby’s', async () => {
      await refused(d, lobby.id, await d.body(BOB, lobby, { stake: 999n }), {
        status: 409,
        error: 'stake-too-low',
        field: 'stake',
        message: /^stake: the lobby's stake is 1000 wei, the join accepts at most 999$/,
      });
    });

    it('the same player twice in one lobby', async () => {
      await refused(d, lobby.id, await d.body(ALICE, lobby), {
        status: 409,
        error: 'already-joined',
        field: 'player',
        message: new RegExp(`^player: ${ALICE.address} already has a seat in this lobby$`),
      });
    });

    it('an unknown lobby', async () => {
      const unknown = randomBytes32();
      const body = await d.body(BOB, { ...lobby, id: unknown });
      const before = await d.snapshot(lobby.id);
      const res = await d.join(unknown, body);
      assert.equal(res.statusCode, 404, res.body);
      assert.deepEqual(
        { ...(res.json() as object), message: undefined },
        { statusCode: 404, error: 'unknown-lobby', field: 'lobbyId', message: undefined },
      );
      assert.match(res.json().message, /^lobbyId: no lobby 0x[0-9a-f]{64} at this dealer$/);
      assert.deepEqual(await d.snapshot(lobby.id), before);
    });

    it('the dealer itself as a player (the contract would refuse the game)', async () => {
      assert.equal(DEALER.address.toLowerCase(), d.chain.dealer);
      await refused(d, lobby.id, await d.body(DEALER, lobby), {
        status: 403,
        error: 'dealer-cannot-play',
        field: 'player',
        message: /^player: the dealer cannot take a seat in its own game$/,
      });
    });

    it('a malformed body, named by field', async () => {
      const body = await d.body(BOB, lobby);
      await refused(
        d,
        lobby.id,
        { ...body, stake: 1000 },
        {
          status: 400,
          error: 'invalid-request',
          field: 'body.stake',
          message: /^body\.stake: must be string$/,
        },
      );
      await refused(
        d,
        lobby.id,
        { ...body, extra: 1 },
        { status: 400, error: 'invalid-request', field: 'body.extra', message: /additional properties/ },
      );
    });
  });

  it('a full lobby refuses more joins, naming the lobby to join instead', async () => {
    const d = await startLobbies();
    try {
      const lobby = await d.lobby();
      await d.join(lobby.id, await d.body(ALICE, lobby));
      await d.join(lobby.id, await d.body(BOB, lobby));
      await d.service.drive();
      const next = await d.lobby();
      await refused(d, lobby.id, await d.body(MALLORY, lobby), {
        status: 409,
        error: 'lobby-closed',
        field: 'lobbyId',
        message: new RegExp(`^lobbyId: the lobby is created; join ${next.id}$`),
      });
      const none = await d.status(lobby.id, MALLORY.address);
      assert.equal(none.statusCode, 404);
      assert.equal(none.json().error, 'not-joined');
    } finally {
      await d.close();
    }
  });

  it('a replayed join after a dealer restart is refused (nonces are persisted)', async () => {
    let d = await startLobbies();
    const lobby = await d.lobby('skirmish-3');
    const body = await d.body(ALICE, lobby);
    assert.equal((await d.join(lobby.id, body)).statusCode, 200);
    d = await d.restart();
    try {
      assert.equal((await d.lobby('skirmish-3')).id, lobby.id, 'the same lobby after the restart');
      await refused(d, lobby.id, body, {
        status: 409,
        error: 'nonce-replayed',
        field: 'nonce',
        message: /already used/,
      });
      assert.equal((await d.lobby('skirmish-3')).filled, 1);
    } finally {
      await d.close();
    }
  });

  it('a restart with changed config retires empty stale lobbies and keeps one with joins', async () => {
    let d = await startLobbies();
    const tiny = await d.lobby('tiny-duel');
    const skirmish = await d.lobby('skirmish-3');
    await d.join(skirmish.id, await d.body(ALICE, skirmish));
    d = await d.restart([{ ...TINY_DUEL, stake: 2000n }]);
    try {
      const open = (await d.listing()).lobbies;
      assert.ok(!open.some((l) => l.id === tiny.id), 'the empty tiny lobby with the old stake is retired');
      assert.equal((await d.store.getLobby(tiny.id))?.status, 'closed');
      assert.deepEqual(
        open.map((l) => [l.kind, l.stake, l.filled]),
        [
          ['skirmish-3', '0', 1],
          ['tiny-duel', '2000', 0],
        ],
      );
    } finally {
      await d.close();
    }
  });

  it('a lobby kept on its old terms, left by everyone, is retired (it does not linger open beside the new one)', async () => {
    let d = await startLobbies();
    const skirmish = await d.lobby('skirmish-3');
    const alice = await d.body(ALICE, skirmish);
    await d.join(skirmish.id, alice);
    d = await d.restart([TINY_DUEL, { ...SKIRMISH_3, stake: 5n }]);
    try {
      assert.deepEqual(
        (await d.listing()).lobbies.filter((l) => l.kind === 'skirmish-3').map((l) => [l.id, l.stake]),
        [
          [skirmish.id, '0'],
          [
            (await d.store.listLobbies(['open'])).find((l) => l.kind === 'skirmish-3' && l.stake === 5n)!.id,
            '5',
          ],
        ],
        'kept on its old terms beside the new one while it has a join',
      );
      const res = await d.leave(skirmish.id, await d.leaveBody(ALICE, skirmish.id, alice.nonce));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await d.store.getLobby(skirmish.id))?.status, 'closed');
      assert.deepEqual(
        (await d.listing()).lobbies.filter((l) => l.kind === 'skirmish-3').map((l) => l.stake),
        ['5'],
      );
    } finally {
      await d.close();
    }
  });

  describe('crash between "filled" and "created"', () => {
    /** Fills the tiny lobby in a dealer that dies at `at`, then restarts it: one game, every join kept. */
    async function crashAndRecover(at: CrashPoint, between?: (chain: FakeChain) => void) {
      const first = await startLobbies();
      await first.close();
      let d = await first.dieAt(at);
      const lobby = await d.lobby();
      await d.join(lobby.id, await d.body(ALICE, lobby));
      await d.join(lobby.id, await d.body(BOB, lobby));
      await d.service.drive();
      const crashed = await d.store.getLobby(lobby.id);
      assert.notEqual(crashed?.status, 'created', 'the creation was interrupted');
      between?.(d.chain);
      d = await d.restart();
      try {
        const l = await d.store.getLobby(lobby.id);
        assert.equal(l?.status, 'created', l?.fault ?? '');
        assert.equal(await gamesOn(d.chain), 1, 'exactly one game');
        assert.deepEqual(
          (await d.store.lobbyJoins(lobby.id)).map((j) => j.player),
          [ALICE, BOB].map((p) => p.address.toLowerCase()),
          'no join lost',
        );
        const s = await d.status(lobby.id, BOB.address);
        assert.deepEqual([s.json().status, s.json().gameId], ['created', l!.gameId!.toString()]);
        assert.deepEqual(
          d.chain.createdWith(l!.gameId!).players,
          [ALICE, BOB].map((p) => p.address.toLowerCase()),
        );
        assert.equal((await d.listing()).lobbies.filter((x) => x.kind === 'tiny-duel').length, 1);
        return { crashed: crashed!, created: l! };
      } finally {
        await d.close();
      }
    }

    it('before the createGame was signed: signed and sent after the restart', async () => {
      const { crashed } = await crashAndRecover('before-sign');
      assert.equal(crashed.status, 'filled');
      assert.equal(crashed.createTx, null);
    });

    it('after it was signed and kept, before the broadcast: the same transaction is sent after the restart', async () => {
      const { crashed, created } = await crashAndRecover('after-persist');
      assert.equal(crashed.status, 'creating');
      assert.ok(crashed.createTx);
      assert.equal(created.createTx?.hash, crashed.createTx.hash, 'the very same transaction');
    });

    it('after it was mined, before the game id was recorded: found after the restart, not sent again', async () => {
      const { crashed, created } = await crashAndRecover('after-broadcast');
      assert.equal(crashed.status, 'creating');
      assert.equal(created.createTx?.hash, crashed.createTx?.hash);
    });

    it('when its nonce went to another transaction meanwhile: a new one is signed, still one game', async () => {
      const { crashed, created } = await crashAndRecover('after-persist', (chain) => chain.useDealerNonce());
      assert.notEqual(created.createTx?.hash, crashed.createTx?.hash, 're-signed with a fresh nonce');
      assert.equal(created.createTx?.nonce, (crashed.createTx?.nonce ?? 0) + 1);
    });
  });

  it('opens no lobby of a ruleset whose registry holds other start areas (fraud proofs would convict an honest map), and says so', async () => {
    const hash = rulesetHash(TINY);
    const chain = new FakeChain({ chainId: CHAIN_ID, contract: CONTRACT, startAreas: { [hash]: 0n } });
    const d = await startLobbies({ chain });
    try {
      const kinds = (await d.listing()).lobbies.map((l) => l.kind);
      assert.deepEqual(kinds, ['skirmish-3'], 'only the correctly registered kind is open');
      const refusal = d.logs.lines.map((l) => JSON.parse(l)).find((l) => l.kind === 'tiny-duel');
      assert.ok(refusal, 'the refusal is logged');
      assert.equal(refusal.level, 50, 'as an error');
      assert.equal(refusal.registered, '0');
      assert.equal(refusal.ruleset, String(packStartAreas(TINY.board)));
    } finally {
      await d.close();
    }
  });

  it('a game the chain refuses fails the lobby, keeps its joins, and tells every joiner why', async () => {
    const chain = new FakeChain({ chainId: CHAIN_ID, contract: CONTRACT, registered: ['skirmish'] });
    const d = await startLobbies({ chain });
    try {
      const lobby = await d.lobby();
      await d.join(lobby.id, await d.body(ALICE, lobby));
      await d.join(lobby.id, await d.body(BOB, lobby));
      await d.service.drive();
      for (const p of [ALICE, BOB]) {
        const s = (await d.status(lobby.id, p.address)).json();
        assert.equal(s.status, 'failed');
        assert.equal(s.gameId, null);
        assert.match(s.message, /could not create the game \(createGame reverted: UnknownRuleset\)/);
      }
      assert.equal((await d.store.lobbyJoins(lobby.id)).length, 2);
      assert.equal(await gamesOn(chain), 0);
      assert.equal((await d.lobby()).filled, 0, 'the next lobby is open');
    } finally {
      await d.close();
    }
  });
});

describe('lobbies: leaving before the lobby fills (a signed Leave)', () => {
  const seats = async (d: Lobbies, lobbyId: string) =>
    (await d.store.lobbyJoins(lobbyId)).map((j) => [j.player, j.seat]);

  it('a seat given up moves the later ones down; the game seats the players still there, in join order', async () => {
    const d = await startLobbies();
    try {
      const lobby = await d.lobby('skirmish-3');
      const alice = await d.body(ALICE, lobby);
      assert.equal((await d.join(lobby.id, alice)).statusCode, 200);
      assert.equal((await d.join(lobby.id, await d.body(BOB, lobby))).statusCode, 200);
      const mine = (await d.status(lobby.id, ALICE.address)).json();
      assert.equal(mine.nonce, alice.nonce.toLowerCase(), 'the status names the join holding the seat');
      const res = await d.leave(lobby.id, await d.leaveBody(ALICE, lobby.id, mine.nonce));
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        lobbyId: lobby.id,
        player: ALICE.address.toLowerCase(),
        seat: 0,
        status: 'left',
      });
      assert.deepEqual(await seats(d, lobby.id), [[BOB.address.toLowerCase(), 0]]);
      assert.equal((await d.lobby('skirmish-3')).filled, 1);
      assert.equal((await d.status(lobby.id, ALICE.address)).json().error, 'not-joined');
      assert.ok(d.logs.lines.some((l) => l.includes('"player left"')));
      // Alice comes back with a new join; Mallory fills the lobby: the game seats Bob, Alice, Mallory.
      assert.equal((await d.join(lobby.id, await d.body(ALICE, lobby))).statusCode, 200);
      assert.equal((await d.join(lobby.id, await d.body(MALLORY, lobby))).statusCode, 200);
      await d.service.drive();
      const created = (await d.status(lobby.id, BOB.address)).json();
      assert.equal(created.status, 'created', JSON.stringify(created));
      assert.deepEqual(
        d.chain.createdWith(BigInt(created.gameId)).players,
        [BOB, ALICE, MALLORY].map((w) => w.address.toLowerCase()),
      );
    } finally {
      await d.close();
    }
  });

  describe('refusals: each with its message, the lobby unchanged', () => {
    let d: Lobbies;
    let lobby: LobbyJson;
    let aliceNonce: string;
    before(async () => {
      d = await startLobbies();
      lobby = await d.lobby('skirmish-3');
      const first = await d.body(ALICE, lobby);
      assert.equal((await d.join(lobby.id, first)).statusCode, 200);
      // Alice leaves and joins again: her first join's leave is stale, and that join stays spent.
      assert.equal(
        (await d.leave(lobby.id, await d.leaveBody(ALICE, lobby.id, first.nonce))).statusCode,
        200,
      );
      const second = await d.body(ALICE, lobby);
      assert.equal((await d.join(lobby.id, second)).statusCode, 200);
      aliceNonce = second.nonce;
      const replayed = await d.join(lobby.id, first);
      assert.equal(replayed.statusCode, 409, 'the join of a seat given up cannot seat her again');
      assert.equal(replayed.json().error, 'nonce-replayed');
      (d as { firstNonce?: string }).firstNonce = first.nonce;
    });
    after(() => d.close());

    const leaveRefused = async (
      lobbyId: string,
      body: unknown,
      want: { status: number; error: string; field?: string; message: RegExp },
    ) => {
      const before = await d.snapshot(lobby.id);
      const res = await d.leave(lobbyId, body);
      assert.equal(res.statusCode, want.status, res.body);
      const b = res.json() as { error: string; field: string; message: string };
      assert.equal(b.error, want.error, res.body);
      if (want.field) assert.equal(b.field, want.field, res.body);
      assert.match(b.message, want.message);
      assert.deepEqual(await d.snapshot(lobby.id), before, 'a refused leave changes nothing');
    };

    it('signed by someone else than the player', async () => {
      await leaveRefused(lobby.id, await d.leaveBody(ALICE, lobby.id, aliceNonce, MALLORY), {
        status: 401,
        error: 'bad-signature',
        message: /not by player/,
      });
    });

    it('for another chain (the domain binds the chain and the contract)', async () => {
      await leaveRefused(lobby.id, await d.leaveBody(ALICE, lobby.id, aliceNonce, undefined, CHAIN_ID + 1n), {
        status: 401,
        error: 'bad-signature',
        message: /not by player/,
      });
    });

    it("the player's join signature sent as a leave (another typed message)", async () => {
      const join = await d.body(ALICE, lobby, { nonce: aliceNonce });
      await leaveRefused(
        lobby.id,
        { player: ALICE.address, joinNonce: aliceNonce, signature: join.signature },
        { status: 401, error: 'bad-signature', message: /not by player/ },
      );
    });

    it('the leave of a seat given up, replayed after the player joined again (stale)', async () => {
      const firstNonce = (d as { firstNonce?: string }).firstNonce!;
      await leaveRefused(lobby.id, await d.leaveBody(ALICE, lobby.id, firstNonce), {
        status: 409,
        error: 'stale-leave',
        field: 'joinNonce',
        message: /another join/,
      });
    });

    it('a player with no seat here', async () => {
      await leaveRefused(lobby.id, await d.leaveBody(BOB, lobby.id, aliceNonce), {
        status: 404,
        error: 'not-joined',
        message: /has no seat in this lobby/,
      });
    });

    it('an unknown lobby', async () => {
      const other = randomBytes32();
      await leaveRefused(other, await d.leaveBody(ALICE, other, aliceNonce), {
        status: 404,
        error: 'unknown-lobby',
        message: /no lobby/,
      });
    });

    it('a malformed body, named by field', async () => {
      const body = await d.leaveBody(ALICE, lobby.id, aliceNonce);
      await leaveRefused(
        lobby.id,
        { ...body, joinNonce: '0x1234' },
        { status: 400, error: 'invalid-request', field: 'body.joinNonce', message: /must match pattern/ },
      );
      await leaveRefused(
        lobby.id,
        { ...body, extra: 1 },
        { status: 400, error: 'invalid-request', field: 'body.extra', message: /additional properties/ },
      );
    });
  });

  it('a filled lobby refuses the leave (409 lobby-closed): its game is created with every seat', async () => {
    const d = await startLobbies();
    try {
      const lobby = await d.lobby();
      const alice = await d.body(ALICE, lobby);
      assert.equal((await d.join(lobby.id, alice)).statusCode, 200);
      assert.equal((await d.join(lobby.id, await d.body(BOB, lobby))).statusCode, 200);
      const res = await d.leave(lobby.id, await d.leaveBody(ALICE, lobby.id, alice.nonce));
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.json().error, 'lobby-closed');
      await d.service.drive();
      const created = (await d.status(lobby.id, ALICE.address)).json();
      assert.equal(created.status, 'created', JSON.stringify(created));
      assert.deepEqual(
        d.chain.createdWith(BigInt(created.gameId)).players,
        [ALICE, BOB].map((w) => w.address.toLowerCase()),
      );
    } finally {
      await d.close();
    }
  });
});

describe('lobbies: the spent joins of seats given up (review 34)', () => {
  /** The `lobby_leaves` rows of the dealer's database, read behind its back. */
  const spentRows = (d: Lobbies) => {
    const db = new DatabaseSync(d.dbPath, { readOnly: true });
    try {
      return db.prepare('SELECT lobby_id, player, nonce FROM lobby_leaves').all() as {
        lobby_id: string;
        player: string;
        nonce: string;
      }[];
    } finally {
      db.close();
    }
  };

  it('one address joining and leaving over and over keeps only its joins that could still be replayed, and none replays', async () => {
    const d = await startLobbies();
    try {
      const lobby = await d.lobby('skirmish-3');
      const AHEAD = 120; // d.body's deadline: now + 120 s
      const STEP = 30;
      const joins: Awaited<ReturnType<typeof d.body>>[] = [];
      // The run is set in the past: the store never lets the floor pass the database's clock (review 37), which
      // this fake clock does not move.
      d.clock.now -= 40 * STEP + 600;
      const start = d.clock.now;
      for (let i = 0; i < 40; i++) {
        const j = await d.body(ALICE, lobby);
        assert.equal((await d.join(lobby.id, j)).statusCode, 200);
        const left = await d.leave(lobby.id, await d.leaveBody(ALICE, lobby.id, j.nonce));
        assert.equal(left.statusCode, 200, left.body);
        joins.push(j);
        const rows = spentRows(d).length;
        assert.ok(rows <= (AHEAD + FORGET_GRACE_SECONDS) / STEP + 1, `${rows} rows after ${i + 1} cycles`);
        d.clock.now += STEP;
      }
      assert.equal(spentRows(d).length, Math.floor((AHEAD + FORGET_GRACE_SECONDS) / STEP) + 1);
      // Every join Alice signed, replayed now: the old ones expired, the recent ones spent.
      for (const j of joins) {
        const res = await d.join(lobby.id, j);
        const want = j.deadline <= d.clock.now ? [401, 'expired'] : [409, 'nonce-replayed'];
        assert.deepEqual([res.statusCode, res.json().error], want, `deadline ${j.deadline}`);
      }
      // A dealer process whose clock runs far behind (the first join not expired by it): its row is gone, and the
      // store refuses it all the same.
      assert.ok(!spentRows(d).some((r) => r.nonce === joins[0]!.nonce.toLowerCase()), 'its row was pruned');
      d.clock.now = start;
      const replayed = await d.join(lobby.id, joins[0]!);
      assert.deepEqual([replayed.statusCode, replayed.json().error], [409, 'nonce-replayed']);
      assert.deepEqual(await d.store.lobbyJoins(lobby.id), [], 'no seat taken');
      d.clock.now = start + 40 * STEP;
      // The lobby fills: it takes no joins any more, and drops its spent ones.
      for (const w of [ALICE, BOB, MALLORY]) {
        assert.equal((await d.join(lobby.id, await d.body(w, lobby))).statusCode, 200);
      }
      assert.deepEqual(spentRows(d), []);
      const last = await d.join(lobby.id, joins.at(-1)!);
      assert.deepEqual([last.statusCode, last.json().error], [409, 'lobby-closed']);
    } finally {
      await d.close();
    }
  });
});

describe('lobbies: Sybil seats (free addresses filling lobbies they never play)', () => {
  /** Commit and reveal windows of tiny: how long an unstarted lobby game may still wait for its players. */
  const WINDOW = TINY.deadlines.commitSeconds + TINY.deadlines.revealSeconds;
  const fill = async (d: Lobbies, players: Wallet[]) => {
    const lobby = await d.lobby();
    for (const p of players) {
      const r = await d.join(lobby.id, await d.body(p, lobby));
      assert.equal(r.statusCode, 200, r.body);
    }
    await d.service.drive();
    return lobby;
  };

  it('one pair of addresses cannot fill lobby after lobby: a seat waiting for its game blocks a second one', async () => {
    const d = await startLobbies({ kinds: [TINY_DUEL, SKIRMISH_3] });
    try {
      await fill(d, [ALICE, BOB]);
      assert.equal(await gamesOn(d.chain), 1);
      for (const kind of ['tiny-duel', 'skirmish-3']) {
        const next = await d.lobby(kind);
        await refused(d, next.id, await d.body(ALICE, next), {
          status: 409,
          error: 'seat-pending',
          field: 'player',
          message: /already has a seat in lobby 0x[0-9a-f]{64} \(its game is not under way yet\)/,
        });
      }
      // Once the game's commit and reveal windows have passed (played, or cancellable), the seat is free.
      d.clock.now += WINDOW + 1;
      await fill(d, [ALICE, BOB]);
      assert.equal(await gamesOn(d.chain), 2);
    } finally {
      await d.close();
    }
  });

  it('two joins at once by one player to two lobbies: one seat, the other 409 seat-pending (no race past the check)', async () => {
    const d = await startLobbies();
    try {
      const tiny = await d.lobby('tiny-duel');
      const skirmish = await d.lobby('skirmish-3');
      // A loaded database: the join's write starts 30 ms after the call. Checks made before the call would both
      // pass (neither seat is written yet); the join's own admission runs after the wait, one join at a time.
      const join = d.store.joinLobby.bind(d.store);
      d.store.joinLobby = async (...a) => {
        await new Promise((r) => setTimeout(r, 30));
        return join(...a);
      };
      const bodies = [await d.body(ALICE, tiny), await d.body(ALICE, skirmish)];
      const [x, y] = await Promise.all([d.join(tiny.id, bodies[0]), d.join(skirmish.id, bodies[1])]);
      assert.deepEqual([x.statusCode, y.statusCode].sort(), [200, 409], `${x.body} ${y.body}`);
      assert.equal((x.statusCode === 409 ? x : y).json().error, 'seat-pending');
      const seats =
        (await d.store.lobbyJoins(tiny.id)).length + (await d.store.lobbyJoins(skirmish.id)).length;
      assert.equal(seats, 1);
    } finally {
      await d.close();
    }
  });

  it('a join the store refuses as busy (the join lock timed out) is a 503 lobbies-busy with Retry-After', async () => {
    const d = await startLobbies();
    try {
      const tiny = await d.lobby('tiny-duel');
      d.store.joinLobby = async () => ({ ok: false, reason: 'busy' });
      const res = await d.join(tiny.id, await d.body(ALICE, tiny));
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().error, 'lobbies-busy');
      assert.equal(res.headers['retry-after'], '2');
    } finally {
      await d.close();
    }
  });

  it('a seat in an open lobby counts while its join is valid; a retried join of the same lobby is still a replay', async () => {
    const d = await startLobbies();
    try {
      const tiny = await d.lobby('tiny-duel');
      const body = await d.body(ALICE, tiny);
      assert.equal((await d.join(tiny.id, body)).statusCode, 200);
      const skirmish = await d.lobby('skirmish-3');
      await refused(d, skirmish.id, await d.body(ALICE, skirmish), {
        status: 409,
        error: 'seat-pending',
        field: 'player',
        message: new RegExp(`seat in lobby ${tiny.id}`),
      });
      assert.equal((await d.join(tiny.id, body)).json().error, 'nonce-replayed');
      // The join's deadline passed: the player left; the open seat no longer holds it back.
      d.clock.now += 121;
      const again = await d.join(skirmish.id, await d.body(ALICE, skirmish));
      assert.equal(again.statusCode, 200, again.body);
    } finally {
      await d.close();
    }
  });

  it('the dealer creates at most maxPendingGames games still waiting for their players; the filling join waits', async () => {
    const d = await startLobbies({ kinds: [TINY_DUEL], maxPendingGames: 2 });
    try {
      const sybils = Array.from({ length: 8 }, () => Wallet.createRandom() as unknown as Wallet);
      await fill(d, sybils.slice(0, 2));
      await fill(d, sybils.slice(2, 4));
      assert.equal(await gamesOn(d.chain), 2);
      const lobby = await d.lobby();
      assert.equal(
        (await d.join(lobby.id, await d.body(sybils[4]!, lobby))).statusCode,
        200,
        'a seat is free',
      );
      const before = await d.snapshot(lobby.id);
      const res = await d.join(lobby.id, await d.body(sybils[5]!, lobby));
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().error, 'lobbies-busy');
      assert.match(res.json().message, /2 games created for lobbies are still waiting for their players/);
      assert.equal(Number(res.headers['retry-after']), WINDOW);
      assert.deepEqual(await d.snapshot(lobby.id), before, 'nothing written');
      assert.equal(await gamesOn(d.chain), 2, 'no third createGame');
      d.clock.now += WINDOW + 1;
      const later = await d.join(lobby.id, await d.body(sybils[5]!, lobby));
      assert.equal(later.statusCode, 200, later.body);
      await d.service.drive();
      assert.equal(await gamesOn(d.chain), 3);
    } finally {
      await d.close();
    }
  });

  it('a game the dealer saw start (dealt, cancelled) no longer counts', async () => {
    const d = await startLobbies({ kinds: [TINY_DUEL], maxPendingGames: 1 });
    try {
      const first = await fill(d, [ALICE, BOB]);
      const gameId = (await d.store.getLobby(first.id))!.gameId!;
      const lobby = await d.lobby();
      await d.join(lobby.id, await d.body(MALLORY, lobby));
      const carol = Wallet.createRandom() as unknown as Wallet;
      assert.equal((await d.join(lobby.id, await d.body(carol, lobby))).statusCode, 503);
      // The watcher tracks the game and records it dealt (its players committed and sealed).
      await d.store.addGame({ gameId, contract: CONTRACT, ruleset: 'tiny', players: [] });
      await d.store.updateGame(gameId, { status: 'dealt' });
      assert.equal((await d.join(lobby.id, await d.body(carol, lobby))).statusCode, 200);
      // And ALICE, whose game is under way, may take a seat elsewhere.
      const next = await d.lobby();
      assert.equal((await d.join(next.id, await d.body(ALICE, next))).statusCode, 200);
    } finally {
      await d.close();
    }
  });
});

describe('lobbies: configuration', () => {
  const FILE = fileURLToPath(new URL('../../dealer/config.default.json', import.meta.url));
  const kind = {
    name: 'tiny-duel',
    ruleset: 'tiny',
    seats: 2,
    stake: '1000',
    disputeDeposit: '100',
    maxTurns: 40,
    bond: '1000000000000000000',
  };
  const load = (kinds: unknown, extra: NodeJS.ProcessEnv = {}) =>
    loadConfig(FILE, { SHROUD_LOBBIES: JSON.stringify(kinds), ...extra });

  it('reads the kinds from SHROUD_LOBBIES, checked as games of their rulesets', () => {
    const c = load([kind], { SHROUD_LOBBY_JOIN_AHEAD_SECONDS: '300' });
    assert.equal(c.lobbies?.maxJoinAheadSeconds, 300);
    const [k] = lobbyKinds(c);
    assert.equal(k?.ruleset.name, 'tiny');
    assert.deepEqual(
      [k?.seats, k?.stake, k?.disputeDeposit, k?.maxTurns, k?.bond],
      [2, 1000n, 100n, 40, 10n ** 18n],
    );
    assert.deepEqual(lobbyKinds(loadConfig(FILE, {})), [], 'none configured: no lobbies');
  });

  it('refuses a kind the contract would refuse, naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [[{ ...kind, ruleset: 'nope' }], /^config lobbies\.kinds\.0\.ruleset: unknown ruleset "nope"/],
      [[{ ...kind, seats: 3 }], /^config lobbies\.kinds\.0\.seats: tiny seats 2\.\.2 players, not 3$/],
      [[{ ...kind, disputeDeposit: '1001' }], /^config lobbies\.kinds\.0\.disputeDeposit: 1001 wei/],
      [[{ ...kind, bond: '0' }], /^config lobbies\.kinds\.0\.bond: must be a positive uint96/],
      [[kind, kind], /^config lobbies\.kinds\.1\.name: "tiny-duel" is used by another kind$/],
      [[{ ...kind, stake: 1000 }], /^config lobbies\.kinds\.0\.stake: must be string$/],
      [[{ ...kind, seats: 7 }], /^config lobbies\.kinds\.0\.seats: must be <= 6$/],
    ];
    for (const [kinds, message] of cases) {
      assert.throws(
        () => load(kinds),
        (e: unknown) => e instanceof ConfigError && message.test(e.message),
        String(message),
      );
    }
    assert.throws(
      () => loadConfig(FILE, { SHROUD_LOBBIES: '[{' }),
      (e: unknown) => e instanceof ConfigError && e.message === 'SHROUD_LOBBIES: not valid JSON',
    );
  });
});
