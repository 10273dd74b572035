/**
 * Generator statistics over many seeds per shipped ruleset (and two bare boards without start areas):
 * passable land per start area and per map; the river network's loops, inland dead ends, rivers and where
 * they run from; the shape of the mountain ranges.
 */

import { riverEligible } from '../core/generator/classify.ts';
import {
  type Coord,
  edgeCount,
  edgeOffset,
  generateMap,
  type Hasher,
  isPassable,
  isWater,
  loadHasher,
  type MapBoard,
  makeBoard,
  onBoard,
  shippedRuleset,
  shippedRulesetNames,
  Terrain,
  type Tile,
} from '../core/index.ts';
import { median, round } from './lib/stats.ts';

export interface MapStats {
  /** Passable fraction of each start area, in order. */
  startPassable: number[];
  /** Passable fraction of the board. */
  passable: number;
  /** Independent closed loops of the river network (cyclomatic number of its vertex graph). */
  riverLoops: number;
  /** Vertices where a river ends with land all around (no coast, mountain or board edge). */
  riverDeadEndsInland: number;
  /** Connected pieces of the river network. */
  rivers: number;
  /** Rivers with one end at high ground (hills, mountains) and another at water or the board edge. */
  riversHighToSea: number;
  /** Elongation of each mountain range of 4 tiles or more: √(λ1/λ2) of its tiles' second moments (a blob ≈ 1). */
  rangeElongations: number[];
}

/** Length over width of a group of tiles: the square root of the ratio of its principal second moments. */
function elongation(b: MapBoard, tiles: readonly Coord[]): number {
  // Tile centres in the plane (hex: odd rows half a tile right, rows √3/2 apart).
  const pts = tiles.map((c) =>
    b.kind === 'hex' ? [c.col + (c.row & 1) / 2, (c.row * Math.sqrt(3)) / 2] : [c.col, c.row],
  );
  const mean = (k: number) => pts.reduce((a, p) => a + p[k]!, 0) / pts.length;
  const [mx, my] = [mean(0), mean(1)];
  let [xx, yy, xy] = [0, 0, 0];
  for (const [x, y] of pts) {
    xx += (x! - mx) ** 2 / pts.length;
    yy += (y! - my) ** 2 / pts.length;
    xy += ((x! - mx) * (y! - my)) / pts.length;
  }
  const half = Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy);
  // Each tile is an area, not a point: a unit square's own moment (1/12) keeps a straight line finite.
  return Math.sqrt(((xx + yy) / 2 + half + 1 / 12) / ((xx + yy) / 2 - half + 1 / 12));
}

/** Connected groups (across tile edges) of the tiles that satisfy `pred`. */
function groups(b: MapBoard, pred: (c: Coord) => boolean): Coord[][] {
  const seen = new Set<string>();
  const out: Coord[][] = [];
  for (let row = 0; row < b.height; row++) {
    for (let col = 0; col < b.width; col++) {
      const start = { col, row };
      if (seen.has(key(start)) || !pred(start)) continue;
      const group: Coord[] = [];
      const stack = [start];
      seen.add(key(start));
      while (stack.length) {
        const c = stack.pop()!;
        group.push(c);
        for (let d = 0; d < edgeCount(b.kind); d++) {
          const [dc, dr] = edgeOffset(b.kind, c.row, d);
          const n = { col: c.col + dc, row: c.row + dr };
          if (onBoard(b, n) && !seen.has(key(n)) && pred(n)) {
            seen.add(key(n));
            stack.push(n);
          }
        }
      }
      out.push(group);
    }
  }
  return out;
}

const key = (c: Coord) => `${c.col},${c.row}`;

/** The two ends of the edge across direction d of tile c, each as the sorted keys of the tiles meeting there. */
function edgeEnds(b: MapBoard, c: Coord, d: number): [Coord[], Coord[]] {
  const n = edgeCount(b.kind);
  const across = (t: Coord, k: number): Coord => {
    const [dc, dr] = edgeOffset(b.kind, t.row, ((k % n) + n) % n);
    return { col: t.col + dc, row: t.row + dr };
  };
  const o = across(c, d);
  if (b.kind === 'hex')
    return [
      [c, o, across(c, d - 1)],
      [c, o, across(c, d + 1)],
    ];
  return [
    [c, o, across(c, d - 1), across(o, d - 1)],
    [c, o, across(c, d + 1), across(o, d + 1)],
  ];
}

