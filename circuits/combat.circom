pragma circom 2.1.0;

include "poseidon.circom";
include "comparators.circom";
include "lib/compare.circom";
include "lib/board.circom";
include "lib/onehot.circom";
include "lib/state.circom";
include "lib/unit.circom";

// Combat (defender): presence or absence of an own alive unit on the public target tile, against
// oldCommit. Presence: the named slot (one-hot `sel`) holds an alive unit on the tile; its type
// and hp are output, and its hp drops by `damage`; at hp <= damage the slot is emptied (killed).
// Absence: no alive unit stands on the tile, `sel` is all zero, and present = type = hp = 0.
// newCommit = Poseidon(blinding, new words) keeps the same blinding, so the attack nullifiers of
// this turn stay valid (see circuits/README.md).
template Combat(W, H, N) {
    var NW = (N + 6) \ 7;
    signal input gameId;
    signal input player;
    signal input turn;
    signal input oldCommit;
    signal input targetCol;
    signal input targetRow;
    signal input damage;

    signal input blinding;
    signal input words[NW];
    signal input sel[N];

    signal output present;
    signal output unitType;
    signal output unitHp;
    signal output newCommit;

    signal gameIdSq <== gameId * gameId;
    signal playerSq <== player * player;
    signal turnSq <== turn * turn;

    component h = Poseidon(NW + 1);
    h.inputs[0] <== blinding;
    for (var w = 0; w < NW; w++) h.inputs[w + 1] <== words[w];
    h.out === oldCommit;

    component tc = Num2Bits(10);
    tc.in <== targetCol;
    component tr = Num2Bits(10);
    tr.in <== targetRow;
    component onb = AssertOnBoard(W, H);
    onb.colBits <== tc.out;
    onb.rowBits <== tr.out;
    component db = Num2Bits(8);
    db.in <== damage;
    _ <== db.out;

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
    component nh = Poseidon(NW + 1);
    nh.inputs[0] <== blinding;
    for (var w = 0; w < NW; w++) nh.inputs[w + 1] <== pk.words[w];
    newCommit <== nh.out;
}
