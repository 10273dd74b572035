pragma circom 2.1.0;

include "bitify.circom";

// Packed public signals (core/witness/publics.ts): small fields placed next-fit in 253-bit words,
// in order, each in the current word when it fits, else at bit 0 of the next. 2^253 < p, so a
// word's Num2Bits is unique and unpacking cannot alias. One verifier multiplication per word
// instead of one per field is what keeps a turn under 300k gas.

function packedWordBits() { return 253; }

// The one packed layout of a spawn or turn (core/witness/publics.ts): the context the contract
// supplies (seat 8 bits, step 32 bits: the turn, or the seat for a spawn; K opponent zone bitmasks of
// Z bits), then the report the proof shows (the new zone bitmask, Z bits; N forced-reveal lanes of
// laneBits(Z) bits). Context first, so the contract lays it out without knowing N.
function playFieldCount(N, K) { return 2 + K + 1 + N; }
function playFieldBits(i, N, K, Z) {
    if (i == 0) return 8;
    if (i == 1) return 32;
    if (i < 2 + K + 1) return Z;
    return laneBits(Z);
}

// Words the layout takes.
function playWords(N, K, Z) {
    var w = 0;
    var off = 0;
    for (var i = 0; i < playFieldCount(N, K); i++) {
        var b = playFieldBits(i, N, K, Z);
        if (off + b > packedWordBits()) { w++; off = 0; }
        off += b;
    }
    return w + 1;
}

// Bits of a forced-reveal lane: lanes go up to 16 * Z.
function laneBits(Z) {
    var b = 0;
    while ((16 * Z) >> b > 0) b++;
    return b;
}

// Unpacks the public words of a spawn or turn. Every field comes out range-checked by its word's
// bits, and every bit a word does not use is 0 (one Num2Bits of the used width per word; 2^253 < p,
// so the decomposition is unique). The caller constrains zoneMask and lane to the values it computes.
template UnpackPlay(N, K, Z) {
    var PW = playWords(N, K, Z);
    var NF = playFieldCount(N, K);
    signal input packed[PW];
    signal output seat;
    signal output step;
    signal output oppMask[K];
    signal output zoneMask;
    signal output lane[N];

    var used[PW];
    var wordOf[NF];
    var offOf[NF];
    var w = 0;
    var off = 0;
    for (var i = 0; i < NF; i++) {
        var b = playFieldBits(i, N, K, Z);
        if (off + b > packedWordBits()) { used[w] = off; w++; off = 0; }
        wordOf[i] = w;
        offOf[i] = off;
        off += b;
    }
    used[w] = off;

    component nb[PW];
    for (var i = 0; i < PW; i++) {
        nb[i] = Num2Bits(used[i]);
        nb[i].in <== packed[i];
    }
    signal field[NF];
    for (var f = 0; f < NF; f++) {
        var acc = 0;
        for (var j = 0; j < playFieldBits(f, N, K, Z); j++) acc += nb[wordOf[f]].out[offOf[f] + j] * (1 << j);
        field[f] <== acc;
    }
    seat <== field[0];
    step <== field[1];
    for (var o = 0; o < K; o++) oppMask[o] <== field[2 + o];
    zoneMask <== field[2 + K];
    for (var u = 0; u < N; u++) lane[u] <== field[3 + K + u];
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
