/**
 * Gas of the contract operations on the in-process EDR chain: node scripts/bench-gas.ts
 * `benchGas()` returns a flat record (gas units, and `size_<Contract>` deployed bytes) for the benchmark report.
 * Sealed reveals carry real `seal` proofs (the generated SealVerifier). The phase-2 figures (spawn, turn,
 * attack, combat response, a reveal dispute on `duel`, real Groth16 proofs) need the duel verifiers generated
 * (`node scripts/contracts/verifiers.ts --ruleset duel`) before `hardhat build`.
 */
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/types';
import { AbiCoder, type Contract, type ContractTransactionResponse, concat } from 'ethers';
import { network } from 'hardhat';
import * as snarkjs from 'snarkjs';
import { GameChain } from '../client/sdk/chain.ts';
import { releaseSnarkjsThreads } from '../client/sdk/snark-threads.ts';
import { deployShroud } from '../contracts/ignition/deploy.ts';
import { GAME_LIBRARIES } from '../contracts/ignition/plan.ts';
import type { Deployment } from '../contracts/ignition/record.ts';
import { CIRCUIT_ID } from '../contracts/manifest.ts';
import { tilesInRange } from '../core/geometry.ts';
import {
  type Board,
  buildTree,
  commitMap,
  commitOpenMap,
  DURATION_FLOORS,
  encodeDisputeAnswer,
  generateMap,
  type Hasher,
  leafCoord,
  leafIndex,
  loadHasher,
  type MapCommitment,
  makeBoard,
  masterCommitment,
  merklePath,
  shareCommitment,
  type Tile,
  ZONE_DEPTH,
} from '../core/index.ts';
import { type SolidityProof, toSolidityProof } from '../core/mapproof/types.ts';
import { mapRootInput, zoneLeaves, zoneRoots } from '../core/mapproof/witness.ts';
import { shippedRuleset } from '../core/ruleset/shipped.ts';
import { generateSealKey, sealShare } from '../core/sealed.ts';
import type { Slots } from '../core/state.ts';
import { isPassable } from '../core/tile.ts';
import { visibleTiles } from '../core/vision/radius.ts';
import {
  attackWitness,
  combatWitness,
  spawnSlots,
  spawnWitness,
  turnWitness,
} from '../core/witness/inputs.ts';
import { deployPlan } from './contracts/plan.ts';
import { readManifest, readSealArtifacts, rulesetHash, rulesetInfo } from './contracts/rulesets.ts';

/** The protocol's floors, the audit window a day (what a real game would use). */
const DURATIONS = { ...DURATION_FLOORS };
const SEAL = generateSealKey();
const DUEL_BOARD = { kind: 0, width: 40, height: 26, maxTurns: 100 };
/** One word per zone of the duel board: zone roots of a root that is no map's (closing and dispute benches). */
const ZONES_ONES = new Array(makeBoard('hex', DUEL_BOARD.width, DUEL_BOARD.height).zoneCount).fill(1n);
/** The played duel's turn limit (spawns count): spawns 0, 1, turns 2, 3, and turn 4 (an attack, then the last turn). */
const DUEL_PLAY_TURNS = 5;
/** `Phase.Secrets` (IShroudGame.sol): play has ended, the dealer's secrets are due. */
const PHASE_SECRETS = 5n;

/** GameParams of a 2-player duel-sized game sealed to the bench's dealer key. */
const paramsOf = (
  players: string[],
  dealer: string,
  rulesetHash: string,
  maxTurns = DUEL_BOARD.maxTurns,
) => ({
  players,
  dealer,
  sealKey: SEAL.publicKey,
  rulesetHash,
  durations: DURATIONS,
  board: { ...DUEL_BOARD, maxTurns },
  stake: 0n,
  disputeDeposit: 0n,
});

