import { Ajv, type ErrorObject } from 'ajv';
import { InputError } from '../errors.ts';
import type { MapBoard } from '../generator/shape.ts';
import { type Board, makeBoard } from '../geometry.ts';
import { checkDurations } from '../limits.ts';
import schema from './ruleset.schema.json' with { type: 'json' };
import type { Ruleset, UnitType } from './types.ts';

const ajv = new Ajv({ allErrors: true, strict: true });
const checkShape = ajv.compile(schema);

function fieldOf(e: ErrorObject): string {
  const path = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing =
    e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : undefined;
  const extra =
    e.keyword === 'additionalProperties'
      ? (e.params as { additionalProperty: string }).additionalProperty
      : undefined;
  return ['ruleset', path, missing ?? extra].filter(Boolean).join('.');
}

/** A ruleset checked for shape and meaning, with its board derived (carrying the start areas the generator favours). */
export interface ValidRuleset extends Ruleset {
  readonly board: MapBoard;
}

/**
 * Validates untrusted JSON into a ruleset. Errors name the field (`ruleset.grid.width: …`);
 * nothing is clamped or defaulted.
 */
export function validateRuleset(input: unknown): ValidRuleset {
  if (!checkShape(input)) {
    const e = checkShape.errors![0]!;
    const detail = e.keyword === 'additionalProperties' ? 'is not a ruleset field' : e.message;
    throw new InputError(fieldOf(e), detail ?? 'invalid');
  }
  const r = input as unknown as Ruleset;
  const fail = (field: string, msg: string): never => {
    throw new InputError(`ruleset.${field}`, msg);
  };
  const { kind, width, height } = r.grid;
  const model = r.vision.model;
  if (kind === 'hex' && (model === 'chebyshev' || model === 'euclidean')) {
    fail('vision.model', `"${model}" is a square-grid metric; hex grids use "hex" or "litZones"`);
  }
  if (kind === 'square' && model === 'hex') fail('vision.model', '"hex" needs a hex grid');
  if (r.players.min > r.players.max) fail('players.min', `${r.players.min} > players.max ${r.players.max}`);
  if (r.startAreas.length < r.players.max) {
    fail('startAreas', `${r.startAreas.length} areas for up to ${r.players.max} players`);
  }
  const names = new Set<string>();
  r.unitTypes.forEach((u: UnitType, i) => {
    if (names.has(u.name)) fail(`unitTypes.${i}.name`, `duplicate unit type "${u.name}"`);
    names.add(u.name);
    if (u.structure && u.speed !== 0) fail(`unitTypes.${i}.speed`, 'structures do not move: speed must be 0');
    // Terrain rules prove only the destination tile, so a move is one step: no hop over water.
    if (r.provePassability && u.speed > 1)
      fail(
        `unitTypes.${i}.speed`,
        'provePassability bounds moves to one tile per turn: speed must be at most 1',
      );
  });
  r.startAreas.forEach((a, i) => {
    if (a.col0 > a.col1 || a.row0 > a.row1)
      fail(`startAreas.${i}`, 'col0..col1 and row0..row1 must not be empty');
    if (a.col1 >= width || a.row1 >= height)
      fail(`startAreas.${i}`, `extends off the ${width}×${height} board`);
  });
  if (r.spawn.length > r.unitSlots) fail('spawn', `${r.spawn.length} units for ${r.unitSlots} unit slots`);
  r.spawn.forEach((n, i) => {
    if (!names.has(n)) fail(`spawn.${i}`, `unknown unit type "${n}"`);
  });
  checkDurations(r.deadlines, 'ruleset.deadlines');
  let board: Board;
  try {
    board = makeBoard(kind, width, height);
  } catch (e) {
    throw e instanceof InputError
      ? new InputError(`ruleset.${e.field}`, e.message.slice(e.field.length + 2))
      : e;
  }
  // The generator guarantees land to the seats' areas: the first players.max (≤ 6), fixed by the ruleset.
  const startAreas = Object.freeze(r.startAreas.slice(0, r.players.max).map((a) => Object.freeze({ ...a })));
  return Object.freeze({ ...r, board: Object.freeze({ ...board, startAreas }) });
}

/** Index of a unit type by name; throws naming the field. */
export function unitTypeIndex(r: Ruleset, name: string): number {
  const i = r.unitTypes.findIndex((u) => u.name === name);
  if (i < 0) throw new InputError('unitType', `unknown unit type "${name}" in ruleset ${r.name}`);
  return i;
}
