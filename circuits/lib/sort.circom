pragma circom 2.1.0;

include "compare.circom";

// After the comparator, hi >= lo. Inputs must be below 2^B (Lt's precondition).
template CompareSwap(B) {
    signal input a;
    signal input b;
    signal output hi;
    signal output lo;
    component lt = Lt(B);
    lt.in[0] <== a;
    lt.in[1] <== b;
    // a < b: swap.
    signal d <== lt.out * (b - a);
    hi <== a + d;
    lo <== b - d;
}

// Sorts N values below 2^B in descending order with a comparator network of C pairs
// (PAIRS[c] = [i, j], i < j; scripts/circuits/sortnet.ts). The output is a function of the input
// multiset only, so it says nothing about which input held which value.
template SortDesc(N, B, C, PAIRS) {
    signal input in[N];
    signal output out[N];
    component cs[C];
    signal stage[C + 1][N];
    stage[0] <== in;
    for (var c = 0; c < C; c++) {
        cs[c] = CompareSwap(B);
        cs[c].a <== stage[c][PAIRS[c][0]];
        cs[c].b <== stage[c][PAIRS[c][1]];
        for (var i = 0; i < N; i++) {
            if (i == PAIRS[c][0]) {
                stage[c + 1][i] <== cs[c].hi;
            } else if (i == PAIRS[c][1]) {
                stage[c + 1][i] <== cs[c].lo;
            } else {
                stage[c + 1][i] <== stage[c][i];
            }
        }
    }
    out <== stage[C];
}
