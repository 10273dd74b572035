pragma circom 2.1.0;

include "poseidon.circom";
include "lib/lookup.circom";
include "lib/pack.circom";
include "lib/reveals.circom";
include "lib/sort.circom";
include "lib/zones.circom";

// Everything a spawn or turn proof shows about the player's new units: the exact zone bitmask,
// the forced zone-reveal lanes (one per slot, sorted) against each opponent's stored bitmask, and the vision coverage of the
// revealed-tile list behind revealCommit = Poseidon(revealBlinding, lane words...).
// ZVIS[t] is the zone-sight radius of type t (VIS, or VIS^2 for Euclidean, compared with MD).
template VisionProof(W, H, N, T, K, R, METRIC, VIS, VB, ZVIS, ZX, ZY, ND, DX, DY, KY, MD, RB, SC, SP) {
    var RW = (R + 13) \ 14;
    signal input word[N];
    signal input alive[N];
    signal input type[N];
    signal input colBits[N][10];
    signal input rowBits[N][10];
    signal input oppMask[K];
    signal input revealBlinding;
    signal input tileCol[R];
    signal input tileRow[R];
    signal input present[R];
    signal input cover[R][N];
    signal output zoneMask;
    signal output lane[N];
    signal output revealCommit;

    component zo[N];
    component zr[N];
    component sight[N];
    signal see[N][ND + 1];
    for (var u = 0; u < N; u++) {
        zo[u] = ZoneOf(ZX, ZY);
        for (var i = 0; i < 7; i++) {
            zo[u].colBits[i] <== colBits[u][i + 3];
            zo[u].rowBits[i] <== rowBits[u][i + 3];
        }
        zr[u] = Lookup(T, ZVIS);
        zr[u].in <== type[u];
        sight[u] = ZoneSight(ND, MD, RB);
        for (var i = 0; i < 3; i++) {
            sight[u].colBits[i] <== colBits[u][i];
            sight[u].rowBits[i] <== rowBits[u][i];
        }
        sight[u].alive <== alive[u];
        sight[u].r <== zr[u].out;
        see[u][0] <== alive[u];
        for (var d = 0; d < ND; d++) see[u][d + 1] <== sight[u].see[d];
    }
    component zm = ZoneMask(N, ZX, ZY, ND, DX, DY, KY);
    for (var u = 0; u < N; u++) {
        zm.eqx[u] <== zo[u].eqx;
        zm.eqy[u] <== zo[u].eqy;
        zm.see[u] <== see[u];
    }
    zoneMask <== zm.mask;

    component fr = ForcedReveals(N, ZX, ZY, K);
    fr.oppMask <== oppMask;
    for (var u = 0; u < N; u++) {
        fr.eqx[u] <== zo[u].eqx;
        fr.eqy[u] <== zo[u].eqy;
        fr.alive[u] <== alive[u];
        fr.type[u] <== type[u];
        fr.zone[u] <== zo[u].zone;
    }
    // Sorted (largest first), the lanes are a multiset: they do not say which slot stands where,
    // so a unit revealed on consecutive turns cannot be linked by its slot. SP: SC comparator pairs.
    component sorted = SortDesc(N, laneBits(ZX * ZY), SC, SP);
    sorted.in <== fr.lane;
    lane <== sorted.out;

    component cov = RevealCoverage(W, H, N, T, R, ZX, METRIC, VIS, VB);
    cov.unitWord <== word;
    cov.tileCol <== tileCol;
    cov.tileRow <== tileRow;
    cov.present <== present;
    cov.cover <== cover;
    component rh = Poseidon(RW + 1);
    rh.inputs[0] <== revealBlinding;
    for (var w = 0; w < RW; w++) rh.inputs[w + 1] <== cov.words[w];
    revealCommit <== rh.out;
}
