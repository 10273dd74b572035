// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IMapGen} from "../IMapGen.sol";
import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {VerifierRegistry} from "../VerifierRegistry.sol";
import {Deps} from "./ShroudStore.sol";

/// @title ShroudTiles
/// @notice Leaves of the map tree as the contracts check them: zone-major coordinates, leaf hashes, 4-ary Merkle paths,
///         and the leaf `Gen(seed)` puts at an index (core/geometry.ts, core/commitments.ts, core/merkle.ts).
library ShroudTiles {
    uint256 internal constant ZONE_SIZE = 8;
    uint256 internal constant ZONE_LEAVES = 64;
    /// @notice Children per node of the map tree (core/merkle.ts TREE_ARITY): Poseidon(4) nodes (`Poseidon.hash4`).
    uint256 internal constant ARITY = 4;
    /// @notice Leaf-index bits a level reads: the node's slot among its siblings.
    uint256 internal constant LEVEL_BITS = 2;
    /// @notice Levels of a zone's subtree over its 64 leaves.
    uint256 internal constant ZONE_HEIGHT = 3;

    /// @notice Tree depth for `zones` zones, `ZONE_HEIGHT + ceil(log4(zones))` (core/geometry.ts makeBoard).
    function depthFor(uint256 zones) internal pure returns (uint256 depth) {
        depth = ZONE_HEIGHT;
        while ((uint256(1) << (LEVEL_BITS * (depth - ZONE_HEIGHT))) < zones) depth++;
    }

    /// @notice Words of a Merkle path through `depth` levels.
    function pathLength(uint256 depth) internal pure returns (uint256) {
        return depth * (ARITY - 1);
    }

    /// @notice Zone-major leaf index → coordinates; `onBoard` false for off-board slots and unused zones.
    function coord(IShroudGame.Game storage g, uint256 leafIndex)
        internal
        view
        returns (bool onBoard, uint256 col, uint256 row)
    {
        uint256 zonesX = (uint256(g.width) + ZONE_SIZE - 1) / ZONE_SIZE;
        uint256 zone = leafIndex / ZONE_LEAVES;
        uint256 local = leafIndex % ZONE_LEAVES;
        col = (zone % zonesX) * ZONE_SIZE + (local % ZONE_SIZE);
        row = (zone / zonesX) * ZONE_SIZE + local / ZONE_SIZE;
        onBoard = zone < g.zones && col < g.width && row < g.height;
    }

    /// @notice `Gen(seed)` at (col, row) as its tile word (`pack`). The generator favours the ruleset's start areas,
    ///         read from the registry.
    function generated(IShroudGame.Game storage g, address mapGen, address registry, uint256 col, uint256 row)
        internal
        view
        returns (uint256)
    {
        uint256 starts = VerifierRegistry(registry).startAreasOf(g.rulesetHash);
        (uint8 t, uint8 f, uint8 r, uint8 rv) =
            IMapGen(mapGen).generateTile(g.seed, g.kind, g.width, g.height, starts, col, row);
        return pack(t, f, r, rv);
    }

    /// @notice The leaf `Gen(seed)` puts at `leafIndex` with `salt`: `Poseidon(word, salt)`, or 0 in an off-board
    ///         slot (the tree's padding). The open map's leaves have salt 0, the dealer's `Poseidon(master, index)`.
    function genLeaf(IShroudGame.Game storage g, Deps memory deps, uint256 leafIndex, uint256 salt)
        internal
        view
        returns (uint256)
    {
        (bool onBoard, uint256 col, uint256 row) = coord(g, leafIndex);
        if (!onBoard) return 0;
        return leafOfWord(deps.hashers[1], generated(g, deps.mapGen, deps.registry, col, row), salt);
    }

    /// @notice The tile word a leaf hashes, `terrain | feature << 8 | resource << 16 | rivers << 24`
    ///         (core/commitments.ts tileWord); the fields must be bytes (`isTile`).
    function pack(uint256 t, uint256 f, uint256 r, uint256 rv) internal pure returns (uint256) {
        return t | (f << 8) | (r << 16) | (rv << 24);
    }

    /// @notice Whether the fields of `tile` ([terrain, feature, resource, rivers, salt]) are bytes: a larger one
    ///         would alias another tile's word (terrain 258, feature 0 packs like terrain 2, feature 1).
    function isTile(uint256[5] memory tile) internal pure returns (bool) {
        return (tile[0] | tile[1] | tile[2] | tile[3]) >> 8 == 0;
    }

    /// @notice `Poseidon(pack(terrain, feature, resource, rivers), salt)`; reverts `NotATile` for a field that is not
    ///         a byte, `NotInField` for a salt ≥ p.
    function leafHash(address poseidon2, uint256[5] memory tile) internal view returns (uint256) {
        if (!isTile(tile)) revert IShroudGame.NotATile();
        return leafOfWord(poseidon2, pack(tile[0], tile[1], tile[2], tile[3]), tile[4]);
    }

    /// @notice The leaf of a tile word and its salt; reverts `NotInField` for a salt ≥ p.
    function leafOfWord(address poseidon2, uint256 word, uint256 salt) internal view returns (uint256) {
        if (salt >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
        return Poseidon.hash2(poseidon2, word, salt);
    }

    /// @notice The root a leaf and its path lead to: `ARITY - 1` siblings a level, lowest level first, in child order
    ///         with the node's own slot (the leaf index's next two bits) left out (core/merkle.ts rootFromPath).
    ///         Reverts `NotInField` for a sibling ≥ p. The caller checks the path's length.
    function climb(address poseidon4, uint256 leafIndex, uint256 node, uint256[] memory path)
        internal
        view
        returns (uint256)
    {
        uint256[ARITY] memory c;
        for (uint256 k = 0; k < path.length / (ARITY - 1); k++) {
            uint256 slot = (leafIndex >> (LEVEL_BITS * k)) & (ARITY - 1);
            uint256 next = k * (ARITY - 1);
            for (uint256 j = 0; j < ARITY; j++) {
                if (j == slot) {
                    c[j] = node;
                    continue;
                }
                c[j] = path[next++];
                if (c[j] >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
            }
            node = Poseidon.hash4(poseidon4, c[0], c[1], c[2], c[3]);
        }
        return node;
    }

    /// @notice Root of the subtree of height `levels` over `nodes` (at least one), padded on the right with `zero`,
    ///         the root of an empty child subtree: the hashes core/merkle.ts's `buildTree` computes. Overwrites `nodes`.
    function subtreeRoot(address poseidon4, uint256[] memory nodes, uint256 zero, uint256 levels)
        internal
        view
        returns (uint256)
    {
        uint256 n = nodes.length;
        bool full = n == uint256(1) << (LEVEL_BITS * levels); // no padding: the zero hashes are never needed
        for (uint256 k = 0; k < levels; k++) {
            uint256 m = (n + ARITY - 1) / ARITY;
            for (uint256 i = 0; i < m; i++) {
                uint256 at = ARITY * i;
                nodes[i] = Poseidon.hash4(
                    poseidon4,
                    nodes[at],
                    at + 1 < n ? nodes[at + 1] : zero,
                    at + 2 < n ? nodes[at + 2] : zero,
                    at + 3 < n ? nodes[at + 3] : zero
                );
            }
            if (!full && k + 1 < levels) zero = Poseidon.hash4(poseidon4, zero, zero, zero, zero);
            n = m;
        }
        return nodes[0];
    }

    /// @notice The root of a zone's subtree over its 64 leaves; reverts `NotInField` for a leaf ≥ p.
    function zoneRoot(address poseidon4, uint256[ZONE_LEAVES] calldata leaves) internal view returns (uint256) {
        uint256[] memory nodes = new uint256[](ZONE_LEAVES);
        for (uint256 i = 0; i < ZONE_LEAVES; i++) {
            if (leaves[i] >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
            nodes[i] = leaves[i];
        }
        return subtreeRoot(poseidon4, nodes, 0, ZONE_HEIGHT);
    }

    /// @notice The root of a tree of depth `depth` over these zone roots (zones past the list are empty subtrees);
    ///         reverts `NotInField` for a zone root ≥ p. The caller checks the list's length.
    function rootOfZones(address poseidon4, uint256[] calldata zoneRoots, uint256 depth)
        internal
        view
        returns (uint256)
    {
        uint256[] memory nodes = new uint256[](zoneRoots.length);
        for (uint256 z = 0; z < zoneRoots.length; z++) {
            if (zoneRoots[z] >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
            nodes[z] = zoneRoots[z];
        }
        return subtreeRoot(poseidon4, nodes, zeroRoot(poseidon4, ZONE_HEIGHT), depth - ZONE_HEIGHT);
    }

    /// @notice A zone's leaves as a dynamic array (for events).
    function leafList(uint256[ZONE_LEAVES] calldata leaves) internal pure returns (uint256[] memory out) {
        out = new uint256[](ZONE_LEAVES);
        for (uint256 i = 0; i < ZONE_LEAVES; i++) {
            out[i] = leaves[i];
        }
    }

    /// @notice The first slot where two leaf lists differ; they must differ (their roots do).
    function firstDifference(uint256[ZONE_LEAVES] calldata a, uint256[ZONE_LEAVES] calldata b)
        internal
        pure
        returns (uint256 k)
    {
        while (a[k] == b[k]) k++;
    }

    /// @notice The root of an empty subtree of height `height` (`zeros[height]` in core/merkle.ts).
    function zeroRoot(address poseidon4, uint256 height) internal view returns (uint256 z) {
        for (uint256 k = 0; k < height; k++) {
            z = Poseidon.hash4(poseidon4, z, z, z, z);
        }
    }
}
