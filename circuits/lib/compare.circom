pragma circom 2.1.0;

include "bitify.circom";

// circomlib's LessThan, minus the unused-bit warning: out = (in[0] < in[1]).
// Precondition: both inputs are below 2^n (callers range-check them first); n <= 252.
template Lt(n) {
    assert(n <= 252);
    signal input in[2];
    signal output out;
    component n2b = Num2Bits(n + 1);
    n2b.in <== in[0] + (1 << n) - in[1];
    out <== 1 - n2b.out[n];
    for (var i = 0; i < n; i++) _ <== n2b.out[i];
}

// out = (in[0] <= in[1]); same precondition as Lt, and in[1] + 1 < 2^n.
template Le(n) {
    signal input in[2];
    signal output out;
    component lt = Lt(n);
    lt.in[0] <== in[0];
    lt.in[1] <== in[1] + 1;
    out <== lt.out;
}
