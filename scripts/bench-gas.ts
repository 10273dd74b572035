/**
 * Gas of the contract operations on the in-process EDR chain: node scripts/bench-gas.ts
 * `benchGas()` returns a flat record (gas units) for the benchmark report. The phase-2 figures (spawn, turn,
 * attack, combat response on `duel`, real Groth16 proofs) need the duel verifiers generated
 * (`node scripts/contracts/verifiers.ts --ruleset duel`) before `hardhat build`.
 */
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/types';
import type { Contract, ContractTransactionResponse } from 'ethers';
import { network } from 'hardhat';
import * as snarkjs from 'snarkjs';
import { GameChain } from '../client/sdk/chain.ts';
import { releaseSnarkjsThreads } from '../client/sdk/snark-threads.ts';
import { deployShroud } from '../contracts/deployer.ts';
import {
  commitMap,
  generateMap,
  leafIndex,
  loadHasher,
  makeBoard,
  masterCommitment,
  merklePath,
  shareCommitment,
  type Tile,
} from '../core/index.ts';
import { toSolidityProof } from '../core/mapproof/types.ts';
import { mapRootInput, zoneRoots } from '../core/mapproof/witness.ts';
import { shippedRuleset } from '../core/ruleset/shipped.ts';
import type { Slots } from '../core/state.ts';
import {
  attackWitness,
  combatWitness,
  spawnSlots,
  spawnWitness,
  turnWitness,
} from '../core/witness/inputs.ts';
import { readManifest, rulesetHash, rulesetInfo } from './contracts/rulesets.ts';

const DURATIONS = {
  commitSeconds: 600,
  revealSeconds: 600,
  rootSeconds: 1800,
  turnSeconds: 600,
  combatSeconds: 300,
  secretsSeconds: 3600,
  auditSeconds: 3600,
};
const ENC_KEY = '0x0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';

