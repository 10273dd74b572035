// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IMapGen} from "../IMapGen.sol";
import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {VerifierRegistry} from "../VerifierRegistry.sol";

/// @title ShroudTiles
/// @notice Leaves of the map tree as the contracts check them: zone-major coordinates, leaf hashes, Merkle paths,
///         and the leaf `Gen(seed)` puts at an index (core/geometry.ts, core/commitments.ts, core/merkle.ts).
library ShroudTiles {
    uint256 internal constant ZONE_SIZE = 8;
    uint256 internal constant ZONE_LEAVES = 64;

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

    /// @notice The root a leaf and its sibling path lead to (index bits choose left or right).
    function climb(address poseidon2, uint256 leafIndex, uint256 node, uint256[] memory path)
        internal
        view
        returns (uint256)
    {
        for (uint256 k = 0; k < path.length; k++) {
            uint256 sib = path[k];
            if (sib >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
            node = (leafIndex >> k) & 1 == 1 ? Poseidon.hash2(poseidon2, sib, node) : Poseidon.hash2(poseidon2, node, sib);
        }
        return node;
    }

    /// @notice Root of the subtree of height `levels` over `nodes` (at least one), padded on the right with `zero`,
    ///         the root of an empty child subtree: the hashes core/merkle.ts's `buildTree` computes. Overwrites `nodes`.
    function subtreeRoot(address poseidon2, uint256[] memory nodes, uint256 zero, uint256 levels)
        internal
        view
        returns (uint256)
    {
        uint256 n = nodes.length;
        bool full = n == uint256(1) << levels; // no padding: the zero hashes are never needed
        for (uint256 k = 0; k < levels; k++) {
            uint256 m = (n + 1) / 2;
            for (uint256 i = 0; i < m; i++) {
                uint256 right = 2 * i + 1 < n ? nodes[2 * i + 1] : zero;
                nodes[i] = Poseidon.hash2(poseidon2, nodes[2 * i], right);
            }
            if (!full && k + 1 < levels) zero = Poseidon.hash2(poseidon2, zero, zero);
            n = m;
        }
        return nodes[0];
    }

    /// @notice The root of an empty subtree of height `height` (`zeros[height]` in core/merkle.ts).
    function zeroRoot(address poseidon2, uint256 height) internal view returns (uint256 z) {
        for (uint256 k = 0; k < height; k++) {
            z = Poseidon.hash2(poseidon2, z, z);
        }
    }
}
