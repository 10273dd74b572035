/**
 * Records one player's replay from what that player legitimately has: its own model (fog, verified tiles,
 * own units, sightings), its own attack and combat reports, and the public combat outcomes of its own
 * attacks. It never sees the dealer's map, so a replay cannot leak what the player was not served.
 */
import type { Coord } from '../../core/geometry.ts';
import type { GameEvent } from '../sdk/chain.ts';
import type { CombatReport } from '../sdk/game-player.ts';
import type { PlayerModel } from '../sdk/player.ts';
import { turnLog } from './log.ts';
import type { ReplayAttack, ReplayMove, ReplaySighting, ReplayTurn, ReplayUnit } from './replay.ts';

const VIEWS = ['undiscovered', 'visible', 'explored'] as const;

/** Who this player is on the chain, to pick the outcomes of its own attacks out of the game's events. */
export interface ChainIdentity {
  address: string;
  /** Player addresses by seat. */
  players: readonly string[];
}

/** A combat outcome as the chain reports it: the defender's unit type, HP and fate on a hit. */
export type CombatOutcome =
  | { hit: false }
  | { hit: true; unitType: number; hpBefore: number; killed: boolean };

const same = (a: Coord, b: Coord) => a.col === b.col && a.row === b.row;

export class ReplayRecorder {
  /** One frame per own turn, in order. */
  readonly turns: ReplayTurn[] = [];
  /** Attacks to show in the next frame: new ones, and earlier ones whose outcome came in since. */
  #attacks: ReplayAttack[] = [];
  /** Attacks made whose outcome is not known yet. */
  #pending: ReplayAttack[] = [];

  /** An attack this player declared (from its AttackReport); pending until `outcome`. */
  attackMade(a: { turn: number; defender: number; target: Coord }): void {
    const attack: ReplayAttack = {
      side: 'made',
      turn: a.turn,
      opponent: a.defender,
      target: { col: a.target.col, row: a.target.row },
      outcome: 'pending',
    };
    this.#attacks.push(attack);
    this.#pending.push(attack);
  }

  /** The outcome of this player's oldest pending attack on `target` against `defender`; unknown ones are ignored. */
  outcome(defender: number, target: Coord, o: CombatOutcome): void {
    const k = this.#pending.findIndex((a) => a.opponent === defender && same(a.target, target));
    if (k < 0) return;
    const [a] = this.#pending.splice(k, 1);
    Object.assign(
      a!,
      o.hit
        ? { outcome: 'hit', unitType: o.unitType, hpBefore: o.hpBefore, killed: o.killed }
        : { outcome: 'fizzle' },
    );
    if (!this.#attacks.includes(a!)) this.#attacks.push(a!);
  }

  /** Feeds the public outcomes (CombatResolved, CombatFizzled) of this player's own attacks. */
  chainEvents(events: readonly GameEvent[], me: ChainIdentity): void {
    for (const e of events) {
      if ((e.kind !== 'CombatResolved' && e.kind !== 'CombatFizzled') || e.attacker !== me.address) continue;
      const target = { col: e.col, row: e.row };
      const defender = me.players.indexOf(e.defender);
      if (e.kind === 'CombatFizzled') this.outcome(defender, target, { hit: false });
      else
        this.outcome(defender, target, {
          hit: true,
          unitType: e.unitType,
          hpBefore: e.hpBefore,
          killed: e.killed,
        });
    }
  }

  /** This player's own answer to an attack on it (its CombatReport), declared at chain turn `turn`. */
  combatAnswered(r: CombatReport, turn: number): void {
    this.#attacks.push({
      side: 'received',
      turn,
      opponent: r.attacker,
      target: { col: r.target.col, row: r.target.row },
      ...(r.present
        ? { outcome: 'hit' as const, unitType: r.unitType, hpBefore: r.hpBefore, killed: r.killed }
        : { outcome: 'fizzle' as const }),
    });
  }

  /** Takes the frame after an own turn (spawn or move): the model's knowledge and what happened since. */
  frame(p: PlayerModel): ReplayTurn {
    const prev = this.turns.at(-1) ?? null;
    const { view, tiles } = knowledgeOf(p);
    const units: ReplayUnit[] = p.units.flatMap((u, slot) =>
      u ? [{ slot, type: u.type, hp: u.hp, col: u.col, row: u.row }] : [],
    );
    const moves: ReplayMove[] = units.flatMap((u) => {
      const was = prev?.units.find((w) => w.slot === u.slot);
      return was && !same(was, u)
        ? [{ slot: u.slot, from: { col: was.col, row: was.row }, to: { col: u.col, row: u.row } }]
        : [];
    });
    const sightings: ReplaySighting[] = p
      .lastSeen()
      .filter((s) => !s.lost)
      .map(({ lost: _, ...s }) => s)
      .sort((a, b) => a.zone - b.zone || a.player - b.player || a.unitType - b.unitType);
    const frame: ReplayTurn = {
      turn: p.turn ?? 0,
      view,
      tiles,
      units,
      moves,
      sightings,
      attacks: this.#attacks.map((a) => structuredClone(a)),
      log: [],
    };
    frame.log = turnLog(p.ruleset, prev, frame);
    this.#attacks = [];
    this.turns.push(frame);
    return frame;
  }
}

/** What the player knows of the map now: fog per tile and the verified tiles' contents (null elsewhere). */
export function knowledgeOf(p: PlayerModel): Pick<ReplayTurn, 'view' | 'tiles'> & { sightedZones: number[] } {
  const fog = p.fog();
  const tiles: ReplayTurn['tiles'] = fog.map(() => null);
  for (const [i, t] of p.revealedTiles()) {
    tiles[i] = { terrain: t.terrain, feature: t.feature, resource: t.resource, rivers: t.rivers };
  }
  const sightedZones = [...new Set(p.lastSeen().flatMap((s) => (s.lost ? [] : [s.zone])))].sort(
    (a, b) => a - b,
  );
  return { view: fog.map((f) => VIEWS[f]!), tiles, sightedZones };
}
