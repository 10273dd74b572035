pragma circom 2.1.0;

include "comparators.circom";
include "lib/passable.circom";
include "lib/state.circom";
include "turn.circom";

// Turn with passability (ruleset.provePassability): every unit that moves proves its destination
// tile passable with the tile's data, salt and Merkle path against the map root. Same public
// signals as Turn: the root is private, pinned by oldCommit (the spawn bound the game's root into
// the play commitment, lib/state.circom PlayCommit) and kept in newCommit.
//
// Only the MN mobile slots MSLOT (the spawn slots whose type has speed > 0: spawn puts SPAWN[i]
// in slot i and types never change, every other slot holds a structure or is empty forever) carry
// an opening; every other slot is constrained to stay where it is. The validator bounds every
// speed to 1 under provePassability, so a move is one step onto an adjacent tile and the
// destination check is the whole path check: no hop over an impassable tile is possible.
//
// The top TK levels of the map tree are shared: the private `mapTop` (the real nodes at height
// DEPTH - TK, 4-ary levels) hash once to `mapRoot`, and each slot's path climbs only DEPTH - TK
// levels (three siblings per level) to the node its index selects among them.
template TurnPass(W, H, N, T, K, R, GRID, SPEED, SB, METRIC, VIS, VB, ZVIS, ZX, ZY, ND, DX, DY, KY, MD, RB, SC, SP, DEPTH, TK, MN, MSLOT) {
    var NW = (N + 6) \ 7;
    var Z = ZX * ZY;
    var PW = playWords(N, K, Z);
    var TM = mapNodesAt(ZX * ZY, DEPTH - TK);
    signal input packed[PW];
    signal input oldCommit;
    signal input newCommit;

    signal input oldBlinding;
    signal input oldWords[NW];
    signal input oldRevealCommit;
    signal input newBlinding;
    signal input newWords[NW];
    signal input revealBlinding;
    signal input mapRoot;
    signal input tileCol[R];
    signal input tileRow[R];
    signal input present[R];
    signal input cover[R][N];
    signal input destTerrain[MN];
    signal input destFeature[MN];
    signal input destResource[MN];
    signal input destRivers[MN];
    signal input destSalt[MN];
    signal input destPath[MN][(DEPTH - TK) * 3];
    signal input mapTop[TM];


    component top = MapTop(ZX * ZY, DEPTH, TK);
    top.top <== mapTop;
    top.root <== mapRoot;

    component t = Turn(W, H, N, T, K, R, GRID, SPEED, SB, METRIC, VIS, VB, ZVIS, ZX, ZY, ND, DX, DY, KY, MD, RB, SC, SP);
    t.packed <== packed;
    t.oldCommit <== oldCommit;
    t.newCommit <== newCommit;
    t.oldBlinding <== oldBlinding;
    t.oldWords <== oldWords;
    t.oldRevealCommit <== oldRevealCommit;
    t.newBlinding <== newBlinding;
    t.newWords <== newWords;
    t.revealBlinding <== revealBlinding;
    t.mapRoot <== mapRoot;
    t.tileCol <== tileCol;
    t.tileRow <== tileRow;
    t.present <== present;
    t.cover <== cover;

    component os = UnpackState(N);
    os.words <== oldWords;
    component ns = UnpackState(N);
    ns.words <== newWords;
    _ <== os.word;
    _ <== os.alive;
    _ <== os.type;
    _ <== os.hp;
    _ <== os.colBits;
    _ <== os.rowBits;
    _ <== ns.word;
    _ <== ns.alive;
    _ <== ns.type;
    _ <== ns.hp;
    _ <== ns.colBits;
    _ <== ns.rowBits;
    // m[u]: the lane of mobile slot u, or -1 for a slot that must stay.
    var m[N];
    for (var u = 0; u < N; u++) m[u] = -1;
    for (var j = 0; j < MN; j++) m[MSLOT[j]] = j;
    component sameCol[MN];
    component sameRow[MN];
    component pass[MN];
    signal stay[MN];
    for (var u = 0; u < N; u++) {
        if (m[u] < 0) {
            ns.col[u] === os.col[u];
            ns.row[u] === os.row[u];
        } else {
            var j = m[u];
            sameCol[j] = IsEqual();
            sameCol[j].in[0] <== os.col[u];
            sameCol[j].in[1] <== ns.col[u];
            sameRow[j] = IsEqual();
            sameRow[j].in[0] <== os.row[u];
            sameRow[j].in[1] <== ns.row[u];
            stay[j] <== sameCol[j].out * sameRow[j].out;
            pass[j] = AssertPassable(ZX, ZX * ZY, DEPTH, TK);
            pass[j].on <== 1 - stay[j];
            pass[j].colBits <== ns.colBits[u];
            pass[j].rowBits <== ns.rowBits[u];
            pass[j].terrain <== destTerrain[j];
            pass[j].feature <== destFeature[j];
            pass[j].resource <== destResource[j];
            pass[j].rivers <== destRivers[j];
            pass[j].salt <== destSalt[j];
            pass[j].path <== destPath[j];
            pass[j].top <== mapTop;
        }
    }
}
