/**
 * Play against MockVerifiers that bind each "proof" to its public signals (a[0] = keccak256(signals)), shared by
 * the contract tests of play, disputes and force-open: a mock ruleset (hex 16×12, 3 seats, damage 4, 16 revealed
 * tiles), the signals the contract must build for spawns and turns (spelled independently of the contract), and
 * games brought to play.
 */
import { type Contract, concat, keccak256, toBeHex } from 'ethers';
import { playCommitment, revealCommitment } from '../../core/index.ts';
import {
  as,
  commitAll,
  createGame,
  type Dealt,
  dealMap,
  type Env,
  type GameOpts,
  postRoot,
  revealAll,
  type Scenario,
} from './helpers.ts';

export const ZERO_PROOF = {
  a: [0n, 0n],
  b: [
    [0n, 0n],
    [0n, 0n],
  ],
  c: [0n, 0n],
};
/** A "proof" the MockVerifier accepts for exactly these signals. */
export const proofFor = (sig: readonly bigint[]) => ({
  ...ZERO_PROOF,
  a: [BigInt(keccak256(concat(sig.map((x) => toBeHex(x, 32))))), 0n],
});

/** Mock ruleset: hex 16×12, 3 seats (one mask input is always an empty seat in 2-player games), damage 4. */
export const MAX_PLAYERS = 3;
export const DAMAGE = 4n;
/** Reveal lists of up to 16 leaves: two packed words (a dispute recomputes Poseidon(blinding, w0, w1)). */
export const MAX_REVEALED = 16;
// 16×12 hex: 4 zones, 7-bit forced lanes. One packed word holds the context (seat 8 bits, step 32, the two opponent
// masks of 4 bits) and the report (zone mask at bit 48, lanes from bit 52): spawn [packed, gameId, newCommit,
// mapRoot] (every ruleset: the spawn binds the game's root into the commitment), turn [packed, oldCommit,
// newCommit] (the stored commitment binds the game and the root); attack [nullifier, gameId, target, commit];
// combat [newCommit, gameId, target with the outcome, oldCommit]. Every commitment is a play commitment
// Poseidon(stateCommit, revealCommit, mapRoot).
export const N = { spawn: 4, turn: 3, attack: 4, combat: 4 };
const ZONES = 4n;
const LANE_BITS = 7n;
const CONTEXT_BITS = 8n + 32n + 2n * ZONES;
/**
 * The report part of the packed word: zone mask at bit 48, then lane i at bit 52 + 7i, every context bit 0 (an
 * independent spelling of the layout).
 */
export const reportWord = (zoneMask: bigint, lanes: readonly bigint[]) =>
  lanes.reduce(
    (w, lane, i) => w | (lane << (CONTEXT_BITS + ZONES + LANE_BITS * BigInt(i))),
    zoneMask << CONTEXT_BITS,
  );
/** The context part of the packed word: seat | step << 8 | opponent masks (4 bits each) from bit 40. */
export const contextWord = (seat: bigint, step: bigint, masks: readonly bigint[]) =>
  masks.reduce((w, m, i) => w | (m << (40n + ZONES * BigInt(i))), seat | (step << 8n));
/** The attack/combat target word: player | turn << 160 | col << 192 | row << 202 (| damage << 212). */
export const targetWord = (player: bigint, turn: bigint, col: bigint, row: bigint, damage = 0n) =>
  player | (turn << 160n) | (col << 192n) | (row << 202n) | (damage << 212n);

export interface Move {
  zoneMask: bigint;
  report: bigint[];
  /** The play commitment Poseidon(stateCommit, revealCommit, mapRoot) the proof outputs. */
  newCommit: bigint;
  stateCommit: bigint;
  revealCommit: bigint;
  /** The map root the commitment binds. */
  root: bigint;
}

/** The state commitment of the mock's move `k` (in its play commitment with the move's reveal commitment). */
export const stateOf = (k: bigint) => 1000n + k;

/** A game in play on the mock ruleset, with the honest dealer's map. */
export type Playing = Scenario & { dealt: Dealt };

/**
 * Registers a mock ruleset (`passability`: turn proofs check destinations against the commitment's root; the
 * signals are the same either way) with MockVerifiers, or with `verifier` for every circuit when given; returns
 * helpers.
 */
