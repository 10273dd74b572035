pragma circom 2.1.0;

include "poseidon.circom";
include "range.circom";

// A tile's leaf, Poseidon(terrain | feature << 8 | resource << 16 | rivers << 24, salt) (core/commitments.ts
// leafHash). The word packs the four fields as bytes, so it names one tile only if each field is below 2^8:
// callers whose prover picks the fields check that (TileBytes); the zone circuit computes them.
function tileFieldBits() { return 8; }

template TileLeaf() {
    signal input terrain;
    signal input feature;
    signal input resource;
    signal input rivers;
    signal input salt;
    signal output out;
    var B = tileFieldBits();
    component h = Poseidon(2);
    h.inputs[0] <== terrain + feature * (1 << B) + resource * (1 << (2 * B)) + rivers * (1 << (3 * B));
    h.inputs[1] <== salt;
    out <== h.out;
}

// Each of a prover's four tile fields is a byte: else terrain 2 with feature (word - 2) / 2^8 (a field element)
// would open the word of any tile, a mountain included.
template TileBytes() {
    signal input terrain;
    signal input feature;
    signal input resource;
    signal input rivers;
    component b[4];
    for (var i = 0; i < 4; i++) b[i] = AssertBits(tileFieldBits());
    b[0].in <== terrain;
    b[1].in <== feature;
    b[2].in <== resource;
    b[3].in <== rivers;
}