/** Each seat posts its share sealed to the bench's dealer key with a real `seal` proof; returns the gas used. */
async function sealAll(h: Hasher, game: Contract, id: bigint, players: Signer[], shares: bigint[]) {
  const art = readSealArtifacts();
  const gas: number[] = [];
  for (const [i, p] of players.entries()) {
    const { sealed, plan } = sealShare(h, SEAL.publicKey, shares[i]!, {
      gameId: id,
      player: BigInt(p.address),
    });
    const { proof } = await snarkjs.groth16.fullProve(plan.input as never, art.wasm, art.zkey);
    const call = (game.connect(p) as Contract).getFunction('sealedReveal');
    gas.push(await gasOf(call(id, sealed.ephemeralY, sealed.ciphertext, toSolidityProof(proof))));
  }
  return Math.max(...gas);
}

async function gasOf(tx: Promise<ContractTransactionResponse>): Promise<number> {
  const rc = await (await tx).wait();
  if (!rc) throw new Error('no receipt');
  return Number(rc.gasUsed);
}

/**
 * A bare transaction to the ruleset's verifier of `circuit` with the same proof and public signals: what any
 * play transaction pays before the game's own work (21k base, the proof's calldata, the Groth16 check). The
 * difference to the play's gas is the game's share: its storage, events, logic and calldata.
 */
async function verifierTxGas(
  registry: Contract,
  rsHash: string,
  circuit: number,
  proof: SolidityProof,
  signals: readonly bigint[],
  from: HardhatEthersSigner,
): Promise<number> {
  const v = await registry.getFunction('getVerifier')(rsHash, circuit);
  const args = AbiCoder.defaultAbiCoder().encode(
    ['uint256[2]', 'uint256[2][2]', 'uint256[2]', `uint256[${signals.length}]`],
    [proof.a, proof.b, proof.c, signals],
  );
  const rc = await (await from.sendTransaction({ to: v.target, data: concat([v.selector, args]) })).wait();
  if (!rc) throw new Error('no receipt');
  return Number(rc.gasUsed);
}

export interface BenchGasOptions {
  /** Phase-2 figures with real duel proofs (default: when the duel verifiers are generated). */
  proofs?: boolean;
}

/**
 * One duel-sized hex game (40×26, 2 players) through ceremony, end, secrets and a fraud proof; then (with
 * `proofs`) a duel game through both spawns, turns, an attack and its combat answer with real Groth16 proofs.
 */
