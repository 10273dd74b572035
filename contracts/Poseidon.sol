// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// Raw static calls to the hashers: Merkle paths make this the hottest code of disputes and fraud proofs.
// solhint-disable no-inline-assembly

/// @title Poseidon
/// @notice Calls the circomlibjs Poseidon contracts (BN254, circomlib parameters), one per arity, deployed from
///         `poseidonContract.createCode(n)`. Their ABI is `poseidon(uint256[n]) returns (uint256)`.
/// @dev The generated contracts reduce nothing: callers pass field elements (< FIELD_MODULUS).
library Poseidon {
    /// @notice BN254 scalar field modulus.
    uint256 internal constant FIELD_MODULUS =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;

    /// @notice A Poseidon contract call failed (wrong address or bytecode).
    error PoseidonCallFailed();

    function _call(address h, bytes memory data) private view returns (uint256 out) {
        bool ok;
        assembly ("memory-safe") {
            ok := staticcall(gas(), h, add(data, 32), mload(data), 0, 32)
            out := mload(0)
        }
        if (!ok) revert PoseidonCallFailed();
    }

    /// @notice Poseidon of one input.
    function hash1(address h, uint256 a) internal view returns (uint256) {
        return _call(h, abi.encodeWithSignature("poseidon(uint256[1])", a));
    }

    /// @notice Poseidon of two inputs.
    function hash2(address h, uint256 a, uint256 b) internal view returns (uint256 out) {
        // Hand-rolled: this is the leaf, salt and lattice hash, a hot call.
        bool ok;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, shl(224, 0x29a5f2f6))
            mstore(add(p, 4), a)
            mstore(add(p, 36), b)
            ok := staticcall(gas(), h, p, 68, 0, 32)
            out := mload(0)
        }
        if (!ok) revert PoseidonCallFailed();
    }

    /// @notice Poseidon of four inputs: a node of the map tree (`ShroudTiles.ARITY`).
    function hash4(address h, uint256 a, uint256 b, uint256 c, uint256 d) internal view returns (uint256 out) {
        // Hand-rolled like hash2: Merkle paths and zone subtrees make this the hottest call of disputes.
        bool ok;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, shl(224, 0x248f6677))
            mstore(add(p, 4), a)
            mstore(add(p, 36), b)
            mstore(add(p, 68), c)
            mstore(add(p, 100), d)
            ok := staticcall(gas(), h, p, 132, 0, 32)
            out := mload(0)
        }
        if (!ok) revert PoseidonCallFailed();
    }

    /// @notice Poseidon of three inputs.
    function hash3(address h, uint256 a, uint256 b, uint256 c) internal view returns (uint256) {
        return _call(h, abi.encodeWithSignature("poseidon(uint256[3])", a, b, c));
    }

    /// @notice Poseidon of `xs.length` inputs (1 to 6) through `hashers[xs.length - 1]`.
    function hashN(address[6] memory hashers, uint256[] memory xs) internal view returns (uint256) {
        uint256 n = xs.length;
        bytes memory data = new bytes(4 + 32 * n);
        bytes4 sel;
        if (n == 1) sel = bytes4(keccak256("poseidon(uint256[1])"));
        else if (n == 2) sel = bytes4(keccak256("poseidon(uint256[2])"));
        else if (n == 3) sel = bytes4(keccak256("poseidon(uint256[3])"));
        else if (n == 4) sel = bytes4(keccak256("poseidon(uint256[4])"));
        else if (n == 5) sel = bytes4(keccak256("poseidon(uint256[5])"));
        else if (n == 6) sel = bytes4(keccak256("poseidon(uint256[6])"));
        else revert PoseidonCallFailed();
        assembly ("memory-safe") {
            mstore(add(data, 32), sel)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(add(add(data, 36), mul(i, 32)), mload(add(add(xs, 32), mul(i, 32))))
            }
        }
        return _call(hashers[n - 1], data);
    }
}
