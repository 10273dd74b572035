/**
 * What the chain told one seat about its enemies, in the order it happened: each enemy turn's forced zone
 * reveals together with the zones this seat watched then (so an absence means something), and each combat's
 * outcome (a hit shows a unit's exact tile and type, a fizzle an empty tile). The bot's enemy tracking
 * (`belief.ts`) reads only this log; the log is built from the public events alone.
 */
import type { GameEvent } from './sdk/chain.ts';

/** One enemy turn (its spawn included): the zones this seat watched, and the units the proof revealed in them. */
export interface EnemyTurnIntel {
  kind: 'turn';
  player: number;
  turn: number;
  /** This seat's zone bitmask when the turn was proven (the mask the proof's forced reveals answered). */
  watched: readonly number[];
  /** One entry per revealed unit (a multiset: two infantry in a zone are two entries). */
  reveals: readonly { zone: number; unitType: number }[];
  /**
   * The enemy's own zone mask after this turn (public: the chain stores it for the other seats' proofs): every
   * zone one of its units sees, so each of its units stands where all the zones it sees are in the mask.
   */
  mask?: readonly number[];
}

/** One answered attack on an enemy (by anyone: combat outcomes are public). */
export interface CombatIntel {
  kind: 'combat';
  defender: number;
  col: number;
  row: number;
  /** True: a unit of `unitType` stood there (hit); false: nobody did (fizzled). */
  hit: boolean;
  unitType?: number;
  killed?: boolean;
}

export type IntelEvent = EnemyTurnIntel | CombatIntel;

/**
 * The intel in `events` (one `syncEvents` batch, in chain order) for seat `me`. `watched` is this seat's zone
 * mask at the time, which is the mask the enemy turns of the batch answered (a seat's mask changes only with
 * its own turn); reveals outside it are dropped, as the player model drops them.
 */
export function intelFromEvents(
  events: readonly GameEvent[],
  o: {
    players: readonly string[];
    me: number;
    watched: ReadonlySet<number>;
    /** Enemy seats' stored masks read after the events, with the turn they belong to (the seat's lastTurn). */
    masks?: ReadonlyMap<number, { turn: number; zones: readonly number[] }>;
  },
): IntelEvent[] {
  const seat = (address: string) => o.players.findIndex((p) => p.toLowerCase() === address.toLowerCase());
  const byTx = new Map<string, GameEvent[]>();
  for (const e of events) byTx.set(e.tx, [...(byTx.get(e.tx) ?? []), e]);
  const out: IntelEvent[] = [];
  for (const group of byTx.values()) {
    for (const e of group) {
      if (e.kind === 'TurnSubmitted') {
        const player = seat(e.player);
        if (player < 0 || player === o.me) continue;
        const reveals = group.flatMap((z) =>
          z.kind === 'ZoneReveal' && z.player === e.player && o.watched.has(z.zone)
            ? [{ zone: z.zone, unitType: z.unitType }]
            : [],
        );
        const mask = o.masks?.get(player);
        out.push({
          kind: 'turn',
          player,
          turn: e.turn,
          watched: [...o.watched].sort((a, b) => a - b),
          reveals,
          // Only the mask of that very turn (a later turn may have replaced it by the time it was read).
          ...(mask && mask.turn === e.turn ? { mask: mask.zones } : {}),
        });
      } else if (e.kind === 'CombatResolved' || e.kind === 'CombatFizzled') {
        const defender = seat(e.defender);
        if (defender < 0 || defender === o.me) continue;
        out.push(
          e.kind === 'CombatResolved'
            ? {
                kind: 'combat',
                defender,
                col: e.col,
                row: e.row,
                hit: true,
                unitType: e.unitType,
                killed: e.killed,
              }
            : { kind: 'combat', defender, col: e.col, row: e.row, hit: false },
        );
      }
    }
  }
  return out;
}
