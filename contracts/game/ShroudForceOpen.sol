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
///         `Gen(seed)` with every salt 0, which anyone can compute. A seat proposes it with its zone roots (the
///         contract computes the root from them). During a challenge window another seat may dispute one zone by
///         posting that zone's 64 leaves as it computes them (they must hash to another root than the proposal's);
///         then anyone shows the proposal's 64 leaves of that zone (they must hash to its zone root), the contract
///         finds the first leaf where the two lists differ and recomputes it from `Gen(seed)` (`MapGen`): whoever
///         posted the wrong leaf lied about a public computation and forfeits at fault. A challenge nobody answers
///         in time sinks the proposal (its proposer forfeits). Every transaction carries at most one zone's leaves
///         and the zone roots, so this works on the largest boards. An unchallenged proposal is adopted; with
///         none by the deadline the game is cancelled (nobody at fault; the bond is already the players').
///
///         Every play commitment binds the map root it was made on (`Poseidon(stateCommit, revealCommit, root)`).
///         Seats that spawned on the dealer's root move to the adopted one with `rebind` before their next turn.
/// @dev Runs through DELEGATECALL in ShroudGame's storage; its events and errors are IShroudGame's.
library ShroudForceOpen {
    using ShroudPhases for IShroudGame.Game;

    uint256 internal constant ZONE_LEAVES = ShroudTiles.ZONE_LEAVES;

    /// @notice The dealer failed: slash its bond, refund an open dispute's deposit, and open the share reveals.
    function begin(Store storage s, uint256 gameId, IShroudGame.Reason reason) internal {
        IShroudGame.Game storage g = s.games[gameId];
        ShroudFunds.slash(s, gameId, reason);
        if (g.phase == IShroudGame.Phase.Dispute) {
            IShroudGame.Dispute memory d = s.disputes[gameId];
            delete s.disputes[gameId];
            ShroudFunds.pay(s, s.seats[gameId][d.seat].player, d.deposit);
        }
        // Mid-game, players may be away between their turns: give them a turn's time at least.
        uint256 window = g.durations.revealSeconds;
        if (g.turnSeconds > window) window = g.turnSeconds;
        g.enter(gameId, IShroudGame.Phase.ForceOpen, window);
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

    /// @notice See `IShroudGame.proposeOpenRoot`: the zone roots of the salt-0 tree of `Gen(seed)`, one per zone;
    ///         the root is computed here from them. One proposal per seat.
    function proposeOpenRoot(Store storage s, Deps memory deps, uint256 gameId, uint256[] calldata zoneRoots)
        external
    {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.OpenRoot);
        IShroudGame.OpenRoot storage o = s.openRoots[gameId];
        uint256 seat = _activeSeat(s, gameId);
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (o.proposed || st.proposedOpenRoot) revert IShroudGame.AlreadyProposed();
        uint256 zones = g.zones;
        if (zoneRoots.length != zones) revert IShroudGame.WrongLength(zones, zoneRoots.length);
        uint256 root = ShroudTiles.rootOfZones(deps.hashers[3], zoneRoots, g.depth);
        s.openRoots[gameId] = IShroudGame.OpenRoot({
            proposed: true,
            proposer: uint8(seat),
            challenged: false,
            challenger: 0,
            zone: 0,
            root: root,
            zoneRootsHash: keccak256(abi.encodePacked(zoneRoots)),
            challengeHash: bytes32(0)
        });
        st.proposedOpenRoot = true;
        g.enter(gameId, IShroudGame.Phase.OpenRoot, g.durations.disputeSeconds);
        emit IShroudGame.OpenRootProposed(gameId, seat, root, zoneRoots, g.deadline);
    }

    /// @notice See `IShroudGame.challengeOpenRoot`: another seat posts zone `zone`'s leaves as it computes them; they
    ///         must hash to another root than the proposal's. The proposal's leaves of that zone must then be shown.
    function challengeOpenRoot(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256[] calldata zoneRoots,
        uint256 zone,
        uint256[64] calldata leaves
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.OpenRoot);
        IShroudGame.OpenRoot storage o = s.openRoots[gameId];
        if (!o.proposed) revert IShroudGame.NoProposal();
        if (o.challenged) revert IShroudGame.AlreadyChallenged();
        uint256 seat = _activeSeat(s, gameId);
        if (seat == o.proposer) revert IShroudGame.NotPlayer();
        if (keccak256(abi.encodePacked(zoneRoots)) != o.zoneRootsHash) revert IShroudGame.ProposalMismatch();
        if (zone >= g.zones) revert IShroudGame.BadLeafIndex();
        if (ShroudTiles.zoneRoot(deps.hashers[3], leaves) == zoneRoots[zone]) revert IShroudGame.NoFraud();
        o.challenged = true;
        o.challenger = uint8(seat);
        o.zone = uint16(zone);
        o.challengeHash = keccak256(abi.encodePacked(leaves));
        g.enter(gameId, IShroudGame.Phase.OpenRoot, g.durations.disputeSeconds);
        emit IShroudGame.OpenRootChallenged(gameId, seat, zone, ShroudTiles.leafList(leaves), g.deadline);
    }

    /// @notice See `IShroudGame.answerOpenRootChallenge`: anyone shows the proposal's leaves of the challenged zone;
    ///         the first leaf where they differ from the challenger's is recomputed from `Gen(seed)`, and whoever
    ///         posted a wrong one forfeits at fault.
    function answerOpenRootChallenge(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256[] calldata zoneRoots,
        uint256[64] calldata challengerLeaves,
        uint256[64] calldata proposerLeaves
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.OpenRoot);
        IShroudGame.OpenRoot memory o = s.openRoots[gameId];
        if (!o.challenged) revert IShroudGame.NotChallenged();
        if (keccak256(abi.encodePacked(zoneRoots)) != o.zoneRootsHash) revert IShroudGame.ProposalMismatch();
        if (keccak256(abi.encodePacked(challengerLeaves)) != o.challengeHash) revert IShroudGame.ProposalMismatch();
        if (ShroudTiles.zoneRoot(deps.hashers[3], proposerLeaves) != zoneRoots[o.zone]) {
            revert IShroudGame.ZoneMismatch();
        }
        // The lists hash to different roots, so they differ somewhere; the first difference decides.
        uint256 k = ShroudTiles.firstDifference(proposerLeaves, challengerLeaves);
        uint256 leafIndex = uint256(o.zone) * ZONE_LEAVES + k;
        bool proposalStands = proposerLeaves[k] == ShroudTiles.genLeaf(g, deps, leafIndex, 0);
        uint256 loser = proposalStands ? o.challenger : o.proposer;
        IShroudGame.OpenRoot storage stored = s.openRoots[gameId];
        if (proposalStands) {
            stored.challenged = false;
            stored.challengeHash = bytes32(0);
        } else {
            delete s.openRoots[gameId];
        }
        emit IShroudGame.OpenRootDecided(gameId, leafIndex, loser, proposalStands);
        ShroudTurns.forfeit(s, gameId, loser, true);
        // Unless that ended the game, a fresh window: to challenge the standing proposal, or to propose anew. A
        // finished game keeps no proposal.
        if (g.phase == IShroudGame.Phase.OpenRoot) {
            g.enter(gameId, IShroudGame.Phase.OpenRoot, g.durations.disputeSeconds);
        } else {
            delete s.openRoots[gameId];
        }
    }

    /// @notice See `IShroudGame.claimOpenRootTimeout`: a challenge nobody answered sinks the proposal (its proposer
    ///         forfeits); an unchallenged proposal is adopted; without one the game is cancelled.
    function claimOpenRootTimeout(Store storage s, uint256 gameId) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireExpired(IShroudGame.Phase.OpenRoot);
        IShroudGame.OpenRoot memory o = s.openRoots[gameId];
        if (!o.proposed) {
            ShroudFunds.cancel(s, gameId, IShroudGame.Reason.NoOpenRoot);
            return;
        }
        if (o.challenged) {
            delete s.openRoots[gameId];
            emit IShroudGame.OpenRootDecided(gameId, uint256(o.zone) * ZONE_LEAVES, o.proposer, false);
            ShroudTurns.forfeit(s, gameId, o.proposer, true);
            if (g.phase == IShroudGame.Phase.OpenRoot) {
                g.enter(gameId, IShroudGame.Phase.OpenRoot, g.durations.disputeSeconds);
            }
            return;
        }
        delete s.openRoots[gameId];
        // Commitments made so far bind the dealer's root: their seats rebind from it (`rebind`).
        g.replacedRoot = g.root;
        g.root = o.root;
        g.rootAdopted = true;
        emit IShroudGame.OpenRootAdopted(gameId, o.root);
        ShroudTurns.resume(s, gameId);
    }

    /// @notice See `IShroudGame.rebind`: the caller opens its play commitment on the replaced dealer root with its
    ///         state and reveal commitments; the same pair is stored on the adopted root. Once per seat (`rebound`),
    ///         during play or a combat. The root is always the game's: the caller chooses neither.
    function rebind(Store storage s, Deps memory deps, uint256 gameId, uint256 stateCommit, uint256 revealCommit)
        external
    {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(g.phase == IShroudGame.Phase.Combat ? IShroudGame.Phase.Combat : IShroudGame.Phase.Play);
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (!g.rootAdopted || !st.spawned || st.rebound || st.forfeited) revert IShroudGame.NothingToRebind();
        if (stateCommit >= Poseidon.FIELD_MODULUS || revealCommit >= Poseidon.FIELD_MODULUS) {
            revert IShroudGame.NotInField();
        }
        address h = deps.hashers[2];
        if (Poseidon.hash3(h, stateCommit, revealCommit, g.replacedRoot) != st.playCommitment) {
            revert IShroudGame.OpeningMismatch();
        }
        uint256 commitment = Poseidon.hash3(h, stateCommit, revealCommit, g.root);
        st.playCommitment = commitment;
        st.rebound = true;
        emit IShroudGame.Rebound(gameId, seat, commitment);
    }

    /// The caller's seat, which must not have forfeited.
    function _activeSeat(Store storage s, uint256 gameId) private view returns (uint256 seat) {
        seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        if (s.seats[gameId][seat].forfeited) revert IShroudGame.AlreadyForfeited();
    }
}