async function gasOf(tx: Promise<ContractTransactionResponse>): Promise<number> {
  const rc = await (await tx).wait();
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
  const { ethers } = await network.connect();
  const h = await loadHasher();
  const [deployer, dealer, p1, p2, other] = await ethers.getSigners();
  const { game, registry, mapProofs } = await deployShroud(ethers, deployer, proofs ? ['duel'] : []);
  const rsHash = proofs ? rulesetHash('duel') : `0x${'11'.repeat(32)}`;
  if (!proofs) {
    await (
      await (registry.connect(deployer!) as Contract).getFunction('registerRuleset')(
        rsHash,
        0,
        40,
        26,
        2,
        4,
        false,
      )
    ).wait();
  }
  const as = (s: typeof dealer) => game.connect(s!) as Contract;
  const board = makeBoard('hex', 40, 26);
  const out: Record<string, number> = {};

  out['gas_create_game'] = await gasOf(
    as(dealer).getFunction('createGame')(
      [p1!.address, p2!.address],
      dealer!.address,
      ENC_KEY,
      rsHash,
      DURATIONS,
      { kind: 0, width: 40, height: 26, maxTurns: 100 },
      0n,
      { value: 10n ** 18n },
    ),
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
  // A realistic sealed reveal: 33-byte ephemeral key, 32-byte body, 16-byte tag.
  const ct = `0x02${'ab'.repeat(32)}${'cd'.repeat(32)}${'ef'.repeat(16)}`;
  const reveals: number[] = [];
  for (const p of players) reveals.push(await gasOf(as(p).getFunction('sealedReveal')(id, ct)));
  out['gas_sealed_reveal'] = Math.max(...reveals);

  // A dishonest dealer: one tile altered, so a fraud proof can succeed.
  const seed = h.hash(shares);
  const tiles = generateMap(h, board, seed);
  const target = { col: 21, row: 13 };
  const k = target.row * board.width + target.col;
  tiles[k] = { ...tiles[k]!, rivers: tiles[k]!.rivers ^ 1 } as Tile;
  const master = 987654321n;
  const { tree, salts } = commitMap(h, board, tiles, master);
  out['gas_post_root'] = await gasOf(
    as(dealer).getFunction('postRoot')(id, tree.root, masterCommitment(h, master)),
  );
  out['gas_forfeit_end'] = await gasOf(as(p2).getFunction('forfeit')(id));
  out['gas_publish_secrets'] = await gasOf(as(other).getFunction('publishSecrets')(id, master, shares));
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
  if (proofs) Object.assign(out, await duelPlay(game, registry, mapProofs, rsHash, dealer!, [p1!, p2!], h));
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
 * turns, an attack (turn 4) answered by a combat proof (a miss).
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
      players.map((p) => p.address),
      dealer.address,
      ENC_KEY,
      rsHash,
      DURATIONS,
      { kind: 0, width: 40, height: 26, maxTurns: 100 },
      0n,
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
  for (const p of players)
    await (await as(p).getFunction('sealedReveal')(id, `0x02${'ab'.repeat(64)}`)).wait();
  const master = 77n;
  const map = commitMap(h, r.board, generateMap(h, r.board, h.hash(shares)), master);
  await (await as(dealer).getFunction('postRoot')(id, map.tree.root, masterCommitment(h, master))).wait();
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
  const state: { slots: Slots; blinding: bigint }[] = [];
  const spawnGas: number[] = [];
  const places = [
    [
      { col: 6, row: 12 },
      { col: 8, row: 11 },
      { col: 8, row: 13 },
      { col: 9, row: 10 },
      { col: 9, row: 14 },
    ],
    [
      { col: 32, row: 12 },
      { col: 30, row: 11 },
      { col: 30, row: 13 },
      { col: 30, row: 10 },
      { col: 30, row: 14 },
    ],
  ];
  for (const k of [0, 1]) {
    const slots = spawnSlots(r, places[k]!);
    const plan = spawnWitness(r, h, {
      gameId: id,
      player: BigInt(players[k]!.address),
      seat: k,
      slots,
      blinding: 10n + BigInt(k),
      revealed: [places[k]![0]!],
      revealBlinding: 20n + BigInt(k),
      oppMasks: await opp(k),
    });
    const proof = await proofOf('spawn', plan);
    spawnGas.push(Number((await chainOf(players[k]!).spawn(id, plan, proof)).gasUsed));
    state[k] = { slots, blinding: 10n + BigInt(k) };
  }
  out['gas_spawn_duel'] = Math.max(...spawnGas);
  const turnGas: number[] = [];
  for (const k of [0, 1]) {
    const t = await turnNow();
    const cur = state[k]!;
    const dc = k === 0 ? 2 : -2;
    const newSlots = cur.slots.map((u, i) => (u && i === 1 ? { ...u, col: u.col + dc } : u));
    const plan = turnWitness(r, h, {
      gameId: id,
      player: BigInt(players[k]!.address),
      turn: t,
      oldSlots: cur.slots,
      oldBlinding: cur.blinding,
      newSlots,
      newBlinding: 100n + t,
      revealed: [newSlots[1]!],
      revealBlinding: 200n + t,
      oppMasks: await opp(k),
    });
    const proof = await proofOf('turn', plan);
    turnGas.push(Number((await chainOf(players[k]!).submitTurn(id, plan, proof)).gasUsed));
    state[k] = { slots: newSlots, blinding: 100n + t };
  }
  out['gas_turn_duel'] = Math.max(...turnGas);
  // Turn 4: seat 0's infantry (10,11) attacks (11,11); seat 1 has no unit there and answers with a miss.
  const t = await turnNow();
  const target = { col: 11, row: 11 };
  const atk = attackWitness(r, h, {
    gameId: id,
    player: BigInt(players[0]!.address),
    turn: t,
    slots: state[0]!.slots,
    blinding: state[0]!.blinding,
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
    gameId: id,
    player: BigInt(players[1]!.address),
    turn: t,
    slots: state[1]!.slots,
    blinding: state[1]!.blinding,
    target,
    damage,
  });
  out['gas_combat_response'] = await gasOf(
    as(players[1]!).getFunction('respondCombat')(
      id,
      await proofOf('combat', cmb),
      cmb.present ? 1n : 0n,
      cmb.unitType,
      cmb.unitHp,
      cmb.newCommit,
    ),
  );
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchGas(), null, 2));
  await releaseSnarkjsThreads();
}