export async function benchGas(o: BenchGasOptions = {}): Promise<Record<string, number>> {
  const proofs = o.proofs ?? readManifest()['duel'] !== undefined;
  const conn = await network.connect();
  const { ethers } = conn;
  const h = await loadHasher();
  const [deployer, dealer, p1, p2, other] = await ethers.getSigners();
  const { game, registry, mapProofs, deployment } = await deployShroud(
    conn,
    await deployPlan(proofs ? ['duel'] : []),
  );
  const rsHash = proofs ? rulesetHash('duel') : `0x${'11'.repeat(32)}`;
  const reg = registry.connect(deployer!) as Contract;
  if (!proofs) await (await reg.getFunction('registerRuleset')(rsHash, 0, 40, 26, 2, 4, false, 32)).wait();
  const as = (s: typeof dealer) => game.connect(s!) as Contract;
  const board = makeBoard('hex', 40, 26);
  const out: Record<string, number> = await contractSizes(ethers, deployment);

  out['gas_create_game'] = await gasOf(
    as(dealer).getFunction('createGame')(paramsOf([p1!.address, p2!.address], dealer!.address, rsHash), {
      value: 10n ** 18n,
    }),
  );
  const id = (await game.getFunction('gameIdOf')(await game.getFunction('gameCount')())) as bigint;
  const shares = [0x1234n, 0x5678n];
  const players = [p1!, p2!];
  const commits: number[] = [];
  for (const [i, p] of players.entries()) {
    commits.push(
      await gasOf(as(p).getFunction('commit')(id, shareCommitment(h, id, BigInt(p.address), shares[i]!))),
    );
  }
  out['gas_commit'] = Math.max(...commits);
  out['gas_sealed_reveal'] = await sealAll(h, game, id, players, shares);

  // A dishonest dealer: one tile altered, so a fraud proof can succeed.
  const seed = h.hash(shares);
  const tiles = generateMap(h, board, seed);
  const target = { col: 21, row: 13 };
  const k = target.row * board.width + target.col;
  tiles[k] = { ...tiles[k]!, rivers: tiles[k]!.rivers ^ 1 } as Tile;
  const master = 987654321n;
  const { tree, salts } = commitMap(h, board, tiles, master);
  out['gas_post_root'] = await gasOf(
    as(dealer).getFunction('postRoot')(
      id,
      tree.root,
      masterCommitment(h, master),
      zoneRoots({ tree, salts }, board),
    ),
  );
  out['gas_forfeit_end'] = await gasOf(as(p2).getFunction('forfeit')(id));
  out['gas_publish_secrets'] = await gasOf(as(dealer).getFunction('publishSecrets')(id, master, shares));
  const i = leafIndex(board, target);
  const t = tiles[k]!;
  out['gas_fraud_proof'] = await gasOf(
    as(p1).getFunction('proveFraud')(
      id,
      i,
      [t.terrain, t.feature, t.resource, t.rivers, salts[i]!],
      merklePath(tree, i),
    ),
  );
  out['gas_withdraw'] = await gasOf(as(p1).getFunction('withdraw')());
  Object.assign(out, await forceOpenGas(ethers, game, reg, dealer!, [p1!, p2!], h));
  Object.assign(out, await closingGas(ethers, game, rsHash, dealer!, [p1!, p2!], other!, h));
  Object.assign(out, await auditGas(game, rsHash, dealer!, [p1!, p2!], other!, h, board));
  if (proofs) Object.assign(out, await duelPlay(game, registry, mapProofs, rsHash, dealer!, [p1!, p2!], h));
  return out;
}

/** Deployed bytecode size of every contract of the deployment (EIP-170 limit: 24,576 bytes). */
async function contractSizes(
  ethers: Awaited<ReturnType<typeof network.connect>>['ethers'],
  d: Deployment,
): Promise<Record<string, number>> {
  const at: Record<string, string> = {
    ShroudGame: d.shroudGame,
    ...d.libraries,
    VerifierRegistry: d.registry,
    MapProofRegistry: d.mapProofRegistry,
    MapGen: d.mapGen,
    SealVerifier: d.sealVerifier,
  };
  const out: Record<string, number> = {};
  for (const name of [
    'ShroudGame',
    ...GAME_LIBRARIES,
    'VerifierRegistry',
    'MapProofRegistry',
    'MapGen',
    'SealVerifier',
  ]) {
    out[`size_${name}`] = ((await ethers.provider.getCode(at[name]!)).length - 2) / 2;
  }
  return out;
}

/** Passability boards the force-open bench measures: duel, standard, and the largest the contract takes. */
/**
 * The deadline exits the honest software sends (core/deadlines.ts), each by a third party after its deadline: a
 * ceremony a seat never committed to cancelled, a dealer that never published its secrets slashed, and a game
 * settled after its audit window (each seat's stake and the dealer's bond credited, for `withdraw`).
 */
