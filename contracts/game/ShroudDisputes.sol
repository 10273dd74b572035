// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {ShroudForceOpen} from "./ShroudForceOpen.sol";
import {ShroudFunds} from "./ShroudFunds.sol";
import {ShroudLimits} from "./ShroudLimits.sol";
import {ShroudPhases} from "./ShroudPhases.sol";
import {ShroudTiles} from "./ShroudTiles.sol";
import {Deps, Store} from "./ShroudStore.sol";

/// @title ShroudDisputes
/// @notice Reveal disputes (P7 after the root). A player whose latest spawn or turn the dealer did not serve puts
///         that turn's opening on-chain (the leaves and blinding of its reveal commitment, and the state commitment
///         that with it and the game's root opens the seat's stored play commitment), pays the game's
///         dispute deposit, and the game pauses. The dealer must answer on-chain before the dispute deadline with
///         each leaf's tile, salt and Merkle path; during a challenge window anyone may show that one answered tile
///         does not verify against the root. An unanswered or wrongly answered dispute slashes the dealer's bond and
///         force-opens the game; an answered one resumes play (with at least a minimum turn's time, so a dispute
///         cannot run the mover's clock out). A tile whose path verifies but whose contents are not `Gen(seed)` is
///         caught by the post-game fraud proof, as for any served tile.
///
///         Who keeps the deposit: the contract cannot tell a dealer that did not serve from a player that lies, so
///         the player's own word decides. After verifying a turn's tiles the SDK signs an EIP-712 `RevealReceipt`
///         (gameId, turn, revealCommit) for the dealer. A dealer that answers with the disputer's receipt for the
///         disputed turn shows the dispute false: the deposit is held for it (paid at settlement unless it fails
///         later). Without a receipt the deposit goes back to the disputer: a dealer that refuses to serve earns
///         nothing from the disputes it provokes.
/// @dev What a dispute gives up (P6, and P2 for those tiles): the disputed turn's revealed-tile list and, with the
///      answer, those tiles' contents become public, which tells opponents roughly where the disputer's units saw
///      that turn. It is the disputer's choice, it costs the deposit when the dealer did serve (a false dispute), and
///      it is the only way to make a dealer that refuses to serve answer on-chain.
///      Runs through DELEGATECALL in ShroudGame's storage; its events and errors are IShroudGame's.
library ShroudDisputes {
    using ShroudPhases for IShroudGame.Game;

    /// @notice The EIP-712 domain of the dealer's requests (core/reveal-request.ts `revealDomain`), bound to this game
    ///         contract and chain, and the receipt type the SDK signs.
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant RECEIPT_TYPEHASH = keccak256("RevealReceipt(uint256 gameId,uint32 turn,uint256 revealCommit)");
    /// @notice secp256k1 order / 2: signatures with a higher s are refused (EIP-2).
    uint256 internal constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    /// @notice See `IShroudGame.openDispute`. `value` is the deposit paid (msg.value).
    function openDispute(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint32[] calldata leaves,
        uint256 blinding,
        uint256 stateCommit,
        uint256 value
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Play);
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (st.forfeited) revert IShroudGame.AlreadyForfeited();
        // An open map has no dealer to serve; a seat disputes its latest spawn or turn, once.
        if (g.openMap || st.playCommitment == 0 || st.disputedTurn == st.lastTurn + 1) {
            revert IShroudGame.NothingToDispute();
        }
        if (value != g.disputeDeposit) revert IShroudGame.WrongDeposit(g.disputeDeposit, value);
        if (blinding >= Poseidon.FIELD_MODULUS || stateCommit >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
        // The stored play commitment binds the reveal list to the seat's state and the map root: its opening is
        // the state and reveal commitments and the root. Disputes are refused on open maps (above), so `g.root` is
        // still the dealer's, the root every commitment binds since the spawns.
        uint256 revealCommit = _revealCommitment(deps.hashers, g.revealWords, leaves, blinding);
        if (Poseidon.hash3(deps.hashers[2], stateCommit, revealCommit, g.root) != st.playCommitment) {
            revert IShroudGame.OpeningMismatch();
        }
        s.disputes[gameId] = IShroudGame.Dispute({
            seat: uint8(seat),
            nLeaves: uint8(leaves.length),
            answered: false,
            receipted: false,
            turn: st.lastTurn,
            pausedLeft: uint40(g.deadline - block.timestamp),
            deposit: uint96(value),
            leavesHash: keccak256(abi.encodePacked(leaves)),
            answerHash: bytes32(0),
            revealCommit: revealCommit
        });
        st.disputedTurn = st.lastTurn + 1;
        g.enter(gameId, IShroudGame.Phase.Dispute, g.durations.disputeSeconds);
        emit IShroudGame.DisputeOpened(gameId, seat, st.lastTurn, leaves, g.deadline);
    }

    /// @notice See `IShroudGame.answerDispute`: `answer` holds, per leaf in the opening's order, terrain, feature,
    ///         resource, rivers, salt and the `ShroudTiles.pathLength(depth)` siblings of its path; `receipt` is empty or the disputer's
    ///         65-byte `RevealReceipt` signature for the disputed turn. Opens the challenge window.
    function answerDispute(Store storage s, uint256 gameId, uint256[] calldata answer, bytes calldata receipt)
        external
    {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Dispute);
        if (msg.sender != g.dealer) revert IShroudGame.NotDealer();
        IShroudGame.Dispute storage d = s.disputes[gameId];
        if (d.answered) revert IShroudGame.AlreadyAnswered();
        uint256 want = uint256(d.nLeaves) * (5 + ShroudTiles.pathLength(g.depth));
        if (answer.length != want) revert IShroudGame.WrongAnswerLength(want, answer.length);
        d.answered = true;
        d.answerHash = keccak256(abi.encodePacked(answer));
        if (receipt.length != 0) {
            IShroudGame.Seat storage st = s.seats[gameId][d.seat];
            if (receiptSigner(gameId, d.turn, d.revealCommit, receipt) != st.player) revert IShroudGame.BadReceipt();
            d.receipted = true;
        }
        g.enter(gameId, IShroudGame.Phase.Dispute, g.durations.disputeSeconds);
        emit IShroudGame.DisputeAnswered(gameId, d.seat, d.turn, answer);
    }

    /// @notice The signer of a `RevealReceipt(gameId, turn, revealCommit)` under this contract's dealer domain, or
    ///         address(0) for a malformed or high-s signature.
    function receiptSigner(uint256 gameId, uint256 turn, uint256 revealCommit, bytes calldata sig)
        internal
        view
        returns (address)
    {
        if (sig.length != 65) return address(0);
        bytes32 r = bytes32(sig[0:32]);
        bytes32 sv = bytes32(sig[32:64]);
        uint8 v = uint8(sig[64]);
        if (uint256(sv) > HALF_N || (v != 27 && v != 28)) return address(0);
        bytes32 domain = keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("Shroud Dealer"), keccak256("1"), block.chainid, address(this))
        );
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01", domain, keccak256(abi.encode(RECEIPT_TYPEHASH, gameId, uint32(turn), revealCommit))
            )
        );
        return ecrecover(digest, v, r, sv);
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

    /// The answer stood: the interrupted turn resumes with the time it had, and at least a minimum turn's time. The
    /// deposit is held for the dealer when it showed the disputer's receipt (a false dispute), else refunded.
    function _close(Store storage s, uint256 gameId) private {
        IShroudGame.Game storage g = s.games[gameId];
        IShroudGame.Dispute memory d = s.disputes[gameId];
        delete s.disputes[gameId];
        IShroudGame.Seat storage st = s.seats[gameId][d.seat];
        if (d.receipted) st.escrow += d.deposit;
        else ShroudFunds.pay(s, st.player, d.deposit);
        uint256 left = d.pausedLeft < ShroudLimits.MIN_TURN ? ShroudLimits.MIN_TURN : d.pausedLeft;
        g.enter(gameId, IShroudGame.Phase.Play, left);
        emit IShroudGame.DisputeClosed(gameId, d.seat, d.turn);
    }

    /// Whether answer tile `k` (for `leaf`) is a tile (bytes, a salt in the field) whose path leads to the game's root.
    function _verifies(IShroudGame.Game storage g, Deps memory deps, uint256 leaf, uint256[] calldata answer, uint256 k)
        private
        view
        returns (bool)
    {
        uint256 siblings = ShroudTiles.pathLength(g.depth);
        uint256 at = k * (5 + siblings);
        uint256[5] memory tile;
        for (uint256 i = 0; i < 5; i++) {
            tile[i] = answer[at + i];
            if (tile[i] >= Poseidon.FIELD_MODULUS) return false;
        }
        if (!ShroudTiles.isTile(tile)) return false;
        uint256[] memory path = new uint256[](siblings);
        for (uint256 i = 0; i < siblings; i++) {
            path[i] = answer[at + 5 + i];
            if (path[i] >= Poseidon.FIELD_MODULUS) return false;
        }
        uint256 node = ShroudTiles.leafHash(deps.hashers[1], tile);
        return ShroudTiles.climb(deps.hashers[3], leaf, node, path) == g.root;
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
