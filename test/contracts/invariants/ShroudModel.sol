// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../../../contracts/IShroudGame.sol";
import {MapGen} from "../../../contracts/MapGen.sol";
import {FakePoseidon} from "../../../contracts/harness/FakePoseidon.sol";
import {vm} from "./Vm.sol";

/// @title ShroudModel
/// @notice What the off-chain parties compute, for `ShroudHandler` (a separate contract only because the handler
///         would exceed the 24 KB code size limit otherwise): share and reveal commitments, the dealer's served tile
///         and its root, open-root proposals, the context word of play proofs, random durations, and what a game
///         holds according to the game's public views. Every hash is the FakePoseidon the game uses.
/// @dev The board is the mock rulesets' hex 16×12: 2 × 2 zones of 8 × 8, zone-major leaves, a 4-ary tree of depth 4.
contract ShroudModel {
    uint256 internal constant P = 21888242871839275222246405745257275088548364400416034343698204186575808495617;
    uint16 internal constant WIDTH = 16;
    uint16 internal constant HEIGHT = 12;
    uint256 internal constant ZONES = 4;
    uint256 internal constant DEPTH = 4;
    /// Siblings of a path: 3 a level.
    uint256 internal constant PATH = 12;
    uint256 internal constant LEAVES = 256;
    uint256 internal constant MAX_PLAYERS = 3;

    /// circomlib Base8: a valid Baby Jubjub seal key (only the curve equation is checked on-chain).
    uint256 internal constant SEAL_X = 5299619240641551281634865583518297030282874472190772894086521144482721001553;
    uint256 internal constant SEAL_Y = 16950150798460657717958625567821834550301663161624707787222815936182638968203;

    /// A spawn or turn being built.
    struct Move {
        address caller;
        uint256 seat;
        bool isSpawn;
        uint256 step; // the seat for a spawn, the turn for a turn
        uint256 oldCommit;
        uint256 newCommit; // the play commitment Poseidon(stateCommit, revealCommit, root) (`play`)
        uint256 root; // the game's root (a spawn's last signal)
        uint256 blinding;
    }

    IShroudGame public immutable game;
    FakePoseidon public immutable h;
    MapGen public immutable mapGen;

    constructor(IShroudGame game_, FakePoseidon h_, MapGen mapGen_) {
        game = game_;
        h = h_;
        mapGen = mapGen_;
    }

    // ================================================================ calldata with MockVerifier proofs

    /// A MockVerifier proof: a[0] = keccak256(signals) (or off by one: rejected).
    function proof(uint256[] memory sig, bool valid) public pure returns (IShroudGame.Proof memory p) {
        p.a[0] = uint256(keccak256(abi.encodePacked(sig)));
        if (!valid) p.a[0] ^= 1;
    }

    function sealedRevealCall(uint256 id, uint256[] memory sig, bool valid, uint256 ey, uint256 c)
        external
        pure
        returns (bytes memory)
    {
        return abi.encodeCall(IShroudGame.sealedReveal, (id, ey, c, proof(sig, valid)));
    }

    /// spawn signals [report | context(step = seat), gameId, newCommit, mapRoot]; turn signals [report |
    /// context(step = turn), oldCommit, newCommit], every ruleset (ShroudGame._signals).
    function playCall(uint256 id, uint256 n, Move memory m, uint256[] memory report, bool valid)
        external
        view
        returns (bytes memory)
    {
        uint256[] memory sig = new uint256[](m.isSpawn ? 4 : 3);
        sig[0] = report[0] | this.context(id, n, m.seat, m.step);
        sig[1] = m.isSpawn ? id : m.oldCommit;
        sig[2] = m.newCommit;
        if (m.isSpawn) sig[3] = m.root;
        IShroudGame.Proof memory p = proof(sig, valid);
        return m.isSpawn
            ? abi.encodeCall(IShroudGame.spawn, (id, p, report, m.newCommit))
            : abi.encodeCall(IShroudGame.playTurn, (id, p, report, m.newCommit));
    }

    /// The play commitment Poseidon(stateCommit, revealCommit, mapRoot) a seat stores (core/state.ts playCommitment).
    function play(uint256 stateCommit, uint256 revealCommit_, uint256 mapRoot) external view returns (uint256) {
        return h.poseidon([stateCommit, revealCommit_, mapRoot]);
    }

    /// `a`: nullifier, col, row, defender.
    function attackCall(uint256 id, uint256[] memory sig, bool valid, uint256[4] memory a)
        external
        pure
        returns (bytes memory)
    {
        return abi.encodeCall(IShroudGame.attack, (id, proof(sig, valid), a[0], a[1], a[2], a[3]));
    }

    /// `a`: present, unitType, unitHp, newCommit.
    function respondCombatCall(uint256 id, uint256[] memory sig, bool valid, uint256[4] memory a)
        external
        pure
        returns (bytes memory)
    {
        return abi.encodeCall(IShroudGame.defend, (id, proof(sig, valid), a[0], a[1], a[2], a[3]));
    }

    /// proposeOpenRoot with the zone roots of the proposal made from `pseed` (`wrongLength`: one zone root only).
    function proposeOpenRootCall(uint256 id, uint256 pseed, bool wrongLength) external view returns (bytes memory) {
        uint256[] memory zoneRoots = wrongLength ? new uint256[](1) : this.proposalZoneRoots(pseed);
        return abi.encodeCall(IShroudGame.proposeOpenRoot, (id, zoneRoots));
    }

    /// challengeOpenRoot of zone `z` with `challengeLeaves(id, pseed, z, kind)`.
    function challengeOpenRootCall(uint256 id, uint256 pseed, uint256 z, uint256 kind)
        external
        view
        returns (bytes memory)
    {
        uint256[64] memory leaves = this.challengeLeaves(id, pseed, z, kind);
        return abi.encodeCall(IShroudGame.challengeOpenRoot, (id, this.proposalZoneRoots(pseed), z, leaves));
    }

    /// answerOpenRootChallenge with the proposal's leaves of the challenged zone (`wrong`: its last leaf altered).
    function answerOpenRootCall(uint256 id, uint256 pseed, uint256 z, uint256 kind, bool wrong)
        external
        view
        returns (bytes memory)
    {
        uint256[64] memory challenger = this.challengeLeaves(id, pseed, z, kind);
        uint256[64] memory proposer = proposalZone(pseed, z);
        if (wrong) proposer[63] = (proposer[63] + 1) % P;
        return abi.encodeCall(
            IShroudGame.answerOpenRootChallenge, (id, this.proposalZoneRoots(pseed), challenger, proposer)
        );
    }

    /// The dealer's answer to a dispute of `leaves`: per leaf terrain, feature, resource, rivers, salt and the
    /// `PATH` siblings of its path; the served `tile` and `path` where the leaf is `known` and the answer `good`,
    /// random words elsewhere; `extra`: one word too many.
    function disputeAnswer(
        uint32[] memory leaves,
        uint256 known,
        uint256[5] memory tile,
        uint256[12] memory path,
        bool good,
        bool extra,
        uint256 seed
    ) external pure returns (uint256[] memory answer) {
        uint256 w = 5 + PATH;
        answer = new uint256[](leaves.length * w + (extra ? 1 : 0));
        for (uint256 k = 0; k < leaves.length; k++) {
            bool mine = good && leaves[k] == known;
            for (uint256 i = 0; i < w; i++) {
                answer[k * w + i] = mine ? (i < 5 ? tile[i] : path[i - 5]) : _r(seed, 100 + k * w + i) % P;
            }
        }
    }

    function answerDisputeCall(uint256 id, uint256[] memory answer, bytes memory rcpt)
        external
        pure
        returns (bytes memory)
    {
        return abi.encodeCall(IShroudGame.answerDispute, (id, answer, rcpt));
    }

    /// The EIP-712 `RevealReceipt(gameId, turn, revealCommit)` signed with `pk`, in the game's "Shroud Dealer"
    /// domain (version 1, this chain, the game contract): r ‖ s ‖ v.
    function receipt(uint256 pk, uint256 id, uint256 turn, uint256 rc) external view returns (bytes memory) {
        bytes32 domain = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("Shroud Dealer"),
                keccak256("1"),
                block.chainid,
                address(game)
            )
        );
        bytes32 typeHash = keccak256("RevealReceipt(uint256 gameId,uint32 turn,uint256 revealCommit)");
        bytes32 digest =
            keccak256(abi.encodePacked("\x19\x01", domain, keccak256(abi.encode(typeHash, id, uint32(turn), rc))));
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(pk, digest);
        return abi.encodePacked(r, s, v);
    }

    // ================================================================ what the parties compute

    /// Funds the game holds for game `id`, from its public views: the bond, each staked seat's stake, each seat's
    /// escrow, and an open dispute's deposit.
    function held(uint256 id) external view returns (uint256 total) {
        (,, uint256 n,,,,,,, uint256 bond,,,) = game.getGame(id);
        (,,, uint256 stake,,,) = game.getGameConfig(id);
        total = bond;
        for (uint256 s = 0; s < n; s++) {
            IShroudGame.Seat memory st = game.getSeat(id, s);
            if (st.staked) total += stake;
            total += st.escrow;
        }
        IShroudGame.Dispute memory d = game.getDispute(id);
        if (d.leavesHash != bytes32(0)) total += d.deposit;
        for (uint256 s = 0; s < n; s++) {
            IShroudGame.ZoneChallenge memory c = game.getZoneChallenge(id, s);
            if (c.open) total += c.deposit;
        }
    }

    /// `C_i = Poseidon(gameId, player, r_i)`.
    function shareCommitment(uint256 id, address player, uint256 share) external view returns (uint256) {
        return h.poseidon([id, uint256(uint160(player)), share]);
    }

    /// The seal proofs' context signal `Poseidon(gameId, sealKey.x, sealKey.y)` (every game uses Base8).
    function sealContext(uint256 id) external view returns (uint256) {
        return h.poseidon([id, SEAL_X, SEAL_Y]);
    }

    /// `Poseidon(x)` (the master-secret commitment).
    function hash1(uint256 x) external view returns (uint256) {
        return h.poseidon([x]);
    }

    /// The leaf hash `Poseidon(terrain | feature << 8 | resource << 16 | rivers << 24, salt)`.
    function leafHash(uint256[5] memory tile) public view returns (uint256) {
        return h.poseidon([tile[0] | (tile[1] << 8) | (tile[2] << 16) | (tile[3] << 24), tile[4]]);
    }

    /// The root a leaf's hash and its path lead to (4-ary: 3 siblings a level in child order, the node's slot the
    /// index's next two bits).
    function climb(uint256 leaf, uint256 node, uint256[12] memory path) external view returns (uint256) {
        for (uint256 k = 0; k < DEPTH; k++) {
            uint256 slot = (leaf >> (2 * k)) & 3;
            uint256[4] memory c;
            uint256 s = 3 * k;
            for (uint256 j = 0; j < 4; j++) {
                c[j] = j == slot ? node : path[s++];
            }
            node = h.poseidon(c);
        }
        return node;
    }

    /// The tile the dealer serves at `leaf`: Gen(seed) there with salt Poseidon(ms, leaf) (kind 0: honest), with a
    /// wrong terrain (1) or salt (2); an off-board leaf gets arbitrary data (fraud by position). The seed is
    /// Poseidon(shares), which the dealer learns from the sealed shares.
    function servedTile(uint256 ms, uint256 leaf, uint8 kind, uint256[] memory shares)
        external
        view
        returns (uint256[5] memory tile)
    {
        tile[4] = h.poseidon([ms, leaf]);
        (bool onBoard, uint256 col, uint256 row) = coord(leaf);
        if (onBoard) {
            uint256 seed = shares.length == 2
                ? h.poseidon([shares[0], shares[1]])
                : h.poseidon([shares[0], shares[1], shares[2]]);
            (uint8 t, uint8 f, uint8 r, uint8 rv) = mapGen.generateTile(seed, 0, WIDTH, HEIGHT, 0, col, row);
            (tile[0], tile[1], tile[2], tile[3]) = (t, f, r, rv);
        } else {
            tile[0] = 2;
        }
        if (kind == 1) tile[0] = (tile[0] + 1) % 7;
        if (kind == 2) tile[4] = (tile[4] + 1) % P;
    }

    /// The leaves of the open-root proposal made from `pseed`, zone `z`: 0 off the board (true), random on it
    /// (false).
    function proposalZone(uint256 pseed, uint256 z) public pure returns (uint256[64] memory leaves) {
        for (uint256 i = 0; i < 64; i++) {
            (bool onBoard,,) = coord(z * 64 + i);
            if (onBoard) leaves[i] = uint256(keccak256(abi.encode(pseed, z * 64 + i))) % P;
        }
    }

    /// The zone roots of the proposal made from `pseed`.
    function proposalZoneRoots(uint256 pseed) external view returns (uint256[] memory zoneRoots) {
        zoneRoots = new uint256[](ZONES);
        for (uint256 z = 0; z < ZONES; z++) {
            zoneRoots[z] = zoneRoot(proposalZone(pseed, z));
        }
    }

    /// A challenger's leaves for zone `z` of the proposal made from `pseed`: the proposal's, except at one leaf.
    /// Kind 0: leaf 0 (on the board in every zone) set to the true open leaf (the proposal's is random): the
    /// challenger wins. Kind 1: an off-board leaf (zones 2 and 3, leaf 32) set to 1 where the proposal's is the true
    /// 0: the challenger loses (in zones 0 and 1, which have no off-board slot, leaf 0 set to another wrong value:
    /// both are wrong there and the proposer loses). Kind 2: the proposal's own leaves (NoFraud).
    function challengeLeaves(uint256 id, uint256 pseed, uint256 z, uint256 kind)
        external
        view
        returns (uint256[64] memory leaves)
    {
        leaves = proposalZone(pseed, z);
        if (kind == 0) {
            leaves[0] = openLeaf(id, z * 64);
        } else if (kind == 1) {
            if (z >= 2) leaves[32] = 1;
            else leaves[0] = (leaves[0] + 1) % P;
        }
    }

    /// The open map's leaf at `leafIndex` of game `id` (its seed is public once forced open): Poseidon(Gen(seed)
    /// there, salt 0), or 0 off the board.
    function openLeaf(uint256 id, uint256 leafIndex) public view returns (uint256) {
        (bool onBoard, uint256 col, uint256 row) = coord(leafIndex);
        if (!onBoard) return 0;
        (,,,,,,,, uint256 seed,,,,) = game.getGame(id);
        if (seed >= P) return 0;
        (uint8 t, uint8 f, uint8 r, uint8 rv) = mapGen.generateTile(seed, 0, WIDTH, HEIGHT, 0, col, row);
        return leafHash([uint256(t), f, r, rv, 0]);
    }

    /// The root of a zone's subtree over its 64 leaves: 3 levels of 4-ary nodes.
    function zoneRoot(uint256[64] memory leaves) public view returns (uint256) {
        uint256[64] memory nodes = leaves;
        for (uint256 m = 16; m >= 1; m /= 4) {
            for (uint256 i = 0; i < m; i++) {
                nodes[i] = h.poseidon([nodes[4 * i], nodes[4 * i + 1], nodes[4 * i + 2], nodes[4 * i + 3]]);
            }
        }
        return nodes[0];
    }

    /// The context bits of a spawn or turn proof's packed word: seat | step << 8 | the opponents' stored zone masks
    /// (4 bits each, seats 0..2 skipping `seat`, 0 for seats the game does not have) from bit 40.
    function context(uint256 id, uint256 n, uint256 seat, uint256 step) external view returns (uint256 word) {
        word = seat | (step << 8);
        uint256 off = 40;
        for (uint256 o = 0; o < MAX_PLAYERS; o++) {
            if (o == seat) continue;
            if (o < n) word |= uint256(game.getSeat(id, o).zoneMask) << off;
            off += ZONES;
        }
    }

    /// The reveal commitment Poseidon(blinding, w0, w1): leaf + 1 in 17-bit lanes, 14 per word (2 words for the
    /// rulesets' 16 revealed tiles).
    function revealCommit(uint32[] memory leaves, uint256 blinding) external view returns (uint256) {
        uint256[3] memory xs;
        xs[0] = blinding;
        for (uint256 i = 0; i < leaves.length; i++) {
            xs[1 + i / 14] |= (uint256(leaves[i]) + 1) << ((i % 14) * 17);
        }
        return h.poseidon(xs);
    }

    /// Random game parameters: 2–3 players drawn from `actors` (not the dealer, also one of them), the fog or the
    /// passability ruleset, durations at or above the floors, a turn limit of 2..11, a stake (0 one time in four),
    /// a deposit ≤ stake, a bond. `v` = seed % 39 in 11..23 breaks one thing, so that creation must revert: the
    /// caller (11), the bond (12), the deposit (13), the board (14, 15), a duration (16, 17), the ruleset (18), the
    /// seal key (19), a player (20, 21), the seat count (22, 23).
    function gameParams(uint256 seed, address[] memory actors, address stranger, bytes32 fog, bytes32 pass)
        external
        view
        returns (IShroudGame.GameParams memory p, uint256 bond, address caller)
    {
        uint256 v = seed % 39;
        address dealer = actors[_r(seed, 2) % actors.length];
        p.players = _players(seed, v, actors, dealer);
        uint256 n = p.players.length;
        if (v == 21) p.players[n - 1] = dealer; // BadPlayer
        if (v == 20) p.players[0] = p.players[n - 1]; // a duplicate: BadPlayer
        p.dealer = dealer;
        p.sealKey = v == 19 ? [uint256(1), uint256(2)] : [SEAL_X, SEAL_Y];
        p.rulesetHash = v == 18 ? keccak256("unknown") : (_r(seed, 3) % 2 == 1 ? pass : fog);
        p.durations = this.durations(seed, v);
        p.board = IShroudGame.Board(0, v == 15 ? 8 : WIDTH, HEIGHT, uint32(2 + _r(seed, 4) % 10));
        if (v == 14) p.board.maxTurns = 0; // BadBoard
        p.stake = _r(seed, 5) % 4 == 0 ? 0 : uint96(1 + _r(seed, 6) % 1 ether);
        p.disputeDeposit = v == 13 ? p.stake + 1 : uint96(_r(seed, 7) % (uint256(p.stake) + 1));
        bond = v == 12 ? 0 : 1 + _r(seed, 8) % 5 ether;
        caller = v == 11 ? stranger : dealer;
    }

    /// 2–3 distinct actors other than the dealer (v 23: 4, v 22: 1).
    function _players(uint256 seed, uint256 v, address[] memory actors, address dealer)
        internal
        pure
        returns (address[] memory players)
    {
        uint256 n = 2 + (_r(seed, 1) % 2);
        if (v == 23) n = 4; // more seats than the ruleset's maxPlayers: RulesetMismatch
        if (v == 22) n = 1; // BadPlayerCount
        players = new address[](n);
        uint256 start = _r(seed, 30) % actors.length;
        uint256 k;
        for (uint256 j = 0; j < actors.length && k < n; j++) {
            address a = actors[(start + j) % actors.length];
            if (a != dealer) players[k++] = a;
        }
    }

    /// `gameParams` as createGame calldata, with what the handler keeps: the seats, the bond (msg.value), the
    /// caller, whether the ruleset proves passability.
    function createGameCall(uint256 seed, address[] memory actors, address stranger, bytes32 fog, bytes32 pass)
        external
        view
        returns (bytes memory data, address[] memory players, uint256 bond, address caller, bool passability)
    {
        IShroudGame.GameParams memory p;
        (p, bond, caller) = this.gameParams(seed, actors, stranger, fog, pass);
        return (abi.encodeCall(IShroudGame.createGame, (p)), p.players, bond, caller, p.rulesetHash == pass);
    }

    /// The permissionless exit of each non-terminal phase (an index for `exitCall`).
    function exitOf(uint8 phase) external pure returns (uint256) {
        IShroudGame.Phase p = IShroudGame.Phase(phase);
        if (p == IShroudGame.Phase.Commit || p == IShroudGame.Phase.Reveal || p == IShroudGame.Phase.ForceOpen) return 0;
        if (p == IShroudGame.Phase.Deal) return 1;
        if (p == IShroudGame.Phase.Play) return 2;
        if (p == IShroudGame.Phase.Combat) return 3;
        if (p == IShroudGame.Phase.Dispute) return 4;
        if (p == IShroudGame.Phase.OpenRoot) return 5;
        if (p == IShroudGame.Phase.Secrets) return 6;
        return 7; // Audit (and anything else: settle reverts)
    }

    /// The calldata of the eight permissionless exits.
    function exitCall(uint256 which, uint256 id) external pure returns (bytes memory) {
        if (which == 0) return abi.encodeCall(IShroudGame.cancelMissed, (id));
        if (which == 1) return abi.encodeCall(IShroudGame.startForceOpen, (id));
        if (which == 2) return abi.encodeCall(IShroudGame.claimTurnTimeout, (id));
        if (which == 3) return abi.encodeCall(IShroudGame.claimCombatTimeout, (id));
        if (which == 4) return abi.encodeCall(IShroudGame.claimDisputeTimeout, (id));
        if (which == 5) return abi.encodeCall(IShroudGame.claimOpenRootTimeout, (id));
        if (which == 6) return abi.encodeCall(IShroudGame.claimSecretsTimeout, (id));
        return abi.encodeCall(IShroudGame.settle, (id));
    }

    /// Each duration between its floor and 4× it (one game in four: up to 40× it, within the ceilings); v 17: one
    /// below its floor, v 16: one above its ceiling.
    function durations(uint256 seed, uint256 v) external pure returns (IShroudGame.Durations memory d) {
        uint256 x = _r(seed, 39) % 4 == 0 ? 40 : 4;
        d.commitSeconds = uint32(5 minutes + _r(seed, 40) % (x * 5 minutes));
        d.revealSeconds = uint32(5 minutes + _r(seed, 41) % (x * 5 minutes));
        d.rootSeconds = uint32(10 minutes + _r(seed, 42) % (x * 10 minutes));
        d.turnSeconds = uint32(1 minutes + _r(seed, 43) % (x * 1 minutes));
        d.combatSeconds = uint32(1 minutes + _r(seed, 44) % (x * 1 minutes));
        d.disputeSeconds = uint32(10 minutes + _r(seed, 45) % (x * 10 minutes));
        d.secretsSeconds = uint32(1 hours + _r(seed, 46) % (x * 1 hours));
        d.auditSeconds = uint32(1 days + _r(seed, 47) % (x / 4 * 1 days));
        if (v == 17) {
            uint256 which = _r(seed, 48) % 3;
            if (which == 0) d.turnSeconds = 59;
            else if (which == 1) d.auditSeconds = 1 days - 1;
            else d.disputeSeconds = 0;
        }
        if (v == 16) {
            if (_r(seed, 48) % 2 == 0) d.secretsSeconds = 7 days + 1;
            else d.auditSeconds = 30 days + 1;
        }
    }

    /// Zone-major leaf index → (col, row) on the 16×12 board (2 zones across); off-board slots and unused zones
    /// are not on the board.
    function coord(uint256 leaf) public pure returns (bool onBoard, uint256 col, uint256 row) {
        uint256 zone = leaf / 64;
        uint256 local = leaf % 64;
        col = (zone % 2) * 8 + local % 8;
        row = (zone / 2) * 8 + local / 8;
        onBoard = zone < ZONES && col < WIDTH && row < HEIGHT;
    }

    function _r(uint256 seed, uint256 k) internal pure returns (uint256) {
        return uint256(keccak256(abi.encode(seed, k)));
    }
}
