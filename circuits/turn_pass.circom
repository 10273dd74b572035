pragma circom 2.1.0;

include "comparators.circom";
include "lib/passable.circom";
include "lib/state.circom";
include "turn.circom";

// Turn with passability (ruleset.provePassability): every unit that moves proves its destination
// tile passable with the tile's data, salt and Merkle path against the public map root. Same
// public signals as Turn, with `mapRoot` appended. The top TK levels of the map tree are shared:
// the private `mapTop` (the real nodes at height DEPTH - TK) hash once to `mapRoot`, and each
// slot's path climbs only DEPTH - TK levels to the node its index selects among them.
template TurnPass(W, H, N, T, K, R, GRID, SPEED, SB, METRIC, VIS, VB, ZVIS, ZX, ZY, ND, DX, DY, KY, MD, RB, SC, SP, DEPTH, TK) {
    var NW = (N + 6) \ 7;
    var Z = ZX * ZY;
    var PW = playWords(N, K, Z);
    var TM = mapNodesAt(ZX * ZY, DEPTH - TK);
    signal input packed[PW];
    signal input gameId;
    signal input oldCommit;
    signal input newCommit;
    signal input revealCommit;
    signal input mapRoot;

    signal input oldBlinding;
    signal input oldWords[NW];
    signal input newBlinding;
    signal input newWords[NW];
    signal input revealBlinding;
    signal input tileCol[R];
    signal input tileRow[R];
    signal input present[R];
    signal input cover[R][N];
    signal input destTerrain[N];
    signal input destFeature[N];
    signal input destResource[N];
    signal input destRivers[N];
    signal input destSalt[N];
    signal input destPath[N][(DEPTH - TK) * 3];
    signal input mapTop[TM];


    signal rootSq <== mapRoot * mapRoot;

    component top = MapTop(ZX * ZY, DEPTH, TK);
    top.top <== mapTop;
    top.root <== mapRoot;

    component t = Turn(W, H, N, T, K, R, GRID, SPEED, SB, METRIC, VIS, VB, ZVIS, ZX, ZY, ND, DX, DY, KY, MD, RB, SC, SP);
    t.gameId <== gameId;
    t.packed <== packed;
    t.oldCommit <== oldCommit;
    t.newCommit <== newCommit;
    t.revealCommit <== revealCommit;
    t.oldBlinding <== oldBlinding;
    t.oldWords <== oldWords;
    t.newBlinding <== newBlinding;
    t.newWords <== newWords;
    t.revealBlinding <== revealBlinding;
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
    component sameCol[N];
    component sameRow[N];
    component pass[N];
    signal stay[N];
    for (var u = 0; u < N; u++) {
        sameCol[u] = IsEqual();
        sameCol[u].in[0] <== os.col[u];
        sameCol[u].in[1] <== ns.col[u];
        sameRow[u] = IsEqual();
        sameRow[u].in[0] <== os.row[u];
        sameRow[u].in[1] <== ns.row[u];
        stay[u] <== sameCol[u].out * sameRow[u].out;
        pass[u] = AssertPassable(ZX, ZX * ZY, DEPTH, TK);
        pass[u].on <== 1 - stay[u];
        pass[u].colBits <== ns.colBits[u];
        pass[u].rowBits <== ns.rowBits[u];
        pass[u].terrain <== destTerrain[u];
        pass[u].feature <== destFeature[u];
        pass[u].resource <== destResource[u];
        pass[u].rivers <== destRivers[u];
        pass[u].salt <== destSalt[u];
        pass[u].path <== destPath[u];
        pass[u].top <== mapTop;
    }
}
