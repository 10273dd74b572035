// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title StaleRegistry
/// @notice Test double: a verifier registry filled for the play circuits' first version (separate state and reveal
///         commitments), which a ShroudGame of today must refuse.
contract StaleRegistry {
    /// @notice The circuits version of play before play commitments.
    uint16 public constant CIRCUITS_VERSION = 1;
}
