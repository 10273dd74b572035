pragma circom 2.1.6;

include "poseidon.circom";
include "bitify.circom";
include "comparators.circom";
include "../lib/compare.circom";
include "../lib/strict.circom";
include "../lib/merkle.circom";
include "../lib/tile.circom";
include "generator_params.circom";

// Bits of Poseidon(seed, key), decomposed without aliasing: the generator reads fixed bit positions,
// so a prover must not be able to pick the decomposition of hash + p.
template CellBits(nBits) {
    signal input seed;
    signal input key;
    signal output bits[nBits];
    component h = Poseidon(2);
    h.inputs[0] <== seed;
    h.inputs[1] <== key;
    component b = Num2BitsStrict();
    b.in <== h.out;
    for (var i = 0; i < 254; i++) {
        if (i < nBits) bits[i] <== b.out[i];
        else _ <== b.out[i];
    }
}

// a >= t for a constant threshold; `a` is bounded by construction (< 2^n).
template AtLeast(n, t) {
    signal input a;
    signal output out;
    component lt = Lt(n);
    lt.in[0] <== a;
    lt.in[1] <== t;
    out <== 1 - lt.out;
}

// Bit genRiverBit() of the river field (below 2^n by construction): the side of the river levels a tile is on.
template RiverSide(n) {
    assert(n > genRiverBit());
    signal input field;
    signal output out;
    component b = Num2Bits(n);
    b.in <== field;
    out <== b.out[genRiverBit()];
    for (var i = 0; i < n; i++) {
        if (i != genRiverBit()) _ <== b.out[i];
    }
}

// Bits of the river field on a board of ZX zone columns: x + 1 <= 8 * ZX + 1 on the ring.
function riverFieldBits(ZX) {
    var top = genRiverSlope() * (8 * ZX + 1) + genRiverNoiseMax();
    var n = 0;
    while ((1 << n) <= top) n++;
    return n;
}

// Hex (odd-r) or square edge offsets, in geometry.ts's edge order.
function edgeDc(kind, rowOdd, d) {
    if (kind == 1) { var sq[4] = [1, 0, -1, 0]; return sq[d]; }
    if (rowOdd == 0) { var ev[6] = [1, 0, -1, -1, -1, 0]; return ev[d]; }
    var od[6] = [1, 1, 0, -1, 0, 1];
    return od[d];
}
function edgeDr(kind, rowOdd, d) {
    if (kind == 1) { var sq[4] = [0, -1, 0, 1]; return sq[d]; }
    var r[6] = [0, -1, -1, 0, 1, 1];
    return r[d];
}

// Falloff width of a W x H board (core/generator/shape.ts falloffTiles).
function falloffTiles(W, H) {
    var m = W < H ? W : H;
    var f = m \ genFalloffPerTile();
    if (f < 1) f = 1;
    if (f > genFalloffMaxTiles()) f = genFalloffMaxTiles();
    return f;
}

// Falloff penalty at absolute coordinate v on an axis of n tiles, width f (0 off the board: those tiles are masked).
function falloffAt(v, n, f) {
    if (v < 0 || v >= n) return 0;
    var d = v;
    if (n - 1 - v < d) d = n - 1 - v;
    if (d >= f) return 0;
    return genFalloffDrop() * (f - d) * (f - d) \ (f * f);
}

// Edge falloff at absolute (x, y): the larger of the two axes' (shape.ts edgeFalloff).
function edgeFalloffAt(x, y, W, H, f) {
    var fx = falloffAt(x, W, f);
    var fy = falloffAt(y, H, f);
    return fx > fy ? fx : fy;
}

// Start blend weight at absolute (x, y): the largest over the NA areas [col0, row0, col1, row1] (shape.ts startWeight).
function startWeightAt(x, y, NA, areas) {
    var w = 0;
    for (var i = 0; i < NA; i++) {
        var d = 0;
        if (areas[i][0] - x > d) d = areas[i][0] - x;
        if (x - areas[i][2] > d) d = x - areas[i][2];
        if (areas[i][1] - y > d) d = areas[i][1] - y;
        if (y - areas[i][3] > d) d = y - areas[i][3];
        if (d < genStartRadius()) {
            if (genStartWeight(d) > w) w = genStartWeight(d);
        }
    }
    return w;
}

