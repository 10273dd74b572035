// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {Poseidon} from "../Poseidon.sol";
import {ShroudAudit} from "./ShroudAudit.sol";
import {ShroudFunds} from "./ShroudFunds.sol";
import {ShroudPhases} from "./ShroudPhases.sol";
import {ShroudTiles} from "./ShroudTiles.sol";
import {Deps, Store} from "./ShroudStore.sol";

/// @title ShroudSettlement
/// @notice After play (P3): the dealer publishes its master secret and every share, checked against
///         `Poseidon(master_secret)` and each `C_i`, with its zone roots (ShroudAudit binds the root to `Gen(seed)`
///         through them); during the audit window anyone holding a served tile whose data differs from `Gen(seed)`
///         at its index, or whose salt is not `Poseidon(master_secret, index)`, or that sits in an off-board slot,
///         proves fraud and the bond goes to the players. Late secrets slash too.
/// @dev Runs through DELEGATECALL in ShroudGame's storage; its events and errors are IShroudGame's.
library ShroudSettlement {
    using ShroudPhases for IShroudGame.Game;

    /// @notice See `IShroudGame.publishSecrets`. Only the dealer, which alone knows them.
    function publishSecrets(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256 masterSecret,
        uint256[] calldata shares
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Secrets);
        if (msg.sender != g.dealer) revert IShroudGame.NotDealer();
        uint256 n = g.nPlayers;
        if (shares.length != n) revert IShroudGame.WrongShareCount(n, shares.length);
        if (masterSecret >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
        if (Poseidon.hash1(deps.hashers[0], masterSecret) != g.masterCommitment) {
            revert IShroudGame.MasterSecretMismatch();
        }
        uint256[] memory xs = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            uint256 r = shares[i];
            if (r >= Poseidon.FIELD_MODULUS) revert IShroudGame.NotInField();
            IShroudGame.Seat storage st = s.seats[gameId][i];
            if (Poseidon.hash3(deps.hashers[2], gameId, uint256(uint160(st.player)), r) != st.commitment) {
                revert IShroudGame.ShareMismatch(i);
            }
            xs[i] = r;
        }
        uint256 seed = Poseidon.hashN(deps.hashers, xs);
        g.seed = seed;
        g.masterSecret = masterSecret;
        emit IShroudGame.SecretsPublished(gameId, masterSecret, shares, seed);
        g.enter(gameId, IShroudGame.Phase.Audit, g.durations.auditSeconds);
    }

    /// @notice See `IShroudGame.claimSecretsTimeout`.
    function claimSecretsTimeout(Store storage s, uint256 gameId) external {
        s.games[gameId].requireExpired(IShroudGame.Phase.Secrets);
        ShroudFunds.slash(s, gameId, IShroudGame.Reason.NoSecrets);
        ShroudFunds.settle(s, gameId);
    }

    /// @notice See `IShroudGame.proveFraud`: the leaf's path must verify against the root and the leaf must differ
    ///         from `Gen(seed)`, carry a wrong salt, or sit in an off-board slot. Slashes and settles.
    function proveFraud(
        Store storage s,
        Deps memory deps,
        uint256 gameId,
        uint256 leafIndex,
        uint256[5] calldata tile,
        uint256[] calldata path
    ) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireOpen(IShroudGame.Phase.Audit);
        uint256 depth = g.depth;
        uint256 siblings = ShroudTiles.pathLength(depth);
        if (path.length != siblings) revert IShroudGame.BadPathLength(siblings, path.length);
        if (leafIndex >> (ShroudTiles.LEVEL_BITS * depth) != 0) revert IShroudGame.BadLeafIndex();
        uint256 node = ShroudTiles.leafHash(deps.hashers[1], tile);
        if (ShroudTiles.climb(deps.hashers[3], leafIndex, node, path) != g.root) revert IShroudGame.InvalidPath();
        if (!_isFraud(g, deps, leafIndex, tile)) revert IShroudGame.NoFraud();
        emit IShroudGame.FraudProven(gameId, leafIndex, msg.sender);
        ShroudFunds.slash(s, gameId, IShroudGame.Reason.Fraud);
        ShroudAudit.settle(s, gameId);
    }

    /// @notice See `IShroudGame.settle`: the audit window closed with no fraud proven. While a zone challenge is
    ///         unanswered the dealer has until its answer window closes; past it, the dealer is slashed first.
    function settle(Store storage s, uint256 gameId) external {
        IShroudGame.Game storage g = s.games[gameId];
        g.requireExpired(IShroudGame.Phase.Audit);
        if (ShroudAudit.hasOpenChallenge(s, gameId)) {
            uint256 until = ShroudAudit.answerDeadline(g);
            if (block.timestamp <= until) revert IShroudGame.DeadlineNotPassed(until);
            ShroudFunds.slash(s, gameId, IShroudGame.Reason.UnansweredAuditChallenge);
        }
        ShroudAudit.settle(s, gameId);
    }

    function _isFraud(IShroudGame.Game storage g, Deps memory deps, uint256 leafIndex, uint256[5] calldata tile)
        private
        view
        returns (bool)
    {
        (bool onBoard, uint256 col, uint256 row) = ShroudTiles.coord(g, leafIndex);
        // Off-board slots and unused zones must hold leaf 0, which has no Poseidon preimage we know of.
        if (!onBoard) return true;
        if (tile[4] != Poseidon.hash2(deps.hashers[1], g.masterSecret, leafIndex)) return true;
        // The fields are bytes (leafHash refused any other): their word is this tile's only.
        return ShroudTiles.generated(g, deps.mapGen, deps.registry, col, row) != ShroudTiles.pack(tile[0], tile[1], tile[2], tile[3]);
    }
}
