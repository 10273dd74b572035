/**
 * A player's hidden state as data (`PlayerSnapshot`, version 1): everything a `GamePlayer` needs to go on after a
 * crash or a reload that neither the chain nor the dealer can give back. Browser-safe. Kept out of it, because
 * they are re-read: the game's phase, turn, root and opponents (chain), the zone roots (dealer, checked against
 * the chain's root; after a force-open, recomputed from the public seed), the open map, reveal sessions.
 *
 * The JSON form (`encodeSnapshot`) keeps field elements as 0x-hex and each distinct served tile once; the
 * decoder (`decodeSnapshot`) is strict: every bad field is an InputError naming it (`snapshot.state.blinding`).
 */
import { InputError } from '@shroud/core/errors.ts';
import { toField } from '@shroud/core/field.ts';
import type { Sighting } from '@shroud/core/fog.ts';
import { type Board, leafCoord, tileIndex } from '@shroud/core/geometry.ts';
import { pathLength } from '@shroud/core/merkle.ts';
import { rulesetHash } from '@shroud/core/ruleset/hash.ts';
import type { ValidRuleset } from '@shroud/core/ruleset/validate.ts';
import { assertSlots, type Slots, type Unit } from '@shroud/core/state.ts';
import type { Feature, Resource, Terrain } from '@shroud/core/tile.ts';
import { type ModelSnapshot, PlayerModel } from './player.ts';
import type { VerifiedTile } from './tiles.ts';

/** 2: play commitments (the state carries its reveal commitment; a reveal, its state commitment). */
export const SNAPSHOT_VERSION = 2;

/**
 * A spawn or turn's reveal: the opening of its `revealCommit` (hidden: it says where the units look), and the
 * state commitment that with it opens the play commitment the turn stored (what the dealer checks).
 */
export interface PendingReveal {
  turn: number;
  leaves: number[];
  blinding: bigint;
  revealCommit: bigint;
  stateCommit: bigint;
}

/**
 * A state change written down before its transaction was sent (write-ahead): it becomes the current state once
 * the chain holds `newCommit` as the seat's play commitment, and is dropped once the chain moved on without it.
 */
export interface PendingState {
  kind: 'spawn' | 'turn' | 'combat';
  /** The chain's turn when it was made. */
  turn: number;
  /** The play commitment it replaces (0 before the spawn). */
  from: bigint;
  newCommit: bigint;
  slots: Slots;
  blinding: bigint;
  /** Spawn and turn: the tiles to fetch once it landed. */
  reveal: PendingReveal | null;
}

/**
 * The opening of the seat's play commitment: the state commitment `Poseidon(blinding, packed slots)` and the
 * reveal commitment of the seat's latest spawn or turn.
 */
export interface UnitState {
  slots: Slots;
  blinding: bigint;
  revealCommit: bigint;
}

export interface PlayerSnapshot {
  version: typeof SNAPSHOT_VERSION;
  /** Whose and which game: a snapshot never resumes another (checked by `GamePlayer.resume`). */
  chainId: bigint;
  /** Lowercase 0x address of the game contract. */
  contract: string;
  gameId: bigint;
  /** Lowercase 0x address of the seat's player. */
  player: string;
  seat: number;
  rulesetHash: string;
  /** Where this player's event queries start, and up to where its model has applied the game's events. */
  joinedBlock: number;
  syncedBlock: number;
  /** r_i, behind the seat's on-chain C_i (null before `commitShare`). */
  share: bigint | null;
  /** The state the chain's commitment opens to (null before the spawn landed). */
  state: UnitState | null;
  pending: PendingState[];
  /** The latest own turn whose tiles the dealer did not serve: the opening a dispute puts on-chain. */
  unserved: PendingReveal | null;
  /** Every tile served and verified (dispute answers too), in order: audit and passability witnesses. */
  served: VerifiedTile[];
  /** Fog, sightings, units and tiles of the player's model (null before the spawn). */
  model: ModelSnapshot | null;
  /** Slots that attacked on chain turn `turn` (each spent its nullifier for that turn). */
  attacked: { turn: number; slots: number[] };
  droppedReveals: number;
}

/** Where a GamePlayer keeps its snapshot (a `PlayerVault`, or a plain store in tests). */
export interface SnapshotStore {
  /** The saved snapshot, decoded and checked against `ruleset`; null when there is none. */
  load(ruleset: ValidRuleset): Promise<PlayerSnapshot | null>;
  save(snapshot: PlayerSnapshot): Promise<void>;
}