/*
 * One zone of Gen(seed) and its 3-level (4-ary) subtree. Public: the zone index and Poseidon(seed) (the maproot
 * proof ties it to the ceremony's shares); output: the zone's subtree root. Private: the seed, the
 * zone's coordinates and its 64 salts (salts only hide tiles; see circuits/README.md).
 * The circuit reads the zone and a one-tile ring around it (rivers depend on neighbours): region
 * coordinates u = local + 8, so u in 7..16 and absolute x = 8 * (zx - 1) + u.
 */
template MapChunk(kind, W, H, NA, areas) {
    var ZX = (W + 7) \ 8;
    var ZY = (H + 7) \ 8;
    var USED = genCellBitsUsed();
    var NDIR = kind == 1 ? 4 : 6;
    var FT = falloffTiles(W, H);
    var EB = genElevationBits();
    var RB = riverFieldBits(ZX);
    assert(genForestDetail() == 2 && genResourceDetail() == 7 && genDetailBits() == 3);

    signal input zone;
    signal input seedHash;
    signal input seed;
    signal input zx;
    signal input zy;
    signal input salts[64];
    signal output zoneRoot;

    // zone = zy * ZX + zx, with both coordinates range-checked before comparison.
    component zxBits = Num2Bits(8);
    zxBits.in <== zx;
    component zyBits = Num2Bits(8);
    zyBits.in <== zy;
    component zxLt = Lt(8);
    zxLt.in[0] <== zx;
    zxLt.in[1] <== ZX;
    zxLt.out === 1;
    component zyLt = Lt(8);
    zyLt.in[0] <== zy;
    zyLt.in[1] <== ZY;
    zyLt.out === 1;
    zone === zy * ZX + zx;
    _ <== zxBits.out;
    _ <== zyBits.out;

    component sh = Poseidon(1);
    sh.inputs[0] <== seed;
    sh.out === seedHash;

    // One-hot zone column and row: board masks become linear in them.
    component eqX[ZX];
    for (var c = 0; c < ZX; c++) { eqX[c] = IsEqual(); eqX[c].in[0] <== zx; eqX[c].in[1] <== c; }
    component eqY[ZY];
    for (var c = 0; c < ZY; c++) { eqY[c] = IsEqual(); eqY[c].in[0] <== zy; eqY[c].in[1] <== c; }

    // One-hot zone: the start blend weight and edge falloff of a region tile are constants per zone, so linear in it.
    signal eqZ[ZY][ZX];
    for (var cy = 0; cy < ZY; cy++) {
        for (var cx = 0; cx < ZX; cx++) eqZ[cy][cx] <== eqY[cy].out * eqX[cx].out;
    }

    // Lattice cells (zx - 1 .. zx + 1, zy - 1 .. zy + 1); key adds 1 to each coordinate (cells start at -1).
    component cell[3][3];
    for (var j = 0; j < 3; j++) {
        for (var i = 0; i < 3; i++) {
            cell[j][i] = CellBits(USED);
            cell[j][i].seed <== seed;
            cell[j][i].key <== genDomainLattice() * 2**40 + (zy + j) * 2**20 + (zx + i);
        }
    }
    component detail = CellBits(64 * genDetailBits());
    detail.seed <== seed;
    detail.key <== genDomainDetail() * 2**40 + (zy + 1) * 2**20 + (zx + 1);

    // Fields over the 10x10 region: constant-weight sums of lattice bits (no constraints), the ridge's
    // |noise - MID| (its sign from one comparator, one product), and one product per tile for the start blend:
    // elev = SCALE * e - w * (e - TARGET) = (SCALE - w) * e + w * TARGET.
    component ridgeLow[10][10];
    signal ridgeDev[10][10];
    signal blend[10][10];
    signal elev[10][10];
    signal moist[10][10];
    signal riverF[10][10];
    signal onBoard[10][10];
    signal onX[10];
    signal onY[10];
    for (var k = 0; k < 10; k++) {
        var u = k + 7;
        var ox = 0; var oy = 0;
        for (var c = 0; c < ZX; c++) {
            var x = 8 * (c - 1) + u;
            if (x >= 0 && x < W) ox += eqX[c].out;
        }
        for (var c = 0; c < ZY; c++) {
            var y = 8 * (c - 1) + u;
            if (y >= 0 && y < H) oy += eqY[c].out;
        }
        onX[k] <== ox;
        onY[k] <== oy;
    }
    for (var ty = 0; ty < 10; ty++) {
        for (var tx = 0; tx < 10; tx++) {
            var ux = tx + 7;
            var uy = ty + 7;
            var acc[4] = [0, 0, 0, 0];
            for (var f = 0; f < 4; f++) {
                for (var o = 0; o < genOctaves(f); o++) {
                    var s = genSpacing(f, o);
                    var nb = genBits(f, o);
                    var den = genWeightDen(s);
                    var fx = ux % s;
                    var fy = uy % s;
                    var ax = genWeightUpper(s, fx);
                    var ay = genWeightUpper(s, fy);
                    for (var dy = 0; dy < 2; dy++) {
                        for (var dx = 0; dx < 2; dx++) {
                            var w = (dx == 1 ? ax : den - ax) * (dy == 1 ? ay : den - ay);
                            if (w != 0) {
                                var qx = ux - fx + dx * s;
                                var qy = uy - fy + dy * s;
                                var idx = ((qy % 8) \ s) * (8 \ s) + (qx % 8) \ s;
                                var v = 0;
                                for (var b = 0; b < nb; b++) {
                                    v += cell[qy \ 8][qx \ 8].bits[genOffset(f, o) + idx * nb + b] * (1 << b);
                                }
                                acc[f] += genAmplitude(f, o) * w * v;
                            }
                        }
                    }
                }
            }
            // Start blend weight and edge falloff: constants per zone, so linear in its one-hot.
            var wt = 0;
            var pen = 0;
            for (var cy = 0; cy < ZY; cy++) {
                for (var cx = 0; cx < ZX; cx++) {
                    var sw = startWeightAt(8 * (cx - 1) + ux, 8 * (cy - 1) + uy, NA, areas);
                    if (sw != 0) wt += eqZ[cy][cx] * sw;
                    var fo = edgeFalloffAt(8 * (cx - 1) + ux, 8 * (cy - 1) + uy, W, H, FT);
                    if (fo != 0) pen += eqZ[cy][cx] * fo;
                }
            }
            ridgeLow[ty][tx] = Lt(genRidgeNoiseBits());
            ridgeLow[ty][tx].in[0] <== acc[3];
            ridgeLow[ty][tx].in[1] <== genRidgeMid();
            ridgeDev[ty][tx] <== (1 - 2 * ridgeLow[ty][tx].out) * (acc[3] - genRidgeMid());
            var ridge = genRidgeAmplitude() * (genRidgeMid() - ridgeDev[ty][tx]);
            var raw = acc[0] + ridge + genElevationOffset() - pen;
            blend[ty][tx] <== wt * (raw - genStartTarget());
            elev[ty][tx] <== genElevationScale() * raw - blend[ty][tx];
            moist[ty][tx] <== acc[1];
            // River field: slope * (x + 1) + noise, x + 1 = 8 * (zx - 1) + ux + 1.
            riverF[ty][tx] <== genRiverSlope() * (8 * zx + ux - 7) + acc[2];
            onBoard[ty][tx] <== onX[tx] * onY[ty];
        }
    }

    // Every region tile: water, hills and up, river side, and whether rivers may touch it (flat land).
    component water[10][10];
    component high[10][10];
    component side[10][10];
    signal eligible[10][10];
    for (var ty = 0; ty < 10; ty++) {
        for (var tx = 0; tx < 10; tx++) {
            water[ty][tx] = Lt(EB);
            water[ty][tx].in[0] <== elev[ty][tx];
            water[ty][tx].in[1] <== genTSea();
            high[ty][tx] = AtLeast(EB, genTHills());
            high[ty][tx].a <== elev[ty][tx];
            side[ty][tx] = RiverSide(RB);
            side[ty][tx].field <== riverF[ty][tx];
            eligible[ty][tx] <== onBoard[ty][tx] * (1 - water[ty][tx].out - high[ty][tx].out);
        }
    }

    // The zone's 64 tiles: classify, rivers, leaf (0 off the board).
    component deep[64];
    component mountUp[64];
    component lowland[64];
    component wet[64];
    component notDry[64];
    component forestM[64];
    component leafHash[64];
    signal flatT[64];
    signal marsh1[64];
    signal marsh[64];
    signal d12[64];
    signal forest1[64];
    signal forest2[64];
    signal forest[64];
    signal r01[64];
    signal hasRes[64];
    signal desert[64];
    signal resource[64];
    signal bothElig[64][NDIR];
    signal bothSide[64][NDIR];
    signal riverBit[64][NDIR];
    signal leaf[64];
    for (var t = 0; t < 64; t++) {
        var tx = t % 8 + 1;
        var ty = t \ 8 + 1;
        var e = elev[ty][tx];
        var isWater = water[ty][tx].out;
        var isHigh = high[ty][tx].out;
        deep[t] = Lt(EB);
        deep[t].in[0] <== e;
        deep[t].in[1] <== genTDeep();
        mountUp[t] = AtLeast(EB, genTMountains());
        mountUp[t].a <== e;
        var isMount = mountUp[t].out;
        lowland[t] = Lt(EB);
        lowland[t].in[0] <== e;
        lowland[t].in[1] <== genTMarsh();
        wet[t] = AtLeast(22, genTWet());
        wet[t].a <== moist[ty][tx];
        notDry[t] = AtLeast(22, genTDry());
        notDry[t].a <== moist[ty][tx];
        forestM[t] = AtLeast(22, genTForest());
        forestM[t].a <== moist[ty][tx];

        // Thresholds are ordered, so hills imply land and mountains imply hills: these are linear.
        var land = 1 - isWater;
        var flat = land - isHigh;
        var hillsOnly = isHigh - isMount;
        flatT[t] <== flat * (4 - wet[t].out - notDry[t].out);
        var terrain = (isWater - deep[t].out) + 5 * hillsOnly + 6 * isMount + flatT[t];

        marsh1[t] <== flat * lowland[t].out;
        marsh[t] <== marsh1[t] * wet[t].out;
        var b0 = detail.bits[3 * t];
        var b1 = detail.bits[3 * t + 1];
        var b2 = detail.bits[3 * t + 2];
        d12[t] <== b1 * b2;
        forest1[t] <== (land - isMount) * forestM[t].out;
        forest2[t] <== forest1[t] * (b1 + b2 - d12[t]);
        forest[t] <== forest2[t] * (1 - marsh[t]);
        var feature = forest[t] + 2 * marsh[t];

        r01[t] <== b0 * b1;
        hasRes[t] <== r01[t] * b2;
        desert[t] <== flat * (1 - notDry[t].out);
        resource[t] <== hasRes[t] * ((isWater - deep[t].out) + 2 * flat + desert[t] + 4 * hillsOnly + 5 * isMount);

        var rowOdd = (ty + 7) % 2;
        var rivers = 0;
        for (var d = 0; d < NDIR; d++) {
            var nx = tx + edgeDc(kind, rowOdd, d);
            var ny = ty + edgeDr(kind, rowOdd, d);
            bothElig[t][d] <== eligible[ty][tx] * eligible[ny][nx];
            bothSide[t][d] <== side[ty][tx].out * side[ny][nx].out;
            riverBit[t][d] <== bothElig[t][d] * (side[ty][tx].out + side[ny][nx].out - 2 * bothSide[t][d]);
            rivers += riverBit[t][d] * (1 << d);
        }

        // Every field is a small sum of constrained bits (terrain <= 6, feature <= 2, resource <= 5,
        // rivers < 2^NDIR): bytes by construction, so the leaf word is this tile's and no other's.
        leafHash[t] = TileLeaf();
        leafHash[t].terrain <== terrain;
        leafHash[t].feature <== feature;
        leafHash[t].resource <== resource[t];
        leafHash[t].rivers <== rivers;
        leafHash[t].salt <== salts[t];
        leaf[t] <== onBoard[ty][tx] * leafHash[t].out;
    }

    // Lattice bits and ring tiles that no zone tile reads (corners, unused octave points) are pinned
    // by their hash all the same; mark them read for --inspect.
    for (var j = 0; j < 3; j++) {
        for (var i = 0; i < 3; i++) _ <== cell[j][i].bits;
    }
    for (var ty = 0; ty < 10; ty++) {
        for (var tx = 0; tx < 10; tx++) {
            _ <== eligible[ty][tx];
            _ <== side[ty][tx].out;
            _ <== moist[ty][tx];
        }
    }

    // The zone's subtree, 4-ary (core/merkle.ts TREE_ARITY): node k of a level hashes children
    // 4k .. 4k + 3 below, in index order; 16 + 4 + 1 Poseidon(4).
    assert(treeArity() == 4);
    component node[21];
    signal level[85];
    var at = 0;
    var base = 0;
    for (var t = 0; t < 64; t++) level[t] <== leaf[t];
    var next = 64;
    for (var w = 16; w >= 1; w = w \ 4) {
        for (var k = 0; k < w; k++) {
            node[at] = Poseidon(4);
            for (var c = 0; c < 4; c++) node[at].inputs[c] <== level[base + 4 * k + c];
            level[next + k] <== node[at].out;
            at++;
        }
        base = next;
        next += w;
    }
    zoneRoot <== level[84];
}
