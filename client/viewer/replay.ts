/**
 * The replay format the viewer draws: one player's knowledge after each of its own turns, and nothing
 * else. Everything in it comes from that player's model and its own reports (never from the dealer's
 * map), so a viewer can only draw what the player was served. `assertReplay` checks every field before
 * anything is drawn.
 */
import { type Board, type Coord, makeBoard, zoneOf } from '../../core/geometry.ts';
import type { Ruleset } from '../../core/ruleset/types.ts';
import { Feature, Resource, Terrain, type Tile } from '../../core/tile.ts';
import type { AttackOutcome, AttackSide } from '../render/marks.ts';
import type { TileView } from '../render/svg.ts';
import type { ObservedSighting, ObservedUnit } from '../sdk/observation.ts';
import { array, bool, fail, int, type Obj, oneOf, shape, str } from './check.ts';

/** Format 2 added units, moves, sightings, attacks and the log to each turn. */
export const REPLAY_VERSION = 2;

/** An own unit at the end of the turn (same shape as the SDK's observation). */
export type ReplayUnit = ObservedUnit;

/** An own unit's move this turn. */
export interface ReplayMove {
  slot: number;
  from: Coord;
  to: Coord;
}

/** A live enemy sighting: by zone (a forced zone reveal), with the exact tile after a combat reveal. */
export type ReplaySighting = Omit<ObservedSighting, 'lost'>;

/** `pending` until the defender's combat answer: present (hit) or absent (fizzle). */
export type { AttackOutcome, AttackSide };

/**
 * An attack this player made (outcome as known when the frame was taken; a later frame repeats it once
 * resolved) or received since its previous turn. On a hit: the unit type struck, its HP before, and
 * whether it died (a unit lost: the enemy's when made, ours when received).
 */
export interface ReplayAttack {
  side: AttackSide;
  /** Chain turn the attack was declared in. */
  turn: number;
  /** The defender's seat for an attack made, the attacker's for one received. */
  opponent: number;
  target: Coord;
  outcome: AttackOutcome;
  unitType?: number;
  hpBefore?: number;
  killed?: boolean;
}

/** One frame: what the player knew after one of its own turns. Tile arrays are row-major. */
export interface ReplayTurn {
  turn: number;
  view: TileView[];
  /** Verified tiles only; null where nothing was served. */
  tiles: (Tile | null)[];
  units: ReplayUnit[];
  moves: ReplayMove[];
  sightings: ReplaySighting[];
  attacks: ReplayAttack[];
  /** Short human-readable lines about this turn. */
  log: string[];
}

/** The viewer's input file. `omniscient` exists only after the audit published the secrets. */
export interface Replay {
  version: typeof REPLAY_VERSION;
  ruleset: Ruleset;
  board: Board;
  /** Seat whose view this is. */
  seat?: number;
  turns: ReplayTurn[];
  omniscient?: { tiles: Tile[] };
}

const VIEWS: readonly TileView[] = ['undiscovered', 'visible', 'explored'];
const OUTCOMES: readonly AttackOutcome[] = ['hit', 'fizzle', 'pending'];
const SIDES: readonly AttackSide[] = ['made', 'received'];
const MAX_LOG_LINES = 200;
const MAX_LOG_LINE = 300;
const maxOf = (o: Record<string, number>) => Math.max(...Object.values(o));

/** What the checks of one frame need to know about the game. */
interface Ctx {
  board: Board;
  ruleset: Ruleset;
  seat: number | undefined;
}

/** Checks a replay's shape, sizes and every value before anything is drawn from it. */
export function assertReplay(r: unknown): asserts r is Replay {
  const o = shape('replay', r, ['version', 'ruleset', 'board', 'turns'], ['seat', 'omniscient']);
  if (o.version !== REPLAY_VERSION)
    fail('replay.version', `this viewer reads format ${REPLAY_VERSION}, got ${JSON.stringify(o.version)}`);
  const ruleset = checkRuleset(o.ruleset);
  const board = checkBoard(o.board);
  const seat = o.seat === undefined ? undefined : int('replay.seat', o.seat, 0, ruleset.players.max - 1);
  const turns = array('replay.turns', o.turns);
  if (turns.length === 0) fail('replay.turns', 'need at least one turn');
  const ctx: Ctx = { board, ruleset, seat };
  let last = 0;
  turns.forEach((t, k) => {
    last = checkTurn(`replay.turns.${k}`, t, ctx, last);
  });
  if (o.omniscient !== undefined) {
    const om = shape('replay.omniscient', o.omniscient, ['tiles']);
    const tiles = array('replay.omniscient.tiles', om.tiles);
    const n = board.width * board.height;
    if (tiles.length !== n) fail('replay.omniscient', `need ${n} tiles`);
    tiles.forEach((t, i) => {
      checkTile(`replay.omniscient.tiles.${i}`, t);
    });
  }
}