async function closingGas(
  ethers: Awaited<ReturnType<typeof network.connect>>['ethers'],
  game: Contract,
  rsHash: string,
  dealer: Signer,
  players: Signer[],
  other: Signer,
  h: Hasher,
): Promise<Record<string, number>> {
  const as = (s: Signer) => game.connect(s) as Contract;
  const after = (seconds: number) => ethers.provider.send('evm_increaseTime', [seconds + 1]);
  const MASTER = 0x99n;
  const newGame = (shares: bigint[], committers = players) =>
    committedGame(
      game,
      dealer,
      paramsOf(
        players.map((p) => p.address),
        dealer.address,
        rsHash,
      ),
      h,
      shares,
      committers,
    );
  /** A game played to its end (a seat forfeits at once): the dealer's secrets are due. */
  const ended = async (shares: bigint[]) => {
    const id = await newGame(shares);
    await sealAll(h, game, id, players, shares);
    // The dealer's root is no map's here (0x77): any zone roots of the right count (the audit bench is auditGas).
    await (
      await as(dealer).getFunction('postRoot')(id, 0x77n, masterCommitment(h, MASTER), ZONES_ONES)
    ).wait();
    await (await as(players[1]!).getFunction('forfeit')(id)).wait();
    return id;
  };
  const out: Record<string, number> = {};
  const missed = await newGame([0xc1n], players.slice(0, 1));
  await after(DURATIONS.commitSeconds);
  out['gas_cancel_missed'] = await gasOf(as(other).getFunction('cancelMissed')(missed));
  const silent = await ended([0xc2n, 0xc3n]);
  await after(DURATIONS.secretsSeconds);
  out['gas_claim_secrets_timeout'] = await gasOf(as(other).getFunction('claimSecretsTimeout')(silent));
  const shares = [0xc4n, 0xc5n];
  const audited = await ended(shares);
  await (await as(dealer).getFunction('publishSecrets')(audited, MASTER, shares)).wait();
  await after(DURATIONS.auditSeconds);
  out['gas_settle'] = await gasOf(as(other).getFunction('settle')(audited));
  return out;
}

/**
 * The audit's zone challenges (P3 after the secrets) on duel games with real trees: a wrong challenge of an
 * honest dealer and its answer (the dealer stands), an honest challenge of a dealer whose tree lies at one tile
 * and its answer (the dealer falls: slashed, settled), and zone roots that do not build the posted root.
 */
async function auditGas(
  game: Contract,
  rsHash: string,
  dealer: Signer,
  players: Signer[],
  other: Signer,
  h: Hasher,
  board: Board,
): Promise<Record<string, number>> {
  const as = (s: Signer) => game.connect(s) as Contract;
  const MASTER = 0x5eedn;
  const target = leafIndex(board, { col: 21, row: 13 });
  const zone = Math.floor(target / 64);
  /** A game played to its end on the dealer's tree (one tile's rivers flipped when `lie`); secrets published. */
  const played = async (
    shares: bigint[],
    lie: boolean,
    zonesOf = (m: MapCommitment) => zoneRoots(m, board),
  ) => {
    const params = paramsOf(
      players.map((p) => p.address),
      dealer.address,
      rsHash,
    );
    const id = await committedGame(game, dealer, params, h, shares, players);
    await sealAll(h, game, id, players, shares);
    const tiles = generateMap(h, board, h.hash(shares));
    const honest = commitMap(h, board, tiles, MASTER);
    const k = 13 * board.width + 21;
    const told = lie ? tiles.map((t, i) => (i === k ? ({ ...t, rivers: t.rivers ^ 1 } as Tile) : t)) : tiles;
    const map = lie ? commitMap(h, board, told, MASTER) : honest;
    const zones = zonesOf(map);
    await (
      await as(dealer).getFunction('postRoot')(id, map.tree.root, masterCommitment(h, MASTER), zones)
    ).wait();
    await (await as(players[1]!).getFunction('forfeit')(id)).wait();
    await (await as(dealer).getFunction('publishSecrets')(id, MASTER, shares)).wait();
    return { id, honest, map, zones };
  };
  const out: Record<string, number> = {};
  const seat = players[1]!; // challenges are per seat
  const a = await played([0xa1n, 0xa2n], false);
  const wrong = zoneLeaves(a.honest, zone);
  wrong[3] = wrong[3]! + 1n;
  out['gas_challenge_zone'] = await gasOf(as(seat).getFunction('challengeZone')(a.id, a.zones, zone, wrong));
  out['gas_answer_zone_challenge'] = await gasOf(
    as(dealer).getFunction('answerZoneChallenge')(a.id, 1, wrong, zoneLeaves(a.map, zone)),
  );
  const b = await played([0xb1n, 0xb2n], true);
  const truth = zoneLeaves(b.honest, zone);
  await (await as(seat).getFunction('challengeZone')(b.id, b.zones, zone, truth)).wait();
  out['gas_answer_zone_challenge_fraud'] = await gasOf(
    as(other).getFunction('answerZoneChallenge')(b.id, 1, truth, zoneLeaves(b.map, zone)),
  );
  const c = await played([0xc1n, 0xc2n], false, (m) =>
    zoneRoots(m, board).map((r, z) => (z === 0 ? r + 1n : r)),
  );
  out['gas_prove_zone_roots_fraud'] = await gasOf(
    as(other).getFunction('proveZoneRootsFraud')(c.id, c.zones),
  );
  return out;
}

