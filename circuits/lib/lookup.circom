pragma circom 2.1.0;

include "onehot.circom";

// out = VALUES[in] for in in 0..n-1; asserts in < n.
template Lookup(n, VALUES) {
    signal input in;
    signal output out;
    component oh = OneHot(n);
    oh.in <== in;
    var acc = 0;
    for (var k = 0; k < n; k++) {
        acc += oh.out[k] * VALUES[k];
    }
    out <== acc;
    _ <== oh.out;
}
