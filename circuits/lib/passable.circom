pragma circom 2.1.0;

include "bitify.circom";
include "poseidon.circom";
include "merkle.circom";
include "range.circom";

// When `on` is 1: the tile (colBits, rowBits) has leaf Poseidon(terrain, feature, resource, rivers,
// salt) under `root` at its zone-major leaf index, and its terrain is passable (core/tile.ts:
// GRASSLAND 2, PLAINS 3, DESERT 4 or HILLS 5; not water 0-1, not mountains 6). When `on` is 0
// nothing is checked. The leaf index is zone * 64 + (row % 8) * 8 + col % 8, so its low six bits
// are the local bits and the rest are the bits of zone = (row >> 3) * ZX + (col >> 3).
template AssertPassable(ZX, DEPTH) {
    signal input on;
    signal input colBits[10];
    signal input rowBits[10];
    signal input terrain;
    signal input feature;
    signal input resource;
    signal input rivers;
    signal input salt;
    signal input path[DEPTH];
    signal input root;

    // on * (terrain - 2) in [0, 4): passable terrain when on, free otherwise.
    component pass = AssertBits(2);
    pass.in <== on * (terrain - 2);

    var zone = 0;
    for (var i = 3; i < 10; i++) zone += colBits[i] * (1 << (i - 3)) + rowBits[i] * (1 << (i - 3)) * ZX;
    component zb = Num2Bits(DEPTH - 6);
    zb.in <== zone;
    component leaf = Poseidon(5);
    leaf.inputs[0] <== terrain;
    leaf.inputs[1] <== feature;
    leaf.inputs[2] <== resource;
    leaf.inputs[3] <== rivers;
    leaf.inputs[4] <== salt;
    component mr = MerkleRoot(DEPTH);
    mr.leaf <== leaf.out;
    mr.path <== path;
    for (var i = 0; i < 3; i++) {
        mr.indexBits[i] <== colBits[i];
        mr.indexBits[i + 3] <== rowBits[i];
    }
    for (var i = 0; i < DEPTH - 6; i++) mr.indexBits[i + 6] <== zb.out[i];
    on * (mr.root - root) === 0;
}