/** The snapshot is for this game and seat but an earlier instance of it (a reused id on a restarted dev chain). */
export class StaleSnapshotError extends Error {
  constructor(message: string) {
    super(`stale player state: ${message}`);
    this.name = 'StaleSnapshotError';
  }
}

/** The chain holds a state this snapshot cannot open (an old backup restored, or a write that never happened). */
export class StateLostError extends Error {
  constructor(message: string) {
    super(`player state lost: ${message}`);
    this.name = 'StateLostError';
  }
}

const hex = (v: bigint) => `0x${v.toString(16)}`;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const unitJson = (u: Unit | null): Json => (u ? [u.type, u.hp, u.col, u.row] : null);

function tileJson(t: VerifiedTile): Json {
  return {
    leaf: t.leaf,
    terrain: t.terrain,
    feature: t.feature,
    resource: t.resource,
    rivers: t.rivers,
    salt: hex(t.salt),
    path: t.path.map(hex),
  };
}

function revealJson(r: PendingReveal | null): Json {
  return (
    r && {
      turn: r.turn,
      leaves: r.leaves,
      blinding: hex(r.blinding),
      revealCommit: hex(r.revealCommit),
      stateCommit: hex(r.stateCommit),
    }
  );
}

function sightingJson(s: Sighting): Json {
  return {
    player: s.player,
    turn: s.turn,
    unitType: s.unitType,
    source: s.source,
    ...(s.zone !== undefined ? { zone: s.zone } : {}),
    ...(s.coord !== undefined ? { coord: [s.coord.col, s.coord.row] } : {}),
  };
}

/** The snapshot as JSON text: each distinct tile once (`tiles`), referenced by position from `served` and the model. */
export function encodeSnapshot(s: PlayerSnapshot): string {
  const tiles: Json[] = [];
  const at = new Map<string, number>();
  const ref = (t: VerifiedTile): number => {
    const j = tileJson(t);
    const key = JSON.stringify(j);
    let i = at.get(key);
    if (i === undefined) {
      i = tiles.push(j) - 1;
      at.set(key, i);
    }
    return i;
  };
  const served = s.served.map(ref);
  const model: Json = s.model && {
    fog: {
      turn: s.model.fog.turn,
      tiles: s.model.fog.tiles.join(''),
      sightings: s.model.fog.sightings.map(sightingJson),
    },
    units: s.model.units.map(unitJson),
    tiles: s.model.tiles.map(ref),
    lost: s.model.lost,
  };
  const doc: Json = {
    shroud: 'player-snapshot',
    version: s.version,
    chainId: s.chainId.toString(),
    contract: s.contract,
    gameId: hex(s.gameId),
    player: s.player,
    seat: s.seat,
    rulesetHash: s.rulesetHash,
    joinedBlock: s.joinedBlock,
    syncedBlock: s.syncedBlock,
    share: s.share === null ? null : hex(s.share),
    state: s.state && {
      slots: s.state.slots.map(unitJson),
      blinding: hex(s.state.blinding),
      revealCommit: hex(s.state.revealCommit),
    },
    pending: s.pending.map((p) => ({
      kind: p.kind,
      turn: p.turn,
      from: hex(p.from),
      newCommit: hex(p.newCommit),
      slots: p.slots.map(unitJson),
      blinding: hex(p.blinding),
      reveal: revealJson(p.reveal),
    })),
    unserved: revealJson(s.unserved),
    tiles,
    served,
    model,
    attacked: { turn: s.attacked.turn, slots: s.attacked.slots },
    droppedReveals: s.droppedReveals,
  };
  return JSON.stringify(doc);
}

/** Reads untrusted JSON with a path for every error. */
class Reader {
  readonly v: unknown;
  readonly path: string;
  constructor(v: unknown, path: string) {
    this.v = v;
    this.path = path;
  }

