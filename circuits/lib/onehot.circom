pragma circom 2.1.0;

include "comparators.circom";

// out[k] = (in == k) for k in 0..n-1, and asserts in < n (exactly one output is 1).
// `in` may be any field element; IsEqual pins every output.
template OneHot(n) {
    signal input in;
    signal output out[n];
    component eq[n];
    var sum = 0;
    for (var k = 0; k < n; k++) {
        eq[k] = IsEqual();
        eq[k].in[0] <== in;
        eq[k].in[1] <== k;
        out[k] <== eq[k].out;
        sum += out[k];
    }
    sum === 1;
}

// A one-hot selector given directly as private bits: each bit boolean, and they sum to `total`
// (1 to select exactly one item, or a 0/1 signal to allow selecting nothing).
template AssertOneHotBits(n) {
    signal input bits[n];
    signal input total;
    var sum = 0;
    for (var k = 0; k < n; k++) {
        bits[k] * (bits[k] - 1) === 0;
        sum += bits[k];
    }
    sum === total;
}

// out[k] = 1 iff the 6-bit number given by bits (little-endian) equals k. Bits must be boolean.
template Decode6() {
    signal input bits[6];
    signal output out[64];
    component a = Decode3();
    component b = Decode3();
    for (var i = 0; i < 3; i++) {
        a.bits[i] <== bits[i];
        b.bits[i] <== bits[i + 3];
    }
    for (var h = 0; h < 8; h++) {
        for (var l = 0; l < 8; l++) {
            out[h * 8 + l] <== b.out[h] * a.out[l];
        }
    }
}

// 3-bit decoder: out[k] = (bits == k). Bits must be boolean (5 constraints).
template Decode3() {
    signal input bits[3];
    signal output out[8];
    signal p01 <== bits[0] * bits[1];
    var two[4];
    two[0] = 1 - bits[0] - bits[1] + p01;
    two[1] = bits[0] - p01;
    two[2] = bits[1] - p01;
    two[3] = p01;
    signal hi[4];
    for (var k = 0; k < 4; k++) {
        hi[k] <== two[k] * bits[2];
        out[k] <== two[k] - hi[k];
        out[k + 4] <== hi[k];
    }
}
