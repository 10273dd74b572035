pragma circom 2.1.0;

include "poseidon.circom";

// Children per node of the map tree (core/merkle.ts TREE_ARITY). The templates below place a node
// with two index bits, so they assert it is 4.
function treeArity() { return 4; }

// The four children of a parent: `node` at the slot bits[0] + 2 * bits[1], its three siblings
// around it in child order (core/merkle.ts rootFromPath). From the one-hot e of the slot (one
// product), child j is the node if the slot is j, sibling j - 1 if the slot is below j, else
// sibling j. Bits must be boolean.
template PlaceChild() {
    assert(treeArity() == 4);
    signal input node;
    signal input siblings[3];
    signal input bits[2];
    signal output children[4];
    signal both <== bits[0] * bits[1];
    var e[4] = [1 - bits[0] - bits[1] + both, bits[0] - both, bits[1] - both, both];
    signal low1 <== e[0] * (siblings[0] - siblings[1]);
    signal high2 <== e[3] * (siblings[2] - siblings[1]);
    children[0] <== siblings[0] + e[0] * (node - siblings[0]);
    children[1] <== siblings[1] + low1 + e[1] * (node - siblings[1]);
    children[2] <== siblings[1] + high2 + e[2] * (node - siblings[1]);
    children[3] <== siblings[2] + e[3] * (node - siblings[2]);
}

// Root of the 4-ary Poseidon tree from a leaf, its path (three siblings a level, lowest level
// first) and the index bits (two a level, low bits first). Bits must be boolean.
template MerkleRoot(DEPTH) {
    signal input leaf;
    signal input path[DEPTH * 3];
    signal input indexBits[DEPTH * 2];
    signal output root;
    component place[DEPTH];
    component h[DEPTH];
    signal node[DEPTH + 1];
    node[0] <== leaf;
    for (var k = 0; k < DEPTH; k++) {
        place[k] = PlaceChild();
        place[k].node <== node[k];
        for (var j = 0; j < 3; j++) place[k].siblings[j] <== path[3 * k + j];
        place[k].bits[0] <== indexBits[2 * k];
        place[k].bits[1] <== indexBits[2 * k + 1];
        h[k] = Poseidon(4);
        h[k].inputs <== place[k].children;
        node[k + 1] <== h[k].out;
    }
    root <== node[DEPTH];
}
