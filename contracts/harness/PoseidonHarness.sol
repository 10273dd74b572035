// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Poseidon} from "../Poseidon.sol";

/// @title PoseidonHarness
/// @notice Test-only: exposes the Poseidon library so tests compare it with the TypeScript core.
contract PoseidonHarness {
    address[6] private hashers;

    /// @notice Wires the hashers.
    /// @param hashers_ circomlibjs Poseidon contracts for 1 to 6 inputs.
    constructor(address[6] memory hashers_) {
        hashers = hashers_;
    }

    /// @notice Poseidon of 1 to 6 inputs via `Poseidon.hashN`.
    function hashN(uint256[] calldata xs) external view returns (uint256) {
        return Poseidon.hashN(hashers, xs);
    }

    /// @notice Poseidon of two inputs via the hand-rolled `Poseidon.hash2`.
    function hash2(uint256 a, uint256 b) external view returns (uint256) {
        return Poseidon.hash2(hashers[1], a, b);
    }

    /// @notice Poseidon of three inputs via `Poseidon.hash3`.
    function hash3(uint256 a, uint256 b, uint256 c) external view returns (uint256) {
        return Poseidon.hash3(hashers[2], a, b, c);
    }

    /// @notice Poseidon of four inputs via the hand-rolled `Poseidon.hash4`.
    function hash4(uint256 a, uint256 b, uint256 c, uint256 d) external view returns (uint256) {
        return Poseidon.hash4(hashers[3], a, b, c, d);
    }

    /// @notice Poseidon of one input via `Poseidon.hash1`.
    function hash1(uint256 a) external view returns (uint256) {
        return Poseidon.hash1(hashers[0], a);
    }
}
