// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// The fallback is the verifier: it answers every verifyProof selector.
// solhint-disable no-complex-fallback

/// @title MockVerifier
/// @notice Test stand-in for a Groth16 verifier that still binds the proof to its public signals: it accepts
///         `selector ‖ a ‖ b ‖ c ‖ signals` iff `a[0] == uint256(keccak256(signals))`, so a "proof" made for one set
///         of signals fails for any other (another player, turn, game, stale mask…). Any selector is accepted.
contract MockVerifier {
    /// @notice Answers any `verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[N])` call.
    fallback(bytes calldata data) external returns (bytes memory) {
        if (data.length < 260 || (data.length - 260) % 32 != 0) return abi.encode(false);
        uint256 a0 = uint256(bytes32(data[4:36]));
        return abi.encode(a0 == uint256(keccak256(data[260:])));
    }
}
