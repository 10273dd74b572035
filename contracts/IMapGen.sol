// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IMapGen
/// @notice The single-tile generator (MapGen.sol): what fraud proofs and open-root challenges recompute.
interface IMapGen {
    /// @notice One tile of `Gen(seed)` on a board whose ruleset has the packed start areas `starts`.
    function generateTile(
        uint256 seed,
        uint8 kind,
        uint256 width,
        uint256 height,
        uint256 starts,
        uint256 col,
        uint256 row
    ) external view returns (uint8 terrain, uint8 feature, uint8 resource, uint8 rivers);
}