/** A new game of `params` created by the dealer (a 1 ETH bond), with each of `committers`' share commitments. */
async function committedGame(
  game: Contract,
  dealer: Signer,
  params: object,
  h: Hasher,
  shares: bigint[],
  committers: Signer[],
): Promise<bigint> {
  const as = (s: Signer) => game.connect(s) as Contract;
  await (await as(dealer).getFunction('createGame')(params, { value: 10n ** 18n })).wait();
  const id = (await game.getFunction('gameIdOf')(await game.getFunction('gameCount')())) as bigint;
  for (const [i, p] of committers.entries())
    await (
      await as(p).getFunction('commit')(id, shareCommitment(h, id, BigInt(p.address), shares[i]!))
    ).wait();
  return id;
}

const OPEN_ROOT_BOARDS = [
  { name: 'duel', width: 40, height: 26 },
  { name: 'standard', width: 84, height: 54 },
  { name: 'max', width: 128, height: 112 }, // 16 × 14 = 224 zones
] as const;

/**
 * Games with passability whose dealer never posts the root: force-open, both shares on-chain, then a lying open
 * root proposed (its zone roots), challenged with the true leaves of the lying zone, and decided by MapGen. The
 * duel game also reports the force-open steps themselves.
 */
async function forceOpenGas(
  ethers: Awaited<ReturnType<typeof network.connect>>['ethers'],
  game: Contract,
  reg: Contract,
  dealer: Signer,
  players: Signer[],
  h: Hasher,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const as = (s: Signer) => game.connect(s) as Contract;
  for (const [k, b] of OPEN_ROOT_BOARDS.entries()) {
    const passHash = `0x${(0x22 + k).toString(16).repeat(32)}`;
    await (await reg.getFunction('registerRuleset')(passHash, 0, b.width, b.height, 2, 4, true, 32)).wait();
    const params = {
      ...paramsOf(
        players.map((p) => p.address),
        dealer.address,
        passHash,
      ),
      board: { ...DUEL_BOARD, width: b.width, height: b.height },
    };
    const shares = [0xe1n + BigInt(k), 0xe2n];
    const id = await committedGame(game, dealer, params, h, shares, players);
    await sealAll(h, game, id, players, shares);
    await ethers.provider.send('evm_increaseTime', [DURATIONS.rootSeconds + 1]);
    const started = await gasOf(as(players[0]!).getFunction('startForceOpen')(id));
    const reveals: number[] = [];
    for (const [i, p] of players.entries())
      reveals.push(await gasOf(as(p).getFunction('revealShare')(id, shares[i])));
    if (b.name === 'duel') {
      out['gas_start_force_open'] = started;
      out['gas_reveal_share'] = Math.max(...reveals);
    }
    const board = makeBoard('hex', b.width, b.height);
    const open = commitOpenMap(h, board, generateMap(h, board, h.hash(shares)));
    const leaves = [...open.tree.levels[0]!];
    const zoneRootList = zoneRoots(open, board);
    // A lie about one leaf, consistent up to the root: only the leaf check (MapGen) can catch it.
    const bad = leafIndex(board, { col: 20, row: 13 });
    const zone = Math.floor(bad / 64);
    const lie = leaves.slice(zone * 64, zone * 64 + 64);
    lie[bad % 64] = 1n;
    const lieRoots = zoneRootList.slice();
    lieRoots[zone] = buildTree(h, lie, ZONE_DEPTH).root;
    const truth = leaves.slice(zone * 64, zone * 64 + 64);
    out[`open_root_zones_${b.name}`] = board.zoneCount;
    out[`gas_propose_open_root_${b.name}`] = await gasOf(
      as(players[0]!).getFunction('proposeOpenRoot')(id, lieRoots),
    );
    out[`gas_challenge_open_root_${b.name}`] = await gasOf(
      as(players[1]!).getFunction('challengeOpenRoot')(id, lieRoots, zone, truth),
    );
    out[`gas_answer_open_root_${b.name}`] = await gasOf(
      as(players[1]!).getFunction('answerOpenRootChallenge')(id, lieRoots, truth, lie),
    );
  }
  return out;
}

