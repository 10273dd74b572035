pragma circom 2.1.0;

include "bitify.circom";

// Unpacks one state field word holding k unit words of 33 bits each:
// alive (1) | type (4) | hp (8) | col (10) | row (10), low bits first (see core/state.ts).
// Num2Bits(33k) with 33k <= 231 < 254 bits, so the decomposition is unique (no aliasing).
// Exposes every field plus the coordinate bits that zone and distance logic need.
template UnpackUnits(k) {
    signal input in;
    signal output word[k];
    signal output alive[k];
    signal output type[k];
    signal output hp[k];
    signal output col[k];
    signal output row[k];
    signal output colBits[k][10];
    signal output rowBits[k][10];
    component b = Num2Bits(33 * k);
    b.in <== in;
    for (var u = 0; u < k; u++) {
        var o = 33 * u;
        var w = 0;
        for (var i = 0; i < 33; i++) w += b.out[o + i] * (1 << i);
        word[u] <== w;
        alive[u] <== b.out[o];
        type[u] <== b.out[o + 1] + 2 * b.out[o + 2] + 4 * b.out[o + 3] + 8 * b.out[o + 4];
        var h = 0;
        for (var i = 0; i < 8; i++) h += b.out[o + 5 + i] * (1 << i);
        hp[u] <== h;
        var c = 0;
        var r = 0;
        for (var i = 0; i < 10; i++) {
            colBits[u][i] <== b.out[o + 13 + i];
            rowBits[u][i] <== b.out[o + 23 + i];
            c += b.out[o + 13 + i] * (1 << i);
            r += b.out[o + 23 + i] * (1 << i);
        }
        col[u] <== c;
        row[u] <== r;
    }
}

// Unpacks a single 33-bit unit word.
template UnpackUnit() {
    signal input in;
    signal output alive;
    signal output type;
    signal output hp;
    signal output col;
    signal output row;
    signal output colBits[10];
    signal output rowBits[10];
    component u = UnpackUnits(1);
    u.in <== in;
    alive <== u.alive[0];
    type <== u.type[0];
    hp <== u.hp[0];
    col <== u.col[0];
    row <== u.row[0];
    colBits <== u.colBits[0];
    rowBits <== u.rowBits[0];
    u.word[0] === in;
}
