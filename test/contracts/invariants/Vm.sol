// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Vm
/// @notice The few Foundry-compatible cheatcodes these invariant tests use, as Hardhat 3's Solidity test runner (EDR)
///         serves them at the standard address. forge-std is not a dependency (the npm registry only has a 2022
///         forge-std): this is the minimal subset, with forge-std's signatures.
interface Vm {
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    /// @notice Sets block.timestamp (persists even when the calling frame reverts: restore it yourself).
    function warp(uint256 timestamp) external;

    /// @notice The next call (only) is made with msg.sender = `sender`; its msg.value is paid from `sender`'s balance.
    function prank(address sender) external;

    /// @notice Sets `account`'s balance.
    function deal(address account, uint256 balance) external;

    /// @notice The address of private key `privateKey`.
    function addr(uint256 privateKey) external pure returns (address);

    /// @notice Signs `digest` with `privateKey` (secp256k1, low s).
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);

    /// @notice Starts recording emitted events; `getRecordedLogs` returns (and clears) them.
    function recordLogs() external;

    function getRecordedLogs() external returns (Log[] memory logs);
}

/// @dev The cheatcode address (`address(uint160(uint256(keccak256("hevm cheat code"))))`).
Vm constant vm = Vm(0x7109709ECfa91a80626fF3989D68f67F5b1DD12D);

/// @notice What `targetSelectors()` returns to the invariant runner (forge-std `StdInvariant.FuzzSelector`).
struct FuzzSelector {
    address addr;
    bytes4[] selectors;
}
