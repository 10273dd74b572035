// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {Store} from "./ShroudStore.sol";

/// @title ShroudPhases
/// @notice The phase machine's small shared steps: entering a phase with its deadline, and the two guards every
///         action uses (in the phase before its deadline; in the phase after it).
library ShroudPhases {
    /// @notice Moves the game to `p` with a deadline `duration` seconds from now.
    function enter(IShroudGame.Game storage g, uint256 gameId, IShroudGame.Phase p, uint256 duration) internal {
        uint256 deadline = block.timestamp + duration;
        g.phase = p;
        g.deadline = uint40(deadline);
        emit IShroudGame.PhaseChanged(gameId, p, deadline);
    }

    /// @notice Reverts unless the game is in `p` and its deadline has not passed.
    function requireOpen(IShroudGame.Game storage g, IShroudGame.Phase p) internal view {
        if (g.phase != p) revert IShroudGame.WrongPhase(p, g.phase);
        if (block.timestamp > g.deadline) revert IShroudGame.DeadlinePassed(g.deadline);
    }

    /// @notice Reverts unless the game is in `p` and its deadline has passed.
    function requireExpired(IShroudGame.Game storage g, IShroudGame.Phase p) internal view {
        if (g.phase != p) revert IShroudGame.WrongPhase(p, g.phase);
        if (block.timestamp <= g.deadline) revert IShroudGame.DeadlineNotPassed(g.deadline);
    }

    /// @notice The id of the `counter`-th game (from 1): `keccak256(chainid, this, counter) mod p`, a field element
    ///         bound to the chain and the game contract (libraries run in its context, so `this` is the game).
    function gameIdOf(uint256 counter) internal view returns (uint256) {
        return uint256(keccak256(abi.encode(block.chainid, address(this), counter))) % Poseidon.FIELD_MODULUS;
    }

    /// @notice The seat of `who` in the game, or `NotPlayer`.
    function seatOf(Store storage s, uint256 gameId, address who) internal view returns (uint256) {
        uint256 p = s.seatPlusOne[gameId][who];
        if (p == 0) revert IShroudGame.NotPlayer();
        return p - 1;
    }
}
