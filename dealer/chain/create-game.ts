/**
 * "Create a game of this ruleset": the one place that turns a ruleset and a dealer's terms into
 * `createGame` parameters (durations from the ruleset's `deadlines`, checked against the protocol's
 * floors; the board from its grid), shared by the dealer's lobbies and the operator CLI (`npm run game`).
 */
import type { Point } from '../../core/babyjub.ts';
import { InputError } from '../../core/errors.ts';
import { checkDurations, DURATION_FIELDS, type Durations } from '../../core/limits.ts';
import { MAX_SEATS, MAX_UINT96, MIN_SEATS } from '../../core/lobby.ts';
import { rulesetHash } from '../../core/ruleset/hash.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { checkSealPublicKey } from '../../core/sealed.ts';
import { type CreatedGameLog, type CreateGameParams, CreateGameRevert, type GameCreator } from './types.ts';

/** What the dealer decides about a game beyond its ruleset and players. */
export interface GameTerms {
  /** Each player's stake, wei (paid with `commit`). */
  stake: bigint;
  /** Paid with `openDispute`, wei; at most the stake. */
  disputeDeposit: bigint;
  /** Turn limit (spawns included). */
  maxTurns: number;
  /** The dealer's bond, wei (> 0): the players' if the dealer is slashed. */
  bond: bigint;
}

const MAX_UINT32 = 2 ** 32 - 1;

/** Throws an InputError naming the first term a game of `seats` players of `ruleset` cannot have. */
export function checkGameTerms(ruleset: ValidRuleset, seats: number, t: GameTerms): void {
  const lo = Math.max(MIN_SEATS, ruleset.players.min);
  const hi = Math.min(MAX_SEATS, ruleset.players.max);
  if (!Number.isInteger(seats) || seats < lo || seats > hi) {
    throw new InputError('seats', `${ruleset.name} seats ${lo}..${hi} players, not ${seats}`);
  }
  if (t.stake < 0n || t.stake > MAX_UINT96) throw new InputError('stake', 'must be a uint96 (wei)');
  if (t.disputeDeposit < 0n || t.disputeDeposit > t.stake) {
    throw new InputError(
      'disputeDeposit',
      `${t.disputeDeposit} wei: must be between 0 and the stake ${t.stake}`,
    );
  }
  if (t.bond <= 0n || t.bond > MAX_UINT96) {
    throw new InputError('bond', 'must be a positive uint96 (wei): the contract requires a bond');
  }
  if (!Number.isInteger(t.maxTurns) || t.maxTurns < 1 || t.maxTurns > MAX_UINT32) {
    throw new InputError('maxTurns', `must be an integer in 1..${MAX_UINT32}, got ${t.maxTurns}`);
  }
  // validateRuleset checked them already; checked again here because a game's durations are what protect
  // its players, and this is where they are handed to the chain.
  checkDurations(ruleset.deadlines, `${ruleset.name}.deadlines`);
}

/** The ruleset's durations, exactly the contract's fields in its order. */
export function durationsOf(ruleset: ValidRuleset): Durations {
  return Object.fromEntries(DURATION_FIELDS.map((f) => [f, ruleset.deadlines[f]])) as unknown as Durations;
}

/**
 * `createGame` parameters for `players` (seat order) of `ruleset` under `terms`, sealed to `sealKey`.
 * `dealer`, when given, may not be a player (the contract refuses it).
 */
export function createGameParams(
  ruleset: ValidRuleset,
  o: GameTerms & { players: readonly string[]; sealKey: Point; dealer?: string },
): CreateGameParams {
  checkGameTerms(ruleset, o.players.length, o);
  const seen = new Set<string>();
  o.players.forEach((p, i) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(p)) throw new InputError(`players.${i}`, `not an address: "${p}"`);
    const a = p.toLowerCase();
    if (seen.has(a)) throw new InputError(`players.${i}`, `${p} is seated twice`);
    if (a === o.dealer?.toLowerCase()) throw new InputError(`players.${i}`, `${p} is the dealer`);
    seen.add(a);
  });
  checkSealPublicKey(o.sealKey, 'sealKey');
  return {
    players: [...o.players],
    sealKey: o.sealKey,
    rulesetHash: rulesetHash(ruleset),
    durations: durationsOf(ruleset),
    board: {
      kind: ruleset.board.kind === 'hex' ? 0 : 1,
      width: ruleset.board.width,
      height: ruleset.board.height,
      maxTurns: o.maxTurns,
    },
    stake: o.stake,
    disputeDeposit: o.disputeDeposit,
    bond: o.bond,
  };
}

/** Whether a GameCreated log is the creation of `p` (same seats in order, ruleset, stake and bond). */
export function matchesCreate(p: CreateGameParams): (g: CreatedGameLog) => boolean {
  const players = p.players.map((x) => x.toLowerCase());
  return (g) =>
    g.rulesetHash.toLowerCase() === p.rulesetHash.toLowerCase() &&
    g.stake === p.stake &&
    g.bond === p.bond &&
    g.players.length === players.length &&
    g.players.every((x, i) => x.toLowerCase() === players[i]);
}

export interface CreatedGame {
  gameId: bigint;
  block: number;
  hash: string;
}

/**
 * Creates the game and waits until its transaction is mined (the operator CLI: no crash record; the
 * lobby keeps the signed transaction instead, see dealer/lobby.ts). Throws CreateGameRevert when the
 * chain refuses it.
 */
export async function createGame(
  creator: GameCreator,
  p: CreateGameParams,
  o: { pollMs?: number; timeoutMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<CreatedGame> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const tx = await creator.submitCreateGame(p, async () => {});
  const until = Date.now() + (o.timeoutMs ?? 300_000);
  for (;;) {
    const st = await creator.createStatus(tx, matchesCreate(p));
    if (st.state === 'created') return { gameId: st.gameId, block: st.block, hash: st.hash };
    if (st.state === 'reverted') throw new CreateGameRevert(st.reason);
    if (st.state === 'dropped') {
      throw new Error(
        `createGame ${tx.hash}: dropped (its nonce ${tx.nonce} was used by another transaction)`,
      );
    }
    if (Date.now() > until)
      throw new Error(`createGame ${tx.hash}: not mined after ${o.timeoutMs ?? 300_000} ms`);
    await sleep(o.pollMs ?? 1000);
  }
}
