/** Shared fixtures for the contract tests: the in-process EDR chain, deployment, a scripted ceremony. */
import assert from 'node:assert/strict';
import type { HardhatEthers, HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/types';
import { type Contract, keccak256 } from 'ethers';
import { network } from 'hardhat';
import { revertData } from '../../client/sdk/typed-contract.ts';
import { deployShroud } from '../../contracts/ignition/deploy.ts';
import type { Deployment } from '../../contracts/ignition/record.ts';
import { GAME_PHASES } from '../../core/game-phases.ts';
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
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { type SealKeyPair, sealPublicKey, sealSecretKey, sealShare } from '../../core/sealed.ts';
import { deployPlan } from '../../scripts/contracts/plan.ts';

/** `IShroudGame.Phase` as bigints, by name (core/game-phases.ts is the one list). */
export const Phase = Object.fromEntries(GAME_PHASES.map((n, i) => [n, BigInt(i)])) as Record<
  (typeof GAME_PHASES)[number],
  bigint
>;

/** Durations at their floors or above (core/limits.ts): what the test games use. */
export const DURATIONS = {
  commitSeconds: 600,
  revealSeconds: 600,
  rootSeconds: 1800,
  turnSeconds: 600,
  combatSeconds: 300,
  disputeSeconds: 600,
  secretsSeconds: 3600,
  auditSeconds: 86_400,
};

/** The test dealer's Baby Jubjub seal key (shares are really encrypted to it; only the proof may be a mock). */
export const SEAL: SealKeyPair = (() => {
  const secretKey = sealSecretKey(`0x05${'5e'.repeat(30)}01`);
  return { secretKey, publicKey: sealPublicKey(secretKey) };
})();
export const SEAL_KEY: [bigint, bigint] = [SEAL.publicKey[0], SEAL.publicKey[1]];
export const RULESET_HASH = `0x${'11'.repeat(32)}`;
export const BOND = 10n ** 18n;

export interface Env {
  ethers: HardhatEthers;
  h: Hasher;
  game: Contract;
  /** Every address of the deployment (libraries, hashers, registries). */
  deployment: Deployment;
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

export interface SetupOptions {
  /** `'mock'`: contracts/harness/MockVerifier.sol checks sealed reveals; absent: the generated SealVerifier. */
  sealVerifier?: 'mock';
}

/**
 * One fresh in-process chain per call, with everything deployed by the Ignition modules (the deployment's own
 * path); `rulesets` get their generated verifiers. The sealed-share verifier is the MockVerifier unless
 * `opts.sealVerifier` says otherwise (`{}`: the generated SealVerifier, whose proofs `sealProof` cannot fake).
 */
export async function setup(
  rulesets: readonly string[] = [],
  opts: SetupOptions = { sealVerifier: 'mock' },
): Promise<Env> {
  const conn = await network.connect();
  const { ethers } = conn;
  const [deployer, dealer, p1, p2, p3, p4, p5, p6, other] = await ethers.getSigners();
  const plan = await deployPlan(rulesets, opts.sealVerifier ? { seal: opts.sealVerifier } : {});
  const { game, mapProofs, mapGen, registry, poseidon, deployment } = await deployShroud(conn, plan);
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
      16,
    )
  ).wait();
  return {
    ethers,
    h: await loadHasher(),
    game,
    deployment,
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
    const err = e as { revert?: { name: string; args: unknown[] }; message?: string };
    if (err.revert) {
      assert.equal(err.revert.name, name, `expected ${name}, got ${err.revert.name}`);
      return [...err.revert.args];
    }
    const data = revertData(e);
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
    await (await reg.getFunction('registerRuleset')(hash, kind, width, height, 6, 4, false, 16)).wait();
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
  disputeDeposit?: bigint;
}

export interface Scenario {
  id: bigint;
  board: Board;
  players: HardhatEthersSigner[];
  shares: bigint[];
  commitments: bigint[];
  stake: bigint;
  disputeDeposit: bigint;
}

/** `createGame`'s GameParams for `players` (defaults: the test seal key, DURATIONS, no stake or deposit). */
export function gameParams(
  env: Env,
  players: readonly string[],
  o: Partial<{
    dealer: string;
    sealKey: readonly bigint[];
    rulesetHash: string;
    durations: typeof DURATIONS;
    board: { kind: number; width: number; height: number; maxTurns: number };
    stake: bigint;
    disputeDeposit: bigint;
  }> = {},
) {
  return {
    players,
    dealer: o.dealer ?? env.dealer.address,
    sealKey: o.sealKey ?? SEAL_KEY,
    rulesetHash: o.rulesetHash ?? RULESET_HASH,
    durations: o.durations ?? DURATIONS,
    board: o.board ?? { kind: 0, width: 16, height: 12, maxTurns: 10 },
    stake: o.stake ?? 0n,
    disputeDeposit: o.disputeDeposit ?? 0n,
  };
}

export async function createGame(env: Env, o: GameOpts = {}): Promise<Scenario> {
  const kind = o.kind ?? 0;
  const width = o.width ?? 16;
  const height = o.height ?? 12;
  const players = env.players.slice(0, o.nPlayers ?? 2);
  const stake = o.stake ?? 0n;
  const disputeDeposit = o.disputeDeposit ?? 0n;
  const board = { kind, width, height, maxTurns: o.maxTurns ?? 10 };
  const g = env.game.connect(env.dealer) as Contract;
  const rulesetHash = o.rulesetHash ?? (await testRuleset(env, kind, width, height));
  const params = gameParams(
    env,
    players.map((p) => p.address),
    { rulesetHash, board, stake, disputeDeposit },
  );
  await (await g.getFunction('createGame')(params, { value: BOND })).wait();
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
    disputeDeposit,
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

/**
 * Every seat posts its share really sealed to `SEAL` (core/sealed.ts), with a MockVerifier "proof" bound to the
 * five public signals (`sealProof`). test/contracts/seal.test.ts deploys the real SealVerifier instead.
 */
export async function revealAll(env: Env, s: Pick<Scenario, 'id' | 'players' | 'shares'>): Promise<void> {
  for (const [i, p] of s.players.entries()) {
    const { sealed, plan } = sealedShareOf(env, s, i);
    await (
      await as(env, p).getFunction('sealedReveal')(
        s.id,
        sealed.ephemeralY,
        sealed.ciphertext,
        sealProof(plan.publicSignals),
      )
    ).wait();
  }
}

/** Seat `i`'s share sealed to the test dealer key (deterministic ephemeral secret) and its witness plan. */
export function sealedShareOf(env: Env, s: Pick<Scenario, 'id' | 'players' | 'shares'>, i: number) {
  return sealShare(
    env.h,
    SEAL.publicKey,
    s.shares[i]!,
    { gameId: s.id, player: BigInt(s.players[i]!.address) },
    { ephemeralSecret: 777n + BigInt(i) },
  );
}

/** A MockVerifier "proof" for `signals`: a[0] = keccak256 of the packed signals (contracts/harness/MockVerifier.sol). */
export function sealProof(signals: readonly bigint[]) {
  const packed = signals.map((v) => v.toString(16).padStart(64, '0')).join('');
  return {
    a: [BigInt(keccak256(`0x${packed}`)), 0n],
    b: [
      [0n, 0n],
      [0n, 0n],
    ],
    c: [0n, 0n],
  };
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

/** The dealt tree's zone roots (what the dealer publishes with its secrets). */
export function dealtZoneRoots(s: Scenario, d: Dealt): bigint[] {
  return zoneRoots({ tree: d.tree, salts: d.salts }, s.board);
}

/** The dealer publishes its secrets and its tree's zone roots (`zoneRoots`: others, e.g. a lie). */
export async function publishSecrets(env: Env, s: Scenario, d: Dealt): Promise<void> {
  await (await as(env, env.dealer).getFunction('publishSecrets')(s.id, d.masterSecret, s.shares)).wait();
}

/** The dealer posts `d`'s root with its zone roots (or `zoneRoots`: a lie about them). */
export async function postRoot(
  env: Env,
  s: Scenario,
  d: Dealt,
  zoneRoots: readonly bigint[] = dealtZoneRoots(s, d),
): Promise<void> {
  await (
    await as(env, env.dealer).getFunction('postRoot')(
      s.id,
      d.tree.root,
      masterCommitment(env.h, d.masterSecret),
      zoneRoots,
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

/**
 * Tile fields [terrain, feature, resource, rivers] that pack to the same tile word (and leaf) as `fields` but are not
 * bytes, so only the contract's byte check tells them apart: one field raised by 256 and the next lowered by 1, or,
 * when every field after the first is 0, feature + 2^248 (shifted left by 8 it overflows 256 bits to nothing).
 */
export function aliasFields<T extends number | bigint>(fields: readonly T[]): bigint[] {
  const out = fields.map(BigInt);
  const i = [1, 2, 3].find((k) => out[k]! > 0n);
  if (i === undefined) out[1] = out[1]! + (1n << 248n);
  else {
    out[i - 1] = out[i - 1]! + 256n;
    out[i] = out[i]! - 1n;
  }
  return out;
}
