/**
 * Who decides a seat's moves. `BotPlayer.act()` does the protocol work (commit, seal, combat answers,
 * disputes, share reveals) and asks a `TurnPlanner` only for the two decisions a player makes: where to
 * spawn, and what to do on its turn. The exploring bot is one planner; the terminal player is another.
 */
import type { Coord } from '../core/geometry.ts';
import type { Area } from '../core/ruleset/types.ts';
import type { ValidRuleset } from '../core/ruleset/validate.ts';
import { type BotOptions, planTurn } from './bot.ts';
import type { IntelEvent } from './intel.ts';
import type { Observation } from './sdk/observation.ts';

/** What the planner knows when it places its units. */
export interface SpawnContext {
  seat: number;
  ruleset: ValidRuleset;
  /** This seat's start area (every spawn position must lie in it). */
  area: Area;
  /** Distinct tiles of the start area spread by `rnd`: the SDK's default placement. */
  positions(rnd?: () => number): Coord[];
}

/** What the planner knows on its turn: only what the protocol revealed to this seat. */
export interface TurnContext {
  seat: number;
  ruleset: ValidRuleset;
  /** The chain's turn counter. */
  turn: number;
  obs: Observation;
  /** Slots that already attacked this turn (a slot attacks at most once per turn: its nullifier is spent). */
  attacked: ReadonlySet<number>;
  /** What the chain told this seat about its enemies so far, oldest first (`BotPlayer` keeps it). */
  intel?: readonly IntelEvent[];
}

/**
 * One decision on this seat's turn. An attack does not end the turn: once its combat is resolved the planner
 * is asked again (with the combat's outcome in `obs`); `turn` ends it with the moves and the tiles to reveal.
 */
export type TurnDecision =
  | {
      kind: 'attack';
      slot: number;
      target: Coord;
      /** The planner's odds of a hit, and a uniform guess's over the target's zone (bots only: the benchmark's baseline). */
      odds?: { p: number; uniform: number };
    }
  | { kind: 'turn'; moves: (Coord | null)[]; reveal: number[] };

export interface TurnPlanner {
  /** One position per `ruleset.spawn` entry, distinct tiles of `ctx.area`. */
  spawn(ctx: SpawnContext): Promise<Coord[]>;
  turn(ctx: TurnContext): Promise<TurnDecision>;
}

/** A tiny seeded PRNG (mulberry32 over a string hash): the bot's spawn placement is reproducible. */
export function seededRandom(seed: string): () => number {
  let x = 0;
  for (const ch of seed) x = (Math.imul(x, 31) + ch.charCodeAt(0)) >>> 0;
  return () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = Math.imul(x ^ (x >>> 15), x | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The bot (`planTurn`) as a planner. Each call plans afresh from what is known now: after an attack is
 * answered the planner is asked again, so a fizzle or a hit already shapes the next attack and the moves.
 */
export class BotPlanner implements TurnPlanner {
  readonly seed: string;
  readonly options: Omit<BotOptions, 'intel' | 'attacked'>;
  readonly #rnd: () => number;

  constructor(seed: string, seat: number, options: Omit<BotOptions, 'intel' | 'attacked'> = {}) {
    this.seed = seed;
    this.options = options;
    this.#rnd = seededRandom(`${seed}:spawn:${seat}`);
  }

  async spawn(ctx: SpawnContext): Promise<Coord[]> {
    return ctx.positions(this.#rnd);
  }

  async turn(ctx: TurnContext): Promise<TurnDecision> {
    const plan = planTurn(ctx.obs, ctx.ruleset, this.seed, {
      ...this.options,
      ...(ctx.intel ? { intel: ctx.intel } : {}),
      attacked: ctx.attacked,
    });
    if (!plan.attack) return { kind: 'turn', moves: plan.moves, reveal: plan.reveal };
    const { slot, target, p, uniform } = plan.attack;
    return { kind: 'attack', slot, target, odds: { p, uniform } };
  }
}
