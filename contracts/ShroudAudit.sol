// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Poseidon} from "./Poseidon.sol";
import {IMapGen, ShroudBase} from "./ShroudBase.sol";

/// @title ShroudAudit
/// @notice The secrets, audit and settlement half of ShroudGame, split out as an external (linked) library so the
///         game contract keeps room under the EIP-170 size limit: force-open share reveals, the post-game secrets
///         check and seed computation, tile fraud proofs, slashing, settlement and cancellation payouts.
/// @dev Runs through DELEGATECALL in ShroudGame's storage and context (`msg.sender` is the game's caller): the
///      storage pointers it receives are ShroudGame's, and its events and errors are ShroudGame's (declared in
///      `ShroudBase`). Every function here trusts ShroudGame to pass the game's own storage; it is not meant to be
///      called directly (a direct call would only touch the library's own, empty, storage).
library ShroudAudit {
    /// @notice Force-open: the caller (seat `s`) reveals `r_i`, checked against `C_i`. When every share is in, the
    ///         seed is computed and play starts on the public map.
    /// @param g The game.
    /// @param seats The game's seats.
    /// @param hashers Poseidon contracts for 1..6 inputs.
    /// @param gameId The game's id.
    /// @param s The caller's seat.
    /// @param share `r_i`.
    function revealShare(
        ShroudBase.Game storage g,
        mapping(uint256 => ShroudBase.Seat) storage seats,
        address[6] memory hashers,
        uint256 gameId,
        uint256 s,
        uint256 share
    ) external {
        if (share >= Poseidon.FIELD_MODULUS) revert ShroudBase.NotInField();
        ShroudBase.Seat storage st = seats[s];
        if (st.shareRevealed) revert ShroudBase.AlreadyRevealed();
        if (Poseidon.hash3(hashers[2], gameId, uint256(uint160(msg.sender)), share) != st.commitment) {
            revert ShroudBase.ShareMismatch(s);
        }
        st.shareRevealed = true;
        st.share = share;
        emit ShroudBase.ShareRevealed(gameId, s, share);
        if (++g.sharesRevealed == g.nPlayers) {
            uint256 n = g.nPlayers;
            uint256[] memory shares = new uint256[](n);
            for (uint256 i = 0; i < n; i++) {
                shares[i] = seats[i].share;
            }
            uint256 seed = Poseidon.hashN(hashers, shares);
            g.seed = seed;
            g.openMap = true;
            emit ShroudBase.MapOpened(gameId, seed);
            _enter(g, gameId, ShroudBase.Phase.Play, g.turnSeconds);
            emit ShroudBase.TurnStarted(gameId, 0, 0, g.deadline);
        }
    }

    /// @notice Checks `master_secret` against `Poseidon(master_secret)` and each `r_i` against `C_i`, stores the
    ///         seed and master secret and opens the audit window.
    /// @param g The game (in `Phase.Secrets`, checked by the caller).
    /// @param seats The game's seats.
    /// @param hashers Poseidon contracts for 1..6 inputs.
    /// @param gameId The game's id.
    /// @param masterSecret The dealer's master secret.
    /// @param shares `r_1..r_n` in seat order.
    function publishSecrets(
        ShroudBase.Game storage g,
        mapping(uint256 => ShroudBase.Seat) storage seats,
        address[6] memory hashers,
        uint256 gameId,
        uint256 masterSecret,
        uint256[] calldata shares
    ) external {
        uint256 n = g.nPlayers;
        if (shares.length != n) revert ShroudBase.WrongShareCount(n, shares.length);
        if (masterSecret >= Poseidon.FIELD_MODULUS) revert ShroudBase.NotInField();
        if (Poseidon.hash1(hashers[0], masterSecret) != g.masterCommitment) revert ShroudBase.MasterSecretMismatch();
        uint256[] memory xs = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            uint256 r = shares[i];
            if (r >= Poseidon.FIELD_MODULUS) revert ShroudBase.NotInField();
            ShroudBase.Seat storage st = seats[i];
            if (Poseidon.hash3(hashers[2], gameId, uint256(uint160(st.player)), r) != st.commitment) {
                revert ShroudBase.ShareMismatch(i);
            }
            xs[i] = r;
        }
        uint256 seed = Poseidon.hashN(hashers, xs);
        g.seed = seed;
        g.masterSecret = masterSecret;
        emit ShroudBase.SecretsPublished(gameId, masterSecret, shares, seed);
        _enter(g, gameId, ShroudBase.Phase.Audit, g.durations.auditSeconds);
    }

    /// @notice Fraud proof (see `ShroudGame.proveFraud`): the leaf's path must verify against the root and the leaf
    ///         must differ from `Gen(seed)` or carry a wrong salt or sit in an off-board slot. Slashes and settles.
    /// @param g The game (in its audit window, checked by the caller).
    /// @param seats The game's seats.
    /// @param credit Pull-payment balances.
    /// @param hashers Poseidon contracts for 1..6 inputs.
    /// @param mapGen The single-tile generator.
    /// @param gameId The game's id.
    /// @param leafIndex Zone-major leaf index.
    /// @param tile terrain, feature, resource, river bitmask, salt.
    /// @param path Sibling hashes from the leaf up.
    function proveFraud(
        ShroudBase.Game storage g,
        mapping(uint256 => ShroudBase.Seat) storage seats,
        mapping(address => uint256) storage credit,
        address[6] memory hashers,
        IMapGen mapGen,
        uint256 gameId,
        uint256 leafIndex,
        uint256[5] calldata tile,
        uint256[] calldata path
    ) external {
        uint256 depth = g.depth;
        if (path.length != depth) revert ShroudBase.BadPathLength(depth, path.length);
        if (leafIndex >> depth != 0) revert ShroudBase.BadLeafIndex();
        for (uint256 i = 0; i < 5; i++) {
            if (tile[i] >= Poseidon.FIELD_MODULUS) revert ShroudBase.NotInField();
        }
        address p2 = hashers[1];
        uint256 node = Poseidon.hash5(hashers[4], tile[0], tile[1], tile[2], tile[3], tile[4]);
        for (uint256 k = 0; k < depth; k++) {
            uint256 sib = path[k];
            if (sib >= Poseidon.FIELD_MODULUS) revert ShroudBase.NotInField();
            node = (leafIndex >> k) & 1 == 1 ? Poseidon.hash2(p2, sib, node) : Poseidon.hash2(p2, node, sib);
        }
        if (node != g.root) revert ShroudBase.InvalidPath();
        if (!_isFraud(g, p2, mapGen, leafIndex, tile)) revert ShroudBase.NoFraud();
        emit ShroudBase.FraudProven(gameId, leafIndex, msg.sender);
        slash(g, seats, credit, gameId, 7); // ShroudBase.REASON_FRAUD
        settle(g, seats, credit, gameId);
    }

    /// @notice The dealer's remaining bond goes to the players (seat 0 takes the rounding remainder).
    /// @param g The game.
    /// @param seats The game's seats.
    /// @param credit Pull-payment balances.
    /// @param gameId The game's id.
    /// @param reason The slashing reason (event code).
    function slash(
        ShroudBase.Game storage g,
        mapping(uint256 => ShroudBase.Seat) storage seats,
        mapping(address => uint256) storage credit,
        uint256 gameId,
        uint8 reason
    ) public {
        uint256 bond = g.bond;
        if (bond == 0) return;
        g.bond = 0;
        uint256 n = g.nPlayers;
        uint256 each = bond / n;
        for (uint256 i = 0; i < n; i++) {
            credit[seats[i].player] += i == 0 ? bond - each * (n - 1) : each;
        }
        emit ShroudBase.DealerSlashed(gameId, reason, bond);
    }

    /// @notice Pays out and moves the game to `Phase.Settled`.
    /// @param g The game.
    /// @param seats The game's seats.
    /// @param credit Pull-payment balances.
    /// @param gameId The game's id.
    function settle(
        ShroudBase.Game storage g,
        mapping(uint256 => ShroudBase.Seat) storage seats,
        mapping(address => uint256) storage credit,
        uint256 gameId
    ) public {
        _payout(g, seats, credit);
        g.phase = ShroudBase.Phase.Settled;
        emit ShroudBase.Settled(gameId);
        emit ShroudBase.PhaseChanged(gameId, ShroudBase.Phase.Settled, 0);
    }

    /// @notice Pays out and moves the game to `Phase.Cancelled`, reporting the seats at fault.
    /// @param g The game.
    /// @param seats The game's seats.
    /// @param credit Pull-payment balances.
    /// @param gameId The game's id.
    /// @param reason The cancellation reason (event code).
    function cancel(
        ShroudBase.Game storage g,
        mapping(uint256 => ShroudBase.Seat) storage seats,
        mapping(address => uint256) storage credit,
        uint256 gameId,
        uint8 reason
    ) external {
        uint256 mask;
        uint256 n = g.nPlayers;
        for (uint256 i = 0; i < n; i++) {
            if (seats[i].atFault) mask |= 1 << i;
        }
        _payout(g, seats, credit);
        g.phase = ShroudBase.Phase.Cancelled;
        emit ShroudBase.GameCancelled(gameId, reason, mask);
        emit ShroudBase.PhaseChanged(gameId, ShroudBase.Phase.Cancelled, 0);
    }

    // ---------------------------------------------------------------- internals

    function _enter(ShroudBase.Game storage g, uint256 gameId, ShroudBase.Phase p, uint256 duration) private {
        uint256 deadline = block.timestamp + duration;
        g.phase = p;
        g.deadline = uint40(deadline);
        emit ShroudBase.PhaseChanged(gameId, p, deadline);
    }

    function _isFraud(ShroudBase.Game storage g, address p2, IMapGen mapGen, uint256 leafIndex, uint256[5] calldata tile)
        private
        view
        returns (bool)
    {
        (bool onBoard, uint256 col, uint256 row) = _leafCoord(g, leafIndex);
        // Off-board slots and unused zones must hold leaf 0, which has no Poseidon preimage we know of.
        if (!onBoard) return true;
        if (tile[4] != Poseidon.hash2(p2, g.masterSecret, leafIndex)) return true;
        // Generated fields are bytes; anything larger is wrong (and would alias in the packed comparison).
        if ((tile[0] | tile[1] | tile[2] | tile[3]) > type(uint8).max) return true;
        return _packedTile(g, mapGen, col, row) != (tile[0] << 192) | (tile[1] << 128) | (tile[2] << 64) | tile[3];
    }

    function _packedTile(ShroudBase.Game storage g, IMapGen mapGen, uint256 col, uint256 row)
        private
        view
        returns (uint256)
    {
        (uint8 t, uint8 f, uint8 r, uint8 rv) = mapGen.generateTile(g.seed, g.kind, g.width, g.height, col, row);
        return (uint256(t) << 192) | (uint256(f) << 128) | (uint256(r) << 64) | uint256(rv);
    }

    /// Zone-major index → coordinates (core/geometry.ts leafCoord); `onBoard` false for off-board slots.
    function _leafCoord(ShroudBase.Game storage g, uint256 leafIndex)
        private
        view
        returns (bool onBoard, uint256 col, uint256 row)
    {
        uint256 zs = 8; // ZONE_SIZE
        uint256 zonesX = (uint256(g.width) + zs - 1) / zs;
        uint256 zonesY = (uint256(g.height) + zs - 1) / zs;
        uint256 zone = leafIndex / 64;
        uint256 local = leafIndex % 64;
        col = (zone % zonesX) * zs + (local % zs);
        row = (zone / zonesX) * zs + local / zs;
        onBoard = zone < zonesX * zonesY && col < g.width && row < g.height;
    }

    /// Remaining bond to the dealer; stakes back to players not at fault; faulty stakes split among the players
    /// not at fault (or to the dealer when every player is at fault).
    function _payout(
        ShroudBase.Game storage g,
        mapping(uint256 => ShroudBase.Seat) storage seats,
        mapping(address => uint256) storage credit
    ) private {
        uint256 bond = g.bond;
        if (bond != 0) {
            g.bond = 0;
            credit[g.dealer] += bond;
        }
        uint256 stake = g.stake;
        if (stake == 0) return;
        uint256 n = g.nPlayers;
        uint256 slashed;
        uint256 honest;
        for (uint256 i = 0; i < n; i++) {
            ShroudBase.Seat storage st = seats[i];
            if (st.atFault) {
                if (st.staked) slashed += stake;
            } else {
                honest++;
                if (st.staked) credit[st.player] += stake;
            }
            st.staked = false;
        }
        if (slashed == 0) return;
        if (honest == 0) {
            credit[g.dealer] += slashed;
            return;
        }
        uint256 each = slashed / honest;
        uint256 rest = slashed - each * honest;
        for (uint256 i = 0; i < n; i++) {
            ShroudBase.Seat storage st = seats[i];
            if (!st.atFault) {
                credit[st.player] += each + rest;
                rest = 0;
            }
        }
    }
}
