pragma circom 2.1.6;

include "poseidon.circom";
include "comparators.circom";
include "generator_params.circom";
include "../lib/merkle.circom";

/*
 * Ties a posted map root to the ceremony. Public: gameId, the seats' addresses and share commitments
 * (0 past nPlayers), nPlayers, Poseidon(seed), the map root, and every zone's subtree root (each one
 * the output of that zone's mapchunk proof). Private: the shares. Proves
 *   C_i = Poseidon(gameId, player_i, r_i) for i < nPlayers,  seed = Poseidon(r_1..r_n),
 *   seedHash = Poseidon(seed),  root = the 4-ary tree over the zone roots (zero subtrees past the last
 *   zone; `depth` in 4-ary levels).
 */
template MapRoot(maxPlayers, zones, depth) {
    signal input gameId;
    signal input players[maxPlayers];
    signal input shareCommits[maxPlayers];
    signal input nPlayers;
    signal input seedHash;
    signal input root;
    signal input zoneRoots[zones];
    signal input shares[maxPlayers];

    // nPlayers in 2..maxPlayers, as a one-hot selector over the seed arities.
    component isN[maxPlayers + 1];
    var sel = 0;
    for (var n = 2; n <= maxPlayers; n++) {
        isN[n] = IsEqual();
        isN[n].in[0] <== nPlayers;
        isN[n].in[1] <== n;
        sel += isN[n].out;
    }
    sel === 1;

    // Seat i is active iff i < nPlayers; active seats open their commitment, inactive ones are all zero.
    component commit[maxPlayers];
    signal active[maxPlayers];
    for (var i = 0; i < maxPlayers; i++) {
        var a = 0;
        for (var n = i + 1; n <= maxPlayers; n++) {
            if (n >= 2) a += isN[n].out;
        }
        active[i] <== a;
        commit[i] = Poseidon(3);
        commit[i].inputs[0] <== gameId;
        commit[i].inputs[1] <== players[i];
        commit[i].inputs[2] <== shares[i];
        active[i] * (commit[i].out - shareCommits[i]) === 0;
        (1 - active[i]) * shareCommits[i] === 0;
        (1 - active[i]) * shares[i] === 0;
    }

    // seed = Poseidon(r_1..r_n) for the chosen n.
    component seedOf[maxPlayers + 1];
    signal pick[maxPlayers - 1];
    var seed = 0;
    for (var n = 2; n <= maxPlayers; n++) {
        seedOf[n] = Poseidon(n);
        for (var i = 0; i < n; i++) seedOf[n].inputs[i] <== shares[i];
        pick[n - 2] <== isN[n].out * seedOf[n].out;
        seed += pick[n - 2];
    }
    component sh = Poseidon(1);
    sh.inputs[0] <== seed;
    sh.out === seedHash;

    // Zone roots up to the map root (4-ary, core/merkle.ts); absent zones are empty zone subtrees
    // (precomputed zero hashes, height 3).
    assert(treeArity() == 4);
    var width = 1;
    for (var k = 3; k < depth; k++) width *= 4;
    signal level[(4 * width - 1) \ 3];
    for (var z = 0; z < width; z++) {
        if (z < zones) level[z] <== zoneRoots[z];
        else level[z] <== merkleZero(3);
    }
    component node[width];
    var base = 0;
    var next = width;
    var at = 0;
    for (var w = width \ 4; w >= 1; w = w \ 4) {
        for (var k = 0; k < w; k++) {
            node[at] = Poseidon(4);
            for (var c = 0; c < 4; c++) node[at].inputs[c] <== level[base + 4 * k + c];
            level[next + k] <== node[at].out;
            at++;
        }
        base = next;
        next += w;
    }
    level[(4 * width - 1) \ 3 - 1] === root;
}
