/**
 * The demo's combat record: each attack joined with its answer (hit or fizzle, a kill), per seat, with the
 * planner's odds and a uniform guess's for the benchmark. Fed the bots' actions in the order they happen.
 */
import type { BotAction } from '../../client/bot-player.ts';
import type { Ruleset } from '../../core/ruleset/types.ts';

export interface AttackRecord {
  seat: number;
  defender: number;
  turn: number;
  hit: boolean;
  killed: boolean;
  /** The planner's odds of a hit and a uniform guess's over the target's zone (absent for non-bot planners). */
  p?: number;
  uniform?: number;
}

export interface SeatCombat {
  seat: number;
  attacks: number;
  hits: number;
  fizzles: number;
  /** Enemy units this seat killed. */
  kills: number;
  /** Own units killed by enemy attacks, by type name. */
  lost: string[];
}

export class CombatTally {
  readonly attacks: AttackRecord[] = [];
  readonly #open = new Map<number, AttackRecord>();
  readonly #lost = new Map<number, string[]>();
  readonly #ruleset: Ruleset;

  constructor(ruleset: Ruleset) {
    this.#ruleset = ruleset;
  }

  /** Takes one bot action; only attacks and combat answers count. */
  record(a: BotAction): void {
    if (a.kind === 'attack') {
      const t = a.report;
      const rec: AttackRecord = {
        seat: t.seat,
        defender: t.defender,
        turn: t.turn,
        hit: false,
        killed: false,
      };
      if (a.odds) Object.assign(rec, { p: a.odds.p, uniform: a.odds.uniform });
      this.#open.set(t.seat, rec);
      return;
    }
    if (a.kind !== 'combat') return;
    const c = a.report;
    const rec = this.#open.get(c.attacker);
    if (!rec) throw new Error(`combat answer by seat ${c.seat} without an open attack by seat ${c.attacker}`);
    this.#open.delete(c.attacker);
    rec.hit = c.present;
    rec.killed = c.killed;
    this.attacks.push(rec);
    if (c.killed) {
      const name = this.#ruleset.unitTypes[c.unitType]?.name ?? String(c.unitType);
      this.#lost.set(c.seat, [...(this.#lost.get(c.seat) ?? []), name]);
    }
  }

  /** Per seat, in seat order. */
  seats(n: number): SeatCombat[] {
    return Array.from({ length: n }, (_, seat) => {
      const mine = this.attacks.filter((a) => a.seat === seat);
      const hits = mine.filter((a) => a.hit).length;
      return {
        seat,
        attacks: mine.length,
        hits,
        fizzles: mine.length - hits,
        kills: mine.filter((a) => a.killed).length,
        lost: this.#lost.get(seat) ?? [],
      };
    });
  }

  /** One summary line per seat: "combat: seat 0 attacked 4 times: 2 hits, 2 fizzles, 1 kill; lost 0 units". */
  lines(n: number): string[] {
    const plural = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
    return this.seats(n).map(
      (s) =>
        `combat: seat ${s.seat} attacked ${plural(s.attacks, 'time')}: ${plural(s.hits, 'hit')}, ${plural(s.fizzles, 'fizzle')}, ${plural(s.kills, 'kill')}; lost ${plural(s.lost.length, 'unit')}${s.lost.length ? ` (${s.lost.join(', ')})` : ''}`,
    );
  }
}
