/**
 * The demo game: create it as the dealer, seat 2 to 6 bots, play to the turn limit with real proofs, then
 * audit the dealer's published secrets against the root and every served tile, check every seat's fog
 * against the tiles it was served, and write the viewers.
 */
import path from 'node:path';
import { JsonRpcProvider, Wallet } from 'ethers';
import { type BotAction, BotPlayer } from '../../client/bot-player.ts';
import type { TurnPlanner } from '../../client/planner.ts';
import { GameChain } from '../../client/sdk/chain.ts';
import { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { type MapProofKeys, verifyMapProof } from '../../client/sdk/mapproof.ts';
import { SnarkjsProver } from '../../client/sdk/prover.ts';
import { REPLAY_VERSION, type Replay } from '../../client/viewer/replay.ts';
import { writeViewer } from '../../client/viewer/write.ts';
import { isPlayPhase } from '../../core/game-phases.ts';
import { makeBoard } from '../../core/geometry.ts';
import {
  commitMap,
  generateMap,
  type Hasher,
  isPassable,
  leafIndex,
  seedFromShares,
  type Tile,
} from '../../core/index.ts';
import { rulesetHash } from '../../core/ruleset/hash.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { sealPublicKey, sealSecretKey } from '../../core/sealed.ts';
import { type GeneratedRuleset, readSealArtifacts } from '../contracts/rulesets.ts';
import type { Progress } from '../lib/progress.ts';
import { CombatTally } from './combat-tally.ts';
import { awaitMapProof, mapProofSummary, verifiedLine } from './map-proof.ts';
import { settleDemoGame } from './settle.ts';
import { DEV_KEYS, type Log } from './setup.ts';

/** Turns per player after the spawns, by default (`npm run demo`, and the benchmark of its combat). */
export const DEMO_TURNS = 14;

export interface GameOptions {
  h: Hasher;
  ruleset: ValidRuleset;
  artifacts: GeneratedRuleset;
  rpcUrl: string;
  gameContract: string;
  dealerUrl: string;
  /** The dealer's sealing secret key (hex): its public key goes into createGame. */
  dealerKey: string;
  /** Turns per player after the spawns. */
  turns: number;
  /** Seats (default the ruleset's minimum); between `players.min` and `players.max` (DEV_KEYS has 6 players). */
  players?: number;
  /** Who plans each seat (default: the exploring bot seeded `${seed}-${seat}`). */
  planner?: (seat: number) => TurnPlanner | undefined;
  outDir: string;
  log: Log;
  /** Progress and summary lines (stdout). */
  print: (line: string) => void;
  /** Called after each spawn or turn whose proof the chain accepted and whose tiles were verified. */
  onTurnVerified?: () => void;
  /** Seeds the bots (`${seed}-${seat}`); default "demo". */
  seed?: string;
  /** Write the viewers (default true; the benchmark skips them). */
  viewers?: boolean;
  /** After the audit, fast-forward the local chain past the audit window and settle (default true). */
  settle?: boolean;
  /**
   * The map proof: every seat checks it through its GamePlayer as soon as `registry` records it, and the game
   * waits for all of them before the audit (map-proof.ts). Off when omitted.
   */
  mapProof?: {
    registry: string;
    /** The keys' preparation (map-keys.ts), and the verification keys the players trust once it is done. */
    keys: Promise<void>;
    vkeys: () => Promise<MapProofKeys>;
    /** When the demo started, for the summary (default: when the game started). */
    startedAt?: number;
    progress?: Progress;
    /** See awaitMapProof (default 10 min). */
    stallMs?: number;
  };
}

export interface GameResult {
  gameId: bigint;
  /** Proven turns on-chain: each player's spawn and moves (players × (1 + turns)). */
  turns: number;
  summaries: string[];
  viewers: string[];
  servedTiles: number;
  attacks: number;
  /** Every attack with its answer and odds, and the per-seat summary lines printed at the end. */
  combat: CombatTally;
  /** Moves whose destination a turn proof showed passable (rulesets with provePassability), all audited. */
  passableMoves: number;
  /** The seats' bots, in seat order, as the game left them (their models, served tiles and reports). */
  bots: BotPlayer[];
  /** Every action the bots took, in order (spawns, turns, attacks, combat answers…). */
  actions: BotAction[];
  /** The summary line of the map proof (when it arrived, each seat's verification time); null when off. */
  mapProof: string | null;
}

/** Seats the demo can fill: DEV_KEYS #2.. are the players. */
export const MAX_DEMO_PLAYERS = DEV_KEYS.length - 2;

/** The number of seats for `ruleset`, or a one-line reason it is not playable. */
export function checkPlayers(ruleset: ValidRuleset, n: number): string | null {
  const { min, max } = ruleset.players;
  const hi = Math.min(max, MAX_DEMO_PLAYERS);
  if (n < min || n > hi)
    return `${ruleset.name} seats ${min === hi ? `exactly ${min}` : `${min} to ${hi}`} players, not ${n}`;
  return null;
}

/**
 * Each seat's fog against what it was served: the model holds exactly the tiles the dealer served this
 * seat (same terrain, feature, resource, rivers, salt), and every one of them is explored in its fog.
 * Returns the tiles checked; throws on a mismatch naming the seat and the tile.
 */
export function checkFog(bots: readonly BotPlayer[]): number {
  let n = 0;
  for (const b of bots) {
    const model = b.player.model;
    if (!model) throw new Error(`fog: seat ${b.seat} has no model`);
    const held = model.revealedTiles();
    const served = new Map(b.player.served.map((t) => [t.index, t]));
    if (held.size !== served.size)
      throw new Error(`fog: seat ${b.seat} holds ${held.size} tiles but was served ${served.size}`);
    const fog = model.fog();
    for (const [i, t] of served) {
      const m = held.get(i);
      if (
        !m ||
        m.terrain !== t.terrain ||
        m.feature !== t.feature ||
        m.resource !== t.resource ||
        m.rivers !== t.rivers ||
        m.salt !== t.salt
      )
        throw new Error(`fog: seat ${b.seat}'s tile (${t.col},${t.row}) is not the one it was served`);
      if (!fog[i]) throw new Error(`fog: seat ${b.seat} was served (${t.col},${t.row}) but never saw it`);
      n++;
    }
  }
  return n;
}

const fmtGas = (g: bigint) => g.toLocaleString('en-US');
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

function bar(done: number, total: number, width = 20): string {
  const n = Math.round((done / total) * width);
  return `[${'#'.repeat(n)}${'.'.repeat(width - n)}] ${String(done).padStart(String(total).length)}/${total}`;
}

export async function playDemoGame(o: GameOptions): Promise<GameResult> {
  const provider = new JsonRpcProvider(o.rpcUrl, 31337, {
    staticNetwork: true,
    pollingInterval: 200,
    cacheTimeout: -1,
  });
  try {
    return await play(o, provider);
  } finally {
    provider.destroy();
    await SnarkjsProver.terminate();
  }
}

async function play(o: GameOptions, provider: JsonRpcProvider): Promise<GameResult> {
  const r = o.ruleset;
  const nPlayers = o.players ?? r.players.min;
  const bad = checkPlayers(r, nPlayers);
  if (bad) throw new Error(bad);
  const maxTurns = nPlayers * (1 + o.turns);
  const playerWallets = Array.from({ length: nPlayers }, (_, i) => new Wallet(DEV_KEYS[2 + i]!, provider));

  const { gameId, blockNumber } = await createDemoGame({
    ...o,
    provider,
    players: playerWallets.map((w) => w.address),
    maxTurns,
  });
  const dealerTx = new Wallet(DEV_KEYS[1], provider);
  o.log(
    `game ${gameId.toString(16).slice(0, 12)}… created by the dealer ${short(dealerTx.address)}: ${nPlayers} players, ${maxTurns} turns (spawns included)`,
  );

  const seal = readSealArtifacts();
  const prover = new SnarkjsProver({
    seal: { wasm: seal.wasm, zkey: seal.zkey },
    spawn: pick(o.artifacts, 'spawn'),
    turn: pick(o.artifacts, 'turn'),
    attack: pick(o.artifacts, 'attack'),
    combat: pick(o.artifacts, 'combat'),
  });
  const bots: BotPlayer[] = [];
  const clients: DealerClient[] = [];
  for (const [i, w] of playerWallets.entries()) {
    const dealer = new DealerClient({
      baseUrl: o.dealerUrl,
      chainId: 31337n,
      gameContract: o.gameContract,
      signer: w,
    });
    clients.push(dealer);
    const mp = o.mapProof;
    const player = await GamePlayer.join({
      chain: new GameChain(o.gameContract, w),
      dealer,
      prover,
      h: o.h,
      ruleset: r,
      gameId,
      ...(mp
        ? {
            mapProof: {
              registry: mp.registry,
              verify: async (claim, proof) => verifyMapProof(claim, proof, await mp.vkeys()),
            },
          }
        : {}),
    });
    bots.push(new BotPlayer(player, `${o.seed ?? 'demo'}-${i}`, o.planner?.(i)));
  }

  // Ceremony: commits, then sealed reveals, then the dealer's root.
  for (const want of ['commit', 'seal'] as const) {
    for (const b of bots) {
      const a = await b.act();
      if (a?.kind !== want)
        throw new Error(`seat ${b.seat}: expected to ${want}, did ${a?.kind ?? 'nothing'}`);
    }
  }
  o.log(
    `ceremony: ${nPlayers === 2 ? 'both' : `all ${nPlayers}`} shares committed and sealed to the dealer; waiting for the root…`,
  );
  const t0 = Date.now();
  const startedAt = o.mapProof?.startedAt ?? t0;
  const root = await bots[0]!.player.waitForRoot({ timeoutMs: 120_000 });
  for (const b of bots.slice(1)) await b.player.waitForRoot();
  o.log(`root ${root.toString(16).slice(0, 16)}… posted by the dealer after ${Date.now() - t0} ms`);

  const summaries: string[] = [];
  let done = 0;
  let attacks = 0;
  let idle = 0;
  const combat = new CombatTally(r);
  const actions: BotAction[] = [];
  /** Destinations of proven-passable moves, audited against Gen(seed) at the end. */
  const passableMoves: { seat: number; turn: number; col: number; row: number }[] = [];
  const line = (a: BotAction): string | null => {
    switch (a.kind) {
      case 'spawn':
      case 'turn': {
        const t = a.report;
        done++;
        if (t.provedPassable)
          for (const d of t.destinations) passableMoves.push({ seat: t.seat, turn: t.turn, ...d });
        const pass = t.provedPassable && t.moved > 0 ? '  destinations proven passable vs on-chain root' : '';
        return `${bar(done, maxTurns)}  turn ${String(t.turn).padStart(2)}  seat ${t.seat} ${a.kind === 'spawn' ? `spawn  placed ${t.moved}` : `move   moved ${t.moved} `}  tiles revealed ${String(t.tilesRevealed).padStart(2)} (verified vs on-chain root)  zone reveals ${t.zoneReveals}  proof ${Math.round(t.proofMs)} ms  gas ${fmtGas(t.gas)}${pass}`;
      }
      case 'attack': {
        attacks++;
        const t = a.report;
        return `${' '.repeat(bar(done, maxTurns).length)}  turn ${String(t.turn).padStart(2)}  seat ${t.seat} attack (${t.target.col},${t.target.row}) → seat ${t.defender}  proof ${Math.round(t.proofMs)} ms  gas ${fmtGas(t.gas)}`;
      }
      case 'combat': {
        const c = a.report;
        const what = c.present
          ? `hit ${r.unitTypes[c.unitType]?.name ?? c.unitType} (hp ${c.hpBefore}${c.killed ? ', killed' : ''})`
          : 'fizzled (nobody there)';
        return `${' '.repeat(bar(done, maxTurns).length)}  combat seat ${c.seat} answers: ${what}  proof ${Math.round(c.proofMs)} ms  gas ${fmtGas(c.gas)}`;
      }
      case 'map-proof':
        return `${' '.repeat(bar(done, maxTurns).length)}  ${verifiedLine(a.seat, a.check)}`;
      case 'map-proof-refused':
        return `${' '.repeat(bar(done, maxTurns).length)}  seat ${a.seat}: map proof REFUSED: ${a.error.message}`;
      case 'expired':
        return `${' '.repeat(bar(done, maxTurns).length)}  seat ${a.seat}: a deadline passed: ${a.claim.kind}  gas ${fmtGas(a.claim.gas)}`;
      default:
        return null;
    }
  };
  for (;;) {
    const g = await bots[0]!.player.chain.game(gameId);
    if (!isPlayPhase(g.phase)) {
      o.log(`play over: phase ${g.phase} after turn ${g.turn}`);
      break;
    }
    let acted = false;
    for (const b of bots) {
      const a = await b.act();
      if (!a) continue;
      acted = true;
      actions.push(a);
      combat.record(a);
      const l = line(a);
      if (l) {
        summaries.push(l);
        o.print(l);
      }
      if (a.kind === 'spawn' || a.kind === 'turn') o.onTurnVerified?.();
    }
    idle = acted ? 0 : idle + 1;
    if (idle > 20) throw new Error(`no seat can move in phase ${g.phase} at turn ${g.turn}`);
  }
  const end = await bots[0]!.player.chain.game(gameId);
  if (end.turn !== maxTurns) throw new Error(`the game ended at turn ${end.turn}, not the limit ${maxTurns}`);

  // The dealer publishes master_secret and every share once play is over.
  o.log('waiting for the dealer to publish its secrets…');
  const chain = bots[0]!.player.chain;
  const deadline = Date.now() + 60_000;
  let secrets: { masterSecret: bigint; shares: bigint[]; seed: bigint } | undefined;
  while (!secrets) {
    const ev = (await chain.events(gameId, blockNumber)).find((e) => e.kind === 'SecretsPublished');
    if (ev?.kind === 'SecretsPublished') secrets = ev;
    else if (Date.now() > deadline) throw new Error('the dealer did not publish its secrets within 60 s');
    else await new Promise((res) => setTimeout(res, 300));
  }

  // The map proof: every seat must have verified it before the audit (which would catch a false map anyway).
  let mapProof: string | null = null;
  if (o.mapProof) {
    await awaitMapProof({
      bots,
      dealerUrl: o.dealerUrl,
      gameId,
      keys: o.mapProof.keys,
      log: o.log,
      print: o.print,
      ...(o.mapProof.progress ? { progress: o.mapProof.progress } : {}),
      ...(o.mapProof.stallMs ? { stallMs: o.mapProof.stallMs } : {}),
    });
    mapProof = mapProofSummary(bots, { startedAt, maxTurns, zones: r.board.zoneCount });
    o.print(mapProof);
  }

  // Audit: recompute the whole map from the published secrets.
  const shares = bots.map((b) => b.player.share!);
  if (secrets.shares.some((s, i) => s !== shares[i]))
    throw new Error('audit: published shares differ from the players’ own');
  const seed = seedFromShares(o.h, secrets.shares);
  if (seed !== secrets.seed) throw new Error('audit: the published seed is not Poseidon(shares)');
  const tiles = generateMap(o.h, r.board, seed);
  const { tree, salts } = commitMap(o.h, r.board, tiles, secrets.masterSecret);
  if (tree.root !== root) throw new Error('audit: the recomputed root differs from the on-chain root');
  let checked = 0;
  for (const b of bots) {
    for (const t of b.player.served) {
      const want = tiles[t.row * r.board.width + t.col]!;
      const leaf = leafIndex(r.board, t);
      if (
        t.terrain !== want.terrain ||
        t.feature !== want.feature ||
        t.resource !== want.resource ||
        t.rivers !== want.rivers ||
        t.salt !== salts[leaf]
      ) {
        throw new Error(`audit: served tile (${t.col},${t.row}) to seat ${b.seat} differs from Gen(seed)`);
      }
      checked++;
    }
  }
  o.print(`audit: root matches, ${checked} served tiles match`);
  // The models catch up on the last turns' events (zone reveals), then each seat's fog is checked.
  for (const b of bots) await b.player.syncEvents();
  const fogTiles = checkFog(bots);
  o.print(
    `fog: ${nPlayers} seats' models hold exactly the ${fogTiles} tiles served to them, each explored in their fog`,
  );
  if (r.provePassability) {
    for (const m of passableMoves) {
      if (!isPassable(tiles[m.row * r.board.width + m.col]!.terrain))
        throw new Error(`audit: seat ${m.seat} moved onto impassable (${m.col},${m.row}) at turn ${m.turn}`);
    }
    o.print(`audit: ${passableMoves.length} moves proven passable, every destination passable in Gen(seed)`);
  }
  const sessions = clients.reduce((n, c) => n + c.stats.sessionReveals, 0);
  const signed = clients.reduce((n, c) => n + c.stats.signedReveals, 0);
  o.log(`reveals: ${sessions} over sessions, ${signed} per-request signed`);

  for (const l of combat.lines(nPlayers)) o.print(l);
  if (o.settle !== false) {
    o.print(await settleDemoGame({ provider, bots, gameId, dealer: dealerTx.address }));
  }

  const viewers: string[] = [];
  // The replay's board is the geometry alone (the viewer format refuses the generator's start areas).
  const board = makeBoard(r.board.kind, r.board.width, r.board.height);
  for (const b of o.viewers === false ? [] : bots) {
    const replay: Replay = {
      version: REPLAY_VERSION,
      ruleset: r,
      board,
      seat: b.seat,
      turns: b.replay.turns,
      omniscient: { tiles: tiles.map((t): Tile => ({ ...t })) },
    };
    viewers.push(await writeViewer(path.join(o.outDir, `viewer-seat${b.seat}`), replay));
  }
  return {
    gameId,
    turns: done,
    summaries,
    viewers,
    servedTiles: checked,
    attacks,
    combat,
    passableMoves: passableMoves.length,
    bots,
    actions,
    mapProof,
  };
}

/**
 * Creates a game as the dealer (the contract requires dealer == msg.sender), sealing to the dealer's key,
 * with the ruleset's deadlines, a 1 ETH bond, no stake and no dispute deposit. Returns its id (from
 * GameCreated) and block.
 */
export async function createDemoGame(o: {
  provider: JsonRpcProvider;
  ruleset: ValidRuleset;
  gameContract: string;
  dealerKey: string;
  players: string[];
  maxTurns: number;
}): Promise<{ gameId: bigint; blockNumber: number }> {
  const r = o.ruleset;
  const dealerTx = new Wallet(DEV_KEYS[1], o.provider);
  const asDealer = new GameChain(o.gameContract, dealerTx);
  const created = await asDealer.contract.createGame(
    {
      players: o.players,
      dealer: dealerTx.address,
      sealKey: sealPublicKey(sealSecretKey(o.dealerKey)),
      rulesetHash: rulesetHash(r),
      durations: r.deadlines,
      board: {
        kind: r.board.kind === 'hex' ? 0 : 1,
        width: r.board.width,
        height: r.board.height,
        maxTurns: o.maxTurns,
      },
      stake: 0n,
      disputeDeposit: 0n,
    },
    { value: 10n ** 18n },
  );
  const receipt = await created.wait(1);
  if (!receipt) throw new Error(`createGame ${created.hash}: no receipt`);
  return { gameId: asDealer.gameIdFromReceipt(receipt), blockNumber: receipt.blockNumber };
}

function pick(a: GeneratedRuleset, c: 'spawn' | 'turn' | 'attack' | 'combat') {
  const v = a.verifiers[c];
  if (!v) throw new Error(`${a.name}: no ${c} artifacts`);
  return { wasm: v.wasm, zkey: v.zkey };
}
