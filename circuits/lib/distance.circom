pragma circom 2.1.0;

include "range.circom";

// Asserts |d| <= r for signed d, given 0 <= r and 2r < 2^n: both r - d and r + d must lie in
// [0, 2^n). Any |d| > r makes one of them negative, which wraps far above 2^n.
template AssertAbsAtMost(n) {
    signal input d;
    signal input r;
    component lo = AssertBits(n);
    lo.in <== r - d;
    component hi = AssertBits(n);
    hi.in <== r + d;
}

// Asserts dist(a, b) <= r under a metric on storage coordinates built from their bits:
//   METRIC 0 = hex (odd-r offset, via cube coordinates), 1 = Chebyshev, 2 = Euclidean (r is r^2).
// n bounds the legal slack: 2r < 2^n (Euclidean: r^2 < 2^n).
template AssertWithin(METRIC, n) {
    signal input aColBits[10];
    signal input aRowBits[10];
    signal input bColBits[10];
    signal input bRowBits[10];
    signal input r;
    var ac = 0; var ar = 0; var bc = 0; var br = 0; var arh = 0; var brh = 0;
    for (var i = 0; i < 10; i++) {
        ac += aColBits[i] * (1 << i);
        ar += aRowBits[i] * (1 << i);
        bc += bColBits[i] * (1 << i);
        br += bRowBits[i] * (1 << i);
        if (i > 0) {
            arh += aRowBits[i] * (1 << (i - 1));
            brh += bRowBits[i] * (1 << (i - 1));
        }
    }
    if (METRIC == 0) {
        // cube x = col - (row - (row & 1)) / 2, z = row, y = -x - z
        var dx = (ac - arh) - (bc - brh);
        var dz = ar - br;
        component cx = AssertAbsAtMost(n);
        cx.d <== dx;
        cx.r <== r;
        component cy = AssertAbsAtMost(n);
        cy.d <== -dx - dz;
        cy.r <== r;
        component cz = AssertAbsAtMost(n);
        cz.d <== dz;
        cz.r <== r;
    } else if (METRIC == 1) {
        component cc = AssertAbsAtMost(n);
        cc.d <== ac - bc;
        cc.r <== r;
        component cr = AssertAbsAtMost(n);
        cr.d <== ar - br;
        cr.r <== r;
    } else {
        // |dc|, |dr| < 2^10, so dc^2 + dr^2 < 2^21 and a negative slack wraps far above 2^n.
        signal dc2 <== (ac - bc) * (ac - bc);
        signal dr2 <== (ar - br) * (ar - br);
        component e = AssertBits(n);
        e.in <== r - dc2 - dr2;
    }
}
