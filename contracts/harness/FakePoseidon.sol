// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title FakePoseidon
/// @notice Test-only stand-in for the circomlibjs Poseidon contracts: the same ABI (`poseidon(uint256[n])`, n = 1..6,
///         the selectors `contracts/Poseidon.sol` calls) answering `keccak256(n, inputs) mod p`, a deterministic field
///         element. For invariant tests where hash correctness does not matter and circomlibjs bytecode cannot be
///         deployed from Solidity. One instance serves every arity (each function is its own selector).
contract FakePoseidon {
    uint256 internal constant P = 21888242871839275222246405745257275088548364400416034343698204186575808495617;

    /// @notice keccak256(1, x) mod p.
    function poseidon(uint256[1] calldata x) external pure returns (uint256) {
        return uint256(keccak256(abi.encode(uint256(1), x))) % P;
    }

    /// @notice keccak256(2, x) mod p.
    function poseidon(uint256[2] calldata x) external pure returns (uint256) {
        return uint256(keccak256(abi.encode(uint256(2), x))) % P;
    }

    /// @notice keccak256(3, x) mod p.
    function poseidon(uint256[3] calldata x) external pure returns (uint256) {
        return uint256(keccak256(abi.encode(uint256(3), x))) % P;
    }

    /// @notice keccak256(4, x) mod p.
    function poseidon(uint256[4] calldata x) external pure returns (uint256) {
        return uint256(keccak256(abi.encode(uint256(4), x))) % P;
    }

    /// @notice keccak256(5, x) mod p.
    function poseidon(uint256[5] calldata x) external pure returns (uint256) {
        return uint256(keccak256(abi.encode(uint256(5), x))) % P;
    }

    /// @notice keccak256(6, x) mod p.
    function poseidon(uint256[6] calldata x) external pure returns (uint256) {
        return uint256(keccak256(abi.encode(uint256(6), x))) % P;
    }
}
