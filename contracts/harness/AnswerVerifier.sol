// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// The fallback is the verifier: it answers every verifyProof selector.
// solhint-disable no-complex-fallback, no-inline-assembly

/// @title AnswerVerifier
/// @notice Test stand-in for a verifier whose answer is fixed bytes (of any length), or a revert carrying them: the
///         game must accept a proof only on a successful call answering exactly one word equal to 1.
contract AnswerVerifier {
    bytes private answer;
    bool private reverts;

    constructor(bytes memory answer_, bool reverts_) {
        answer = answer_;
        reverts = reverts_;
    }

    /// @notice Answers any call with the fixed bytes, returned or reverted raw (not ABI-encoded).
    fallback() external {
        bytes memory a = answer;
        bool r = reverts;
        assembly {
            switch r
            case 0 { return(add(a, 32), mload(a)) }
            default { revert(add(a, 32), mload(a)) }
        }
    }
}
