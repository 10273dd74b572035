// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IMapGen} from "./IMapGen.sol";
import {Poseidon} from "./Poseidon.sol";
import "./MapGenParams.sol" as G;

/// @title MapGen
/// @notice One tile of `Gen(seed)`, bit for bit equal to `core/generator`'s `generateTile` (GENERATOR_VERSION 3):
///         value noise over an 8×8 lattice of `Poseidon(seed, key)` cell hashes (at most 9 per tile, cached),
///         ridged relief, an edge falloff scaled to the board, a blend toward land near the start areas, one
///         detail hash, integer thresholds, rivers along the levels of a field that grows along every row.
/// @dev Every constant mirrors `core/generator/params.ts`; change both together and regenerate test/vectors.
contract MapGen is IMapGen {
    /// @notice Generator version this contract implements (`GENERATOR_VERSION` in the core).
    uint256 public constant GENERATOR_VERSION = G.GEN_VERSION;

    /// @notice Board kinds, as stored in a game: 0 hex (odd-r offset), 1 square.
    uint8 public constant KIND_HEX = 0;
    /// @notice See `KIND_HEX`.
    uint8 public constant KIND_SQUARE = 1;

    int256 private constant CELL = G.GEN_CELL;
    int256 private constant T_DEEP = G.GEN_T_DEEP;
    int256 private constant T_SEA = G.GEN_T_SEA;
    int256 private constant T_HILLS = G.GEN_T_HILLS;
    int256 private constant T_MOUNTAINS = G.GEN_T_MOUNTAINS;
    int256 private constant T_DRY = G.GEN_T_DRY;
    int256 private constant T_WET = G.GEN_T_WET;
    int256 private constant T_FOREST = G.GEN_T_FOREST;
    int256 private constant T_MARSH = G.GEN_T_MARSH;

    uint8 private constant DEEP_WATER = 0;
    uint8 private constant SHALLOW_WATER = 1;
    uint8 private constant GRASSLAND = 2;
    uint8 private constant PLAINS = 3;
    uint8 private constant DESERT = 4;
    uint8 private constant HILLS = 5;
    uint8 private constant MOUNTAINS = 6;

    /// @notice The tile is not on the board, or the board kind is unknown.
    error OffBoard(uint256 col, uint256 row);
    /// @notice The seed is not a BN254 field element.
    error SeedNotInField();
    /// @notice A lattice cell outside the 3×3 block around the tile was requested (generator invariant broken).
    error CellOutOfWindow();
    /// @notice The packed start areas are malformed: more than 6, an empty one, or one off the board.
    error BadStartAreas();

    /// @notice The circomlibjs Poseidon contract with two inputs.
    address public immutable poseidon2;

    /// @notice Wires the Poseidon hasher the generator uses.
    /// @param poseidon2_ Address of the circomlibjs `poseidon(uint256[2])` contract.
    constructor(address poseidon2_) {
        poseidon2 = poseidon2_;
    }

    struct Ctx {
        uint256 seed;
        int256 width;
        int256 height;
        int256 cx0; // tile's cell minus one: the 3×3 window starts here
        int256 cy0;
        int256 fall; // falloff width of the board
        uint256 starts; // packed start areas (core packStartAreas)
        uint256[9] cells;
        uint256 loaded; // bit k set: cells[k] holds its hash
    }

    struct Fields {
        int256 elevation;
        int256 moisture;
        int256 river;
    }

    /// @notice `generateTile(seed, board, (col,row))` of the TypeScript core.
    /// @param seed The game seed (a field element).
    /// @param kind 0 hex, 1 square.
    /// @param width Board width in tiles.
    /// @param height Board height in tiles.
    /// @param starts The ruleset's start areas, packed (core `packStartAreas`; 0 for none).
    /// @param col Tile column (storage coordinates).
    /// @param row Tile row.
    /// @return terrain Terrain class (core `Terrain`).
    /// @return feature Feature (core `Feature`).
    /// @return resource Resource (core `Resource`).
    /// @return rivers River bitmask over the grid's edge directions.
    function generateTile(
        uint256 seed,
        uint8 kind,
        uint256 width,
        uint256 height,
        uint256 starts,
        uint256 col,
        uint256 row
    ) external view returns (uint8 terrain, uint8 feature, uint8 resource, uint8 rivers) {
        if (kind > KIND_SQUARE) revert OffBoard(col, row);
        Ctx memory c = _ctx(seed, width, height, starts, col, row);
        return _generate(c, kind, int256(col), int256(row));
    }

    /// @notice The continuous fields of a tile before thresholds (core `fieldsAt` minus detail), for debugging
    ///         and cross-checks. Same argument checks as `generateTile`.
    function tileFields(uint256 seed, uint256 width, uint256 height, uint256 starts, uint256 col, uint256 row)
        external
        view
        returns (int256 elevation, int256 moisture, int256 river)
    {
        Ctx memory c = _ctx(seed, width, height, starts, col, row);
        Fields memory f = _fields(c, int256(col), int256(row));
        return (f.elevation, f.moisture, f.river);
    }

    function _ctx(uint256 seed, uint256 width, uint256 height, uint256 starts, uint256 col, uint256 row)
        private
        pure
        returns (Ctx memory c)
    {
        if (seed >= Poseidon.FIELD_MODULUS) revert SeedNotInField();
        if (col >= width || row >= height || width > 0xffff || height > 0xffff) revert OffBoard(col, row);
        _checkStarts(starts, width, height);
        c.seed = seed;
        c.width = int256(width);
        c.height = int256(height);
        c.cx0 = int256(col) / CELL - 1;
        c.cy0 = int256(row) / CELL - 1;
        c.starts = starts;
        uint256 m = width < height ? width : height;
        int256 f = int256(m) / G.GEN_FALLOFF_PER_TILE;
        c.fall = f < 1 ? int256(1) : f > G.GEN_FALLOFF_MAX_TILES ? G.GEN_FALLOFF_MAX_TILES : f;
    }

    /// The core's `startAreasOf` checks on the packed word: count ≤ 6 at bits 240.., no stray bits, areas on the board.
    function _checkStarts(uint256 starts, uint256 width, uint256 height) private pure {
        uint256 n = starts >> 240;
        if (n > G.GEN_MAX_START_AREAS || (starts & ((1 << 240) - 1)) >> (40 * n) != 0) revert BadStartAreas();
        for (uint256 i = 0; i < n; i++) {
            (uint256 c0, uint256 r0, uint256 c1, uint256 r1) = _area(starts, i);
            if (c0 > c1 || r0 > r1 || c1 >= width || r1 >= height) revert BadStartAreas();
        }
    }

    function _area(uint256 starts, uint256 i) private pure returns (uint256, uint256, uint256, uint256) {
        uint256 a = starts >> (40 * i);
        return (a & 0x3ff, (a >> 10) & 0x3ff, (a >> 20) & 0x3ff, (a >> 30) & 0x3ff);
    }

    /// Start blend weight at (x, y): the largest over the areas of START_WEIGHTS[Chebyshev distance].
    function _startWeight(uint256 starts, int256 x, int256 y) private pure returns (int256 w) {
        uint256 n = starts >> 240;
        for (uint256 i = 0; i < n; i++) {
            (uint256 c0, uint256 r0, uint256 c1, uint256 r1) = _area(starts, i);
            int256 d = _max(_max(int256(c0) - x, x - int256(c1)), _max(int256(r0) - y, y - int256(r1)));
            if (d < 0) d = 0;
            if (d < G.GEN_START_RADIUS) {
                int256 wd = int256((G.GEN_START_WEIGHTS >> (uint256(d) * 8)) & 0xff);
                if (wd > w) w = wd;
            }
        }
    }

    function _max(int256 a, int256 b) private pure returns (int256) {
        return a > b ? a : b;
    }

    function _generate(Ctx memory c, uint8 kind, int256 x, int256 y)
        private
        view
        returns (uint8 terrain, uint8 feature, uint8 resource, uint8 rivers)
    {
        Fields memory self = _fields(c, x, y);
        terrain = _terrain(self);
        uint256 detail = _detail(c.seed, x, y);
        bool flat = terrain == GRASSLAND || terrain == PLAINS || terrain == DESERT;
        if (flat && self.elevation < T_MARSH && self.moisture >= T_WET) feature = 2;
        else if ((flat || terrain == HILLS) && self.moisture >= T_FOREST && detail >= G.GEN_FOREST_DETAIL) feature = 1;
        if (detail == G.GEN_RESOURCE_DETAIL) resource = _resourceOf(terrain);
        if (flat) rivers = _rivers(c, kind, x, y, _riverSide(self.river)); // core riverEligible
    }

    /// A neighbour needs only its elevation (eligible or not) and its river field, never its moisture.
    function _rivers(Ctx memory c, uint8 kind, int256 x, int256 y, bool side) private view returns (uint8 rivers) {
        uint256 edges = kind == KIND_HEX ? 6 : 4;
        for (uint256 d = 0; d < edges; d++) {
            (int256 dc, int256 dr) = _edgeOffset(kind, y, d);
            int256 nx = x + dc;
            int256 ny = y + dr;
            if (nx < 0 || ny < 0 || nx >= c.width || ny >= c.height) continue;
            if (_riverEligible(_elevation(c, nx, ny)) && side != _riverSide(_river(c, nx, ny))) {
                rivers |= uint8(1 << d);
            }
        }
    }

    /// Bit RIVER_BIT of the river field (core `riverSide`); the field is non-negative.
    function _riverSide(int256 river) private pure returns (bool) {
        return (uint256(river) >> G.GEN_RIVER_BIT) & 1 == 1;
    }

    function _resourceOf(uint8 t) private pure returns (uint8) {
        // DEEP_WATER none, SHALLOW fish, GRASS/PLAINS wheat, DESERT oil, HILLS iron, MOUNTAINS gold.
        if (t == DEEP_WATER) return 0;
        if (t == SHALLOW_WATER) return 1;
        if (t == GRASSLAND || t == PLAINS) return 2;
        if (t == DESERT) return 3;
        if (t == HILLS) return 4;
        return 5;
    }

    /// Flat land (core `riverEligible`): at or above sea level and below the hills.
    function _riverEligible(int256 elevation) private pure returns (bool) {
        return elevation >= T_SEA && elevation < T_HILLS;
    }

    function _terrain(Fields memory f) private pure returns (uint8) {
        int256 e = f.elevation;
        if (e < T_DEEP) return DEEP_WATER;
        if (e < T_SEA) return SHALLOW_WATER;
        if (e >= T_MOUNTAINS) return MOUNTAINS;
        if (e >= T_HILLS) return HILLS;
        if (f.moisture >= T_WET) return GRASSLAND;
        if (f.moisture >= T_DRY) return PLAINS;
        return DESERT;
    }

    /// Edge directions (geometry.ts): hex E, NE, NW, W, SW, SE by row parity; square E, N, W, S.
    function _edgeOffset(uint8 kind, int256 row, uint256 d) private pure returns (int256, int256) {
        if (kind == KIND_SQUARE) {
            if (d == 0) return (1, 0);
            if (d == 1) return (0, -1);
            if (d == 2) return (-1, 0);
            return (0, 1);
        }
        if (d == 0) return (1, 0);
        if (d == 3) return (-1, 0);
        bool odd = row & 1 == 1;
        if (d == 1) return odd ? (int256(1), int256(-1)) : (int256(0), int256(-1));
        if (d == 2) return odd ? (int256(0), int256(-1)) : (int256(-1), int256(-1));
        if (d == 4) return odd ? (int256(0), int256(1)) : (int256(-1), int256(1));
        return odd ? (int256(1), int256(1)) : (int256(0), int256(1));
    }

    function _falloff(int256 v, int256 n, int256 f) private pure returns (int256) {
        int256 d = v < n - 1 - v ? v : n - 1 - v;
        return d >= f ? int256(0) : (G.GEN_FALLOFF_DROP * (f - d) * (f - d)) / (f * f);
    }

    function _fields(Ctx memory c, int256 x, int256 y) private view returns (Fields memory f) {
        f.elevation = _elevation(c, x, y);
        f.moisture = _octave(c, G.GEN_MOISTURE_0, x, y) + _octave(c, G.GEN_MOISTURE_1, x, y)
            + _octave(c, G.GEN_MOISTURE_2, x, y);
        f.river = _river(c, x, y);
    }

    /// Scaled elevation (core `elevationAt`): noise and ridges, edge falloff (the larger axis's), start blend.
    function _elevation(Ctx memory c, int256 x, int256 y) private view returns (int256) {
        int256 e = _octave(c, G.GEN_ELEVATION_0, x, y) + _octave(c, G.GEN_ELEVATION_1, x, y)
            + _octave(c, G.GEN_ELEVATION_2, x, y) + _ridge(c, x, y) + G.GEN_ELEVATION_OFFSET
            - _max(_falloff(x, c.width, c.fall), _falloff(y, c.height, c.fall));
        int256 w = _startWeight(c.starts, x, y);
        return (G.GEN_ELEVATION_SCALE - w) * e + w * G.GEN_START_TARGET;
    }

    /// Ridged relief (core `ridgeAt`): RIDGE_AMPLITUDE · (RIDGE_MID − |ridge noise − RIDGE_MID|).
    function _ridge(Ctx memory c, int256 x, int256 y) private view returns (int256) {
        int256 d = _octave(c, G.GEN_RIDGE_0, x, y) + _octave(c, G.GEN_RIDGE_1, x, y) + _octave(c, G.GEN_RIDGE_2, x, y)
            - G.GEN_RIDGE_MID;
        return G.GEN_RIDGE_AMPLITUDE * (G.GEN_RIDGE_MID - (d < 0 ? -d : d));
    }

    /// River field (core `fieldsAt`): a slope along the row plus noise, so it grows along every row.
    function _river(Ctx memory c, int256 x, int256 y) private view returns (int256) {
        return G.GEN_RIVER_SLOPE * (x + 1) + _octave(c, G.GEN_RIVER_0, x, y) + _octave(c, G.GEN_RIVER_1, x, y)
            + _octave(c, G.GEN_RIVER_2, x, y);
    }

    /// Interpolation weight `upper[f]` for spacing `s` (params.ts WEIGHTS); the denominator is s².
    function _upper(int256 s, int256 f) private pure returns (int256) {
        uint256 w = s == 8 ? G.GEN_WEIGHTS_8 : s == 4 ? G.GEN_WEIGHTS_4 : G.GEN_WEIGHTS_2;
        return int256((w >> (uint256(f) * 8)) & 0xff);
    }

    function _octave(Ctx memory c, uint256 spec, int256 x, int256 y) private view returns (int256 sum) {
        if (spec == 0) return 0;
        int256 s = int256(spec & 0xff);
        int256 x0 = x - (x % s); // x, y >= 0 here
        int256 y0 = y - (y % s);
        int256 ax = _upper(s, x - x0);
        int256 ay = _upper(s, y - y0);
        for (int256 dy = 0; dy < 2; dy++) {
            int256 wy = dy == 1 ? ay : s * s - ay;
            for (int256 dx = 0; dx < 2; dx++) {
                int256 w = (dx == 1 ? ax : s * s - ax) * wy;
                if (w != 0) sum += w * _latticePoint(c, spec, x0 + dx * s, y0 + dy * s);
            }
        }
        sum *= int256(spec >> 24);
    }

    function _latticePoint(Ctx memory c, uint256 spec, int256 px, int256 py) private view returns (int256) {
        int256 s = int256(spec & 0xff);
        uint256 offset = (spec >> 8) & 0xff;
        uint256 bits = (spec >> 16) & 0xff;
        int256 cx = px / CELL; // px, py >= 0
        int256 cy = py / CELL;
        uint256 i = uint256(((py - cy * CELL) / s) * (CELL / s) + (px - cx * CELL) / s);
        uint256 h = _cell(c, cx, cy);
        return int256((h >> (offset + i * bits)) & ((1 << bits) - 1));
    }

    function _cell(Ctx memory c, int256 cx, int256 cy) private view returns (uint256) {
        int256 wx = cx - c.cx0;
        int256 wy = cy - c.cy0;
        if (wx < 0 || wy < 0 || wx > 2 || wy > 2) revert CellOutOfWindow();
        uint256 k = uint256(wy * 3 + wx);
        if ((c.loaded >> k) & 1 == 0) {
            c.cells[k] = Poseidon.hash2(poseidon2, c.seed, _key(G.GEN_DOMAIN_LATTICE, cx, cy));
            c.loaded |= 1 << k;
        }
        return c.cells[k];
    }

    function _key(uint256 domain, int256 cx, int256 cy) private pure returns (uint256) {
        return (domain << 40) | (uint256(cy + 1) << 20) | uint256(cx + 1);
    }

    function _detail(uint256 seed, int256 x, int256 y) private view returns (uint256) {
        int256 cx = x / CELL;
        int256 cy = y / CELL;
        uint256 local = uint256((y - cy * CELL) * CELL + (x - cx * CELL));
        uint256 h = Poseidon.hash2(poseidon2, seed, _key(G.GEN_DOMAIN_DETAIL, cx, cy));
        return (h >> (local * G.GEN_DETAIL_BITS)) & ((1 << G.GEN_DETAIL_BITS) - 1);
    }
}