/** Only what the viewer reads of the ruleset (names, slots, seats, HP). */
function checkRuleset(v: unknown): Ruleset {
  if (typeof v !== 'object' || v === null) fail('replay.ruleset', 'must be an object');
  const r = v as Obj;
  str('replay.ruleset.name', r.name, 100);
  int('replay.ruleset.unitSlots', r.unitSlots, 1, 255);
  const players = r.players as Obj | undefined;
  int('replay.ruleset.players.max', players?.max, 1, 255);
  const types = array('replay.ruleset.unitTypes', r.unitTypes, 255);
  types.forEach((t, i) => {
    str(`replay.ruleset.unitTypes.${i}.name`, (t as Obj | null)?.name, 40);
    int(`replay.ruleset.unitTypes.${i}.hp`, (t as Obj | null)?.hp, 1, 255);
  });
  return v as Ruleset;
}

/** The board must be exactly what the core derives from its kind and sides. */
function checkBoard(v: unknown): Board {
  const b = shape('replay.board', v, ['kind', 'width', 'height', 'zonesX', 'zonesY', 'zoneCount', 'depth']);
  const kind = oneOf('replay.board.kind', b.kind, ['hex', 'square'] as const);
  let want: Board;
  try {
    want = makeBoard(kind, b.width as number, b.height as number);
  } catch (e) {
    fail('replay.board', (e as Error).message);
  }
  for (const k of ['zonesX', 'zonesY', 'zoneCount', 'depth'] as const)
    if (b[k] !== want[k]) fail(`replay.board.${k}`, `${want.width}×${want.height} has ${k} ${want[k]}`);
  return want;
}

function checkTile(path: string, v: unknown): void {
  const t = shape(path, v, ['terrain', 'feature', 'resource', 'rivers']);
  int(`${path}.terrain`, t.terrain, 0, maxOf(Terrain));
  int(`${path}.feature`, t.feature, 0, maxOf(Feature));
  int(`${path}.resource`, t.resource, 0, maxOf(Resource));
  int(`${path}.rivers`, t.rivers, 0, 63);
}

function checkCoord(path: string, v: unknown, b: Board): Coord {
  const c = shape(path, v, ['col', 'row']);
  return { col: int(`${path}.col`, c.col, 0, b.width - 1), row: int(`${path}.row`, c.row, 0, b.height - 1) };
}

function checkSlot(path: string, v: unknown, ctx: Ctx, seen: Set<number>): number {
  const slot = int(path, v, 0, ctx.ruleset.unitSlots - 1);
  if (seen.has(slot)) fail(path, `slot ${slot} appears twice`);
  seen.add(slot);
  return slot;
}

function checkOpponent(path: string, v: unknown, ctx: Ctx): number {
  const p = int(path, v, 0, ctx.ruleset.players.max - 1);
  if (p === ctx.seat) fail(path, `${p} is this player's own seat`);
  return p;
}

const unitTypeOf = (path: string, v: unknown, ctx: Ctx) => int(path, v, 0, ctx.ruleset.unitTypes.length - 1);

