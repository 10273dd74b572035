pragma circom 2.1.0;

include "bitify.circom";

// Packed public signals (core/witness/publics.ts): small fields placed next-fit in 253-bit words,
// in order, each in the current word when it fits, else at bit 0 of the next. 2^253 < p, so a
// word's Num2Bits is unique and unpacking cannot alias. One verifier multiplication per word
// instead of one per field is what keeps a turn under 300k gas.

function packedWordBits() { return 253; }

// Context of a spawn or turn: player (160 bits), step (turn number, or the seat for a spawn,
// 32 bits), then K opponent zone bitmasks of Z bits each.
function contextWords(K, Z) {
    var w = 0;
    var off = 192;
    for (var o = 0; o < K; o++) {
        if (off + Z > packedWordBits()) { w++; off = 0; }
        off += Z;
    }
    return w + 1;
}

// Report of a spawn or turn: the zone bitmask (Z bits), then N forced-reveal lanes of LB bits.
function reportWords(N, Z, LB) {
    var w = 0;
    var off = Z;
    for (var u = 0; u < N; u++) {
        if (off + LB > packedWordBits()) { w++; off = 0; }
        off += LB;
    }
    return w + 1;
}

// Bits of a forced-reveal lane: lanes go up to 16 * Z.
function laneBits(Z) {
    var b = 0;
    while ((16 * Z) >> b > 0) b++;
    return b;
}

// Unpacks the public context words; every field comes out range-checked by its word's bits.
template UnpackContext(K, Z) {
    var CW = contextWords(K, Z);
    signal input ctx[CW];
    signal output player;
    signal output step;
    signal output oppMask[K];

    // used[w]: the bits word w carries; wordOf/offOf: where each mask sits.
    var used[CW];
    var wordOf[K];
    var offOf[K];
    var w = 0;
    var off = 192;
    for (var o = 0; o < K; o++) {
        if (off + Z > packedWordBits()) { used[w] = off; w++; off = 0; }
        wordOf[o] = w;
        offOf[o] = off;
        off += Z;
    }
    used[w] = off;

    component nb[CW];
    for (var i = 0; i < CW; i++) {
        nb[i] = Num2Bits(used[i]);
        nb[i].in <== ctx[i];
    }
    var p = 0;
    for (var i = 0; i < 160; i++) p += nb[0].out[i] * (1 << i);
    player <== p;
    var s = 0;
    for (var i = 0; i < 32; i++) s += nb[0].out[160 + i] * (1 << i);
    step <== s;
    for (var o = 0; o < K; o++) {
        var m = 0;
        for (var i = 0; i < Z; i++) m += nb[wordOf[o]].out[offOf[o] + i] * (1 << i);
        oppMask[o] <== m;
    }
}

// Packs the zone bitmask and the forced-reveal lanes into the report words. The inputs must
// already be in range (zoneMask < 2^Z, lane <= 16Z): ZoneMask and ForcedReveals build them so.
template PackReport(N, Z) {
    var LB = laneBits(Z);
    var RW = reportWords(N, Z, LB);
    signal input zoneMask;
    signal input lane[N];
    signal output report[RW];

    var acc[RW];
    for (var i = 0; i < RW; i++) acc[i] = 0;
    acc[0] = zoneMask;
    var w = 0;
    var off = Z;
    for (var u = 0; u < N; u++) {
        if (off + LB > packedWordBits()) { w++; off = 0; }
        acc[w] += lane[u] * (1 << off);
        off += LB;
    }
    for (var i = 0; i < RW; i++) report[i] <== acc[i];
}

// One packed word of NF fields of WIDTHS bits, low bits first (sum <= 253): out[i] is field i,
// bits the word's bits (so callers reuse them as range checks).
template UnpackWord(NF, WIDTHS) {
    var TOTAL = 0;
    for (var i = 0; i < NF; i++) TOTAL += WIDTHS[i];
    assert(TOTAL <= packedWordBits());
    signal input in;
    signal output out[NF];
    signal output bits[TOTAL];
    component nb = Num2Bits(TOTAL);
    nb.in <== in;
    bits <== nb.out;
    var off = 0;
    for (var i = 0; i < NF; i++) {
        var acc = 0;
        for (var j = 0; j < WIDTHS[i]; j++) acc += nb.out[off + j] * (1 << j);
        out[i] <== acc;
        off += WIDTHS[i];
    }
}
