// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {ShroudFunds} from "./ShroudFunds.sol";
import {ShroudPhases} from "./ShroudPhases.sol";
import {Store} from "./ShroudStore.sol";

/// @title ShroudTurns
/// @notice Turn order: turns are numbered from 0 and pass round-robin over the unforfeited seats, starting at seat 0;
///         each seat's first turn is its spawn, and `maxTurns` counts the spawns too. A forfeited seat is skipped.
library ShroudTurns {
    /// @notice Marks `seat` forfeited (at fault when `atFault`) and ends the game when one seat or none remains;
    ///         otherwise, when it was the seat to move during play, the turn passes.
    function forfeit(Store storage s, uint256 gameId, uint256 seat, bool atFault) internal {
        IShroudGame.Game storage g = s.games[gameId];
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (atFault) st.atFault = true;
        st.forfeited = true;
        st.zoneMask = 0; // a forfeited seat sees nothing: opponents' proofs get 0 for it
        g.forfeitMask |= uint8(1 << seat);
        emit IShroudGame.Forfeited(gameId, seat, atFault);
        if (--g.active <= 1) endGame(s, gameId);
        else if (seat == g.toMove && g.phase == IShroudGame.Phase.Play) advance(s, gameId);
    }

    /// @notice The turn passes without a proof (the seat to move forfeited): the next unforfeited seat with a fresh
    ///         deadline, or the end at the turn limit.
    function advance(Store storage s, uint256 gameId) internal {
        (bool ended, uint256 seat, uint256 deadline) = next(s, gameId);
        if (ended) endGame(s, gameId);
        else emit IShroudGame.TurnStarted(gameId, s.games[gameId].turn, seat, deadline);
    }

    /// @notice Moves to the next turn: its unforfeited seat and fresh deadline, or `ended` at the turn limit (the
    ///         caller then logs and calls `endGame`). After a verified turn the caller's `TurnSubmitted` carries them.
    function next(Store storage s, uint256 gameId) internal returns (bool ended, uint256 seat, uint256 deadline) {
        IShroudGame.Game storage g = s.games[gameId];
        uint32 turn = g.turn + 1;
        g.turn = turn;
        if (turn >= g.maxTurns) return (true, 0, 0);
        uint256 n = g.nPlayers;
        seat = g.toMove;
        do {
            seat = (seat + 1) % n;
        } while ((g.forfeitMask >> seat) & 1 != 0);
        g.toMove = uint8(seat);
        deadline = block.timestamp + g.turnSeconds;
        g.deadline = uint40(deadline);
    }

    /// @notice (Re)starts play at the current turn with a full turn's time: after force-open, or after an open
    ///         root was adopted. A seat that forfeited meanwhile is skipped.
    function resume(Store storage s, uint256 gameId) internal {
        IShroudGame.Game storage g = s.games[gameId];
        uint256 seat = g.toMove;
        while ((g.forfeitMask >> seat) & 1 != 0) seat = (seat + 1) % g.nPlayers;
        g.toMove = uint8(seat);
        ShroudPhases.enter(g, gameId, IShroudGame.Phase.Play, g.turnSeconds);
        emit IShroudGame.TurnStarted(gameId, g.turn, seat, g.deadline);
    }

    /// @notice Ends play. A fogged game waits for the dealer's secrets; a force-opened game has none and settles.
    function endGame(Store storage s, uint256 gameId) internal {
        IShroudGame.Game storage g = s.games[gameId];
        emit IShroudGame.GameEnded(gameId, g.turn);
        if (g.openMap) ShroudFunds.settle(s, gameId);
        else ShroudPhases.enter(g, gameId, IShroudGame.Phase.Secrets, g.durations.secretsSeconds);
    }
}
