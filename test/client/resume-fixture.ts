/**
 * Games on the real ShroudGame with MockVerifiers (each "proof" bound to the exact public signals, as in
 * dispute-flow.test.ts) and an honest in-process dealer, whose players persist through a PlayerVault and can be
 * "killed": a killed incarnation's pending work never reaches the store again, as after a real crash.
 */
import type { Contract } from 'ethers';
import { BotPlayer } from '../../client/bot-player.ts';
import { GameChain, type Prover } from '../../client/sdk/chain.ts';
import type { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GamePlayer, type GamePlayerOptions } from '../../client/sdk/game-player.ts';
import type { PlayerSnapshot, SnapshotStore } from '../../client/sdk/snapshot.ts';
import { MemoryStateStore } from '../../client/sdk/store.ts';
import { verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { PlayerVault } from '../../client/sdk/vault.ts';
import { commitMap, generateMap, masterCommitment } from '../../core/index.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { playSignalCounts } from '../../core/witness/publics.ts';
import { rulesetHash, rulesetInfo } from '../../scripts/contracts/rulesets.ts';
import { BOND, type Env, gameParams, lastGameId, setup } from '../contracts/helpers.ts';
import { proofFor } from '../contracts/mock-play.ts';
import { type DealtMap, serve } from './fixture.ts';

/** Proves by hashing the plan's public signals: what contracts/harness/MockVerifier.sol accepts. */
export const mockProver: Prover = { prove: async (_c, plan) => proofFor(plan.publicSignals) as never };

/** A fresh chain with `rulesets` registered against MockVerifiers. */
export async function mockEnv(rulesets: readonly string[]): Promise<Env> {
  const env = await setup();
  for (const name of rulesets) await registerMock(env, shippedRuleset(name));
  return env;
}

/** An honest dealer in this process: serves `map()`'s tiles and zone roots, verified as the real client does. */
export function honestDealer(map: () => DealtMap | null): DealerClient {
  const dealt = () => {
    const m = map();
    if (!m) throw new Error('the test dealer has no map yet');
    return m;
  };
  return {
    fetchVerifiedTiles: async (h, board, root, o) =>
      verifyRevealedTiles(
        h,
        board,
        root,
        o.leaves,
        o.leaves.map((l) => serve(dealt(), l)),
      ),
    sendReceipt: async () => {},
  } as Partial<DealerClient> as DealerClient;
}

/** A store whose writes stop when its incarnation is killed (its process would be gone). */
export class Mortal implements SnapshotStore {
  readonly #inner: SnapshotStore;
  dead = false;
  saves = 0;
  constructor(inner: SnapshotStore) {
    this.#inner = inner;
  }
  load(r: ValidRuleset) {
    return this.#inner.load(r);
  }
  async save(s: PlayerSnapshot) {
    if (this.dead) return;
    this.saves++;
    await this.#inner.save(s);
  }
}

export interface Seat {
  options: Omit<GamePlayerOptions, 'persist'>;
  vault: PlayerVault;
  /** The current incarnation. */
  store: Mortal;
  bot: BotPlayer;
  /** How many times it was killed and resumed. */
  lives: number;
}

export interface MockGame {
  env: Env;
  ruleset: ValidRuleset;
  gameId: bigint;
  seats: Seat[];
  /** The dealt map once `deal` ran. */
  map: DealtMap | null;
}

/** A two-seat game of `name`; each seat a bot persisting to its own vault (in memory). */
export async function mockGame(
  env: Env,
  name: string,
  o: {
    maxTurns?: number;
    /** Each seat's stake, paid with its commit (default none). */
    stake?: bigint;
    chain?: (seat: number, c: GameChain) => GameChain;
    /** Seat `seat`'s dealer, given the honest one (default: the honest one). */
    dealer?: (seat: number, honest: DealerClient) => DealerClient;
    /** Each player's `revealBudgetMs` (default the SDK's). */
    revealBudgetMs?: number;
  } = {},
): Promise<MockGame> {
  const r = shippedRuleset(name);
  const G = env.game;
  const players = env.players.slice(0, 2);
  const params = gameParams(
    env,
    players.map((p) => p.address),
    {
      rulesetHash: rulesetHash(name),
      durations: r.deadlines,
      board: { kind: 0, width: r.board.width, height: r.board.height, maxTurns: o.maxTurns ?? 6 },
      stake: o.stake ?? 0n,
    },
  );
  await (await (G.connect(env.dealer) as Contract).getFunction('createGame')(params, { value: BOND })).wait();
  const gameId = await lastGameId(env);
  const game: MockGame = { env, ruleset: r, gameId, seats: [], map: null };
  const dealer = honestDealer(() => game.map);
  for (const [i, p] of players.entries()) {
    const real = new GameChain(await G.getAddress(), p);
    const options = {
      chain: o.chain ? o.chain(i, real) : real,
      dealer: o.dealer ? o.dealer(i, dealer) : dealer,
      prover: mockProver,
      h: env.h,
      ruleset: r,
      gameId,
      revealWaitMs: 0,
      ...(o.revealBudgetMs === undefined ? {} : { revealBudgetMs: o.revealBudgetMs }),
    };
    const vault = await PlayerVault.open({
      signer: p,
      chainId: 31337n,
      contract: await G.getAddress(),
      gameId,
      store: new MemoryStateStore(),
    });
    const store = new Mortal(vault);
    const player = await GamePlayer.join({ ...options, persist: store });
    game.seats.push({ options, vault, store, bot: new BotPlayer(player, `resume-${i}`), lives: 0 });
  }
  return game;
}

/** Kills seat `i`'s incarnation and starts another from what its vault holds. */
export async function killAndResume(game: MockGame, i: number): Promise<GamePlayer> {
  const seat = game.seats[i]!;
  seat.store.dead = true;
  seat.store = new Mortal(seat.vault);
  const player = await GamePlayer.join({ ...seat.options, persist: seat.store });
  seat.bot = new BotPlayer(player, `resume-${i}`);
  seat.lives++;
  return player;
}

/** The dealer's map once both shares are sealed; posts the root. `zones` replaces the zone roots it posts with the root (a lie about them). */
export async function deal(game: MockGame, zones?: readonly bigint[]): Promise<DealtMap> {
  const { env, ruleset: r } = game;
  const seed = env.h.hash(game.seats.map((s) => s.bot.player.share!));
  const tiles = generateMap(env.h, r.board, seed);
  const commitment = commitMap(env.h, r.board, tiles, 4242n);
  await (
    await (game.env.game.connect(env.dealer) as Contract).getFunction('postRoot')(
      game.gameId,
      commitment.tree.root,
      masterCommitment(env.h, 4242n),
      zones ?? zoneRoots(commitment, r.board),
    )
  ).wait();
  game.map = { h: env.h, ruleset: r, board: r.board, tiles, commitment, root: commitment.tree.root };
  return game.map;
}

/**
 * Registers a shipped ruleset as its deployment does (shape, start areas) with MockVerifiers (public-signal
 * counts from the core's packing).
 */
export async function registerMock(env: Env, r: ValidRuleset): Promise<void> {
  const info = rulesetInfo(r.name);
  const reg = env.registry.connect(env.deployer) as Contract;
  await (
    await reg.getFunction('registerRuleset')(
      rulesetHash(r.name),
      info.kind,
      info.width,
      info.height,
      info.maxPlayers,
      info.damage,
      info.passability,
      info.maxRevealedTiles,
    )
  ).wait();
  await (await reg.getFunction('setStartAreas')(rulesetHash(r.name), BigInt(info.startAreas))).wait();
  const mock = await env.ethers.deployContract('MockVerifier', [], env.deployer);
  const n = playSignalCounts(r);
  const counts = [n.spawn, n.turn, n.attack, n.combat];
  for (const [i, n] of counts.entries()) {
    await (
      await reg.getFunction('setVerifier')(rulesetHash(r.name), i, await mock.getAddress(), '0x12345678', n)
    ).wait();
  }
}
