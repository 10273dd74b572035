pragma circom 2.1.0;

include "poseidon.circom";
include "unit.circom";

// Unpacks a state's field words into N unit slots (7 per word; the last word holds the rest).
template UnpackState(N) {
    var NW = (N + 6) \ 7;
    signal input words[NW];
    signal output word[N];
    signal output alive[N];
    signal output type[N];
    signal output hp[N];
    signal output col[N];
    signal output row[N];
    signal output colBits[N][10];
    signal output rowBits[N][10];
    component w[NW];
    for (var i = 0; i < NW; i++) {
        var k = (i == NW - 1) ? N - 7 * i : 7;
        w[i] = UnpackUnits(k);
        w[i].in <== words[i];
        for (var u = 0; u < k; u++) {
            var s = 7 * i + u;
            word[s] <== w[i].word[u];
            alive[s] <== w[i].alive[u];
            type[s] <== w[i].type[u];
            hp[s] <== w[i].hp[u];
            col[s] <== w[i].col[u];
            row[s] <== w[i].row[u];
            colBits[s] <== w[i].colBits[u];
            rowBits[s] <== w[i].rowBits[u];
        }
    }
}

// Packs N 33-bit unit words into state field words (the inverse of UnpackState; linear).
template PackState(N) {
    var NW = (N + 6) \ 7;
    signal input word[N];
    signal output words[NW];
    for (var i = 0; i < NW; i++) {
        var acc = 0;
        for (var u = 0; u < 7; u++) {
            if (7 * i + u < N) acc += word[7 * i + u] * (1 << (33 * u));
        }
        words[i] <== acc;
    }
}

// A slot is canonical when a unit that is not alive is the all-zero word.
template AssertCanonical() {
    signal input alive;
    signal input word;
    (1 - alive) * word === 0;
}

// The play commitment a seat stores on-chain: Poseidon(Poseidon(blinding, words...), revealCommit,
// mapRoot). State, reveal list and the map root the seat plays on share one public signal and one
// storage slot: a spawn binds the game's root (a public signal of the spawn), and every later proof
// opens the commitment with that root and keeps it, so turns check destinations against it with no
// root signal of their own. The inner state commitment (hiding: it has its own blinding) is what a
// player shows the dealer to open the reveal list.
template PlayCommit(NW) {
    signal input blinding;
    signal input words[NW];
    signal input revealCommit;
    signal input mapRoot;
    signal output out;
    signal output stateCommit;
    component sh = Poseidon(NW + 1);
    sh.inputs[0] <== blinding;
    for (var w = 0; w < NW; w++) sh.inputs[w + 1] <== words[w];
    stateCommit <== sh.out;
    out <== Poseidon(3)([stateCommit, revealCommit, mapRoot]);
}
