pragma circom 2.1.0;

include "bitify.circom";
include "poseidon.circom";
include "merkle.circom";
include "range.circom";
include "tile.circom";
include "../map/generator_params.circom";

// The map tree (core/maptree.ts) has ZONES * 64 real leaves, padded with zero leaves to 4^DEPTH
// (DEPTH in 4-ary levels). Of the 4^(DEPTH - h) nodes at height h, the first mapNodesAt(ZONES, h)
// cover at least one real leaf; every later one is the root of an all-zero subtree, the constant
// merkleZero(h).
function mapNodesAt(ZONES, h) {
    return (ZONES * 64 + (1 << (2 * h)) - 1) \ (1 << (2 * h));
}

// Nodes from height DEPTH - TK + 1 up to the root that cover a real leaf: the Poseidon hashes of
// MapTop, and the selects of each AssertPassable. Plus the mapNodesAt(ZONES, DEPTH - TK) top nodes.
function mapTopSize(ZONES, DEPTH, TK) {
    var n = 0;
    for (var j = 0; j <= TK; j++) n += mapNodesAt(ZONES, DEPTH - TK + j);
    return n;
}

// The shared top of the map tree: the real nodes at height DEPTH - TK (`top`, private, computable
// by anyone from the public zone roots) hash up to `root`, absent nodes being zero subtrees.
// TK = 0: `top` is the root itself.
template MapTop(ZONES, DEPTH, TK) {
    assert(treeArity() == 4);
    var L = DEPTH - TK;
    var M = mapNodesAt(ZONES, L);
    var S = mapTopSize(ZONES, DEPTH, TK);
    signal input top[M];
    signal input root;

    // node: the real nodes level by level, from height L (= top) up to the root (the last one).
    signal node[S];
    component h[S];
    for (var i = 0; i < M; i++) node[i] <== top[i];
    var base = 0;
    for (var j = 0; j < TK; j++) {
        var n = mapNodesAt(ZONES, L + j);
        var up = mapNodesAt(ZONES, L + j + 1);
        for (var p = 0; p < up; p++) {
            var at = base + n + p;
            h[at] = Poseidon(4);
            for (var c = 0; c < 4; c++) {
                if (4 * p + c < n) h[at].inputs[c] <== node[base + 4 * p + c];
                else h[at].inputs[c] <== merkleZero(L + j);
            }
            node[at] <== h[at].out;
        }
        base += n;
    }
    node[S - 1] === root;
}

// When `on` is 1: the tile (colBits, rowBits) has leaf TileLeaf(terrain, feature, resource, rivers,
// salt) in the map tree at its zone-major leaf index, and its terrain is passable (core/tile.ts:
// GRASSLAND 2, PLAINS 3, DESERT 4 or HILLS 5; not water 0-1, not mountains 6). When `on` is 0
// nothing is checked. The leaf index is zone * 64 + (row % 8) * 8 + col % 8, so its low six bits
// are the local bits and the rest are the bits of zone = (row >> 3) * ZX + (col >> 3); a level
// of the tree reads two of them.
//
// The path climbs only DEPTH - TK levels, to the tile's ancestor at height DEPTH - TK, which must
// equal the node that the index's top 2 * TK bits select among `top` (the MapTop nodes, which the
// caller checks against the root once for all slots). Selecting is a 4-way multiplexer, two bits
// a level: three constraints per real node above the top level; absent nodes are the constant
// zero subtree.
template AssertPassable(ZX, ZONES, DEPTH, TK) {
    var L = DEPTH - TK;
    var M = mapNodesAt(ZONES, L);
    var S = mapTopSize(ZONES, DEPTH, TK);
    signal input on;
    signal input colBits[10];
    signal input rowBits[10];
    signal input terrain;
    signal input feature;
    signal input resource;
    signal input rivers;
    signal input salt;
    signal input path[L * 3];
    signal input top[M];

    // on * (terrain - 2) in [0, 4): passable terrain when on, free otherwise.
    component pass = AssertBits(2);
    pass.in <== on * (terrain - 2);

    var zone = 0;
    for (var i = 3; i < 10; i++) zone += colBits[i] * (1 << (i - 3)) + rowBits[i] * (1 << (i - 3)) * ZX;
    component zb = Num2Bits(2 * DEPTH - 6);
    zb.in <== zone;
    var bit[2 * DEPTH];
    for (var i = 0; i < 3; i++) {
        bit[i] = colBits[i];
        bit[i + 3] = rowBits[i];
    }
    for (var i = 0; i < 2 * DEPTH - 6; i++) bit[i + 6] = zb.out[i];

    // The prover picks the fields: bytes, so the leaf's word opens to this tile only (checked when `on` is 0
    // too; the witness then gives zeros).
    component bytes = TileBytes();
    bytes.terrain <== terrain;
    bytes.feature <== feature;
    bytes.resource <== resource;
    bytes.rivers <== rivers;
    component leaf = TileLeaf();
    leaf.terrain <== terrain;
    leaf.feature <== feature;
    leaf.resource <== resource;
    leaf.rivers <== rivers;
    leaf.salt <== salt;
    component mr = MerkleRoot(L);
    mr.leaf <== leaf.out;
    mr.path <== path;
    for (var i = 0; i < 2 * L; i++) mr.indexBits[i] <== bit[i];

    // sel: level j holds the real entries of the 4^(TK - j)-way choice still open after the bits of
    // levels L .. L + j - 1; entries past them are merkleZero(L). The last one is the selected node.
    // Per parent: pairs by the low bit, then the pair by the high bit.
    signal sel[S];
    signal pairs[S - M][2];
    for (var i = 0; i < M; i++) sel[i] <== top[i];
    var base = 0;
    for (var j = 0; j < TK; j++) {
        var n = mapNodesAt(ZONES, L + j);
        var up = mapNodesAt(ZONES, L + j + 1);
        var lo = bit[2 * (L + j)];
        var hi = bit[2 * (L + j) + 1];
        for (var p = 0; p < up; p++) {
            var c[4];
            for (var q = 0; q < 4; q++) {
                if (4 * p + q < n) c[q] = sel[base + 4 * p + q];
                else c[q] = merkleZero(L);
            }
            var at = base + n + p;
            pairs[at - M][0] <== c[0] + lo * (c[1] - c[0]);
            pairs[at - M][1] <== c[2] + lo * (c[3] - c[2]);
            sel[at] <== pairs[at - M][0] + hi * (pairs[at - M][1] - pairs[at - M][0]);
        }
        base += n;
    }
    on * (mr.root - sel[S - 1]) === 0;
}
