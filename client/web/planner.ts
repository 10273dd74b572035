/**
 * A person at the page as a `TurnPlanner`: `BotPlayer.act()` does the protocol work and asks this planner for
 * the two decisions a player makes (where to spawn, what to do on a turn); the answer comes from clicks. Only
 * what the rules allow is offered: the SDK's move masks (a jump within the unit's speed, onto a verified
 * passable tile when the ruleset proves passability) and attacks on visible tiles of sighted enemy zones within
 * a unit's range that has not attacked this turn. The tiles a turn reveals are chosen as the bot chooses them.
 */
import type { Coord } from '@shroud/core/geometry.ts';
import { revealFor } from '../bot.ts';
import type { SpawnContext, TurnContext, TurnDecision, TurnPlanner } from '../planner.ts';
import { attackOptions, checkSpawn, moveOptions } from '../terminal/options.ts';

export type PlannerState =
  | { kind: 'idle' }
  | { kind: 'spawn'; ctx: SpawnContext; positions: Coord[]; selected: number | null }
  | {
      kind: 'turn';
      ctx: TurnContext;
      /** Queued destination per slot (null: stays). */
      moves: (Coord | null)[];
      selected: number | null;
      mode: 'move' | 'attack';
    };

export interface AttackTarget {
  at: Coord;
  slots: number[];
  zone: number;
}

const same = (a: Coord, b: Coord) => a.col === b.col && a.row === b.row;

export class WebPlanner implements TurnPlanner {
  state: PlannerState = { kind: 'idle' };
  readonly #seed: string;
  readonly #onChange: () => void;
  #resolve: ((d: never) => void) | null = null;
  /** Moves queued on chain turn `turn`, kept when a decision is asked again (after an attack or a failed proof). */
  #draft: { turn: number; moves: (Coord | null)[] } = { turn: -1, moves: [] };

  constructor(seed: string, onChange: () => void) {
    this.#seed = seed;
    this.#onChange = onChange;
  }

  spawn(ctx: SpawnContext): Promise<Coord[]> {
    const positions = ctx.positions();
    this.state = { kind: 'spawn', ctx, positions, selected: null };
    return this.#ask<Coord[]>();
  }

  turn(ctx: TurnContext): Promise<TurnDecision> {
    if (this.#draft.turn !== ctx.turn)
      this.#draft = { turn: ctx.turn, moves: ctx.obs.ownUnits.map(() => null) };
    // A unit the last combat killed keeps no queued move.
    const moves = this.#draft.moves.map((m, i) => (ctx.obs.ownUnits[i] ? m : null));
    this.#draft.moves = moves;
    this.state = { kind: 'turn', ctx, moves, selected: null, mode: 'move' };
    return this.#ask<TurnDecision>();
  }

  /** The tiles the selected unit may move to (its own tile left out). */
  reachable(): Coord[] {
    const s = this.state;
    if (s.kind !== 'turn' || s.selected === null || s.mode !== 'move') return [];
    return moveOptions(s.ctx.obs)[s.selected] ?? [];
  }

  /** Attackable tiles of sighted enemy zones (attack mode only). */
  targets(): AttackTarget[] {
    const s = this.state;
    if (s.kind !== 'turn' || s.mode !== 'attack') return [];
    return attackOptions(s.ctx.obs, s.ctx.ruleset, s.ctx.attacked).flatMap((o) =>
      o.targets.map((t) => ({ ...t, zone: o.zone })),
    );
  }

  /** Whether any attack is possible now (the attack button is offered only then). */
  canAttack(): boolean {
    const s = this.state;
    if (s.kind !== 'turn') return false;
    return attackOptions(s.ctx.obs, s.ctx.ruleset, s.ctx.attacked).some((o) => o.targets.length > 0);
  }

  /** A click on own unit `slot`: a move or attack onto its tile when that is what the selection offers, else select it. */
  clickUnit(slot: number): void {
    const s = this.state;
    if (s.kind === 'spawn') {
      s.selected = s.selected === slot ? null : slot;
      this.#onChange();
      return;
    }
    if (s.kind !== 'turn') return;
    const u = s.ctx.obs.ownUnits[slot];
    if (!u) return;
    const at = { col: u.col, row: u.row };
    if (s.mode === 'attack' && this.targets().some((t) => same(t.at, at))) {
      this.clickTile(at);
      return;
    }
    if (s.selected !== null && s.selected !== slot && this.reachable().some((c) => same(c, at))) {
      this.clickTile(at);
      return;
    }
    s.selected = s.selected === slot ? null : slot;
    s.mode = 'move';
    this.#onChange();
  }

  /** A click on a tile: place, queue a move, or attack, when the rules allow it; anything else clears the selection. */
  clickTile(c: Coord): void {
    const s = this.state;
    if (s.kind === 'spawn') {
      if (s.selected !== null && checkSpawn(s.ctx.area, s.positions, s.selected, c) === null) {
        s.positions[s.selected] = c;
      }
      s.selected = null;
      this.#onChange();
      return;
    }
    if (s.kind !== 'turn') return;
    if (s.mode === 'attack') {
      const t = this.targets().find((x) => same(x.at, c));
      if (t) {
        this.#answer({ kind: 'attack', slot: t.slots[0]!, target: t.at });
        return;
      }
      s.mode = 'move';
      this.#onChange();
      return;
    }
    if (s.selected !== null) {
      const u = s.ctx.obs.ownUnits[s.selected]!;
      if (same(u, c)) s.moves[s.selected] = null;
      else if (this.reachable().some((x) => same(x, c))) s.moves[s.selected] = { ...c };
    }
    s.selected = null;
    this.#onChange();
  }

  setMode(mode: 'move' | 'attack'): void {
    if (this.state.kind !== 'turn') return;
    this.state.mode = mode;
    this.state.selected = null;
    this.#onChange();
  }

  /** Spawn here, or play the turn with the queued moves (`pass`: none). */
  end(pass = false): void {
    const s = this.state;
    if (s.kind === 'spawn') {
      this.#answer([...s.positions]);
      return;
    }
    if (s.kind !== 'turn') return;
    const moves = pass ? s.moves.map(() => null) : [...s.moves];
    this.#answer({ kind: 'turn', moves, reveal: revealFor(s.ctx.obs, s.ctx.ruleset, moves, this.#seed) });
  }

  #ask<T>(): Promise<T> {
    this.#onChange();
    return new Promise<T>((resolve) => {
      this.#resolve = resolve as (d: never) => void;
    });
  }

  #answer(d: TurnDecision | Coord[]): void {
    const r = this.#resolve;
    this.#resolve = null;
    this.state = { kind: 'idle' };
    this.#onChange();
    r?.(d as never);
  }
}
