pragma circom 2.1.0;

include "comparators.circom";
include "compare.circom";
include "onehot.circom";

// Zone coordinates of a tile from bits 3..9 of its column and row: zx = col >> 3, zy = row >> 3.
// eqx[X] = (zx == X), eqy[Y] = (zy == Y); zone = zy * ZX + zx (linear). For an on-board
// tile exactly one eqx and one eqy are 1.
template ZoneOf(ZX, ZY) {
    signal input colBits[7];
    signal input rowBits[7];
    signal output eqx[ZX];
    signal output eqy[ZY];
    signal output zone;
    var zx = 0;
    var zy = 0;
    for (var i = 0; i < 7; i++) {
        zx += colBits[i] * (1 << i);
        zy += rowBits[i] * (1 << i);
    }
    component ex[ZX];
    for (var X = 0; X < ZX; X++) {
        ex[X] = IsEqual();
        ex[X].in[0] <== zx;
        ex[X].in[1] <== X;
        eqx[X] <== ex[X].out;
    }
    component ey[ZY];
    for (var Y = 0; Y < ZY; Y++) {
        ey[Y] = IsEqual();
        ey[Y].in[0] <== zy;
        ey[Y].in[1] <== Y;
        eqy[Y] <== ey[Y].out;
    }
    zone <== zy * ZX + zx;
}

// Which neighbouring zones a unit sees. ND neighbour directions (zone offsets DX[d], DY[d],
// the unit's own zone excluded); MD[d][k] is the least distance (Euclidean: squared distance)
// from local position k = (row % 8) * 8 + col % 8 to any tile of the zone at that offset,
// precomputed by the generator (core/witness/zones.ts). see[d] = alive and MD[d][k] <= r.
// The local position bits come from Num2Bits, and MD and r are below 2^RB by construction,
// so Le(RB)'s range precondition holds. colBits/rowBits are bits 0..2 (col % 8, row % 8).
template ZoneSight(ND, MD, RB) {
    signal input colBits[3];
    signal input rowBits[3];
    signal input alive;
    signal input r;
    signal output see[ND];
    component dec = Decode6();
    for (var i = 0; i < 3; i++) {
        dec.bits[i] <== colBits[i];
        dec.bits[i + 3] <== rowBits[i];
    }
    component le[ND];
    for (var d = 0; d < ND; d++) {
        var md = 0;
        for (var k = 0; k < 64; k++) md += dec.out[k] * MD[d][k];
        le[d] = Le(RB);
        le[d].in[0] <== md;
        le[d].in[1] <== r;
        see[d] <== le[d].out * alive;
    }
}

// The exact zone bitmask: bit z = 1 iff some alive unit sees at least one on-board tile of zone z.
// see[u][0] is the unit's own zone (alive), see[u][1 + d] the neighbour at offset (DX[d], DY[d]).
// Offsets that fall off the zone grid contribute nothing, because no eqx/eqy exists there.
// KY is the largest |DY|. Requires ZX * ZY <= 253 so the mask is one field element.
template ZoneMask(N, ZX, ZY, ND, DX, DY, KY) {
    signal input eqx[N][ZX];
    signal input eqy[N][ZY];
    signal input see[N][ND + 1];
    signal output mask;
    var NY = 2 * KY + 1;
    // sx[u][X][j]: unit u sees zone column X in zone-row offset dy = j - KY.
    signal px[N][ZX][ND + 1];
    signal py[N][ZX][ZY][NY];
    var cnt[ZX][ZY];
    for (var X = 0; X < ZX; X++) for (var Y = 0; Y < ZY; Y++) cnt[X][Y] = 0;
    for (var u = 0; u < N; u++) {
        var sx[ZX][NY];
        for (var X = 0; X < ZX; X++) {
            for (var j = 0; j < NY; j++) sx[X][j] = 0;
            for (var d = 0; d <= ND; d++) {
                var dx = d == 0 ? 0 : DX[d - 1];
                var dy = d == 0 ? 0 : DY[d - 1];
                var src = X - dx;
                if (src >= 0 && src < ZX) {
                    px[u][X][d] <== eqx[u][src] * see[u][d];
                } else {
                    px[u][X][d] <== 0;
                }
                sx[X][dy + KY] += px[u][X][d];
            }
        }
        for (var X = 0; X < ZX; X++) {
            for (var Y = 0; Y < ZY; Y++) {
                for (var j = 0; j < NY; j++) {
                    var src = Y - (j - KY);
                    if (src >= 0 && src < ZY) {
                        py[u][X][Y][j] <== eqy[u][src] * sx[X][j];
                    } else {
                        py[u][X][Y][j] <== 0;
                    }
                    cnt[X][Y] += py[u][X][Y][j];
                }
            }
        }
    }
    // cnt <= N * (ND + 1) < p, so cnt != 0 iff some unit sees the zone.
    component nz[ZX][ZY];
    var m = 0;
    for (var Y = 0; Y < ZY; Y++) {
        for (var X = 0; X < ZX; X++) {
            nz[X][Y] = IsZero();
            nz[X][Y].in <== cnt[X][Y];
            m += (1 - nz[X][Y].out) * (1 << (Y * ZX + X));
        }
    }
    mask <== m;
}
