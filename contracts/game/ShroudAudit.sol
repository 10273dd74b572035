// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {ShroudForceOpen} from "./ShroudForceOpen.sol";
import {ShroudFunds} from "./ShroudFunds.sol";
import {ShroudPhases} from "./ShroudPhases.sol";
import {ShroudTiles} from "./ShroudTiles.sol";
import {Deps, Store} from "./ShroudStore.sol";

/// @title ShroudAudit
/// @notice Binds the posted root to `Gen(seed)` after the secrets (P3), whether or not a map proof was submitted and
///         whether or not any wrong leaf was ever served. Once the master secret and shares are public, anyone can
///         compute every salted leaf of the honest tree; only the dealer knows the tree it actually committed to.
///         So the dealer posts its zone roots with the root (stored as a hash; players build their passability
///         witnesses from them, so they are public during play), and:
///         - at any time after the root but during a combat, anyone shows that those zone roots do not build the
///           posted root (`proveZoneRootsFraud`): slashed, and force-opened during play, settled after it;
///         and during the audit window:
///         - a seat posts one zone's 64 leaves as it computes them, with the game's dispute deposit, when they hash
///           to another root than the dealer's (`challengeZone`: once per seat and game, so a game has at most as
///           many challenges to answer as seats, whatever its deposit). The dealer (or anyone holding its tree)
///           must show its own 64 leaves of that zone, hashing to its published zone root, by the audit deadline
///           plus the dispute window (`answerZoneChallenge`). The first leaf where the two lists differ is recomputed
///           here: `Poseidon(Gen(seed) word, Poseidon(master_secret, index))`, or 0 in an off-board slot. A wrong
///           dealer leaf slashes the bond and settles (the deposit goes back); a right one means the challenger
///           posted a wrong leaf, and its deposit goes to the seat's escrow: the dealer's at settlement unless it
///           fails later.
///         - a challenge still unanswered when its window closes slashes the dealer at `settle`; however the audit
///           ends, unanswered challenges' deposits go back to their seats.
///         Each transaction carries at most two zones' leaves and the zone roots, and recomputes one tile, so this
///         works on the largest boards. Challenges are independent (one slot per seat), so one seat cannot hold the
///         slot against another, and none extends the audit: the game settles at most a dispute window after it.
/// @dev Runs through DELEGATECALL in ShroudGame's storage; its events and errors are IShroudGame's.
library ShroudAudit {
    using ShroudPhases for IShroudGame.Game;

    /// @notice Records the dealer's zone roots with its root (called by `ShroudCeremony.postRoot`). Their values
    ///         are checked only when shown wrong: hashing them to the root costs ~1M gas on a duel board.
    function recordZoneRoots(Store storage s, IShroudGame.Game storage g, uint256 gameId, uint256[] calldata zoneRoots)
        internal
    {
        uint256 zones = g.zones;
        if (zoneRoots.length != zones) revert IShroudGame.WrongLength(zones, zoneRoots.length);
        for (uint256 z = 0; z < zones; z++) {
            if (zoneRoots[z] >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
        }
        s.audits[gameId].zoneRootsHash = keccak256(abi.encodePacked(zoneRoots));
    }

    /// @notice See `IShroudGame.proveZoneRootsFraud`.
    function proveZoneRootsFraud(Store storage s, Deps memory deps, uint256 gameId, uint256[] calldata zoneRoots)
        external
    {
        IShroudGame.Game storage g = s.games[gameId];
        IShroudGame.Phase p = g.phase;
        bool live = p == IShroudGame.Phase.Play || p == IShroudGame.Phase.Dispute;
        if (!live && p != IShroudGame.Phase.Secrets && p != IShroudGame.Phase.Audit) {
            revert IShroudGame.WrongPhase(IShroudGame.Phase.Play, p);
        }
        // Past the deadline the phase's own exit comes first (a timeout forfeits or slashes by itself).
        if (block.timestamp > g.deadline) revert IShroudGame.DeadlinePassed(g.deadline);
        // A force-opened game plays on the open root: the dealer's zone roots no longer build anything in use.
        if (g.openMap) revert IShroudGame.NoFraud();
        _requirePublished(s, gameId, zoneRoots);
        if (ShroudTiles.rootOfZones(deps.hashers[3], zoneRoots, g.depth) == g.root) revert IShroudGame.NoFraud();
        if (live) {
            ShroudForceOpen.begin(s, gameId, IShroudGame.Reason.BadZoneRoots);
            return;
        }
        ShroudFunds.slash(s, gameId, IShroudGame.Reason.BadZoneRoots);
        settle(s, gameId);
    }

    /// @notice See `IShroudGame.challengeZone`. `value` is the deposit paid (msg.value).
    function challengeZone(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256[] calldata zoneRoots,
        uint256 zone,
        uint256[64] calldata leaves,
        uint256 value
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Audit);
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        IShroudGame.ZoneChallenge storage c = s.zoneChallenges[gameId][seat];
        if (c.challenger != address(0)) revert IShroudGame.AlreadyChallenged();
        if (value != g.disputeDeposit) revert IShroudGame.WrongDeposit(g.disputeDeposit, value);
        _requirePublished(s, gameId, zoneRoots);
        if (zone >= g.zones) revert IShroudGame.BadLeafIndex();
        uint256 zoneRoot = zoneRoots[zone];
        if (ShroudTiles.zoneRoot(deps.hashers[3], leaves) == zoneRoot) revert IShroudGame.NoFraud();
        s.audits[gameId].open++;
        s.zoneChallenges[gameId][seat] = IShroudGame.ZoneChallenge({
            challenger: msg.sender,
            zone: uint16(zone),
            open: true,
            deposit: uint96(value),
            zoneRoot: zoneRoot,
            leavesHash: keccak256(abi.encodePacked(leaves))
        });
        emit IShroudGame.ZoneChallenged(gameId, seat, zone, ShroudTiles.leafList(leaves));
    }

    /// @notice See `IShroudGame.answerZoneChallenge`.
    function answerZoneChallenge(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256 seat,
        uint256[64] calldata challengerLeaves,
        uint256[64] calldata dealerLeaves
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        if (g.phase != IShroudGame.Phase.Audit) revert IShroudGame.WrongPhase(IShroudGame.Phase.Audit, g.phase);
        uint256 until = answerDeadline(g);
        if (block.timestamp > until) revert IShroudGame.AnswerWindowClosed(until);
        IShroudGame.ZoneChallenge storage c = s.zoneChallenges[gameId][seat];
        if (!c.open) revert IShroudGame.ChallengeClosed(seat);
        if (keccak256(abi.encodePacked(challengerLeaves)) != c.leavesHash) revert IShroudGame.ProposalMismatch();
        if (ShroudTiles.zoneRoot(deps.hashers[3], dealerLeaves) != c.zoneRoot) revert IShroudGame.ZoneMismatch();
        // The lists hash to different roots, so they differ somewhere; the first difference decides.
        uint256 k = ShroudTiles.firstDifference(dealerLeaves, challengerLeaves);
        uint256 leafIndex = uint256(c.zone) * ShroudTiles.ZONE_LEAVES + k;
        uint256 salt = Poseidon.hash2(deps.hashers[1], g.masterSecret, leafIndex);
        bool dealerStands = dealerLeaves[k] == ShroudTiles.genLeaf(g, deps, leafIndex, salt);
        c.open = false;
        s.audits[gameId].open--;
        emit IShroudGame.ZoneChallengeDecided(gameId, seat, leafIndex, dealerStands);
        if (dealerStands) {
            // The challenger posted a wrong leaf: its deposit pays for the dealer's answer, at settlement, unless the
            // dealer fails later (ShroudFunds: a slashed dealer is paid nothing from the game).
            s.seats[gameId][seat].escrow += c.deposit;
            return;
        }
        ShroudFunds.pay(s, c.challenger, c.deposit);
        emit IShroudGame.FraudProven(gameId, leafIndex, msg.sender);
        ShroudFunds.slash(s, gameId, IShroudGame.Reason.Fraud);
        settle(s, gameId);
    }

    /// @notice Ends the audit: the deposits of challenges still unanswered go back to their seats (they were
    ///         never judged: the dealer was slashed for them at `settle`, or the game ended on another proof), then
    ///         the game settles. Every way out of the audit comes here, so a settled game holds no deposit.
    function settle(Store storage s, uint256 gameId) internal {
        IShroudGame.Audit storage a = s.audits[gameId];
        if (a.open != 0) {
            a.open = 0;
            uint256 n = s.games[gameId].nPlayers;
            for (uint256 seat = 0; seat < n; seat++) {
                IShroudGame.ZoneChallenge storage c = s.zoneChallenges[gameId][seat];
                if (!c.open) continue;
                c.open = false;
                ShroudFunds.pay(s, c.challenger, c.deposit);
            }
        }
        ShroudFunds.settle(s, gameId);
    }

    /// @notice Whether an audit challenge is still unanswered (then `settle` waits for its window, and slashes).
    function hasOpenChallenge(Store storage s, uint256 gameId) internal view returns (bool) {
        return s.audits[gameId].open != 0;
    }

    /// @notice The last second a zone challenge can be answered: the audit deadline plus the dispute window (a
    ///         challenge posted in the audit's last second still gives the dealer a full window).
    function answerDeadline(IShroudGame.Game storage g) internal view returns (uint256) {
        return uint256(g.deadline) + g.durations.disputeSeconds;
    }

    function _requirePublished(Store storage s, uint256 gameId, uint256[] calldata zoneRoots) private view {
        if (keccak256(abi.encodePacked(zoneRoots)) != s.audits[gameId].zoneRootsHash) {
            revert IShroudGame.ZoneRootsMismatch();
        }
    }
}
