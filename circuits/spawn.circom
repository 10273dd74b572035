pragma circom 2.1.0;

include "poseidon.circom";
include "lib/board.circom";
include "lib/onehot.circom";
include "lib/pack.circom";
include "lib/range.circom";
include "lib/state.circom";
include "vision.circom";

// Spawn: the initial commitment holds exactly the ruleset's spawn units, slot i = SPAWN[i] at
// full hp (HP[type]) for i < S, every other slot empty, and every unit inside the start area of
// the public seat (AREA[seat] = [col0, row0, col1, row1]). Same VisionProof outputs as a turn.
// The public `mapRoot` (the game's root, which the contract supplies) goes into the play commitment,
// where every later proof of the seat finds it (lib/state.circom PlayCommit).
template Spawn(W, H, N, T, K, R, P, AREA, S, SPAWN, HP, METRIC, VIS, VB, ZVIS, ZX, ZY, ND, DX, DY, KY, MD, RB, SC, SP) {
    var NW = (N + 6) \ 7;
    var Z = ZX * ZY;
    var PW = playWords(N, K, Z);
    signal input packed[PW];
    signal input gameId;
    signal input newCommit;
    signal input mapRoot;

    signal input newBlinding;
    signal input newWords[NW];
    signal input revealBlinding;
    signal input tileCol[R];
    signal input tileRow[R];
    signal input present[R];
    signal input cover[R][N];

    // The step field is the seat too (spawns are turns 0..n-1 in seat order): both are constrained.
    signal gameIdSq <== gameId * gameId;
    component context = UnpackPlay(N, K, Z);
    context.packed <== packed;
    signal seat <== context.seat;
    context.step === seat;

    // newCommit is the play commitment: the new state bound to this spawn's reveal list (lib/state.circom).
    component nh = PlayCommit(NW);
    nh.blinding <== newBlinding;
    nh.words <== newWords;
    nh.mapRoot <== mapRoot;

    component seatOh = OneHot(P);
    seatOh.in <== seat;
    var col0 = 0; var row0 = 0; var col1 = 0; var row1 = 0;
    for (var p = 0; p < P; p++) {
        col0 += seatOh.out[p] * AREA[p][0];
        row0 += seatOh.out[p] * AREA[p][1];
        col1 += seatOh.out[p] * AREA[p][2];
        row1 += seatOh.out[p] * AREA[p][3];
    }

    component ns = UnpackState(N);
    ns.words <== newWords;
    component inArea[N][4];
    for (var u = 0; u < N; u++) {
        if (u < S) {
            ns.alive[u] === 1;
            ns.type[u] === SPAWN[u];
            ns.hp[u] === HP[SPAWN[u]];
            inArea[u][0] = AssertBits(10);
            inArea[u][0].in <== ns.col[u] - col0;
            inArea[u][1] = AssertBits(10);
            inArea[u][1].in <== col1 - ns.col[u];
            inArea[u][2] = AssertBits(10);
            inArea[u][2].in <== ns.row[u] - row0;
            inArea[u][3] = AssertBits(10);
            inArea[u][3].in <== row1 - ns.row[u];
        } else {
            ns.word[u] === 0;
            _ <== ns.hp[u];
            _ <== ns.col[u];
            _ <== ns.row[u];
        }
    }

    component v = VisionProof(W, H, N, T, K, R, METRIC, VIS, VB, ZVIS, ZX, ZY, ND, DX, DY, KY, MD, RB, SC, SP);
    v.word <== ns.word;
    v.alive <== ns.alive;
    v.type <== ns.type;
    v.colBits <== ns.colBits;
    v.rowBits <== ns.rowBits;
    v.oppMask <== context.oppMask;
    v.revealBlinding <== revealBlinding;
    v.tileCol <== tileCol;
    v.tileRow <== tileRow;
    v.present <== present;
    v.cover <== cover;
    nh.revealCommit <== v.revealCommit;
    nh.out === newCommit;
    _ <== nh.stateCommit;
    // The report fields of the packed words are the computed ones.
    context.zoneMask === v.zoneMask;
    for (var u = 0; u < N; u++) context.lane[u] === v.lane[u];
}
