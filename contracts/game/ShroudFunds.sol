// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {Store} from "./ShroudStore.sol";

/// @title ShroudFunds
/// @notice Where a game's money goes: slashing the dealer, and the final payout of bonds, stakes and deposits when
///         a game settles or is cancelled. Pull payments only (`credit`, then `withdraw`), to the account or to the
///         payee it named.
/// @dev Rules: the dealer's bond returns to it unless it was slashed; a slashed dealer (`dealerFailed`) is paid
///      nothing from the game, not even the deposits of disputes or zone challenges it answered earlier; a faulty
///      seat's stake goes to the seats not at fault, and when every seat is at fault each stake returns to its owner
///      (never to the dealer, who could otherwise profit from players it made fail).
library ShroudFunds {
    /// @notice Credits `amount` to `account`, or to the payee it named (`IShroudGame.setPayee`). The rules above hold
    ///         per account: a seat that names the dealer as its payee pays the dealer, by its own choice.
    function pay(Store storage s, address account, uint256 amount) internal {
        address payee = s.payee[account];
        s.credit[payee == address(0) ? account : payee] += amount;
    }

    /// @notice The dealer failed (`reason`): its remaining bond goes to the players (seat 0 takes the rounding
    ///         remainder) and the game remembers that the dealer is owed nothing.
    function slash(Store storage s, uint256 gameId, IShroudGame.Reason reason) internal {
        IShroudGame.Game storage g = s.games[gameId];
        g.dealerFailed = true;
        uint256 bond = g.bond;
        if (bond == 0) return;
        g.bond = 0;
        uint256 n = g.nPlayers;
        uint256 each = bond / n;
        for (uint256 i = 0; i < n; i++) {
            pay(s, s.seats[gameId][i].player, i == 0 ? bond - each * (n - 1) : each);
        }
        emit IShroudGame.DealerSlashed(gameId, reason, bond);
    }

    /// @notice Pays out and moves the game to `Phase.Settled`.
    function settle(Store storage s, uint256 gameId) internal {
        IShroudGame.Game storage g = s.games[gameId];
        _payout(s, gameId, g);
        g.phase = IShroudGame.Phase.Settled;
        emit IShroudGame.Settled(gameId);
        emit IShroudGame.PhaseChanged(gameId, IShroudGame.Phase.Settled, 0);
    }

    /// @notice Pays out and moves the game to `Phase.Cancelled`, reporting the seats at fault.
    function cancel(Store storage s, uint256 gameId, IShroudGame.Reason reason) internal {
        IShroudGame.Game storage g = s.games[gameId];
        uint256 mask;
        uint256 n = g.nPlayers;
        for (uint256 i = 0; i < n; i++) {
            if (s.seats[gameId][i].atFault) mask |= 1 << i;
        }
        _payout(s, gameId, g);
        g.phase = IShroudGame.Phase.Cancelled;
        emit IShroudGame.GameCancelled(gameId, reason, mask);
        emit IShroudGame.PhaseChanged(gameId, IShroudGame.Phase.Cancelled, 0);
    }

    function _payout(Store storage s, uint256 gameId, IShroudGame.Game storage g) private {
        address dealer = g.dealer;
        uint256 bond = g.bond;
        if (bond != 0) {
            g.bond = 0;
            pay(s, dealer, bond);
        }
        bool failed = g.dealerFailed;
        uint256 stake = g.stake;
        uint256 n = g.nPlayers;
        uint256 faultyStaked; // bit i: seat i is at fault and its stake is still held
        uint256 honest;
        for (uint256 i = 0; i < n; i++) {
            IShroudGame.Seat storage st = s.seats[gameId][i];
            uint256 escrow = st.escrow;
            if (escrow != 0) {
                st.escrow = 0;
                pay(s, failed ? st.player : dealer, escrow);
            }
            bool staked = st.staked;
            st.staked = false;
            if (st.atFault) {
                if (staked) faultyStaked |= 1 << i;
            } else {
                honest++;
                if (staked) pay(s, st.player, stake);
            }
        }
        if (faultyStaked == 0) return;
        uint256 slashed;
        for (uint256 i = 0; i < n; i++) {
            if ((faultyStaked >> i) & 1 == 0) continue;
            // Nobody to compensate: each faulty stake goes back to its owner, never to the dealer.
            if (honest == 0) pay(s, s.seats[gameId][i].player, stake);
            else slashed += stake;
        }
        if (slashed == 0) return;
        uint256 each = slashed / honest;
        uint256 rest = slashed - each * honest;
        for (uint256 i = 0; i < n; i++) {
            IShroudGame.Seat storage st = s.seats[gameId][i];
            if (st.atFault) continue;
            pay(s, st.player, each + rest);
            rest = 0;
        }
    }
}
