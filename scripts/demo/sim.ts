/**
 * The demo game in one process, without chain, dealer or proofs: two `TurnPlanner`s play the same turns under
 * the rules the circuits and the contract enforce (the core's reference semantics): spawn in the start area,
 * moves within speed, vision and reveals from the generated map, forced zone reveals against the opponent's
 * zone mask, attacks in range of a visible tile, combat resolved with the registered damage. Each seat sees
 * only what the chain would show it. For tests and for tuning the bot; the benchmark plays the real demo.
 */
import type { IntelEvent } from '../../client/intel.ts';
import { BotPlanner, type TurnPlanner } from '../../client/planner.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import type { VerifiedTile } from '../../client/sdk/tiles.ts';
import {
  type Coord,
  gridDistance,
  leafCoord,
  leafIndex,
  tileCoord,
  tileIndex,
  zoneOf,
} from '../../core/geometry.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import type { Slots, Unit } from '../../core/state.ts';
import type { Tile } from '../../core/tile.ts';
import { forcedReveals, moveAllowed, resolveCombat } from '../../core/witness/reference.ts';

export interface SimAttack {
  seat: number;
  turn: number;
  target: Coord;
  hit: boolean;
  /** The unit type hit (−1 on a fizzle). */
  unitType: number;
  killed: boolean;
  p: number;
  uniform: number;
}

export interface SimResult {
  attacks: SimAttack[];
  /** Units each seat lost. */
  unitsLost: number[];
}

/** The zone mask a seat's turn publishes: every zone with a tile in its units' vision. */
const maskOf = (m: PlayerModel) =>
  new Set([...m.visionOf()].map((i) => zoneOf(m.board, tileCoord(m.board, i))));

/**
 * Plays `turns` turns per seat after the spawns on `tiles` (a generated map). Seats are planned by
 * `planners` (default: the demo's bots, `BotPlanner(\`${seed}-${seat}\`)`); damage per hit is `damage`.
 */
