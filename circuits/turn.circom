pragma circom 2.1.0;

include "poseidon.circom";
include "lib/board.circom";
include "lib/distance.circom";
include "lib/lookup.circom";
include "lib/pack.circom";
include "lib/state.circom";
include "vision.circom";

// One turn: oldCommit -> newCommit over N hidden unit slots, plus VisionProof on the new units.
// Per slot: alive, type and hp unchanged (dead stays dead: the all-zero word), the new tile on
// the board, and the grid distance (GRID 0 hex, 1 Chebyshev) from old to new tile at most the
// type's SPEED (0 for structures, so they never move). Public signals (circuits/README.md): the
// packed words (context: seat, turn, opponent masks; report: zone bitmask + forced lanes),
// oldCommit, newCommit: play commitments (lib/state.circom PlayCommit), each binding a state to the
// reveal list of the proof that made it, so the reveal commitment needs no signal of its own, and to
// the map root: private `mapRoot` opens oldCommit and is kept in newCommit (TurnPass checks the
// destinations against it), so a turn cannot change the root its seat's spawn bound.
//
// No gameId signal (6.2k gas each): the contract checks oldCommit against the mover's stored
// commitment in this game, and every stored commitment was made by a proof that knew its opening
// (spawn, with gameId public; turn; combat, with gameId public), so a proof made for another game
// verifies only for a seat whose commitment has the same opening: the same player's own state.
template Turn(W, H, N, T, K, R, GRID, SPEED, SB, METRIC, VIS, VB, ZVIS, ZX, ZY, ND, DX, DY, KY, MD, RB, SC, SP) {
    var NW = (N + 6) \ 7;
    var Z = ZX * ZY;
    var PW = playWords(N, K, Z);
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

    // The packed words are bound by their bit decomposition (seat and turn are only carried, the
    // masks are used, the report fields are constrained to the computed ones below).
    component context = UnpackPlay(N, K, Z);
    context.packed <== packed;
    _ <== context.seat;
    _ <== context.step;

    component oh = PlayCommit(NW);
    oh.blinding <== oldBlinding;
    oh.words <== oldWords;
    oh.revealCommit <== oldRevealCommit;
    oh.mapRoot <== mapRoot;
    oh.out === oldCommit;
    _ <== oh.stateCommit;
    component nh = PlayCommit(NW);
    nh.blinding <== newBlinding;
    nh.words <== newWords;
    nh.mapRoot <== mapRoot;

    component os = UnpackState(N);
    os.words <== oldWords;
    component ns = UnpackState(N);
    ns.words <== newWords;

    _ <== os.word;
    _ <== os.col;
    _ <== os.row;
    _ <== ns.col;
    _ <== ns.row;
    component canon[N];
    component onb[N];
    component speed[N];
    component move[N];
    for (var u = 0; u < N; u++) {
        ns.alive[u] === os.alive[u];
        ns.type[u] === os.type[u];
        ns.hp[u] === os.hp[u];
        canon[u] = AssertCanonical();
        canon[u].alive <== ns.alive[u];
        canon[u].word <== ns.word[u];
        onb[u] = AssertOnBoard(W, H);
        onb[u].colBits <== ns.colBits[u];
        onb[u].rowBits <== ns.rowBits[u];
        speed[u] = Lookup(T, SPEED);
        speed[u].in <== os.type[u];
        move[u] = AssertWithin(GRID, SB);
        move[u].aColBits <== os.colBits[u];
        move[u].aRowBits <== os.rowBits[u];
        move[u].bColBits <== ns.colBits[u];
        move[u].bRowBits <== ns.rowBits[u];
        move[u].r <== speed[u].out;
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
