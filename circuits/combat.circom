pragma circom 2.1.0;

include "poseidon.circom";
include "comparators.circom";
include "lib/compare.circom";
include "lib/board.circom";
include "lib/onehot.circom";
include "lib/pack.circom";
include "lib/state.circom";
include "lib/unit.circom";

// Combat (defender): presence or absence of an own alive unit on the public target tile, against
// oldCommit. Presence: the named slot (one-hot `sel`) holds an alive unit on the tile; its type
// and hp are output, and its hp drops by `damage`; at hp <= damage the slot is emptied (killed).
// Absence: no alive unit stands on the tile, `sel` is all zero, and present = type = hp = 0.
// Both commitments are play commitments (lib/state.circom) with the same reveal commitment and map
// root: the defender's latest reveal list stays bound (a dispute still opens it), and so does its root. newCommit keeps the state's
// blinding (new state Poseidon(blinding, new words)), so the attack nullifiers of
// this turn stay valid (see circuits/README.md). Public `target` packs player (160 bits) | turn
// (32) | target column (10) | row (10) | damage (8), which the contract builds, and the outcome the
// defender claims: present (1) | type (4) | hp (8), constrained to the computed ones (233 bits in
// one word: one public signal fewer than a separate outcome output).
template Combat(W, H, N) {
    var NW = (N + 6) \ 7;
    signal input gameId;
    signal input target;
    signal input oldCommit;

    signal input blinding;
    signal input words[NW];
    signal input revealCommit;
    signal input mapRoot;
    signal input sel[N];

    signal output newCommit;

    signal gameIdSq <== gameId * gameId;
    component tw = UnpackWord(8, [160, 32, 10, 10, 8, 1, 4, 8]);
    tw.in <== target;
    _ <== tw.out[0];
    _ <== tw.out[1];
    signal targetCol <== tw.out[2];
    signal targetRow <== tw.out[3];
    signal damage <== tw.out[4];
    signal tcBits[10];
    signal trBits[10];
    for (var i = 0; i < 10; i++) {
        tcBits[i] <== tw.bits[192 + i];
        trBits[i] <== tw.bits[202 + i];
    }
    for (var i = 0; i < 192; i++) _ <== tw.bits[i];
    for (var i = 212; i < 233; i++) _ <== tw.bits[i];
    signal present;
    signal unitType;
    signal unitHp;

    component h = PlayCommit(NW);
    h.blinding <== blinding;
    h.words <== words;
    h.revealCommit <== revealCommit;
    h.mapRoot <== mapRoot;
    h.out === oldCommit;
    _ <== h.stateCommit;

    component onb = AssertOnBoard(W, H);
    onb.colBits <== tcBits;
    onb.rowBits <== trBits;

    component st = UnpackState(N);
    st.words <== words;
    component ec[N];
    component er[N];
    signal here[N];
    signal match[N];
    var cnt = 0;
    for (var k = 0; k < N; k++) {
        ec[k] = IsEqual();
        ec[k].in[0] <== st.col[k];
        ec[k].in[1] <== targetCol;
        er[k] = IsEqual();
        er[k].in[0] <== st.row[k];
        er[k].in[1] <== targetRow;
        here[k] <== ec[k].out * er[k].out;
        match[k] <== here[k] * st.alive[k];
        cnt += match[k];
    }
    component none = IsZero();
    none.in <== cnt;
    present <== 1 - none.out;

    component oh = AssertOneHotBits(N);
    oh.bits <== sel;
    oh.total <== present;
    signal picked[N];
    signal pickedMatch[N];
    var sw = 0;
    var ok = 0;
    for (var k = 0; k < N; k++) {
        picked[k] <== sel[k] * st.word[k];
        pickedMatch[k] <== sel[k] * match[k];
        sw += picked[k];
        ok += pickedMatch[k];
    }
    ok === present;
    component u = UnpackUnit();
    u.in <== sw;
    _ <== st.type;
    _ <== st.hp;
    _ <== st.colBits;
    _ <== st.rowBits;
    _ <== u.alive;
    _ <== u.col;
    _ <== u.row;
    _ <== u.colBits;
    _ <== u.rowBits;
    unitType <== u.type;
    unitHp <== u.hp;

    // killed = hp <= damage (both 8-bit). Absent: sw = 0, hp = 0, so killed = 1 and delta = 0.
    component killed = Le(8);
    killed.in[0] <== u.hp;
    killed.in[1] <== damage;
    signal after <== (1 - killed.out) * (sw - damage * 32);
    signal delta <== after - sw;
    signal change[N];
    signal newWord[N];
    for (var k = 0; k < N; k++) {
        change[k] <== sel[k] * delta;
        newWord[k] <== st.word[k] + change[k];
    }
    component pk = PackState(N);
    pk.word <== newWord;
    component nh = PlayCommit(NW);
    nh.blinding <== blinding;
    nh.words <== pk.words;
    nh.revealCommit <== revealCommit;
    nh.mapRoot <== mapRoot;
    _ <== nh.stateCommit;
    newCommit <== nh.out;

    // The claimed outcome fields (range-checked by the word's bits) are the computed ones.
    tw.out[5] === present;
    tw.out[6] === unitType;
    tw.out[7] === unitHp;
}