  #fail(msg: string): never {
    throw new InputError(this.path, msg);
  }

  get(key: string): Reader {
    if (typeof this.v !== 'object' || this.v === null || Array.isArray(this.v))
      this.#fail('must be an object');
    return new Reader((this.v as Record<string, unknown>)[key], `${this.path}.${key}`);
  }

  isNull(): boolean {
    return this.v === null;
  }

  array(max = Number.MAX_SAFE_INTEGER): Reader[] {
    if (!Array.isArray(this.v)) this.#fail('must be an array');
    if (this.v.length > max) this.#fail(`more than ${max} entries`);
    return this.v.map((x, i) => new Reader(x, `${this.path}.${i}`));
  }

  int(lo = 0, hi = Number.MAX_SAFE_INTEGER): number {
    if (!Number.isSafeInteger(this.v) || (this.v as number) < lo || (this.v as number) > hi)
      this.#fail(`must be an integer in ${lo}..${hi}, got ${JSON.stringify(this.v)}`);
    return this.v as number;
  }

  string(re?: RegExp): string {
    if (typeof this.v !== 'string') this.#fail('must be a string');
    if (re && !re.test(this.v)) this.#fail(`${JSON.stringify(this.v.slice(0, 80))} does not match ${re}`);
    return this.v;
  }

  field(): bigint {
    return toField(this.string(/^0x[0-9a-f]{1,64}$/), this.path);
  }

  oneOf<T extends string>(values: readonly T[]): T {
    const s = this.string();
    if (!values.includes(s as T)) this.#fail(`must be one of ${values.join(', ')}`);
    return s as T;
  }
}

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** Runs `f`, re-rooting a core InputError (`units.2.hp`) under `path` (`snapshot.state.slots.2.hp`). */
function under<T>(path: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof InputError) || e.field.startsWith('snapshot')) throw e;
    throw new InputError(
      `${path}.${e.field.replace(/^units\.?/, '')}`.replace(/\.$/, ''),
      e.message.slice(e.field.length + 2),
    );
  }
}

function slotsOf(r: Reader, ruleset: ValidRuleset): Slots {
  const slots = r.array(ruleset.unitSlots).map((u): Unit | null => {
    if (u.isNull()) return null;
    const [type, hp, col, row] = u.array(4).map((x) => x.int());
    if (row === undefined) throw new InputError(u.path, 'must be [type, hp, col, row]');
    return { type: type!, hp: hp!, col: col!, row: row! };
  });
  under(r.path, () => assertSlots(ruleset, slots));
  return slots;
}

function leavesOf(r: Reader, ruleset: ValidRuleset): number[] {
  return r.array(ruleset.maxRevealedTiles).map((l) => {
    const leaf = l.int();
    if (!leafCoord(ruleset.board, leaf)) throw new InputError(l.path, `${leaf} is not an on-board leaf`);
    return leaf;
  });
}

function revealOf(r: Reader, ruleset: ValidRuleset): PendingReveal | null {
  if (r.isNull()) return null;
  return {
    turn: r.get('turn').int(),
    leaves: leavesOf(r.get('leaves'), ruleset),
    blinding: r.get('blinding').field(),
    revealCommit: r.get('revealCommit').field(),
    stateCommit: r.get('stateCommit').field(),
  };
}

function tileOf(r: Reader, board: Board): VerifiedTile {
  const leaf = r.get('leaf').int();
  const c = leafCoord(board, leaf);
  if (!c) throw new InputError(`${r.path}.leaf`, `${leaf} is not an on-board leaf`);
  return {
    // Contents stay as served: a dispute answer with out-of-range contents is kept for the fraud proof.
    terrain: r.get('terrain').int() as Terrain,
    feature: r.get('feature').int() as Feature,
    resource: r.get('resource').int() as Resource,
    rivers: r.get('rivers').int(),
    leaf,
    col: c.col,
    row: c.row,
    index: tileIndex(board, c),
    salt: r.get('salt').field(),
    path: r
      .get('path')
      .array(pathLength(board.depth))
      .map((p) => p.field()),
  };
}

function sightingOf(r: Reader): Sighting {
  const s: Sighting = {
    player: r.get('player').int(),
    turn: r.get('turn').int(),
    unitType: r.get('unitType').string(),
    source: r.get('source').oneOf(['zoneReveal', 'combat'] as const),
  };
  if (r.get('zone').v !== undefined) s.zone = r.get('zone').int();
  const coord = r.get('coord');
  if (coord.v !== undefined) {
    const [col, row] = coord.array(2).map((x) => x.int());
    if (row === undefined) throw new InputError(coord.path, 'must be [col, row]');
    s.coord = { col: col!, row: row! };
  }
  return s;
}

