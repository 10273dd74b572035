// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {ShroudForceOpen} from "./ShroudForceOpen.sol";
import {ShroudLimits} from "./ShroudLimits.sol";
import {ShroudPhases} from "./ShroudPhases.sol";
import {ShroudTiles} from "./ShroudTiles.sol";
import {Deps, Store} from "./ShroudStore.sol";

/// @title ShroudDisputes
/// @notice Reveal disputes (P7 after the root). A player whose latest spawn or turn the dealer did not serve puts
///         that turn's opening on-chain (the leaves and blinding of its stored `revealCommit`), pays the game's
///         dispute deposit, and the game pauses. The dealer must answer on-chain before the dispute deadline with
///         each leaf's tile, salt and Merkle path; during a challenge window anyone may show that one answered tile
///         does not verify against the root. An unanswered or wrongly answered dispute slashes the dealer's bond and
///         force-opens the game; an answered one resumes play, and the deposit is held for the dealer (paid at
///         settlement unless the dealer fails later). A tile whose path verifies but whose contents are not
///         `Gen(seed)` is caught by the post-game fraud proof, as for any served tile.
/// @dev What a dispute gives up (P6, and P2 for those tiles): the disputed turn's revealed-tile list and, with the
///      answer, those tiles' contents become public, which tells opponents roughly where the disputer's units saw
///      that turn. It is the disputer's choice, it costs the deposit when the dealer did serve (a false dispute), and
///      it is the only way to make a dealer that refuses to serve answer on-chain.
///      Runs through DELEGATECALL in ShroudGame's storage; its events and errors are IShroudGame's.
library ShroudDisputes {
    using ShroudPhases for IShroudGame.Game;

    /// @notice See `IShroudGame.openDispute`. `value` is the deposit paid (msg.value).
    function openDispute(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint32[] calldata leaves,
        uint256 blinding,
        uint256 value
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Play);
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (st.forfeited) revert IShroudGame.AlreadyForfeited();
        // An open map has no dealer to serve; a seat disputes its latest spawn or turn, once.
        if (g.openMap || st.revealCommit == 0 || st.disputedTurn == st.lastTurn + 1) {
            revert IShroudGame.NothingToDispute();
        }
        if (value != g.disputeDeposit) revert IShroudGame.WrongDeposit(g.disputeDeposit, value);
        if (blinding >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
        if (_revealCommitment(deps.hashers, g.revealWords, leaves, blinding) != st.revealCommit) {
            revert IShroudGame.OpeningMismatch();
        }
        s.disputes[gameId] = IShroudGame.Dispute({
            seat: uint8(seat),
            nLeaves: uint8(leaves.length),
            answered: false,
            turn: st.lastTurn,
            pausedLeft: uint40(g.deadline - block.timestamp),
            deposit: uint96(value),
            leavesHash: keccak256(abi.encodePacked(leaves)),
            answerHash: bytes32(0)
        });
        st.disputedTurn = st.lastTurn + 1;
        g.enter(gameId, IShroudGame.Phase.Dispute, g.durations.disputeSeconds);
        emit IShroudGame.DisputeOpened(gameId, seat, st.lastTurn, leaves, g.deadline);
    }

    /// @notice See `IShroudGame.answerDispute`: `answer` holds, per leaf in the opening's order, terrain, feature,
    ///         resource, rivers, salt and the `depth` siblings of its path. Opens the challenge window.
    function answerDispute(Store storage s, uint256 gameId, uint256[] calldata answer) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Dispute);
        if (msg.sender != g.dealer) revert IShroudGame.NotDealer();
        IShroudGame.Dispute storage d = s.disputes[gameId];
        if (d.answered) revert IShroudGame.AlreadyAnswered();
        uint256 want = uint256(d.nLeaves) * (5 + g.depth);
        if (answer.length != want) revert IShroudGame.WrongAnswerLength(want, answer.length);
        d.answered = true;
        d.answerHash = keccak256(abi.encodePacked(answer));
        g.enter(gameId, IShroudGame.Phase.Dispute, g.durations.disputeSeconds);
        emit IShroudGame.DisputeAnswered(gameId, d.seat, d.turn, answer);
    }

    /// @notice See `IShroudGame.challengeDisputeAnswer`: succeeds when the `index`-th answered tile has a word outside
    ///         the field or does not verify against the root; then the dealer is slashed and the game force-opened.
    function challengeDisputeAnswer(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint32[] calldata leaves,
        uint256[] calldata answer,
        uint256 index
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Dispute);
        IShroudGame.Dispute storage d = s.disputes[gameId];
        if (!d.answered) revert IShroudGame.NotAnswered();
        if (keccak256(abi.encodePacked(leaves)) != d.leavesHash || keccak256(abi.encodePacked(answer)) != d.answerHash)
        {
            revert IShroudGame.AnswerMismatch();
        }
        if (index >= leaves.length) revert IShroudGame.BadLeafIndex();
        if (_verifies(g, deps, leaves[index], answer, index)) revert IShroudGame.NoFraud();
        ShroudForceOpen.begin(s, gameId, IShroudGame.Reason.BadDisputeAnswer);
    }

    /// @notice See `IShroudGame.acceptDisputeAnswer`: the disputer checked the answer; play resumes now.
    function acceptDisputeAnswer(Store storage s, uint256 gameId) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Dispute);
        IShroudGame.Dispute storage d = s.disputes[gameId];
        if (!d.answered) revert IShroudGame.NotAnswered();
        if (s.seats[gameId][d.seat].player != msg.sender) revert IShroudGame.NotDisputer();
        _close(s, gameId);
    }

    /// @notice See `IShroudGame.claimDisputeTimeout`.
    function claimDisputeTimeout(Store storage s, uint256 gameId) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireExpired(IShroudGame.Phase.Dispute);
        if (s.disputes[gameId].answered) _close(s, gameId);
        else ShroudForceOpen.begin(s, gameId, IShroudGame.Reason.UnansweredDispute);
    }

    /// The answer stood: its deposit is held for the dealer, and the interrupted turn resumes with the time it had.
    function _close(Store storage s, uint256 gameId) private {
        IShroudGame.Game storage g = s.games[gameId];
        IShroudGame.Dispute memory d = s.disputes[gameId];
        delete s.disputes[gameId];
        s.seats[gameId][d.seat].escrow += d.deposit;
        g.enter(gameId, IShroudGame.Phase.Play, d.pausedLeft);
        emit IShroudGame.DisputeClosed(gameId, d.seat, d.turn);
    }

    /// Whether answer tile `k` (for `leaf`) is a field-element tile whose path leads to the game's root.
    function _verifies(IShroudGame.Game storage g, Deps memory deps, uint256 leaf, uint256[] calldata answer, uint256 k)
        private
        view
        returns (bool)
    {
        uint256 depth = g.depth;
        uint256 at = k * (5 + depth);
        uint256[5] memory tile;
        for (uint256 i = 0; i < 5; i++) {
            tile[i] = answer[at + i];
            if (tile[i] >= Poseidon.FIELD_MODULUS) return false;
        }
        uint256[] memory path = new uint256[](depth);
        for (uint256 i = 0; i < depth; i++) {
            path[i] = answer[at + 5 + i];
            if (path[i] >= Poseidon.FIELD_MODULUS) return false;
        }
        uint256 node = ShroudTiles.leafHash(deps.hashers[4], tile);
        return ShroudTiles.climb(deps.hashers[1], leaf, node, path) == g.root;
    }

    /// `Poseidon(blinding, words…)` of a reveal list (core/state.ts revealCommitment): leaf + 1 in 17-bit lanes,
    /// 14 per word, `words` words.
    function _revealCommitment(address[6] memory hashers, uint256 words, uint32[] calldata leaves, uint256 blinding)
        private
        view
        returns (uint256)
    {
        uint256 lanes = ShroudLimits.REVEAL_LANES_PER_WORD;
        if (leaves.length == 0 || leaves.length > words * lanes) revert IShroudGame.OpeningMismatch();
        uint256[] memory xs = new uint256[](1 + words);
        xs[0] = blinding;
        for (uint256 i = 0; i < leaves.length; i++) {
            uint256 lane = uint256(leaves[i]) + 1;
            if (lane >> ShroudLimits.REVEAL_LANE_BITS != 0) revert IShroudGame.OpeningMismatch();
            xs[1 + i / lanes] |= lane << ((i % lanes) * ShroudLimits.REVEAL_LANE_BITS);
        }
        return Poseidon.hashN(hashers, xs);
    }
}
