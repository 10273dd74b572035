pragma circom 2.1.0;

include "poseidon.circom";

// Root of a binary Poseidon Merkle tree from a leaf, its path and the index bits (core/merkle.ts:
// bit k set means the node is the right child at level k). Bits must be boolean.
template MerkleRoot(DEPTH) {
    signal input leaf;
    signal input path[DEPTH];
    signal input indexBits[DEPTH];
    signal output root;
    component h[DEPTH];
    signal node[DEPTH + 1];
    signal left[DEPTH];
    signal right[DEPTH];
    node[0] <== leaf;
    for (var k = 0; k < DEPTH; k++) {
        left[k] <== node[k] + indexBits[k] * (path[k] - node[k]);
        right[k] <== path[k] + node[k] - left[k];
        h[k] = Poseidon(2);
        h[k].inputs[0] <== left[k];
        h[k].inputs[1] <== right[k];
        node[k + 1] <== h[k].out;
    }
    root <== node[DEPTH];
}
