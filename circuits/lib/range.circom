pragma circom 2.1.0;

include "bitify.circom";

// Asserts 0 <= in < 2^n (as an integer below the field modulus). n must be < 254.
// A negative value wraps to p - x, which needs ~254 bits, so it is rejected too.
template AssertBits(n) {
    signal input in;
    component b = Num2Bits(n);
    b.in <== in;
    _ <== b.out;
}
