pragma circom 2.1.0;

include "compare.circom";

// Asserts a tile given by its 10-bit column and row bits lies on a W x H board.
// The inputs are bits from Num2Bits, so c, r < 2^10; W, H <= 1024 (MAX_BOARD_SIDE in core/limits.ts),
// and Lt(10) is exact for in[1] <= 2^10 too: c + 2^10 - W stays in [0, 2^11).
template AssertOnBoard(W, H) {
    signal input colBits[10];
    signal input rowBits[10];
    var c = 0;
    var r = 0;
    for (var i = 0; i < 10; i++) {
        c += colBits[i] * (1 << i);
        r += rowBits[i] * (1 << i);
    }
    component lc = Lt(10);
    lc.in[0] <== c;
    lc.in[1] <== W;
    lc.out === 1;
    component lr = Lt(10);
    lr.in[0] <== r;
    lr.in[1] <== H;
    lr.out === 1;
}
