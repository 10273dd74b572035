pragma circom 2.1.0;

include "bitify.circom";

// circomlib's CompConstant, minus the unused-bit warning: out = (in > ct) for 254 input bits.
template GtConstant(ct) {
    signal input in[254];
    signal output out;
    signal parts[127];
    var sum = 0;
    var b = (1 << 128) - 1;
    var a = 1;
    var e = 1;
    for (var i = 0; i < 127; i++) {
        var clsb = (ct >> (i * 2)) & 1;
        var cmsb = (ct >> (i * 2 + 1)) & 1;
        var slsb = in[i * 2];
        var smsb = in[i * 2 + 1];
        if ((cmsb == 0) && (clsb == 0)) {
            parts[i] <== -b * smsb * slsb + b * smsb + b * slsb;
        } else if ((cmsb == 0) && (clsb == 1)) {
            parts[i] <== a * smsb * slsb - a * slsb + b * smsb - a * smsb + a;
        } else if ((cmsb == 1) && (clsb == 0)) {
            parts[i] <== b * smsb * slsb - a * smsb + a;
        } else {
            parts[i] <== -a * smsb * slsb + a;
        }
        sum = sum + parts[i];
        b = b - e;
        a = a + e;
        e = e * 2;
    }
    component n2b = Num2Bits(135);
    n2b.in <== sum;
    out <== n2b.out[127];
    for (var i = 0; i < 135; i++) {
        if (i != 127) _ <== n2b.out[i];
    }
}

// The unique 254-bit decomposition of a field element: bits above p - 1 (an alias of in + p) are refused.
template Num2BitsStrict() {
    signal input in;
    signal output out[254];
    component n2b = Num2Bits(254);
    n2b.in <== in;
    component alias = GtConstant(-1);
    for (var i = 0; i < 254; i++) {
        out[i] <== n2b.out[i];
        alias.in[i] <== n2b.out[i];
    }
    alias.out === 0;
}
