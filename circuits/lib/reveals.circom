pragma circom 2.1.0;

include "bitify.circom";
include "board.circom";
include "distance.circom";
include "lookup.circom";
include "onehot.circom";
include "unit.circom";

// Forced zone reveals. oppMask[o] is an opponent's stored zone bitmask (public, Z = ZX * ZY bits,
// Z <= 253, so Num2Bits(Z) is unique). Every alive unit standing in a zone set in any opponent's
// mask yields lane (zone * 16 + type + 1 <= 16Z); every other slot yields 0. The caller binds
// the lanes to the report fields of the packed public words (UnpackPlay).
template ForcedReveals(N, ZX, ZY, K) {
    var Z = ZX * ZY;
    signal input oppMask[K];
    signal input eqx[N][ZX];
    signal input eqy[N][ZY];
    signal input alive[N];
    signal input type[N];
    signal input zone[N];
    signal output lane[N];
    component mb[K];
    for (var o = 0; o < K; o++) {
        mb[o] = Num2Bits(Z);
        mb[o].in <== oppMask[o];
    }
    // seen[z] = 1 - prod_o (1 - bit_o[z])
    signal notSeen[K][Z];
    for (var z = 0; z < Z; z++) {
        notSeen[0][z] <== 1 - mb[0].out[z];
        for (var o = 1; o < K; o++) notSeen[o][z] <== notSeen[o - 1][z] * (1 - mb[o].out[z]);
    }
    signal t[N][ZY][ZX];
    signal inY[N][ZY];
    signal forced[N];
    for (var u = 0; u < N; u++) {
        var inside = 0;
        for (var Y = 0; Y < ZY; Y++) {
            var row = 0;
            for (var X = 0; X < ZX; X++) {
                t[u][Y][X] <== eqx[u][X] * (1 - notSeen[K - 1][Y * ZX + X]);
                row += t[u][Y][X];
            }
            inY[u][Y] <== eqy[u][Y] * row;
            inside += inY[u][Y];
        }
        forced[u] <== alive[u] * inside;
        lane[u] <== forced[u] * (zone[u] * 16 + type[u] + 1);
    }
}

// The revealed-tile list and its vision coverage. Lane i is present[i] (a prefix of the lanes is
// present), tile (tileCol[i], tileRow[i]) on the board, and cover[i] names, one-hot, the own alive
// unit that sees it: under METRIC 0 hex / 1 Chebyshev / 2 Euclidean the distance is at most the
// unit type's VIS entry (squared for Euclidean); under METRIC 3 (lit zones) the unit stands in
// the tile's zone. Absent lanes are all zero. Outputs the packed lanes (leaf index + 1, 17 bits,
// 14 per word) exactly as core/state.ts packReveals.
template RevealCoverage(W, H, N, T, R, ZX, METRIC, VIS, VB) {
    var RW = (R + 13) \ 14;
    signal input unitWord[N];
    signal input tileCol[R];
    signal input tileRow[R];
    signal input present[R];
    signal input cover[R][N];
    signal output words[RW];
    component cb[R];
    component rb[R];
    component onb[R];
    component oh[R];
    component uu[R];
    component vis[R];
    component within[R];
    signal picked[R][N];
    signal lane[R];
    for (var i = 0; i < R; i++) {
        present[i] * (present[i] - 1) === 0;
        if (i > 0) present[i] * (1 - present[i - 1]) === 0;
        cb[i] = Num2Bits(10);
        cb[i].in <== tileCol[i];
        rb[i] = Num2Bits(10);
        rb[i].in <== tileRow[i];
        (1 - present[i]) * tileCol[i] === 0;
        (1 - present[i]) * tileRow[i] === 0;
        onb[i] = AssertOnBoard(W, H);
        onb[i].colBits <== cb[i].out;
        onb[i].rowBits <== rb[i].out;
        oh[i] = AssertOneHotBits(N);
        oh[i].bits <== cover[i];
        oh[i].total <== present[i];
        var sel = 0;
        for (var k = 0; k < N; k++) {
            picked[i][k] <== cover[i][k] * unitWord[k];
            sel += picked[i][k];
        }
        uu[i] = UnpackUnit();
        uu[i].in <== sel;
        uu[i].alive === present[i];
        _ <== uu[i].hp;
        _ <== uu[i].col;
        _ <== uu[i].row;
        var tzone = 0;
        var uzone = 0;
        for (var b = 3; b < 10; b++) {
            tzone += cb[i].out[b] * (1 << (b - 3)) + rb[i].out[b] * (1 << (b - 3)) * ZX;
            uzone += uu[i].colBits[b] * (1 << (b - 3)) + uu[i].rowBits[b] * (1 << (b - 3)) * ZX;
        }
        if (METRIC == 3) {
            uzone === tzone;
            _ <== uu[i].type;
            for (var b = 0; b < 3; b++) {
                _ <== uu[i].colBits[b];
                _ <== uu[i].rowBits[b];
            }
        } else {
            vis[i] = Lookup(T, VIS);
            vis[i].in <== uu[i].type;
            within[i] = AssertWithin(METRIC, VB);
            within[i].aColBits <== uu[i].colBits;
            within[i].aRowBits <== uu[i].rowBits;
            within[i].bColBits <== cb[i].out;
            within[i].bRowBits <== rb[i].out;
            within[i].r <== vis[i].out;
        }
        var leaf = tzone * 64;
        for (var b = 0; b < 3; b++) {
            leaf += cb[i].out[b] * (1 << b) + rb[i].out[b] * (1 << (b + 3));
        }
        lane[i] <== present[i] * (leaf + 1);
    }
    for (var w = 0; w < RW; w++) {
        var acc = 0;
        for (var j = 0; j < 14; j++) {
            if (14 * w + j < R) acc += lane[14 * w + j] * (1 << (17 * j));
        }
        words[w] <== acc;
    }
}