export async function simulateGame(o: {
  ruleset: ValidRuleset;
  tiles: readonly Tile[];
  turns: number;
  seed: string;
  damage?: number;
  planners?: TurnPlanner[];
  /** False: the seats do not read each other's published zone masks. */
  masks?: boolean;
  /** Called before each decision with the true positions (tests check the bot's beliefs against them). */
  onDecision?: (seat: number, turn: number, slots: readonly Slots[], intel: readonly IntelEvent[]) => void;
}): Promise<SimResult> {
  const r = o.ruleset;
  const b = r.board;
  const damage = o.damage ?? 4;
  const seats = [0, 1];
  const planners = o.planners ?? seats.map((s) => new BotPlanner(`${o.seed}-${s}`, s));
  const slots: Slots[] = [];
  const models: PlayerModel[] = [];
  const masks: Set<number>[] = seats.map(() => new Set());
  const intel: IntelEvent[][] = seats.map(() => []);
  /** The forced reveals each seat's latest turn made, waiting for the other seat's sync. */
  const pending: ({ turn: number; reveals: { zone: number; unitType: number }[] } | null)[] = [null, null];
  const attacks: SimAttack[] = [];
  const unitsLost = [0, 0];

  const served = (leaves: readonly number[], vision: Set<number>): VerifiedTile[] =>
    leaves.flatMap((leaf) => {
      const c = leafCoord(b, leaf)!;
      const index = tileIndex(b, c);
      return vision.has(index) ? [{ ...o.tiles[index]!, leaf, index, ...c, salt: 0n, path: [] }] : [];
    });
  /** What the chain shows `seat` of the other seat's latest turn (syncEvents). */
  const sync = (seat: number) => {
    const other = 1 - seat;
    const p = pending[other];
    if (!p) return;
    pending[other] = null;
    const watched = masks[seat]!;
    const reveals = p.reveals.filter((z) => watched.has(z.zone));
    intel[seat]!.push({
      kind: 'turn',
      player: other,
      turn: p.turn,
      watched: [...watched].sort((a, c) => a - c),
      reveals,
      ...(o.masks === false ? {} : { mask: [...masks[other]!].sort((a, c) => a - c) }),
    });
    models[seat]?.applyOpponentTurn({
      player: other,
      turn: p.turn,
      zoneReveals: reveals.map((z) => ({ zone: z.zone, unitType: r.unitTypes[z.unitType]!.name })),
    });
  };
  /** The turn's forced reveals: own units in zones the opponent watches, for the opponent's next sync. */
  const publish = (seat: number, turn: number) => {
    let mask = 0n;
    for (const z of masks[1 - seat]!) mask |= 1n << BigInt(z);
    const reveals = forcedReveals(r, slots[seat]!, [mask]).map((z) => ({
      zone: z.zone,
      unitType: z.unitType,
    }));
    pending[seat] = { turn, reveals };
  };

  let turn = 0;
  for (const seat of seats) {
    sync(seat);
    const area = r.startAreas[seat]!;
    const positions = await planners[seat]!.spawn({
      seat,
      ruleset: r,
      area,
      positions: (rnd = Math.random) => {
        const all: Coord[] = [];
        for (let row = area.row0; row <= area.row1; row++)
          for (let col = area.col0; col <= area.col1; col++) all.push({ col, row });
        return r.spawn.map(() => all.splice(Math.floor(rnd() * all.length), 1)[0]!);
      },
    });
    const s: (Unit | null)[] = new Array(r.unitSlots).fill(null);
    r.spawn.forEach((name, i) => {
      const type = r.unitTypes.findIndex((t) => t.name === name);
      s[i] = { type, hp: r.unitTypes[type]!.hp, ...positions[i]! };
    });
    slots[seat] = s;
    const m = new PlayerModel({ ruleset: r, seat, units: s });
    models[seat] = m;
    const vision = m.visionOf();
    const leaves = [...vision].slice(0, r.maxRevealedTiles).map((i) => leafIndex(b, tileCoord(b, i)));
    m.applyTurn({ turn, visibleTiles: vision, tiles: served(leaves, vision) });
    masks[seat] = maskOf(m);
    publish(seat, turn);
    turn++;
  }
  for (let k = 0; k < o.turns; k++) {
    for (const seat of seats) {
      const m = models[seat]!;
      const other = 1 - seat;
      sync(seat);
      const attacked = new Set<number>();
      for (;;) {
        o.onDecision?.(seat, turn, slots, intel[seat]!);
        const d = await planners[seat]!.turn({
          seat,
          ruleset: r,
          turn,
          obs: m.observe(),
          attacked: new Set(attacked),
          intel: intel[seat]!,
        });
        if (d.kind === 'turn') {
          const next = slots[seat]!.map((u, i) => {
            const to = d.moves[i];
            if (!u || !to) return u;
            if (!moveAllowed(r, u, to)) throw new Error(`seat ${seat} slot ${i}: illegal move`);
            return { ...u, ...to };
          });
          slots[seat] = next;
          m.setUnits(next);
          const vision = m.visionOf();
          m.applyTurn({ turn, visibleTiles: vision, tiles: served(d.reveal, vision) });
          masks[seat] = maskOf(m);
          publish(seat, turn);
          break;
        }
        const u = slots[seat]![d.slot];
        if (!u || attacked.has(d.slot)) throw new Error(`seat ${seat}: slot ${d.slot} cannot attack`);
        if (gridDistance(b.kind, u, d.target) > r.unitTypes[u.type]!.attackRange || !m.targetable(d.target))
          throw new Error(`seat ${seat}: (${d.target.col},${d.target.row}) is not a legal target`);
        attacked.add(d.slot);
        const res = resolveCombat(slots[other]!, d.target, damage);
        const killed = res.present && res.after[res.slot] === null;
        slots[other] = res.after;
        models[other]!.setUnits(res.after);
        if (killed) unitsLost[other]!++;
        attacks.push({
          seat,
          turn,
          target: d.target,
          hit: res.present,
          unitType: res.present ? res.unitType : -1,
          killed,
          p: d.odds?.p ?? 0,
          uniform: d.odds?.uniform ?? 0,
        });
        intel[seat]!.push(
          res.present
            ? { kind: 'combat', defender: other, ...d.target, hit: true, unitType: res.unitType, killed }
            : { kind: 'combat', defender: other, ...d.target, hit: false },
        );
        if (res.present && !killed)
          m.recordSighting({
            player: other,
            coord: d.target,
            zone: zoneOf(b, d.target),
            unitType: r.unitTypes[res.unitType]!.name,
            turn: m.turn ?? 0,
            source: 'combat',
          });
      }
      turn++;
    }
  }
  return { attacks, unitsLost };
}
