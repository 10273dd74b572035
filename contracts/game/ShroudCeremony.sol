// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {VerifierRegistry} from "../VerifierRegistry.sol";
import {ShroudAudit} from "./ShroudAudit.sol";
import {ShroudFunds} from "./ShroudFunds.sol";
import {ShroudLimits} from "./ShroudLimits.sol";
import {ShroudPhases} from "./ShroudPhases.sol";
import {ShroudTiles} from "./ShroudTiles.sol";
import {ShroudTurns} from "./ShroudTurns.sol";
import {Deps, Store} from "./ShroudStore.sol";

/// @title ShroudCeremony
/// @notice The seed ceremony (P1): game creation with bounded durations, share commitments, sealed reveals checked
///         by a Groth16 proof, cancellation of a ceremony a player missed, and the dealer's root.
/// @dev A sealed reveal is `(E.y, c)`: `E = e·G` on Baby Jubjub, `c = r_i + Poseidon(S.x, S.y, gameId, player)` with
///      `S = e·sealKey`. Its proof (circuits/seal.circom) shows `c` opens, under the game's seal key, to the `r_i`
///      behind the seat's `C_i = Poseidon(gameId, player, r_i)`; the contract supplies every public signal but
///      `E.y` and `c`: the game's `sealContext = Poseidon(gameId, sealKey)` (one signal for both, computed at
///      creation), the caller, its stored `C_i`. So a share the contract accepted always opens: there is no "bad
///      share" for the dealer to report, and the dealer never publishes anything derived from its key. Copying
///      another game's or seat's sealed share fails: its proof is bound to that game, key, player and commitment.
///      Runs through DELEGATECALL in ShroudGame's storage; its events and errors are IShroudGame's.
library ShroudCeremony {
    using ShroudPhases for IShroudGame.Game;

    /// @notice `verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[5])`: the sealed-share verifier.
    bytes4 internal constant SEAL_VERIFY = bytes4(keccak256("verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[5])"));
    /// @notice Baby Jubjub (twisted Edwards over the BN254 scalar field): a·x² + y² = 1 + d·x²·y².
    uint256 internal constant BABYJUB_A = 168700;
    uint256 internal constant BABYJUB_D = 168696;
    /// @notice Verifiers copied per ruleset into the game contract: spawn, turn, attack, combat.
    uint256 internal constant PLAY_VERIFIERS = 4;

    /// @notice See `IShroudGame.createGame`. `value` is the bond (msg.value).
    function createGame(Store storage s, Deps memory deps, IShroudGame.GameParams calldata p, uint256 value)
        external
        returns (uint256 gameId)
    {
        uint256 n = p.players.length;
        if (n < ShroudLimits.MIN_PLAYERS || n > ShroudLimits.MAX_PLAYERS) revert IShroudGame.BadPlayerCount(n);
        if (p.dealer == address(0) || p.dealer != msg.sender) revert IShroudGame.BadDealer();
        if (!isSealKey(p.sealKey[0], p.sealKey[1])) revert IShroudGame.BadSealKey();
        if (value == 0) revert IShroudGame.BondRequired();
        if (value > type(uint96).max) revert IShroudGame.ValueTooLarge();
        ShroudLimits.checkDurations(p.durations);
        if (p.disputeDeposit > p.stake) revert IShroudGame.DepositAboveStake(p.disputeDeposit, p.stake);

        gameId = ShroudPhases.gameIdOf(++s.gameCount);
        _seatPlayers(s, gameId, p.players, p.dealer);
        IShroudGame.Game storage g = s.games[gameId];
        g.dealer = p.dealer;
        g.nPlayers = uint8(n);
        g.active = uint8(n);
        _setBoard(g, p.board);
        _bindRuleset(s, g, deps.registry, p.rulesetHash, p.board, n);
        g.turnSeconds = p.durations.turnSeconds;
        g.bond = uint96(value);
        g.stake = p.stake;
        g.disputeDeposit = p.disputeDeposit;
        g.durations = p.durations;
        g.rulesetHash = p.rulesetHash;
        g.sealKey = p.sealKey;
        g.sealContext = Poseidon.hash3(deps.hashers[2], gameId, p.sealKey[0], p.sealKey[1]);
        emit IShroudGame.GameCreated(gameId, p.dealer, p.players, p.rulesetHash, value, p.stake);
        emit IShroudGame.GameConfigured(gameId, p.board, p.durations, p.sealKey, p.disputeDeposit);
        g.enter(gameId, IShroudGame.Phase.Commit, p.durations.commitSeconds);
    }

    /// @notice See `IShroudGame.commit`. `value` is the stake paid (msg.value).
    function commit(Store storage s, uint256 gameId, uint256 commitment, uint256 value) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Commit);
        if (commitment >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (st.committed) revert IShroudGame.AlreadyCommitted();
        if (value != g.stake) revert IShroudGame.WrongStake(g.stake, value);
        st.committed = true;
        st.staked = value != 0;
        st.commitment = commitment;
        emit IShroudGame.Committed(gameId, seat, commitment);
        if (++g.commits == g.nPlayers) g.enter(gameId, IShroudGame.Phase.Reveal, g.durations.revealSeconds);
    }

    /// @notice See `IShroudGame.sealedReveal`: the proof's public signals are
    ///         `[sealContext, player, C_i, E.y, c]`, all but E.y and c from this contract.
    function sealedReveal(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256 ephemeralY,
        uint256 ciphertext,
        IShroudGame.Proof calldata proof
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Reveal);
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        IShroudGame.Seat storage st = s.seats[gameId][seat];
        if (st.revealed) revert IShroudGame.AlreadyRevealed();
        if (ephemeralY >= Poseidon.FIELD_MODULUS || ciphertext >= Poseidon.FIELD_MODULUS) {
            revert IShroudGame.NotInField();
        }
        uint256[5] memory sig = [g.sealContext, uint256(uint160(msg.sender)), st.commitment, ephemeralY, ciphertext];
        (bool ok, bytes memory ret) =
            deps.sealVerifier.staticcall(abi.encodePacked(SEAL_VERIFY, proof.a, proof.b, proof.c, sig));
        if (!ok || ret.length != 32 || abi.decode(ret, (uint256)) != 1) revert IShroudGame.InvalidProof();
        st.revealed = true;
        emit IShroudGame.SealedReveal(gameId, seat, ephemeralY, ciphertext);
        if (++g.reveals == g.nPlayers) g.enter(gameId, IShroudGame.Phase.Deal, g.durations.rootSeconds);
    }

    /// @notice See `IShroudGame.cancelMissed`.
    function cancelMissed(Store storage s, uint256 gameId) external {
        IShroudGame.Game storage g = s.games[gameId];
        IShroudGame.Phase p = g.phase;
        if (p != IShroudGame.Phase.Commit && p != IShroudGame.Phase.Reveal && p != IShroudGame.Phase.ForceOpen) {
            revert IShroudGame.WrongPhase(IShroudGame.Phase.Commit, p);
        }
        if (block.timestamp <= g.deadline) revert IShroudGame.DeadlineNotPassed(g.deadline);
        uint256 n = g.nPlayers;
        for (uint256 i = 0; i < n; i++) {
            IShroudGame.Seat storage st = s.seats[gameId][i];
            bool done = p == IShroudGame.Phase.Commit
                ? st.committed
                : p == IShroudGame.Phase.Reveal ? st.revealed : st.shareRevealed;
            // A seat that already left the game owes no share of a force-open: it is not blamed for it.
            if (!done && !st.forfeited) st.atFault = true;
        }
        ShroudFunds.cancel(
            s,
            gameId,
            p == IShroudGame.Phase.Commit
                ? IShroudGame.Reason.MissedCommit
                : p == IShroudGame.Phase.Reveal ? IShroudGame.Reason.MissedReveal : IShroudGame.Reason.MissedShare
        );
    }

    /// @notice See `IShroudGame.postRoot`.
    function postRoot(
        Store storage s,
        uint256 gameId,
        uint256 root,
        uint256 masterCommitment,
        uint256[] calldata zoneRoots
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Deal);
        if (msg.sender != g.dealer) revert IShroudGame.NotDealer();
        if (root >= Poseidon.FIELD_MODULUS || masterCommitment >= Poseidon.FIELD_MODULUS) {
            revert IShroudGame.NotInField();
        }
        g.root = root;
        g.masterCommitment = masterCommitment;
        g.rootBlock = uint40(block.number);
        ShroudAudit.recordZoneRoots(s, g, gameId, zoneRoots);
        emit IShroudGame.RootPosted(gameId, root, masterCommitment, zoneRoots);
        ShroudTurns.resume(s, gameId);
    }

    /// @notice Whether (x, y) is a Baby Jubjub point whose order does not divide 8: on the curve, and 8·P is not the
    ///         identity. That refuses the identity and the seven other points of small order, for which the seal
    ///         proof either cannot be made or makes every share public. The full prime-subgroup check is the
    ///         players' (core `checkSealPublicKey`, run by the SDK before it commits): a key with a small-order
    ///         component still seals and opens (a dealer posting one only risks its own games).
    function isSealKey(uint256 x, uint256 y) internal pure returns (bool) {
        uint256 p = Poseidon.FIELD_MODULUS;
        if (x >= p || y >= p) return false;
        uint256 xx = mulmod(x, x, p);
        uint256 yy = mulmod(y, y, p);
        uint256 lhs = addmod(mulmod(BABYJUB_A, xx, p), yy, p);
        uint256 rhs = addmod(1, mulmod(BABYJUB_D, mulmod(xx, yy, p), p), p);
        if (lhs != rhs) return false;
        // 8·P in projective coordinates (X : Y : Z), three doublings; the identity is (0 : Z : Z).
        (uint256 px, uint256 py, uint256 pz) = _double(x, y, 1);
        (px, py, pz) = _double(px, py, pz);
        (px, py, pz) = _double(px, py, pz);
        return !(px == 0 && py == pz);
    }

    /// Projective twisted-Edwards doubling (dbl-2008-bbjlp), complete on Baby Jubjub.
    function _double(uint256 px, uint256 py, uint256 pz) private pure returns (uint256, uint256, uint256) {
        uint256 p = Poseidon.FIELD_MODULUS;
        uint256 s = addmod(px, py, p);
        uint256 c = mulmod(px, px, p);
        uint256 d = mulmod(py, py, p);
        s = addmod(mulmod(s, s, p), p - addmod(c, d, p), p); // 2·px·py
        c = mulmod(BABYJUB_A, c, p); // a·px²
        uint256 f = addmod(c, d, p);
        uint256 j = addmod(f, p - mulmod(2, mulmod(pz, pz, p), p), p);
        return (mulmod(s, j, p), mulmod(f, addmod(c, p - d, p), p), mulmod(f, j, p));
    }

    /// Seats the players in order: distinct, neither zero nor the dealer.
    function _seatPlayers(Store storage s, uint256 gameId, address[] calldata players, address dealer) private {
        for (uint256 i = 0; i < players.length; i++) {
            address p = players[i];
            if (p == address(0) || p == dealer || s.seatPlusOne[gameId][p] != 0) revert IShroudGame.BadPlayer(i);
            s.seatPlusOne[gameId][p] = i + 1;
            s.seats[gameId][i].player = p;
        }
    }

    /// Checks the board (`ShroudLimits.boardFits`: sides ≤ 1024, ≤ 224 zones of 8×8; a turn limit) and stores it
    /// with its zone count and tree depth (`ShroudTiles.depthFor`, makeBoard in core/geometry.ts).
    function _setBoard(IShroudGame.Game storage g, IShroudGame.Board calldata b) private {
        if (b.kind > 1 || b.maxTurns == 0 || !ShroudLimits.boardFits(b.width, b.height)) revert IShroudGame.BadBoard();
        uint256 zones = ShroudLimits.zoneCount(b.width, b.height);
        g.kind = b.kind;
        g.depth = uint8(ShroudTiles.depthFor(zones));
        g.zones = uint8(zones);
        g.width = b.width;
        g.height = b.height;
        g.maxTurns = b.maxTurns;
    }

    /// The ruleset must be registered for this board and seat count; the game keeps its seats, damage,
    /// passability and reveal-list size, and the ruleset's registered play verifiers are copied here once.
    function _bindRuleset(
        Store storage s,
        IShroudGame.Game storage g,
        address registry,
        bytes32 rulesetHash,
        IShroudGame.Board calldata board,
        uint256 n
    ) private {
        VerifierRegistry reg = VerifierRegistry(registry);
        VerifierRegistry.Ruleset memory rs = reg.getRuleset(rulesetHash);
        if (!rs.registered) revert IShroudGame.UnknownRuleset(rulesetHash);
        if (rs.kind != board.kind || rs.width != board.width || rs.height != board.height || n > rs.maxPlayers) {
            revert IShroudGame.RulesetMismatch();
        }
        g.maxPlayers = rs.maxPlayers;
        g.damage = rs.damage;
        g.passability = rs.passability;
        g.revealWords = uint8((uint256(rs.maxRevealedTiles) + ShroudLimits.REVEAL_LANES_PER_WORD - 1)
            / ShroudLimits.REVEAL_LANES_PER_WORD);
        uint32 id = s.rulesetIdOf[rulesetHash];
        if (id == 0) {
            id = ++s.rulesetCount;
            s.rulesetIdOf[rulesetHash] = id;
        }
        g.rulesetId = id;
        for (uint256 c = 0; c < PLAY_VERIFIERS; c++) {
            if (s.verifierCache[id][c].target != address(0)) continue;
            VerifierRegistry.Verifier memory v = reg.getVerifier(rulesetHash, c);
            if (v.target != address(0)) s.verifierCache[id][c] = v;
        }
    }
}