/** Parses `encodeSnapshot` output strictly, against the game's ruleset (slots, leaves, fog and tiles on its board). */
export function decodeSnapshot(text: string, ruleset: ValidRuleset): PlayerSnapshot {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new InputError('snapshot', 'not JSON');
  }
  const r = new Reader(doc, 'snapshot');
  if (r.get('shroud').v !== 'player-snapshot')
    throw new InputError('snapshot.shroud', 'not a Shroud player snapshot');
  const version = r.get('version').int();
  if (version !== SNAPSHOT_VERSION)
    throw new InputError(
      'snapshot.version',
      `${version} is not supported (this client reads ${SNAPSHOT_VERSION})`,
    );
  const hash = r.get('rulesetHash').string(/^0x[0-9a-f]{64}$/);
  if (hash !== rulesetHash(ruleset).toLowerCase())
    throw new InputError('snapshot.rulesetHash', `${hash} is not ${ruleset.name}'s`);
  const board = ruleset.board;
  const tiles = r
    .get('tiles')
    .array()
    .map((t) => tileOf(t, board));
  const tileRef = (x: Reader) => tiles[x.int(0, tiles.length - 1)]!;
  const seat = r.get('seat').int(0, ruleset.players.max - 1);
  const m = r.get('model');
  const model = m.isNull() ? null : decodeModel(m, ruleset, seat, tileRef);
  const share = r.get('share');
  const state = r.get('state');
  const attacked = r.get('attacked');
  return {
    version: SNAPSHOT_VERSION,
    chainId: BigInt(r.get('chainId').string(/^[0-9]{1,30}$/)),
    contract: r.get('contract').string(ADDRESS),
    gameId: r.get('gameId').field(),
    player: r.get('player').string(ADDRESS),
    seat,
    rulesetHash: hash,
    joinedBlock: r.get('joinedBlock').int(),
    syncedBlock: r.get('syncedBlock').int(),
    share: share.isNull() ? null : share.field(),
    state: state.isNull()
      ? null
      : {
          slots: slotsOf(state.get('slots'), ruleset),
          blinding: state.get('blinding').field(),
          revealCommit: state.get('revealCommit').field(),
        },
    pending: r
      .get('pending')
      .array(64)
      .map((p) => ({
        kind: p.get('kind').oneOf(['spawn', 'turn', 'combat'] as const),
        turn: p.get('turn').int(),
        from: p.get('from').field(),
        newCommit: p.get('newCommit').field(),
        slots: slotsOf(p.get('slots'), ruleset),
        blinding: p.get('blinding').field(),
        reveal: revealOf(p.get('reveal'), ruleset),
      })),
    unserved: revealOf(r.get('unserved'), ruleset),
    served: r.get('served').array().map(tileRef),
    model,
    attacked: {
      turn: attacked.get('turn').int(-1),
      slots: attacked
        .get('slots')
        .array(ruleset.unitSlots)
        .map((x) => x.int(0, ruleset.unitSlots - 1)),
    },
    droppedReveals: r.get('droppedReveals').int(),
  };
}

function decodeModel(
  m: Reader,
  ruleset: ValidRuleset,
  seat: number,
  tileRef: (x: Reader) => VerifiedTile,
): ModelSnapshot {
  const fog = m.get('fog');
  const cells = fog.get('tiles').string(/^[012]*$/);
  const turn = fog.get('turn');
  const snap: ModelSnapshot = {
    fog: {
      width: ruleset.board.width,
      height: ruleset.board.height,
      turn: turn.isNull() ? null : turn.int(),
      tiles: [...cells].map(Number),
      sightings: fog
        .get('sightings')
        .array()
        .map((s) => sightingOf(s)),
    },
    units: slotsOf(m.get('units'), ruleset),
    tiles: m.get('tiles').array().map(tileRef),
    lost: m
      .get('lost')
      .array()
      .map((x) => x.string()),
  };
  // The model's own checks (fog on the board, sightings, tiles in place, lost marks), named under snapshot.model.
  try {
    PlayerModel.restore({ ruleset, seat }, snap);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const field = e.field.replace(/^model\.snapshot/, 'model.fog');
    throw new InputError(`snapshot.${field}`, e.message.slice(e.field.length + 2));
  }
  return snap;
}
