// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {ShroudFunds} from "./ShroudFunds.sol";
import {ShroudPhases} from "./ShroudPhases.sol";
import {ShroudTiles} from "./ShroudTiles.sol";
import {ShroudTurns} from "./ShroudTurns.sol";
import {Deps, Store} from "./ShroudStore.sol";

/// @title ShroudForceOpen
/// @notice When the dealer fails (no root by the deadline, or a reveal dispute unanswered or answered wrongly), its
///         bond is slashed to the players and the game is forced open: each player reveals its share on-chain
///         (checked against `C_i`), the seed becomes public, anyone regenerates the map, and play goes on without
///         fog from where it stopped. A player who does not reveal its share is at fault and the game is cancelled.
///
///         Rulesets that prove passability need a map root for their turn proofs. The open map's root is the tree of
///         `Gen(seed)` with every salt 0, which anyone can compute; a seat proposes it with all its zone roots and
///         leaves (so the data is public), the contract checks that the root is the tree over those zone roots, and
///         during a challenge window anyone may show one zone's leaves do not hash to its zone root, or one leaf is
///         not `Poseidon(Gen(seed) at that index, 0)` (0 off the board). A proposer caught forfeits at fault and
///         another seat may propose; an unchallenged proposal is adopted; with none by the deadline the game is
///         cancelled (nobody at fault; the bond is already the players').
/// @dev Runs through DELEGATECALL in ShroudGame's storage; its events and errors are IShroudGame's.
library ShroudForceOpen {
    using ShroudPhases for IShroudGame.Game;

    uint256 internal constant ZONE_LEAVES = 64;
    uint256 internal constant ZONE_HEIGHT = 6;

    /// @notice The dealer failed: slash its bond, refund an open dispute's deposit, and open the share reveals.
    function begin(Store storage s, uint256 gameId, IShroudGame.Reason reason) internal {
        IShroudGame.Game storage g = s.games[gameId];
        ShroudFunds.slash(s, gameId, reason);
        if (g.phase == IShroudGame.Phase.Dispute) {
            IShroudGame.Dispute memory d = s.disputes[gameId];
            delete s.disputes[gameId];
            s.credit[s.seats[gameId][d.seat].player] += d.deposit;
        }
        g.enter(gameId, IShroudGame.Phase.ForceOpen, g.durations.revealSeconds);
    }

    /// @notice See `IShroudGame.startForceOpen`: no root by the root deadline.
    function startForceOpen(Store storage s, uint256 gameId) external {
        s.games[gameId].requireExpired(IShroudGame.Phase.Deal);
        begin(s, gameId, IShroudGame.Reason.NoRoot);
    }

    /// @notice See `IShroudGame.revealShare`. When the last share is in, the seed is computed and play resumes
    ///         (after an open root, for passability rulesets).
    function revealShare(Store storage s, Deps memory deps, uint256 gameId, uint256 share) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.ForceOpen);
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        if (share >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (st.shareRevealed) revert IShroudGame.AlreadyRevealed();
        if (Poseidon.hash3(deps.hashers[2], gameId, uint256(uint160(msg.sender)), share) != st.commitment) {
            revert IShroudGame.ShareMismatch(seat);
        }
        st.shareRevealed = true;
        st.share = share;
        emit IShroudGame.ShareRevealed(gameId, seat, share);
        uint256 n = g.nPlayers;
        if (++g.sharesRevealed < n) return;
        uint256[] memory shares = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            shares[i] = s.seats[gameId][i].share;
        }
        uint256 seed = Poseidon.hashN(deps.hashers, shares);
        g.seed = seed;
        g.openMap = true;
        emit IShroudGame.MapOpened(gameId, seed);
        if (g.passability) g.enter(gameId, IShroudGame.Phase.OpenRoot, g.durations.disputeSeconds);
        else ShroudTurns.resume(s, gameId);
    }

    /// @notice See `IShroudGame.proposeOpenRoot`: `zoneRoots` (one per zone) and `leaves` (64 per zone, zone-major)
    ///         of the salt-0 tree of `Gen(seed)`. The root is computed here from the zone roots.
    function proposeOpenRoot(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256[] calldata zoneRoots,
        uint256[] calldata leaves
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.OpenRoot);
        IShroudGame.OpenRoot storage o = s.openRoots[gameId];
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (st.forfeited) revert IShroudGame.AlreadyForfeited();
        if (o.proposed || st.proposedOpenRoot) revert IShroudGame.AlreadyProposed();
        uint256 zones = g.zones;
        if (zoneRoots.length != zones) revert IShroudGame.WrongLength(zones, zoneRoots.length);
        if (leaves.length != zones * ZONE_LEAVES) revert IShroudGame.WrongLength(zones * ZONE_LEAVES, leaves.length);
        for (uint256 i = 0; i < leaves.length; i++) {
            if (leaves[i] >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
        }
        uint256[] memory nodes = new uint256[](zones);
        for (uint256 z = 0; z < zones; z++) {
            if (zoneRoots[z] >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
            nodes[z] = zoneRoots[z];
        }
        address p2 = deps.hashers[1];
        uint256 root =
            ShroudTiles.subtreeRoot(p2, nodes, ShroudTiles.zeroRoot(p2, ZONE_HEIGHT), uint256(g.depth) - ZONE_HEIGHT);
        o.proposed = true;
        o.proposer = uint8(seat);
        o.root = root;
        o.dataHash = keccak256(abi.encodePacked(zoneRoots, leaves));
        st.proposedOpenRoot = true;
        g.enter(gameId, IShroudGame.Phase.OpenRoot, g.durations.disputeSeconds);
        emit IShroudGame.OpenRootProposed(gameId, seat, root, zoneRoots, leaves, g.deadline);
    }

    /// @notice See `IShroudGame.challengeOpenRoot`: succeeds when the zone of `leafIndex` does not hash to its
    ///         proposed zone root, or the leaf at `leafIndex` is not the salt-0 leaf of `Gen(seed)` there.
    function challengeOpenRoot(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256[] calldata zoneRoots,
        uint256[] calldata leaves,
        uint256 leafIndex
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.OpenRoot);
        IShroudGame.OpenRoot memory o = s.openRoots[gameId];
        if (!o.proposed) revert IShroudGame.NoProposal();
        if (keccak256(abi.encodePacked(zoneRoots, leaves)) != o.dataHash) revert IShroudGame.ProposalMismatch();
        if (leafIndex >= leaves.length) revert IShroudGame.BadLeafIndex();
        if (!_zoneWrong(deps, zoneRoots, leaves, leafIndex) && leaves[leafIndex] == _openLeaf(g, deps, leafIndex)) {
            revert IShroudGame.NoFraud();
        }
        delete s.openRoots[gameId];
        emit IShroudGame.OpenRootRejected(gameId, o.proposer, msg.sender);
        ShroudTurns.forfeit(s, gameId, o.proposer, true);
        // Unless that ended the game, the other seats get a fresh window to propose.
        if (g.phase == IShroudGame.Phase.OpenRoot) {
            g.enter(gameId, IShroudGame.Phase.OpenRoot, g.durations.disputeSeconds);
        }
    }

    /// @notice See `IShroudGame.claimOpenRootTimeout`: adopts a standing proposal, or cancels without one.
    function claimOpenRootTimeout(Store storage s, uint256 gameId) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireExpired(IShroudGame.Phase.OpenRoot);
        IShroudGame.OpenRoot memory o = s.openRoots[gameId];
        if (!o.proposed) {
            ShroudFunds.cancel(s, gameId, IShroudGame.Reason.NoOpenRoot);
            return;
        }
        delete s.openRoots[gameId];
        g.root = o.root;
        emit IShroudGame.OpenRootAdopted(gameId, o.root);
        ShroudTurns.resume(s, gameId);
    }

    /// Whether the 64 leaves of `leafIndex`'s zone do not hash to the proposed zone root.
    function _zoneWrong(Deps memory deps, uint256[] calldata zoneRoots, uint256[] calldata leaves, uint256 leafIndex)
        private
        view
        returns (bool)
    {
        uint256 zone = leafIndex / ZONE_LEAVES;
        uint256[] memory nodes = new uint256[](ZONE_LEAVES);
        for (uint256 i = 0; i < ZONE_LEAVES; i++) {
            nodes[i] = leaves[zone * ZONE_LEAVES + i];
        }
        return ShroudTiles.subtreeRoot(deps.hashers[1], nodes, 0, ZONE_HEIGHT) != zoneRoots[zone];
    }

    /// The open map's leaf at `leafIndex`: `Poseidon(Gen(seed) there, 0)`, or 0 off the board.
    function _openLeaf(IShroudGame.Game storage g, Deps memory deps, uint256 leafIndex) private view returns (uint256) {
        (bool onBoard, uint256 col, uint256 row) = ShroudTiles.coord(g, leafIndex);
        if (!onBoard) return 0;
        uint256 packed = ShroudTiles.generated(g, deps.mapGen, col, row);
        uint256 m = type(uint64).max;
        uint256[5] memory tile = [packed >> 192, (packed >> 128) & m, (packed >> 64) & m, packed & m, 0];
        return ShroudTiles.leafHash(deps.hashers[4], tile);
    }
}
