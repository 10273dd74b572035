import { type Board, type Coord, zoneTiles } from '../../core/geometry.ts';

/** Pixel geometry of a board: pointy-top hexes in odd-r layout, or plain squares. */
export interface Layout {
  width: number;
  height: number;
  centre(c: Coord): { x: number; y: number };
  /** Polygon corners of a tile, clockwise from the upper right. */
  corners(c: Coord): { x: number; y: number }[];
  /** The two corners bounding edge direction d (geometry's edge order). */
  edge(c: Coord, d: number): [{ x: number; y: number }, { x: number; y: number }];
}

const SQRT3 = Math.sqrt(3);

export function layoutFor(b: Board, size: number): Layout {
  if (b.kind === 'hex') {
    const w = SQRT3 * size;
    const centre = (c: Coord) => ({ x: w * (c.col + 0.5 + 0.5 * (c.row & 1)), y: size * (1 + 1.5 * c.row) });
    // Corner i sits at angle 60i − 30° (SVG y points down): 0 upper right, 1 lower right, 2 bottom, …
    const corners = (c: Coord) => {
      const o = centre(c);
      return Array.from({ length: 6 }, (_, i) => {
        const a = ((60 * i - 30) * Math.PI) / 180;
        return { x: o.x + size * Math.cos(a), y: o.y + size * Math.sin(a) };
      });
    };
    return {
      width: w * (b.width + 0.5),
      height: size * (1.5 * b.height + 0.5),
      centre,
      corners,
      edge: (c, d) => {
        const k = corners(c);
        return [k[(6 - d) % 6]!, k[(7 - d) % 6]!];
      },
    };
  }
  const centre = (c: Coord) => ({ x: size * (c.col + 0.5), y: size * (c.row + 0.5) });
  const corners = (c: Coord) => {
    const x = size * c.col;
    const y = size * c.row;
    return [
      { x: x + size, y },
      { x: x + size, y: y + size },
      { x, y: y + size },
      { x, y },
    ];
  };
  // Square edges E, N, W, S between corners (0,1), (3,0), (2,3), (1,2).
  const EDGE = [
    [0, 1],
    [3, 0],
    [2, 3],
    [1, 2],
  ] as const;
  return {
    width: size * b.width,
    height: size * b.height,
    centre,
    corners,
    edge: (c, d) => {
      const k = corners(c);
      return [k[EDGE[d]![0]]!, k[EDGE[d]![1]]!];
    },
  };
}

/** Pixel bounding box of a zone's tiles (for outlining a zone). */
export function zoneBox(
  b: Board,
  L: Layout,
  zone: number,
): { x: number; y: number; width: number; height: number } {
  const pts = zoneTiles(b, zone).flatMap((c) => L.corners(c));
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}
