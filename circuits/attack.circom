pragma circom 2.1.0;

include "poseidon.circom";
include "lib/board.circom";
include "lib/distance.circom";
include "lib/lookup.circom";
include "lib/onehot.circom";
include "lib/pack.circom";
include "lib/range.circom";
include "lib/state.circom";
include "lib/unit.circom";

// Attack: one of the attacker's hidden alive units (slot named one-hot by `sel`) has attack range
// ATK[type] >= 1 and stands within that grid distance (GRID 0 hex, 1 Chebyshev) of the public
// target tile. Output nullifier = Poseidon(blinding, slot, turn): the contract rejects a repeat.
// Public `target` packs player (160 bits) | turn (32) | target column (10) | row (10).
template Attack(W, H, N, T, GRID, ATK, AB) {
    var NW = (N + 6) \ 7;
    signal input gameId;
    signal input target;
    signal input commit;

    signal input blinding;
    signal input words[NW];
    signal input revealCommit;
    signal input mapRoot;
    signal input sel[N];

    signal output nullifier;

    signal gameIdSq <== gameId * gameId;
    component tw = UnpackWord(4, [160, 32, 10, 10]);
    tw.in <== target;
    _ <== tw.out[0];
    _ <== tw.out[2];
    _ <== tw.out[3];
    signal turn <== tw.out[1];
    signal tcBits[10];
    signal trBits[10];
    for (var i = 0; i < 10; i++) {
        tcBits[i] <== tw.bits[192 + i];
        trBits[i] <== tw.bits[202 + i];
    }
    for (var i = 0; i < 192; i++) _ <== tw.bits[i];

    // commit is the seat's stored play commitment (lib/state.circom): its reveal commitment is carried.
    component h = PlayCommit(NW);
    h.blinding <== blinding;
    h.words <== words;
    h.revealCommit <== revealCommit;
    h.mapRoot <== mapRoot;
    h.out === commit;
    _ <== h.stateCommit;

    component onb = AssertOnBoard(W, H);
    onb.colBits <== tcBits;
    onb.rowBits <== trBits;

    component st = UnpackState(N);
    st.words <== words;
    component oh = AssertOneHotBits(N);
    oh.bits <== sel;
    oh.total <== 1;
    signal picked[N];
    var sw = 0;
    var slot = 0;
    for (var k = 0; k < N; k++) {
        picked[k] <== sel[k] * st.word[k];
        sw += picked[k];
        slot += k * sel[k];
    }
    _ <== st.alive;
    _ <== st.type;
    _ <== st.hp;
    _ <== st.col;
    _ <== st.row;
    _ <== st.colBits;
    _ <== st.rowBits;
    component u = UnpackUnit();
    u.in <== sw;
    u.alive === 1;
    _ <== u.hp;
    _ <== u.col;
    _ <== u.row;
    component range = Lookup(T, ATK);
    range.in <== u.type;
    component canAttack = AssertBits(AB);
    canAttack.in <== range.out - 1;
    component within = AssertWithin(GRID, AB);
    within.aColBits <== u.colBits;
    within.aRowBits <== u.rowBits;
    within.bColBits <== tcBits;
    within.bRowBits <== trBits;
    within.r <== range.out;

    component nh = Poseidon(3);
    nh.inputs[0] <== blinding;
    nh.inputs[1] <== slot;
    nh.inputs[2] <== turn;
    nullifier <== nh.out;
}
