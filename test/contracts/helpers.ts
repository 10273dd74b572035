/** Shared fixtures for the contract tests: the in-process EDR chain, deployment, a scripted ceremony. */
import assert from 'node:assert/strict';
import type { HardhatEthers, HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/types';
import type { Contract } from 'ethers';
import { network } from 'hardhat';
import { deployShroud } from '../../contracts/deployer.ts';
import {
  type Board,
  buildTree,
  commitMap,
  generateMap,
  type Hasher,
  loadHasher,
  type MerkleTree,
  makeBoard,
  masterCommitment,
  shareCommitment,
} from '../../core/index.ts';

export const Phase = {
  None: 0n,
  Commit: 1n,
  Reveal: 2n,
  Deal: 3n,
  Play: 4n,
  Secrets: 5n,
  Audit: 6n,
  Settled: 7n,
  Cancelled: 8n,
  ForceOpen: 9n,
  Combat: 10n,
} as const;

export const DURATIONS = {
  commitSeconds: 600,
  revealSeconds: 600,
  rootSeconds: 1800,
  turnSeconds: 600,
  combatSeconds: 300,
  secretsSeconds: 3600,
  auditSeconds: 3600,
};

/** A valid compressed secp256k1 public key (the generator point). */
export const ENC_KEY = '0x0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
export const RULESET_HASH = `0x${'11'.repeat(32)}`;
export const BOND = 10n ** 18n;

export interface Env {
  ethers: HardhatEthers;
  h: Hasher;
  game: Contract;
  /** MapProofRegistry (maproot proofs). */
  mapProofs: Contract;
  mapGen: Contract;
  registry: Contract;
  /** Deploys and owns the registry. */
  deployer: HardhatEthersSigner;
  poseidon: Contract[];
  dealer: HardhatEthersSigner;
  players: HardhatEthersSigner[];
  other: HardhatEthersSigner;
}

/** One fresh in-process chain per call, with everything deployed; `rulesets` get their generated verifiers. */
export async function setup(rulesets: readonly string[] = []): Promise<Env> {
  const { ethers } = await network.connect();
  const [deployer, dealer, p1, p2, p3, p4, p5, p6, other] = await ethers.getSigners();
  const { game, mapProofs, mapGen, registry, poseidon } = await deployShroud(ethers, deployer, rulesets);
  // RULESET_HASH: a 6-seat hex 16×12 test ruleset without verifiers (ceremony and audit tests).
  await (
    await (registry.connect(deployer!) as Contract).getFunction('registerRuleset')(
      RULESET_HASH,
      0,
      16,
      12,
      6,
      4,
      false,
    )
  ).wait();
  return {
    ethers,
    h: await loadHasher(),
    game,
    mapProofs,
    mapGen,
    registry,
    deployer: deployer!,
    poseidon,
    dealer: dealer!,
    players: [p1!, p2!, p3!, p4!, p5!, p6!],
    other: other!,
  };
}

export async function increaseTime(env: Env, seconds: number): Promise<void> {
  await env.ethers.provider.send('evm_increaseTime', [seconds]);
  await env.ethers.provider.send('evm_mine', []);
}

/** Asserts `p` reverts with the custom error `name` (decoded with `c`'s ABI); returns its arguments. */
export async function expectRevert(p: Promise<unknown>, c: Contract, name: string): Promise<unknown[]> {
  try {
    await p;
  } catch (e) {
    const err = e as { data?: string; revert?: { name: string; args: unknown[] }; message?: string };
    if (err.revert) {
      assert.equal(err.revert.name, name, `expected ${name}, got ${err.revert.name}`);
      return [...err.revert.args];
    }
    const data = err.data;
    assert.ok(typeof data === 'string' && data.length >= 10, `no revert data: ${err.message}`);
    const parsed = c.interface.parseError(data);
    assert.ok(parsed, `undecodable revert ${data}`);
    assert.equal(parsed.name, name, `expected ${name}, got ${parsed.name}`);
    return [...parsed.args];
  }
  assert.fail(`expected revert ${name}, but the call succeeded`);
}

/** A test ruleset id per board: registered (6 seats, damage 4, no verifiers) on first use. */
export async function testRuleset(env: Env, kind: number, width: number, height: number): Promise<string> {
  if (kind === 0 && width === 16 && height === 12) return RULESET_HASH;
  const hash = env.ethers.keccak256(env.ethers.toUtf8Bytes(`test-ruleset:${kind}:${width}:${height}`));
  const r = await env.registry.getFunction('getRuleset')(hash);
  if (!r.registered) {
    const reg = env.registry.connect(env.deployer) as Contract;
    await (await reg.getFunction('registerRuleset')(hash, kind, width, height, 6, 4, false)).wait();
  }
  return hash;
}

/** The id of the latest game (`gameIdOf(gameCount)`). */
export async function lastGameId(env: Env): Promise<bigint> {
  const n = (await env.game.getFunction('gameCount')()) as bigint;
  return (await env.game.getFunction('gameIdOf')(n)) as bigint;
}

export interface GameOpts {
  kind?: number;
  /** Defaults to a registered test ruleset for the board. */
  rulesetHash?: string;
  width?: number;
  height?: number;
  maxTurns?: number;
  nPlayers?: number;
  stake?: bigint;
}

export interface Scenario {
  id: bigint;
  board: Board;
  players: HardhatEthersSigner[];
  shares: bigint[];
  commitments: bigint[];
  stake: bigint;
}

export async function createGame(env: Env, o: GameOpts = {}): Promise<Scenario> {
  const kind = o.kind ?? 0;
  const width = o.width ?? 16;
  const height = o.height ?? 12;
  const players = env.players.slice(0, o.nPlayers ?? 2);
  const stake = o.stake ?? 0n;
  const board = { kind, width, height, maxTurns: o.maxTurns ?? 10 };
  const g = env.game.connect(env.dealer) as Contract;
  const rulesetHash = o.rulesetHash ?? (await testRuleset(env, kind, width, height));
  const tx = await g.getFunction('createGame')(
    players.map((p) => p.address),
    env.dealer.address,
    ENC_KEY,
    rulesetHash,
    DURATIONS,
    board,
    stake,
    { value: BOND },
  );
  await tx.wait();
  const id = await lastGameId(env);
  const shares = players.map((_, i) => 1000n + BigInt(i) * 7919n + id);
  const commitments = players.map((p, i) => shareCommitment(env.h, id, BigInt(p.address), shares[i]!));
  return {
    id,
    board: makeBoard(kind === 0 ? 'hex' : 'square', width, height),
    players,
    shares,
    commitments,
    stake,
  };
}

export function as(env: Env, s: HardhatEthersSigner): Contract {
  return env.game.connect(s) as Contract;
}

export async function commitAll(env: Env, s: Scenario): Promise<void> {
  for (const [i, p] of s.players.entries()) {
    await (await as(env, p).getFunction('commit')(s.id, s.commitments[i], { value: s.stake })).wait();
  }
}

export async function revealAll(env: Env, s: Scenario): Promise<void> {
  for (const [i, p] of s.players.entries()) {
    await (await as(env, p).getFunction('sealedReveal')(s.id, ciphertextOf(i))).wait();
  }
}

/** Stand-in ciphertext (the contract stores only its hash): ephemeral key ‖ 32-byte body ‖ 16-byte tag. */
export function ciphertextOf(i: number): string {
  return `0x02${'ab'.repeat(32)}${(i + 1).toString(16).padStart(2, '0').repeat(32)}${'cd'.repeat(16)}`;
}

export interface Dealt {
  masterSecret: bigint;
  seed: bigint;
  tree: MerkleTree;
  salts: readonly bigint[];
}

/** The honest dealer's map for a scenario: seed from the shares, salted zone-major tree. */
export function dealMap(env: Env, s: Scenario, masterSecret = 123456789n): Dealt {
  const seed = env.h.hash(s.shares);
  const tiles = generateMap(env.h, s.board, seed);
  const { tree, salts } = commitMap(env.h, s.board, tiles, masterSecret);
  return { masterSecret, seed, tree, salts };
}

export async function postRoot(env: Env, s: Scenario, d: Dealt): Promise<void> {
  await (
    await as(env, env.dealer).getFunction('postRoot')(
      s.id,
      d.tree.root,
      masterCommitment(env.h, d.masterSecret),
    )
  ).wait();
}

/** Ends play: everyone but seat 0 forfeits. */
export async function endByForfeit(env: Env, s: Scenario): Promise<void> {
  for (const p of s.players.slice(1)) await (await as(env, p).getFunction('forfeit')(s.id)).wait();
}

export async function phaseOf(env: Env, id: bigint): Promise<bigint> {
  const g = await env.game.getFunction('getGame')(id);
  return g[1] as bigint;
}

export { buildTree };
