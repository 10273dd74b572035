pragma circom 2.1.0;

include "poseidon.circom";
include "lib/board.circom";
include "lib/distance.circom";
include "lib/lookup.circom";
include "lib/onehot.circom";
include "lib/range.circom";
include "lib/state.circom";
include "lib/unit.circom";

// Attack: one of the attacker's hidden alive units (slot named one-hot by `sel`) has attack range
// ATK[type] >= 1 and stands within that grid distance (GRID 0 hex, 1 Chebyshev) of the public
// target tile. Output nullifier = Poseidon(blinding, slot, turn): the contract rejects a repeat.
template Attack(W, H, N, T, GRID, ATK, AB) {
    var NW = (N + 6) \ 7;
    signal input gameId;
    signal input player;
    signal input turn;
    signal input stateCommit;
    signal input targetCol;
    signal input targetRow;

    signal input blinding;
    signal input words[NW];
    signal input sel[N];

    signal output nullifier;

    signal gameIdSq <== gameId * gameId;
    signal playerSq <== player * player;

    component h = Poseidon(NW + 1);
    h.inputs[0] <== blinding;
    for (var w = 0; w < NW; w++) h.inputs[w + 1] <== words[w];
    h.out === stateCommit;

    component tc = Num2Bits(10);
    tc.in <== targetCol;
    component tr = Num2Bits(10);
    tr.in <== targetRow;
    component onb = AssertOnBoard(W, H);
    onb.colBits <== tc.out;
    onb.rowBits <== tr.out;

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
    within.bColBits <== tc.out;
    within.bRowBits <== tr.out;
    within.r <== range.out;

    component nh = Poseidon(3);
    nh.inputs[0] <== blinding;
    nh.inputs[1] <== slot;
    nh.inputs[2] <== turn;
    nullifier <== nh.out;
}
