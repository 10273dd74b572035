import { InputError } from '../errors.ts';
import {
  assertOnBoard,
  type Board,
  type Coord,
  tileIndex,
  tilesInRange,
  withinRadius,
  zoneOf,
  zoneTiles,
} from '../geometry.ts';
import type { VisionModel } from '../ruleset/types.ts';

/** A unit that sees: where it stands and its vision radius (ignored by `litZones`). */
export interface VisionSource {
  coord: Coord;
  radius: number;
}

const MODELS: readonly VisionModel[] = ['hex', 'chebyshev', 'euclidean', 'litZones'];

/** Same pairing rule as the ruleset validator: hex metric on hex grids, square metrics on squares. */
function assertModel(board: Board, model: VisionModel): void {
  if (!MODELS.includes(model)) throw new InputError('model', `unknown vision model ${String(model)}`);
  if (board.kind === 'hex' && (model === 'chebyshev' || model === 'euclidean')) {
    throw new InputError('model', `"${model}" is a square-grid metric`);
  }
  if (board.kind === 'square' && model === 'hex') throw new InputError('model', '"hex" needs a hex grid');
}

function assertSources(board: Board, sources: readonly VisionSource[]): void {
  sources.forEach((s, i) => {
    assertOnBoard(board, s.coord, `sources.${i}.coord`);
    if (!Number.isInteger(s.radius) || s.radius < 0) {
      throw new InputError(`sources.${i}.radius`, `must be a non-negative integer, got ${s.radius}`);
    }
  });
}

/**
 * Tiles seen by any source, as row-major tile indices: the source's whole zone under `litZones`,
 * otherwise the tiles within its radius under the model's metric. Terrain never blocks here.
 */
export function visibleTiles(
  board: Board,
  model: VisionModel,
  sources: readonly VisionSource[],
): Set<number> {
  assertModel(board, model);
  assertSources(board, sources);
  const out = new Set<number>();
  const litZones = new Set<number>();
  for (const s of sources) {
    if (model === 'litZones') {
      const zone = zoneOf(board, s.coord);
      if (litZones.has(zone)) continue;
      litZones.add(zone);
      for (const t of zoneTiles(board, zone)) out.add(tileIndex(board, t));
    } else {
      for (const t of tilesInRange(board, model, s.coord, s.radius)) out.add(tileIndex(board, t));
    }
  }
  return out;
}

/** Whether any source sees `target`; same rule as `visibleTiles`, without building the set. */
export function isVisibleFrom(
  board: Board,
  model: VisionModel,
  sources: readonly VisionSource[],
  target: Coord,
): boolean {
  assertModel(board, model);
  assertSources(board, sources);
  assertOnBoard(board, target, 'target');
  return sources.some((s) =>
    model === 'litZones'
      ? zoneOf(board, s.coord) === zoneOf(board, target)
      : withinRadius(model, s.coord, target, s.radius),
  );
}