/** One frame; returns its turn (frames never go back in time). */
function checkTurn(path: string, v: unknown, ctx: Ctx, previous: number): number {
  const t = shape(path, v, ['turn', 'view', 'tiles', 'units', 'moves', 'sightings', 'attacks', 'log']);
  const turn = int(`${path}.turn`, t.turn, previous, 2 ** 32);
  const b = ctx.board;
  const n = b.width * b.height;
  const view = array(`${path}.view`, t.view);
  const tiles = array(`${path}.tiles`, t.tiles);
  if (view.length !== n || tiles.length !== n) fail(path, `need ${n} tiles`);
  view.forEach((w, i) => {
    oneOf(`${path}.view.${i}`, w, VIEWS);
    if (tiles[i] === null) return;
    if (w === 'undiscovered') fail(`${path}.tiles.${i}`, 'an undiscovered tile must carry no data');
    checkTile(`${path}.tiles.${i}`, tiles[i]);
  });

  const at = new Map<number, Coord>();
  const unitSlots = new Set<number>();
  array(`${path}.units`, t.units, ctx.ruleset.unitSlots).forEach((u, i) => {
    const p = `${path}.units.${i}`;
    const o = shape(p, u, ['slot', 'type', 'hp', 'col', 'row']);
    const slot = checkSlot(`${p}.slot`, o.slot, ctx, unitSlots);
    const type = unitTypeOf(`${p}.type`, o.type, ctx);
    int(`${p}.hp`, o.hp, 1, ctx.ruleset.unitTypes[type]!.hp);
    at.set(slot, checkCoord(p, { col: o.col, row: o.row }, b));
  });

  const moveSlots = new Set<number>();
  array(`${path}.moves`, t.moves, ctx.ruleset.unitSlots).forEach((m, i) => {
    const p = `${path}.moves.${i}`;
    const o = shape(p, m, ['slot', 'from', 'to']);
    const slot = checkSlot(`${p}.slot`, o.slot, ctx, moveSlots);
    const from = checkCoord(`${p}.from`, o.from, b);
    const to = checkCoord(`${p}.to`, o.to, b);
    if (from.col === to.col && from.row === to.row) fail(p, 'a move must change the tile');
    const now = at.get(slot);
    if (!now || now.col !== to.col || now.row !== to.row)
      fail(`${p}.to`, `no own unit of slot ${slot} stands at (${to.col},${to.row}) after the turn`);
  });

  array(`${path}.sightings`, t.sightings).forEach((s, i) => {
    const p = `${path}.sightings.${i}`;
    const o = shape(p, s, ['player', 'zone', 'unitType', 'turn'], ['col', 'row']);
    checkOpponent(`${p}.player`, o.player, ctx);
    const zone = int(`${p}.zone`, o.zone, 0, b.zoneCount - 1);
    unitTypeOf(`${p}.unitType`, o.unitType, ctx);
    int(`${p}.turn`, o.turn, 0, turn);
    if ((o.col === undefined) !== (o.row === undefined)) fail(p, 'col and row go together');
    if (o.col !== undefined && zoneOf(b, checkCoord(p, { col: o.col, row: o.row }, b)) !== zone)
      fail(p, `(${o.col},${o.row}) is not in zone ${zone}`);
  });

  array(`${path}.attacks`, t.attacks).forEach((a, i) => {
    const p = `${path}.attacks.${i}`;
    const o = shape(
      p,
      a,
      ['side', 'turn', 'opponent', 'target', 'outcome'],
      ['unitType', 'hpBefore', 'killed'],
    );
    const side = oneOf(`${p}.side`, o.side, SIDES);
    int(`${p}.turn`, o.turn, 0, turn);
    checkOpponent(`${p}.opponent`, o.opponent, ctx);
    checkCoord(`${p}.target`, o.target, b);
    const outcome = oneOf(`${p}.outcome`, o.outcome, OUTCOMES);
    if (side === 'received' && outcome === 'pending')
      fail(`${p}.outcome`, 'an attack received is answered before the next own turn');
    if (outcome !== 'hit') {
      for (const k of ['unitType', 'hpBefore', 'killed'])
        if (o[k] !== undefined) fail(`${p}.${k}`, `only a hit has one (outcome ${outcome})`);
      return;
    }
    const type = unitTypeOf(`${p}.unitType`, o.unitType, ctx);
    int(`${p}.hpBefore`, o.hpBefore, 1, ctx.ruleset.unitTypes[type]!.hp);
    bool(`${p}.killed`, o.killed);
  });

  array(`${path}.log`, t.log, MAX_LOG_LINES).forEach((l, i) => {
    str(`${path}.log.${i}`, l, MAX_LOG_LINE);
  });
  return turn;
}