export function mapStats(b: MapBoard, tiles: readonly Tile[]): MapStats {
  const at = (c: Coord) => tiles[c.row * b.width + c.col]!;
  const startPassable = (b.startAreas ?? []).map((a) => {
    let n = 0;
    for (let row = a.row0; row <= a.row1; row++)
      for (let col = a.col0; col <= a.col1; col++) n += isPassable(at({ col, row }).terrain) ? 1 : 0;
    return n / ((a.col1 - a.col0 + 1) * (a.row1 - a.row0 + 1));
  });
  const passable = tiles.filter((t) => isPassable(t.terrain)).length / tiles.length;
  // River graph: vertices are tile corners, edges the river-carrying tile edges (each counted once).
  const degree = new Map<string, { deg: number; tiles: Coord[] }>();
  const parent = new Map<string, string>();
  const find = (v: string): string => {
    let r = v;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(v, r);
    return r;
  };
  let edges = 0;
  for (let row = 0; row < b.height; row++) {
    for (let col = 0; col < b.width; col++) {
      const c = { col, row };
      const t = at(c);
      for (let d = 0; d < edgeCount(b.kind) / 2; d++) {
        const dd = b.kind === 'hex' ? [0, 4, 5][d]! : [0, 3][d]!; // E and the two/one edges below: each edge once
        if (!((t.rivers >> dd) & 1)) continue;
        edges++;
        const ends = edgeEnds(b, c, dd).map((ts) => {
          const k = ts.map(key).sort().join('|');
          const v = degree.get(k) ?? { deg: 0, tiles: ts };
          v.deg++;
          degree.set(k, v);
          if (!parent.has(k)) parent.set(k, k);
          return k;
        });
        parent.set(find(ends[0]!), find(ends[1]!));
      }
    }
  }
  const components = new Set([...parent.keys()].map(find)).size;
  let riverDeadEndsInland = 0;
  // The ends of each river: high ground and sea (water or off the board) by vertex.
  const ends = new Map<string, { high: string[]; sea: string[] }>();
  for (const [k, v] of degree) {
    const inland = v.tiles.every((c) => onBoard(b, c) && riverEligible(at(c).terrain));
    if (inland && v.deg % 2 === 1) riverDeadEndsInland++;
    if (v.deg % 2 === 0) continue;
    const e = ends.get(find(k)) ?? { high: [], sea: [] };
    if (v.tiles.some((c) => onBoard(b, c) && at(c).terrain >= Terrain.HILLS)) e.high.push(k);
    if (v.tiles.some((c) => !onBoard(b, c) || isWater(at(c).terrain))) e.sea.push(k);
    ends.set(find(k), e);
  }
  const riversHighToSea = [...ends.values()].filter((e) =>
    e.high.some((hi) => e.sea.some((sea) => sea !== hi)),
  ).length;
  const ranges = groups(b, (c) => at(c).terrain === Terrain.MOUNTAINS).filter((g) => g.length >= 4);
  return {
    startPassable,
    passable,
    riverLoops: edges - degree.size + components,
    riverDeadEndsInland,
    rivers: components,
    riversHighToSea,
    rangeElongations: ranges.map((g) => elongation(b, g)),
  };
}

/** Seeds of the benchmark: fixed and spread over the field. */
export function benchSeeds(h: Hasher, n: number): bigint[] {
  return Array.from({ length: n }, (_, i) => h.hash([0x6d617073n, BigInt(i)]));
}

export function benchMaps(
  o: { seeds?: number; log?: (s: string) => void } = {},
): Promise<Record<string, number>> {
  return loadHasher().then((h) => {
    const seeds = benchSeeds(h, o.seeds ?? 1000);
    const boards: [string, MapBoard][] = [
      ...shippedRulesetNames.map((n) => [n, shippedRuleset(n).board] as [string, MapBoard]),
      ['bare-8x8', makeBoard('hex', 8, 8)],
      ['bare-17x9', makeBoard('hex', 17, 9)],
    ];
    const out: Record<string, number> = { maps_seeds: seeds.length };
    for (const [name, b] of boards) {
      let startMin = 1;
      let spreadMax = 0;
      let spreadSum = 0;
      let landMin = 1;
      let landSum = 0;
      let noLand = 0;
      let loops = 0;
      let deadEnds = 0;
      let rivers = 0;
      let highToSea = 0;
      const elongations: number[] = [];
      for (const seed of seeds) {
        const s = mapStats(b, generateMap(h, b, seed));
        if (s.startPassable.length) {
          startMin = Math.min(startMin, ...s.startPassable);
          const spread = Math.max(...s.startPassable) - Math.min(...s.startPassable);
          spreadMax = Math.max(spreadMax, spread);
          spreadSum += spread;
        }
        landMin = Math.min(landMin, s.passable);
        landSum += s.passable;
        if (s.passable === 0) noLand++;
        loops += s.riverLoops;
        deadEnds += s.riverDeadEndsInland;
        rivers += s.rivers;
        highToSea += s.riversHighToSea;
        elongations.push(...s.rangeElongations);
      }
      const p = `maps_${name.replaceAll('-', '_')}`;
      if (b.startAreas?.length) {
        out[`${p}_start_area_passable_min`] = round(startMin, 4);
        out[`${p}_start_area_passable_spread_max`] = round(spreadMax, 4);
        out[`${p}_start_area_passable_spread_mean`] = round(spreadSum / seeds.length, 4);
      }
      out[`${p}_land_fraction_min`] = round(landMin, 4);
      out[`${p}_land_fraction_mean`] = round(landSum / seeds.length, 4);
      out[`${p}_maps_without_land`] = noLand;
      out[`${p}_river_loops`] = loops;
      out[`${p}_river_dead_ends_inland`] = deadEnds;
      out[`${p}_rivers_mean`] = round(rivers / seeds.length, 2);
      out[`${p}_rivers_high_to_sea_fraction`] = round(rivers ? highToSea / rivers : 0, 3);
      out[`${p}_mountain_ranges_mean`] = round(elongations.length / seeds.length, 2);
      out[`${p}_mountain_range_elongation_median`] = round(elongations.length ? median(elongations) : 0, 2);
      o.log?.(`${name}: done`);
    }
    return out;
  });
}