export async function mockPlay(env: Env, name: string, passability = false, verifier?: string) {
  const G = env.game;
  const rulesetHash = keccak256(new TextEncoder().encode(name));
  const reg = env.registry.connect(env.deployer) as Contract;
  await (
    await reg.getFunction('registerRuleset')(
      rulesetHash,
      0,
      16,
      12,
      MAX_PLAYERS,
      Number(DAMAGE),
      passability,
      MAX_REVEALED,
    )
  ).wait();
  const target =
    verifier ?? (await (await env.ethers.deployContract('MockVerifier', [], env.deployer)).getAddress());
  for (const [i, n] of [N.spawn, N.turn, N.attack, N.combat].entries()) {
    await (await reg.getFunction('setVerifier')(rulesetHash, i, target, '0x12345678', n)).wait();
  }

  const addr = (s: Scenario, seat: number) => BigInt(s.players[seat]!.address);
  const seatOf = (s: Scenario, seat: number) => G.getFunction('getSeat')(s.id, seat);
  const mask = async (s: Scenario, seat: number) => (await seatOf(s, seat)).zoneMask as bigint;
  const commitOf = async (s: Scenario, seat: number) => (await seatOf(s, seat)).playCommitment as bigint;
  const turnOf = async (s: Scenario) => (await G.getFunction('getGame')(s.id))[4] as bigint;
  /** The game's map root (the dealer's, or the adopted open root). */
  const rootOf = async (s: Scenario) => (await G.getFunction('getGame')(s.id))[6] as bigint;

  /** A game in Play (turn 0, seat 0 to move). */
  async function playing(o: GameOpts = {}): Promise<Playing> {
    const s = await createGame(env, { rulesetHash, maxTurns: 20, ...o });
    await commitAll(env, s);
    await revealAll(env, s);
    const dealt = dealMap(env, s);
    await postRoot(env, s, dealt);
    return { ...s, dealt };
  }

  /**
   * Move `k`: its play commitment binds `root` (the MockVerifier checks no opening; only disputes and `rebind`
   * open it on-chain, so tests that use those pass the game's root).
   */
  const move = (k: bigint, lanes: bigint[] = [], revealCommit = 2000n + k, root = 0n): Move => {
    const zoneMask = (0b0101n + k) & 15n;
    const stateCommit = stateOf(k);
    const newCommit = playCommitment(env.h, stateCommit, revealCommit, root);
    return { zoneMask, report: [reportWord(zoneMask, lanes)], newCommit, stateCommit, revealCommit, root };
  };
  /**
   * A move whose reveal commitment opens to `leaves` with `blinding` and whose play commitment binds `root` (what a
   * dispute puts on-chain, with the game's root).
   */
  const revealing = (k: bigint, leaves: readonly number[], blinding: bigint, root: bigint): Move =>
    move(k, [], revealCommitment(env.h, leaves, MAX_REVEALED, blinding), root);

  /**
   * The opponent masks a proof of `seat` carries: every other seat of the ruleset in order, its stored mask (0 for
   * seats the game does not have); `over.opp` and `over.empty` replace the first and second.
   */
  async function oppMasks(s: Scenario, seat: number, over: Partial<Record<string, bigint>>) {
    const masks: bigint[] = [];
    for (let o = 0; o < MAX_PLAYERS; o++) {
      if (o === seat) continue;
      masks.push(o < s.players.length ? await mask(s, o) : 0n);
    }
    if (over['opp'] !== undefined) masks[0] = over['opp'];
    if (over['empty'] !== undefined) masks[1] = over['empty'];
    return masks;
  }

  /** The signals the contract must build for a spawn by `seat` (over: fields to falsify). */
  async function spawnSignals(
    s: Scenario,
    seat: number,
    m: Move,
    over: Partial<Record<string, bigint>> = {},
  ) {
    return [
      m.report[0]! |
        contextWord(
          over['seat'] ?? BigInt(seat),
          over['step'] ?? BigInt(seat),
          await oppMasks(s, seat, over),
        ),
      over['gameId'] ?? s.id,
      m.newCommit,
      over['root'] ?? (await rootOf(s)),
    ];
  }
  async function turnSignals(s: Scenario, seat: number, m: Move, over: Partial<Record<string, bigint>> = {}) {
    return [
      m.report[0]! |
        contextWord(
          over['seat'] ?? BigInt(seat),
          over['turn'] ?? (await turnOf(s)),
          await oppMasks(s, seat, over),
        ),
      over['oldCommit'] ?? (await commitOf(s, seat)),
      m.newCommit,
    ];
  }
  const callSpawn = (s: Scenario, seat: number, proof: unknown, m: Move) =>
    as(env, s.players[seat]!).getFunction('spawn')(s.id, proof, m.report, m.newCommit);
  const callTurn = (s: Scenario, seat: number, proof: unknown, m: Move) =>
    as(env, s.players[seat]!).getFunction('playTurn')(s.id, proof, m.report, m.newCommit);

  /** Every seat spawns in order (seat i with `moves[i]`, default `move(10 i)`). */
  async function spawnBoth(s: Scenario, moves: Move[] = []): Promise<void> {
    for (let seat = 0; seat < s.players.length; seat++) {
      const m = moves[seat] ?? move(10n * BigInt(seat));
      await (await callSpawn(s, seat, proofFor(await spawnSignals(s, seat, m)), m)).wait();
    }
  }
  /** Seat `seat` plays move `k` (or `m`); no root signal: the old commitment binds it. */
  async function turn(s: Scenario, seat: number, k: bigint, m: Move = move(k)): Promise<Move> {
    const sig = await turnSignals(s, seat, m);
    await (await callTurn(s, seat, proofFor(sig), m)).wait();
    return m;
  }

  return {
    rulesetHash,
    addr,
    mask,
    commitOf,
    turnOf,
    rootOf,
    playing,
    move,
    revealing,
    spawnSignals,
    turnSignals,
    callSpawn,
    callTurn,
    spawnBoth,
    turn,
  };
}