type Signer = HardhatEthersSigner;

async function proofOf(
  circuit: 'spawn' | 'turn' | 'attack' | 'combat' | 'maproot',
  plan: { input: unknown },
) {
  const v = readManifest()['duel']!.verifiers[circuit]!;
  const { proof } = await snarkjs.groth16.fullProve(plan.input as never, v.wasm, v.zkey);
  return toSolidityProof(proof);
}

/**
 * Duel with real proofs: the map proof's root (when the maproot verifier is generated), spawns (turns 0, 1), two
 * turns, an attack (turn 4) answered by a combat proof (a miss), then turn 4 itself, which ends the game.
 */
async function duelPlay(
  game: Contract,
  registry: Contract,
  mapProofs: Contract,
  rsHash: string,
  dealer: Signer,
  players: Signer[],
  h: Awaited<ReturnType<typeof loadHasher>>,
): Promise<Record<string, number>> {
  const r = shippedRuleset('duel');
  const as = (s: Signer) => game.connect(s) as Contract;
  // The SDK's own calls, so the bench measures what a client sends.
  const chainOf = (s: Signer) => new GameChain(String(game.target), s);
  await (
    await as(dealer).getFunction('createGame')(
      paramsOf(
        players.map((p) => p.address),
        dealer.address,
        rsHash,
        DUEL_PLAY_TURNS,
      ),
      { value: 10n ** 18n },
    )
  ).wait();
  const id = (await game.getFunction('gameIdOf')(await game.getFunction('gameCount')())) as bigint;
  const shares = [0xabcn, 0xdefn];
  for (const [i, p] of players.entries()) {
    await (
      await as(p).getFunction('commit')(id, shareCommitment(h, id, BigInt(p.address), shares[i]!))
    ).wait();
  }
  await sealAll(h, game, id, players, shares);
  const master = 77n;
  const map = commitMap(h, r.board, generateMap(h, r.board, h.hash(shares)), master);
  await (
    await as(dealer).getFunction('postRoot')(
      id,
      map.tree.root,
      masterCommitment(h, master),
      zoneRoots(map, r.board),
    )
  ).wait();
  const out: Record<string, number> = {};
  if (readManifest()['duel']!.verifiers.maproot) {
    const input = mapRootInput(h, {
      maxPlayers: rulesetInfo('duel').maxPlayers,
      gameId: id,
      players: players.map((p) => BigInt(p.address)),
      shares,
      map,
      board: r.board,
    });
    out['gas_map_proof_duel'] = await gasOf(
      (mapProofs.connect(players[0]!) as Contract).getFunction('submitMapProof')(
        id,
        BigInt(input.seedHash),
        zoneRoots(map, r.board),
        await proofOf('maproot', { input }),
      ),
    );
  }
  const opp = async (k: number) => [(await game.getFunction('getSeat')(id, 1 - k)).zoneMask as bigint];
  const turnNow = async () => (await game.getFunction('getGame')(id))[4] as bigint;
  const state: { slots: Slots; blinding: bigint; revealCommit: bigint }[] = [];
  const spawnGas: number[] = [];
  /** Forced-reveal lanes over the measured spawns and turns (each one is an event the contract emits). */
  let forced = 0;
  // hq, infantry, infantry, scout, scout at the back of each start area (columns 0, 1, 2 from the edge away from
  // the other seat): no unit stands in a zone the other seat sees, so these spawns and turns force no reveals.
  const places = [0, 1].map((k) => {
    const a = r.startAreas[k]!;
    const col = (d: number) => (k === 0 ? a.col0 + d : a.col1 - d);
    return [
      { col: col(0), row: 12 },
      { col: col(1), row: 11 },
      { col: col(1), row: 13 },
      { col: col(2), row: 10 },
      { col: col(2), row: 14 },
    ];
  });
  for (const k of [0, 1]) {
    const slots = spawnSlots(r, places[k]!);
    const plan = spawnWitness(r, h, {
      mapRoot: map.tree.root,
      gameId: id,
      player: BigInt(players[k]!.address),
      seat: k,
      slots,
      blinding: 10n + BigInt(k),
      revealed: [places[k]![0]!],
      revealBlinding: 20n + BigInt(k),
      oppMasks: await opp(k),
    });
    forced += plan.forced.length;
    const proof = await proofOf('spawn', plan);
    spawnGas.push(Number((await chainOf(players[k]!).spawn(id, plan, proof)).gasUsed));
    state[k] = { slots, blinding: 10n + BigInt(k), revealCommit: plan.revealCommit };
  }
  out['gas_spawn_duel'] = Math.max(...spawnGas);
  const mapTiles = generateMap(h, r.board, h.hash(shares));
  /** Seat k's turn: slot 1 steps one tile toward the other side onto a passable neighbour, with its opening. */
  /** The turns' proofs sent bare to the turn verifier. */
  const verifierGas: number[] = [];
  const playTurn = async (k: number) => {
    const t = await turnNow();
    const cur = state[k]!;
    const from = cur.slots[1]!;
    const dc = k === 0 ? 1 : -1;
    const step = [
      { col: from.col + dc, row: from.row },
      ...tilesInRange(r.board, 'hex', from, 1).filter((c) => c.col !== from.col || c.row !== from.row),
    ].find((c) => isPassable(mapTiles[c.row * r.board.width + c.col]!.terrain))!;
    const newSlots = cur.slots.map((u, i) => (u && i === 1 ? { ...u, ...step } : u));
    const stepLeaf = leafIndex(r.board, step);
    const passability = {
      zoneRoots: zoneRoots(map, r.board),
      destinations: newSlots.map((_, i) =>
        i === 1
          ? {
              tile: mapTiles[step.row * r.board.width + step.col]!,
              salt: map.salts[stepLeaf]!,
              path: merklePath(map.tree, stepLeaf),
            }
          : null,
      ),
    };
    const sources = newSlots.flatMap((u) =>
      u ? [{ coord: { col: u.col, row: u.row }, radius: r.unitTypes[u.type]!.vision }] : [],
    );
    const seen = [...visibleTiles(r.board, r.vision.model, sources)].slice(0, r.maxRevealedTiles);
    const revealed = seen.map((i) => ({ col: i % r.board.width, row: Math.floor(i / r.board.width) }));
    const plan = turnWitness(r, h, {
      mapRoot: map.tree.root,
      player: BigInt(players[k]!.address),
      seat: k,
      turn: t,
      oldSlots: cur.slots,
      oldBlinding: cur.blinding,
      oldRevealCommit: cur.revealCommit,
      newSlots,
      newBlinding: 100n + t,
      revealed,
      revealBlinding: 200n + t,
      oppMasks: await opp(k),
      passability,
    });
    forced += plan.forced.length;
    const proof = await proofOf('turn', plan);
    const gas = Number((await chainOf(players[k]!).submitTurn(id, plan, proof)).gasUsed);
    verifierGas.push(
      await verifierTxGas(registry, rsHash, CIRCUIT_ID.turn, proof, plan.publicSignals, players[k]!),
    );
    state[k] = { slots: newSlots, blinding: 100n + t, revealCommit: plan.revealCommit };
    const leaves = revealed.map((c) => leafIndex(r.board, c));
    return { gas, leaves, blinding: 200n + t, stateCommit: plan.stateCommit };
  };
  const turnGas: number[] = [];
  /** Seat 0's turn-2 opening: every tile in vision up to the ruleset's limit (the largest a dispute puts on-chain). */
  let opening: { leaves: number[]; blinding: bigint; stateCommit: bigint } | null = null;
  for (const k of [0, 1]) {
    const { gas, ...o } = await playTurn(k);
    turnGas.push(gas);
    if (k === 0) opening = o;
  }
  out['gas_turn_duel'] = Math.max(...turnGas);
  out['gas_turn_duel_verifier_tx'] = Math.max(...verifierGas);
  out['gas_turn_duel_game_share'] = out['gas_turn_duel'] - out['gas_turn_duel_verifier_tx'];
  // Seat 0 disputes its turn (a full reveal list); the dealer answers on-chain; seat 0 accepts.
  const { leaves, blinding, stateCommit } = opening!;
  out['reveal_dispute_leaves_duel'] = leaves.length;
  out['gas_open_dispute_duel'] = await gasOf(
    as(players[0]!).getFunction('openDispute')(id, leaves, blinding, stateCommit),
  );
  const served = leaves.map((leaf) => {
    const c = leafCoord(r.board, leaf)!;
    const t = mapTiles[c.row * r.board.width + c.col]!;
    return {
      leaf,
      ...c,
      ...t,
      salt: map.salts[leaf]!.toString(),
      path: merklePath(map.tree, leaf).map(String),
    };
  });
  out['gas_answer_dispute_duel'] = await gasOf(
    as(dealer).getFunction('answerDispute')(id, encodeDisputeAnswer(served, r.board.depth), '0x'),
  );
  out['gas_accept_dispute'] = await gasOf(as(players[0]!).getFunction('acceptDisputeAnswer')(id));
  // Turn 4: seat 0's infantry (slot 1, one step on from its spawn) attacks the tile east of it; seat 1 has no
  // unit there and answers with a miss.
  const t = await turnNow();
  const atkFrom = state[0]!.slots[1]!;
  const target = { col: atkFrom.col + 1, row: atkFrom.row };
  const atk = attackWitness(r, h, {
    mapRoot: map.tree.root,
    gameId: id,
    player: BigInt(players[0]!.address),
    turn: t,
    slots: state[0]!.slots,
    blinding: state[0]!.blinding,
    revealCommit: state[0]!.revealCommit,
    slot: 1,
    target,
  });
  out['gas_attack_duel'] = await gasOf(
    as(players[0]!).getFunction('attack')(
      id,
      await proofOf('attack', atk),
      atk.nullifier,
      target.col,
      target.row,
      1n,
    ),
  );
  const damage = Number((await registry.getFunction('getRuleset')(rsHash)).damage);
  const cmb = combatWitness(r, h, {
    mapRoot: map.tree.root,
    gameId: id,
    player: BigInt(players[1]!.address),
    turn: t,
    slots: state[1]!.slots,
    blinding: state[1]!.blinding,
    revealCommit: state[1]!.revealCommit,
    target,
    damage,
  });
  out['gas_combat_response'] = await gasOf(
    as(players[1]!).getFunction('defend')(
      id,
      await proofOf('combat', cmb),
      cmb.present ? 1n : 0n,
      cmb.unitType,
      cmb.unitHp,
      cmb.newCommit,
    ),
  );
  // Seat 0 ends turn 4, the game's last (DUEL_PLAY_TURNS): the turn that ends play and opens the secrets phase.
  out['gas_turn_duel_end'] = (await playTurn(0)).gas;
  out['forced_reveals_duel'] = forced;
  const ended = await game.getFunction('getGame')(id);
  if (ended.phase !== PHASE_SECRETS)
    throw new Error(`turn ${ended.turn}: play did not end (phase ${ended.phase})`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchGas(), null, 2));
  await releaseSnarkjsThreads();
}
