import {
  type Board,
  type Coord,
  chebyshevDistance,
  euclideanDistanceSquared,
  hexDistance,
  tilesInRange,
  ZONE_SIZE,
  zoneOf,
} from '../geometry.ts';
import type { Ruleset, VisionModel } from '../ruleset/types.ts';
import type { Slots } from '../state.ts';

type R = Ruleset & { board: Board };

/** Distance used to compare with a vision radius (Euclidean: squared, compared with r²). */
export function visionMeasure(model: Exclude<VisionModel, 'litZones'>, a: Coord, b: Coord): number {
  switch (model) {
    case 'hex':
      return hexDistance(a, b);
    case 'chebyshev':
      return chebyshevDistance(a, b);
    case 'euclidean':
      return euclideanDistanceSquared(a, b);
  }
}

/** A unit type's radius on the `visionMeasure` scale (Euclidean: r²). */
export function visionThreshold(model: VisionModel, vision: number): number {
  return model === 'euclidean' ? vision * vision : vision;
}

/**
 * The circuits' zone-sight table. For each neighbouring zone offset (dx, dy) that some unit type
 * can reach, md[d][k] is the least vision measure from local position k = (row % 8) * 8 + col % 8
 * to any tile of the full 8×8 zone at that offset. A unit sees that zone iff it exists on the zone
 * grid and md ≤ its radius. Zones are aligned to even rows, so the hex row parity of a local
 * position is the parity of the absolute row, and the table holds for every zone. Edge zones are
 * clipped only on their far side, and the nearest tile of a neighbour is always on its near
 * side, so clipping never changes the answer (checked exhaustively against `visionZones`).
 */
export interface ZoneSightTable {
  dirs: { dx: number; dy: number }[];
  md: number[][];
  /** Largest |dy| among the directions (0 when there are none). */
  ky: number;
}

export function zoneSightTable(r: Ruleset): ZoneSightTable {
  const model = r.vision.model;
  if (model === 'litZones') return { dirs: [], md: [], ky: 0 };
  const maxR = Math.max(...r.unitTypes.map((t) => visionThreshold(model, t.vision)));
  const maxVision = Math.max(...r.unitTypes.map((t) => t.vision));
  const k = Math.ceil((maxVision + 1) / ZONE_SIZE) + 1;
  const dirs: { dx: number; dy: number }[] = [];
  const md: number[][] = [];
  for (let dy = -k; dy <= k; dy++) {
    for (let dx = -k; dx <= k; dx++) {
      if (dx === 0 && dy === 0) continue;
      const row: number[] = [];
      for (let local = 0; local < ZONE_SIZE * ZONE_SIZE; local++) {
        const a = { col: local % ZONE_SIZE, row: Math.floor(local / ZONE_SIZE) };
        let best = Number.POSITIVE_INFINITY;
        for (let tr = 0; tr < ZONE_SIZE; tr++) {
          for (let tc = 0; tc < ZONE_SIZE; tc++) {
            const t = { col: dx * ZONE_SIZE + tc, row: dy * ZONE_SIZE + tr };
            best = Math.min(best, visionMeasure(model, a, t));
          }
        }
        row.push(best);
      }
      if (Math.min(...row) <= maxR) {
        dirs.push({ dx, dy });
        md.push(row);
      }
    }
  }
  return { dirs, md, ky: Math.max(0, ...dirs.map((d) => Math.abs(d.dy))) };
}

/** The zone bitmask of a set of units: bit z iff an alive unit sees an on-board tile of zone z. */
export function visionZones(r: R, slots: Slots): bigint {
  let mask = 0n;
  for (const u of slots) {
    if (u === null) continue;
    if (r.vision.model === 'litZones') {
      mask |= 1n << BigInt(zoneOf(r.board, u));
      continue;
    }
    const radius = r.unitTypes[u.type]!.vision;
    for (const t of tilesInRange(r.board, r.vision.model, u, radius))
      mask |= 1n << BigInt(zoneOf(r.board, t));
  }
  return mask;
}

/** The same mask computed the circuit's way, from `zoneSightTable`; tests compare the two. */
export function visionZonesByTable(r: R, table: ZoneSightTable, slots: Slots): bigint {
  const b = r.board;
  let mask = 0n;
  for (const u of slots) {
    if (u === null) continue;
    const zx = Math.floor(u.col / ZONE_SIZE);
    const zy = Math.floor(u.row / ZONE_SIZE);
    mask |= 1n << BigInt(zy * b.zonesX + zx);
    const local = (u.row % ZONE_SIZE) * ZONE_SIZE + (u.col % ZONE_SIZE);
    const radius = visionThreshold(r.vision.model, r.unitTypes[u.type]!.vision);
    table.dirs.forEach((d, i) => {
      const x = zx + d.dx;
      const y = zy + d.dy;
      if (x < 0 || y < 0 || x >= b.zonesX || y >= b.zonesY) return;
      if (table.md[i]![local]! <= radius) mask |= 1n << BigInt(y * b.zonesX + x);
    });
  }
  return mask;
}
