// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";

/// @title ShroudLimits
/// @notice The protocol's fixed bounds: seats, boards, and the floor and ceiling of every phase duration. The same
///         numbers live in core/limits.ts; test/contracts/limits.test.ts checks both against each other (through
///         ShroudGame's `boardBounds()` and `durationBounds()`).
/// @dev Floors protect the players: a 1-second reveal window would hand their stakes to fault, a 1-second audit
///      window would let a dealer that served a forged tile settle before any fraud proof lands. Ceilings keep a game
///      from locking funds for years.
library ShroudLimits {
    uint256 internal constant MIN_PLAYERS = 2;
    uint256 internal constant MAX_PLAYERS = 6;
    /// @notice Most zones a board may have (core/limits.ts `MAX_ZONES`): a zone bitmask fits a 253-bit packed
    ///         public-signal word and `Seat.zoneMask` is a uint224 (it shares its slot with `lastTurn`, so a turn
    ///         writes one seat slot), and `proposeOpenRoot` hashes every zone root (under the 2^24 per-transaction
    ///         gas cap).
    uint256 internal constant MAX_ZONES = 224;
    /// @notice Tiles per zone side (core/geometry.ts `ZONE_SIZE`).
    uint256 internal constant ZONE_SIZE = 8;
    /// @notice Largest board width and height (core/limits.ts `MAX_BOARD_SIDE`): coordinates are 10-bit fields in
    ///         the circuits and in the packed attack target, so columns and rows run 0..1023.
    uint256 internal constant MAX_BOARD_SIDE = 1024;
    /// @notice A reveal list packs 14 leaves per word; Poseidon takes the blinding and at most 5 words.
    uint256 internal constant REVEAL_LANES_PER_WORD = 14;
    uint256 internal constant REVEAL_LANE_BITS = 17;
    uint256 internal constant MAX_REVEAL_WORDS = 5;

    uint32 internal constant MIN_COMMIT = 5 minutes;
    uint32 internal constant MIN_REVEAL = 5 minutes;
    uint32 internal constant MIN_ROOT = 10 minutes;
    uint32 internal constant MIN_TURN = 1 minutes;
    uint32 internal constant MIN_COMBAT = 1 minutes;
    uint32 internal constant MIN_DISPUTE = 10 minutes;
    uint32 internal constant MIN_SECRETS = 1 hours;
    uint32 internal constant MIN_AUDIT = 1 days;
    uint32 internal constant MAX_PHASE = 7 days;
    uint32 internal constant MAX_AUDIT = 30 days;

    /// @notice Zones of a `width`×`height` board: 8×8 tiles each, the last column and row of zones may be partial.
    function zoneCount(uint256 width, uint256 height) internal pure returns (uint256) {
        return ((width + ZONE_SIZE - 1) / ZONE_SIZE) * ((height + ZONE_SIZE - 1) / ZONE_SIZE);
    }

    /// @notice Whether a board is within the limits: each side in 1..MAX_BOARD_SIDE and at most MAX_ZONES zones
    ///         (checked by `createGame` and `VerifierRegistry.registerRuleset`).
    function boardFits(uint256 width, uint256 height) internal pure returns (bool) {
        if (width == 0 || height == 0 || width > MAX_BOARD_SIDE || height > MAX_BOARD_SIDE) return false;
        return zoneCount(width, height) <= MAX_ZONES;
    }

    /// @notice The floors, as a `Durations` record.
    function floors() internal pure returns (IShroudGame.Durations memory) {
        return IShroudGame.Durations(
            MIN_COMMIT, MIN_REVEAL, MIN_ROOT, MIN_TURN, MIN_COMBAT, MIN_DISPUTE, MIN_SECRETS, MIN_AUDIT
        );
    }

    /// @notice The ceilings, as a `Durations` record.
    function ceilings() internal pure returns (IShroudGame.Durations memory) {
        return IShroudGame.Durations(
            MAX_PHASE, MAX_PHASE, MAX_PHASE, MAX_PHASE, MAX_PHASE, MAX_PHASE, MAX_PHASE, MAX_AUDIT
        );
    }

    /// @notice Reverts `DurationTooShort` or `DurationTooLong` naming the first field out of bounds.
    function checkDurations(IShroudGame.Durations calldata d) internal pure {
        _check("commitSeconds", d.commitSeconds, MIN_COMMIT, MAX_PHASE);
        _check("revealSeconds", d.revealSeconds, MIN_REVEAL, MAX_PHASE);
        _check("rootSeconds", d.rootSeconds, MIN_ROOT, MAX_PHASE);
        _check("turnSeconds", d.turnSeconds, MIN_TURN, MAX_PHASE);
        _check("combatSeconds", d.combatSeconds, MIN_COMBAT, MAX_PHASE);
        _check("disputeSeconds", d.disputeSeconds, MIN_DISPUTE, MAX_PHASE);
        _check("secretsSeconds", d.secretsSeconds, MIN_SECRETS, MAX_PHASE);
        _check("auditSeconds", d.auditSeconds, MIN_AUDIT, MAX_AUDIT);
    }

    function _check(string memory field, uint256 v, uint256 lo, uint256 hi) private pure {
        if (v < lo) revert IShroudGame.DurationTooShort(field, lo, v);
        if (v > hi) revert IShroudGame.DurationTooLong(field, hi, v);
    }
}
