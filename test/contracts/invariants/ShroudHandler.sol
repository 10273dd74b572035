// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../../../contracts/IShroudGame.sol";
import {ShroudLedger} from "./ShroudLedger.sol";
import {ShroudModel} from "./ShroudModel.sol";
import {vm} from "./Vm.sol";

/// What the parties of one game know (index `gi`, the same as the ledger's).
struct Info {
    uint256 id;
    address dealer;
    uint8 n;
    bool passability;
    uint8 tileKind; // the served tile: 0 honest, 1 wrong terrain, 2 wrong salt (an off-board leaf is fraud anyway)
    uint32 leaf; // the one leaf whose tile and path the dealer's root commits to
    uint256 ms; // the dealer's master secret
    uint256 lastNullifier;
    uint256 proposalSeed; // the standing open-root proposal (its leaves are regenerated from this seed)
    uint8 challengeZone; // the standing open-root challenge's zone
    uint8 challengeKind; // and its leaves: 0 right at the first difference, 1 wrong there (see the model)
}

/// Everything the handler knows, in one struct so that its library takes one storage pointer.
struct Knowledge {
    IShroudGame game;
    ShroudModel model;
    ShroudLedger ledger;
    /// Set during `advance`: right callers, seats and inputs only.
    bool honest;
    /// Dealers and players are drawn from `actors` (addresses of private keys: players sign reveal receipts).
    address[] actors;
    mapping(address actor => uint256) pkOf;
    Info[] infos;
    mapping(uint256 gi => address[]) playersOf;
    mapping(uint256 gi => mapping(uint256 seat => uint256)) shareOf;
    mapping(uint256 gi => mapping(uint256 seat => uint32[])) leavesOf; // each seat's latest reveal list
    mapping(uint256 gi => mapping(uint256 seat => uint256)) blindingOf; // and its blinding
    mapping(uint256 gi => mapping(uint256 seat => uint256)) stateOf; // the state commitment in its play commitment
    mapping(uint256 gi => mapping(uint256 seat => uint256)) revealOf; // and the reveal commitment
    mapping(uint256 gi => mapping(uint256 seat => uint256)) rootOf; // and the map root (its spawn's, or rebound)
    mapping(uint256 gi => uint256[5]) tileOf; // the served tile at `leaf`
    mapping(uint256 gi => uint256[12]) pathOf; // and its path to the root
    mapping(uint256 gi => uint32[]) disputeLeavesOf; // the open dispute's leaves
    mapping(uint256 gi => uint256[]) answerOf; // and the dealer's answer
}

/// The parts of getGame the handler uses.
struct GameView {
    uint8 phase;
    uint256 deadline;
    uint256 turn;
    uint256 toMove;
    uint256 root;
}

/// @title HandlerBase
/// @notice The handler's shared steps (internal: compiled into the handler and into `HandlerLate`).
library HandlerBase {
    uint256 internal constant P = 21888242871839275222246405745257275088548364400416034343698204186575808495617;
    uint256 internal constant NONE = type(uint256).max;
    address internal constant STRANGER = address(0x5742A9E4);

    /// Every game call: through the ledger, which makes it as `caller` and books it.
    function act(Knowledge storage k, uint256 gi, address caller, uint256 value, bytes memory data)
        internal
        returns (bool ok, bytes memory ret)
    {
        return k.ledger.act(gi, caller, value, data);
    }

    /// Seven times in ten `right` (always while `honest`); else the stranger, the game's dealer, or any actor.
    function who(Knowledge storage k, uint256 gi, uint256 seed, address right) internal view returns (address) {
        uint256 x = r(seed, 0xc0) % 10;
        if (k.honest || x < 7) return right;
        if (x == 7) return STRANGER;
        if (x == 8) return k.infos[gi].dealer;
        return k.actors[r(seed, 0xc1) % k.actors.length];
    }

    /// `dflt` three times in four (always while `honest`), else a random seat.
    function seatChoice(Knowledge storage k, uint256 gi, uint256 seed, uint256 dflt) internal view returns (uint256) {
        if (k.honest || r(seed, 0xd0) % 4 != 0) return dflt;
        return r(seed, 0xd1) % k.infos[gi].n;
    }

    /// Whether to make mistake `key` (one time in `oneIn`; never while `honest`).
    function oops(Knowledge storage k, uint256 seed, uint256 key, uint256 oneIn) internal view returns (bool) {
        return !k.honest && r(seed, 0x100 + key) % oneIn == 0;
    }

    /// The first seat that has not yet: 0 committed, 1 revealed, 2 revealed its share, 3 proposed (unforfeited).
    function firstSeatWhere(Knowledge storage k, uint256 gi, uint256 what) internal view returns (uint256) {
        Info storage f = k.infos[gi];
        for (uint256 s = 0; s < f.n; s++) {
            IShroudGame.Seat memory st = k.game.getSeat(f.id, s);
            bool done = what == 0
                ? st.committed
                : what == 1 ? st.revealed : what == 2 ? st.shareRevealed : (st.proposedOpenRoot || st.forfeited);
            if (!done) return s;
        }
        return 0;
    }

    /// getGame, decoded by hand (so an invalid phase value would not make the typed decoder revert here).
    function view_(Knowledge storage k, uint256 id) internal view returns (GameView memory v) {
        (bool ok, bytes memory ret) = address(k.game).staticcall(abi.encodeCall(IShroudGame.getGame, (id)));
        require(ok, "getGame reverted");
        uint256 phase;
        uint256 deadline;
        uint256 turn;
        uint256 toMove;
        uint256 root;
        assembly {
            // words: dealer, phase, nPlayers, deadline, turn, toMove, root, masterCommitment, seed, bond, openMap
            phase := mload(add(ret, 64))
            deadline := mload(add(ret, 128))
            turn := mload(add(ret, 160))
            toMove := mload(add(ret, 192))
            root := mload(add(ret, 224))
        }
        v = GameView(uint8(phase), deadline, turn, toMove, root);
    }

    function r(uint256 seed, uint256 key) internal pure returns (uint256) {
        return uint256(keccak256(abi.encode(seed, key)));
    }
}

/// @title HandlerLate
/// @notice The bodies of the handler's reveal-dispute, force-open, secrets and fraud actions: an external library
///         (the runner deploys and links it) running in the handler's storage, which keeps the handler under the
///         24 KB code size limit.
library HandlerLate {
    using HandlerBase for Knowledge;

    uint256 internal constant P = HandlerBase.P;
    /// Siblings of a path: 4 levels of the 4-ary tree, 3 a level.
    uint256 internal constant PATH = 12;
    uint256 internal constant LEAVES = 256;
    address internal constant STRANGER = HandlerBase.STRANGER;

    // ================================================================ reveal disputes

    /// Seat `seat` disputes its latest move with the opening the handler kept (sometimes a wrong one), paying the
    /// deposit (sometimes a wrong amount).
    function openDispute(Knowledge storage k, uint256 gi, uint256 seed, uint256 seat) public {
        uint32[] memory leaves = k.leavesOf[gi][seat];
        if (leaves.length == 0 || k.oops(seed, 2, 10)) {
            leaves = new uint32[](1);
            leaves[0] = uint32(_r(seed, 3) % LEAVES); // OpeningMismatch (or NothingToDispute)
        }
        uint256 id = k.infos[gi].id;
        bytes memory data =
            abi.encodeCall(IShroudGame.openDispute, (id, leaves, k.blindingOf[gi][seat], k.stateOf[gi][seat]));
        (,,,,,, uint256 deposit) = k.game.getGameConfig(id);
        (bool ok,) =
            k.act(gi, k.who(gi, seed, k.playersOf[gi][seat]), k.oops(seed, 4, 10) ? deposit + 1 : deposit, data);
        if (ok) {
            k.disputeLeavesOf[gi] = leaves;
            delete k.answerOf[gi];
        }
    }

    /// The dealer answers: the served tile and path where a disputed leaf is the known one (when the answer is
    /// meant to be good), random words elsewhere, sometimes one word too many (WrongAnswerLength); with the
    /// disputer's receipt one time in two.
    function answerDispute(Knowledge storage k, uint256 gi, uint256 seed) public {
        Info storage f = k.infos[gi];
        uint256[] memory answer = k.model.disputeAnswer(
            k.disputeLeavesOf[gi], f.leaf, k.tileOf[gi], k.pathOf[gi], !k.oops(seed, 2, 3), k.oops(seed, 1, 12), seed
        );
        bytes memory data = k.model.answerDisputeCall(f.id, answer, _receipt(k, gi, seed));
        (bool ok,) = k.act(gi, k.who(gi, seed, f.dealer), 0, data);
        if (ok) k.answerOf[gi] = answer;
    }

    /// Anyone challenges tile `index` of the answer.
    function challengeDispute(Knowledge storage k, uint256 gi, uint256 seed, uint256 index) public {
        bytes memory data = abi.encodeCall(
            IShroudGame.challengeDisputeAnswer, (k.infos[gi].id, k.disputeLeavesOf[gi], k.answerOf[gi], index)
        );
        k.act(gi, k.who(gi, seed, STRANGER), 0, data);
    }

    /// The disputer accepts the answer.
    function acceptDispute(Knowledge storage k, uint256 gi, uint256 seed) public {
        Info storage f = k.infos[gi];
        IShroudGame.Dispute memory d = k.game.getDispute(f.id);
        address disputer = k.playersOf[gi][d.seat < f.n ? d.seat : 0];
        k.act(gi, k.who(gi, seed, disputer), 0, abi.encodeCall(IShroudGame.acceptDisputeAnswer, (f.id)));
    }

    /// `advance` in a dispute: the dealer answers; then an answer with a leaf it cannot prove is challenged there,
    /// a good one accepted by the disputer.
    function disputeStep(Knowledge storage k, uint256 gi, uint256 seed) public {
        IShroudGame.Dispute memory d = k.game.getDispute(k.infos[gi].id);
        if (!d.answered) return answerDispute(k, gi, seed);
        uint32[] memory leaves = k.disputeLeavesOf[gi];
        for (uint256 i = 0; i < leaves.length; i++) {
            if (leaves[i] != k.infos[gi].leaf) return challengeDispute(k, gi, seed, i);
        }
        acceptDispute(k, gi, seed);
    }

    /// The disputer's EIP-712 receipt for the disputed turn, which the dealer has when it served the turn: one
    /// answer in two has it (sometimes signed by another key: BadReceipt), the others none.
    function _receipt(Knowledge storage k, uint256 gi, uint256 seed) private view returns (bytes memory) {
        if (_r(seed, 0xb0) % 2 == 0) return "";
        uint256 id = k.infos[gi].id;
        IShroudGame.Dispute memory d = k.game.getDispute(id);
        IShroudGame.Seat memory st = k.game.getSeat(id, d.seat < k.infos[gi].n ? d.seat : 0);
        uint256 pk = k.oops(seed, 0xb1, 6) ? k.pkOf[k.infos[gi].dealer] : k.pkOf[st.player];
        return k.model.receipt(pk, id, d.turn, d.revealCommit);
    }

    // ================================================================ force-open

    /// Seat `seat` moves its play commitment to the game's (adopted open) root with the opening the handler kept
    /// (sometimes a wrong one: OpeningMismatch; or nothing to rebind, out of phase, a stranger…).
    function rebind(Knowledge storage k, uint256 gi, uint256 seed, uint256 seat) public {
        uint256 id = k.infos[gi].id;
        uint256 stateCommit = k.stateOf[gi][seat];
        if (k.oops(seed, 1, 8)) stateCommit = (stateCommit + 1) % P;
        bytes memory data = abi.encodeCall(IShroudGame.rebind, (id, stateCommit, k.revealOf[gi][seat]));
        (bool ok,) = k.act(gi, k.who(gi, seed, k.playersOf[gi][seat]), 0, data);
        if (ok) k.rootOf[gi][seat] = k.view_(id).root;
    }

    /// A seat reveals its share on-chain (sometimes a wrong one).
    function revealShare(Knowledge storage k, uint256 gi, uint256 seed) public {
        uint256 seat = k.seatChoice(gi, seed, k.firstSeatWhere(gi, 2));
        uint256 share = k.shareOf[gi][seat];
        if (k.oops(seed, 1, 8)) share = (share + 1) % P; // ShareMismatch
        k.act(
            gi,
            k.who(gi, seed, k.playersOf[gi][seat]),
            0,
            abi.encodeCall(IShroudGame.revealShare, (k.infos[gi].id, share))
        );
    }

    /// A seat proposes the zone roots of a proposal made from a fresh seed (sometimes the wrong count).
    function proposeOpenRoot(Knowledge storage k, uint256 gi, uint256 seed) public {
        Info storage f = k.infos[gi];
        uint256 seat = k.seatChoice(gi, seed, k.firstSeatWhere(gi, 3));
        uint256 pseed = _r(seed, 1);
        bytes memory data = k.model.proposeOpenRootCall(f.id, pseed, k.oops(seed, 2, 10)); // sometimes WrongLength
        (bool ok,) = k.act(gi, k.who(gi, seed, k.playersOf[gi][seat]), 0, data);
        if (ok) f.proposalSeed = pseed;
    }

    /// Another seat still in challenges one zone: right at the first differing leaf, wrong there, or (by mistake)
    /// with the proposal's own leaves.
    function challengeOpenRoot(Knowledge storage k, uint256 gi, uint256 seed) public {
        Info storage f = k.infos[gi];
        IShroudGame.OpenRoot memory o = k.game.getOpenRoot(f.id);
        uint256 seat = o.proposer;
        for (uint256 i = 1; i <= f.n && seat == o.proposer; i++) {
            uint256 s = (o.proposer + i) % f.n;
            if (!k.game.getSeat(f.id, s).forfeited) seat = s;
        }
        seat = k.seatChoice(gi, seed, seat);
        uint256 zone = _r(seed, 1) % 4;
        uint256 kind = _r(seed, 2) % 2; // 0: the challenger is right, 1: it is wrong
        if (k.oops(seed, 3, 8)) kind = 2; // its leaves equal the proposal's: NoFraud
        bytes memory data = k.model.challengeOpenRootCall(f.id, f.proposalSeed, zone, kind);
        (bool ok,) = k.act(gi, k.who(gi, seed, k.playersOf[gi][seat]), 0, data);
        if (ok) {
            f.challengeZone = uint8(zone);
            f.challengeKind = uint8(kind);
        }
    }

    /// Anyone answers the standing challenge with the proposal's leaves of that zone (sometimes wrong ones).
    function answerOpenRoot(Knowledge storage k, uint256 gi, uint256 seed) public {
        Info storage f = k.infos[gi];
        bytes memory data = k.model.answerOpenRootCall(
            f.id, f.proposalSeed, f.challengeZone, f.challengeKind, k.oops(seed, 1, 8) // sometimes ZoneMismatch
        );
        k.act(gi, k.who(gi, seed, STRANGER), 0, data);
    }

    /// `advance` in OpenRoot: propose when nobody has; challenge a standing proposal two times in three, else let
    /// its window pass and adopt it; answer a standing challenge two times in three, else let it lapse (the
    /// proposal sinks).
    function openRootStep(Knowledge storage k, uint256 gi, uint256 seed, uint256 deadline) public {
        IShroudGame.OpenRoot memory o = k.game.getOpenRoot(k.infos[gi].id);
        if (!o.proposed) return proposeOpenRoot(k, gi, seed);
        uint256 x = _r(seed, 0xa4) % 3;
        if (!o.challenged && x != 0) return challengeOpenRoot(k, gi, seed);
        if (o.challenged && x != 0) return answerOpenRoot(k, gi, seed);
        vm.warp(deadline + 1);
        k.act(gi, STRANGER, 0, k.model.exitCall(5, k.infos[gi].id));
    }

    // ================================================================ secrets and fraud

    /// The dealer (sometimes another caller: NotDealer) publishes its secrets (sometimes a wrong master secret, share or
    /// share count).
    function publishSecrets(Knowledge storage k, uint256 gi, uint256 seed) public {
        Info storage f = k.infos[gi];
        uint256 n = f.n;
        bool bad = k.oops(seed, 1, 4);
        uint256 v = _r(seed, 2) % 3;
        uint256[] memory shares = new uint256[](bad && v == 2 ? n + 1 : n); // WrongShareCount
        for (uint256 s = 0; s < n; s++) {
            shares[s] = k.shareOf[gi][s];
        }
        if (bad && v == 1) shares[0] = (shares[0] + 1) % P; // ShareMismatch
        uint256 ms = bad && v == 0 ? (f.ms + 1) % P : f.ms; // MasterSecretMismatch
        k.act(gi, k.who(gi, seed, f.dealer), 0, abi.encodeCall(IShroudGame.publishSecrets, (f.id, ms, shares)));
    }

    /// Anyone proves the served tile wrong (only a forged one may be proven), sometimes with a bad path.
    function proveFraud(Knowledge storage k, uint256 gi, uint256 seed) public {
        Info storage f = k.infos[gi];
        uint256[] memory path = new uint256[](k.oops(seed, 1, 12) ? PATH - 1 : PATH); // BadPathLength
        for (uint256 i = 0; i < path.length; i++) {
            path[i] = k.pathOf[gi][i];
        }
        if (k.oops(seed, 2, 6)) path[0] = (path[0] + 1) % P; // InvalidPath
        k.act(
            gi,
            k.who(gi, seed, STRANGER),
            0,
            abi.encodeCall(IShroudGame.proveFraud, (f.id, f.leaf, k.tileOf[gi], path))
        );
    }

    /// The audit's zone challenges (ShroudAudit). The handler's roots climb random paths, so the zone roots it
    /// posts with them (zeros) never build them: a seat's challenge (its leaves random, sometimes a wrong deposit,
    /// zone or zone roots, or a stranger) can never be answered (answers are tried with random leaves:
    /// ZoneMismatch), and `proveZoneRootsFraud` slashes (force-opening a game in play: rarer there, so that games
    /// still reach their audit). What this fuzzes is the money: deposits held while open, refunded however the
    /// audit ends, an unanswered challenge slashing at `settle` (`exitAny`).
    function auditZone(Knowledge storage k, uint256 gi, uint256 seed) public {
        Info storage f = k.infos[gi];
        uint256[] memory zoneRoots = new uint256[](k.oops(seed, 1, 10) ? 3 : 4); // ZoneRootsMismatch
        uint256[64] memory leaves;
        for (uint256 i = 0; i < 64; i++) {
            leaves[i] = _r(seed, 200 + i) % P;
        }
        uint256 x = _r(seed, 2) % 8;
        uint8 phase = k.view_(f.id).phase;
        bool afterPlay = phase == uint8(IShroudGame.Phase.Secrets) || phase == uint8(IShroudGame.Phase.Audit);
        if (x == 0 && (afterPlay || _r(seed, 8) % 8 == 0)) {
            k.act(gi, k.who(gi, seed, STRANGER), 0, abi.encodeCall(IShroudGame.proveZoneRootsFraud, (f.id, zoneRoots)));
            return;
        }
        if (x == 1) {
            uint256 seat = _r(seed, 3) % f.n;
            k.act(
                gi,
                k.who(gi, seed, f.dealer),
                0,
                abi.encodeCall(IShroudGame.answerZoneChallenge, (f.id, seat, leaves, leaves))
            );
            return;
        }
        uint256 s = k.seatChoice(gi, seed, _r(seed, 4) % f.n);
        (,,,,,, uint256 deposit) = k.game.getGameConfig(f.id);
        uint256 value = k.oops(seed, 5, 10) ? deposit + 1 : deposit; // WrongDeposit
        uint256 zone = k.oops(seed, 6, 12) ? 4 : _r(seed, 7) % 4; // BadLeafIndex
        k.act(
            gi,
            k.who(gi, seed, k.playersOf[gi][s]),
            value,
            abi.encodeCall(IShroudGame.challengeZone, (f.id, zoneRoots, zone, leaves))
        );
    }

    function _r(uint256 seed, uint256 key) private pure returns (uint256) {
        return HandlerBase.r(seed, key);
    }
}

/// @title ShroudHandler
/// @notice The invariant runner's only target: every ShroudGame entry point as a fuzzed action with bounded choices.
///         It plays every side (dealers, players, a stranger) from a fixed set of actors, so it knows each game's
///         shares, master secret, served tile and reveal openings, and builds MockVerifier "proofs" for the exact
///         public signals the contract builds (or deliberately wrong ones). Any action may revert: every game call
///         goes through `ShroudLedger.act` (a low-level call as the chosen caller), which never fails the action
///         and keeps the ghost books the invariants read.
/// @dev Randomness: each action takes a fuzzed game selector `gs` and a `seed`, and derives independent choices
///      with `HandlerBase.r(seed, key)`. Most choices default to the right caller and valid inputs, so that games
///      get deep into the phase machine; `who`, `seatChoice` and `oops` sometimes pick a wrong caller, seat or
///      input, so that the revert paths are exercised too. `advance` takes honest steps only.
contract ShroudHandler {
    using HandlerBase for Knowledge;

    uint256 internal constant P = HandlerBase.P;
    /// The mock rulesets' board: hex 16×12, 2 × 2 zones of 8×8, tree depth 3 + 1 (4-ary), damage 4.
    uint16 internal constant WIDTH = 16;
    uint16 internal constant HEIGHT = 12;
    /// Siblings of a path: 4 levels, 3 a level.
    uint256 internal constant PATH = 12;
    uint256 internal constant LEAVES = 256;
    uint256 internal constant DAMAGE = 4;
    /// The packed word's context (seat 8 bits, step 32, two opponent masks of 4 zones); the report follows it.
    uint256 internal constant CONTEXT_BITS = 48;
    /// Games per run, and live games at once (bounds the invariants' work per call).
    uint256 public constant MAX_GAMES = 10;
    uint256 public constant MAX_LIVE = 3;
    uint256 internal constant NONE = HandlerBase.NONE;
    address public constant STRANGER = HandlerBase.STRANGER;

    IShroudGame public immutable game;
    ShroudModel public immutable model;
    ShroudLedger public immutable ledger;
    bytes32 public immutable rulesetFog;
    bytes32 public immutable rulesetPass;

    Knowledge internal k;

    /// @param keys The actors' private keys (each actor is funded here, and the stranger).
    constructor(ShroudModel model_, bytes32 fog, bytes32 pass, uint256[] memory keys) {
        model = model_;
        game = model_.game();
        rulesetFog = fog;
        rulesetPass = pass;
        uint256 n = keys.length;
        address[] memory everyone = new address[](2 * n + 1);
        address[] memory owners = new address[](2 * n + 1);
        for (uint256 i = 0; i < n; i++) {
            address a = vm.addr(keys[i]);
            k.actors.push(a);
            k.pkOf[a] = keys[i];
            everyone[i] = a;
            vm.deal(a, 1e30);
            // Each actor's own payee (`setPayee`): an address no one else names, so its credit is the actor's.
            everyone[n + 1 + i] = payeeOf(i);
            owners[n + 1 + i] = a;
        }
        everyone[n] = STRANGER;
        vm.deal(STRANGER, 1e30);
        ledger = new ShroudLedger(model_.game(), everyone, owners);
        k.game = model_.game();
        k.model = model_;
        k.ledger = ledger;
    }

    function actors(uint256 i) external view returns (address) {
        return k.actors[i];
    }

    // ================================================================ ceremony actions

    /// A game with 2–3 players drawn from the actors, a random stake, deposit, bond, durations (at or above the
    /// floors) and ruleset (fog only or passability); one creation in three breaks one parameter and must revert
    /// (seat count, a player, the seal key, the ruleset, a duration, the board, the deposit, the bond, the caller).
    function createGame(uint256 seed) external {
        if (k.infos.length >= MAX_GAMES) return;
        uint256 live;
        for (uint256 gi = 0; gi < k.infos.length; gi++) {
            if (!ledger.terminal(gi)) live++;
        }
        if (live < MAX_LIVE) _createGame(seed);
    }

    /// A seat commits `C_i = Poseidon(gameId, player, r_i)`, paying the stake (or a wrong amount).
    function commit(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) _commit(gi, seed);
    }

    /// A seat posts its sealed share with a MockVerifier proof for the exact signals (or a wrong one).
    function sealedReveal(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) _sealedReveal(gi, seed);
    }

    /// The dealer posts a root that commits to one served tile (honest or forged) and `Poseidon(master secret)`
    /// (sometimes a wrong one: it cannot publish its secrets later).
    function postRoot(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) _postRoot(gi, seed);
    }

    // ================================================================ play actions

    /// The seat to move spawns (its first turn) or submits a turn, with a proof for the signals the contract builds.
    function playTurn(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) _playTurn(gi, seed);
    }

    /// The seat to move attacks a tile of another seat (sometimes itself, off the board, or with a used nullifier).
    function attack(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) _attack(gi, seed);
    }

    /// The defender answers the pending combat.
    function respondCombat(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) _respondCombat(gi, seed);
    }

    /// A player leaves the game (not at fault).
    function forfeit(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (!any) return;
        address player = k.playersOf[gi][_r(seed, 1) % k.infos[gi].n];
        k.act(gi, k.who(gi, seed, player), 0, abi.encodeCall(IShroudGame.forfeit, (k.infos[gi].id)));
    }

    /// One of the eight permissionless exits (cancelMissed, startForceOpen, claimTurnTimeout, claimCombatTimeout,
    /// claimDisputeTimeout, claimOpenRootTimeout, claimSecretsTimeout, settle), by anyone.
    function exitAny(uint256 gs, uint256 which, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) k.act(gi, k.who(gi, seed, STRANGER), 0, model.exitCall(which % 8, k.infos[gi].id));
    }

    // ================================================================ reveal disputes

    /// A seat disputes its latest spawn or turn with the opening the handler kept (or a wrong one), paying the
    /// deposit (or a wrong amount).
    function openDispute(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.openDispute(k, gi, seed, _r(seed, 1) % k.infos[gi].n);
    }

    /// The dealer answers the open dispute (see `HandlerLate.answerDispute`).
    function answerDispute(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.answerDispute(k, gi, seed);
    }

    /// Anyone challenges one tile of the answer (or an index past the leaves).
    function challengeDisputeAnswer(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (!any) return;
        uint256 nl = k.disputeLeavesOf[gi].length;
        HandlerLate.challengeDispute(k, gi, seed, nl == 0 ? 0 : _r(seed, 1) % (nl + (k.oops(seed, 2, 8) ? 1 : 0)));
    }

    /// The disputer accepts the answer.
    function acceptDisputeAnswer(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.acceptDispute(k, gi, seed);
    }

    // ================================================================ force-open

    /// A seat reveals its share on-chain (or a wrong one).
    function revealShare(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.revealShare(k, gi, seed);
    }

    /// A seat rebinds its play commitment to an adopted open root (see `HandlerLate.rebind`).
    function rebind(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.rebind(k, gi, seed, _r(seed, 1) % k.infos[gi].n);
    }

    /// A seat proposes an open root: the zone roots over leaves that are 0 off the board (true) and random on it
    /// (false: a challenge there wins); sometimes the wrong number of zone roots.
    function proposeOpenRoot(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.proposeOpenRoot(k, gi, seed);
    }

    /// Another seat challenges one zone of the proposal with its 64 leaves: right at the first leaf where they
    /// differ from the proposal's (the challenger wins), wrong there (it loses), or equal to the proposal's
    /// (NoFraud); sometimes the proposer itself or a stranger.
    function challengeOpenRoot(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.challengeOpenRoot(k, gi, seed);
    }

    /// Anyone answers the standing challenge with the proposal's leaves of that zone (sometimes wrong ones).
    function answerOpenRootChallenge(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.answerOpenRoot(k, gi, seed);
    }

    // ================================================================ secrets, audit, settlement, withdrawals

    /// The dealer (or another caller) publishes its secrets (right, or a wrong master secret, share or share count).
    function publishSecrets(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.publishSecrets(k, gi, seed);
    }

    /// Anyone proves the served tile wrong (only a forged one may be proven), sometimes with a bad path.
    function proveFraud(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.proveFraud(k, gi, seed);
    }

    /// The audit's zone challenges: a seat challenges, anyone answers or proves the zone roots wrong.
    function auditZone(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (any) HandlerLate.auditZone(k, gi, seed);
    }

    /// An actor, the stranger or a payee withdraws its credit.
    function withdraw(uint256 seed) external {
        address[] memory all = ledger.everyone();
        k.act(NONE, all[seed % all.length], 0, abi.encodeCall(IShroudGame.withdraw, ()));
    }

    /// The address actor `i` names as its payee (`setPayee`).
    function payeeOf(uint256 i) public pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encode("invariants/payee", i)))));
    }

    /// An actor names its payee, or names none again (half the time each), mid-game or not: what it is owed from
    /// then on accrues there.
    function setPayee(uint256 seed) external {
        uint256 i = seed % k.actors.length;
        address payee = (seed >> 8) % 2 == 0 ? payeeOf(i) : address(0);
        k.act(NONE, k.actors[i], 0, abi.encodeCall(IShroudGame.setPayee, (payee)));
    }

    /// Anyone (an actor, the stranger, a payee) pushes its payee's credit to it.
    function withdrawToPayee(uint256 seed) external {
        address[] memory all = ledger.everyone();
        k.act(NONE, all[seed % all.length], 0, abi.encodeCall(IShroudGame.withdrawToPayee, ()));
    }

    /// Time passes: mostly up to two minutes, sometimes up to half an hour, rarely hours, very rarely days (which
    /// expire every deadline).
    function warp(uint256 seed) external {
        uint256 x = seed % 200;
        uint256 dt = x < 160 ? _r(seed, 1) % 2 minutes : x < 190 ? _r(seed, 1) % 30 minutes : x < 199
            ? _r(seed, 1) % 6 hours
            : _r(seed, 1) % 8 days;
        vm.warp(block.timestamp + dt);
    }

    /// Up to four honest next steps of a live game (the right actor, valid inputs), or its exit once expired,
    /// stopping at a phase change (so that the invariants see every phase the game enters): this drives games deep
    /// into the phase machine, where the other actions then interfere.
    function advance(uint256 gs, uint256 seed) external {
        (bool any, uint256 gi) = _pick(gs);
        if (!any) return;
        k.honest = true;
        uint256 steps = 1 + seed % 4;
        uint8 phase = k.view_(k.infos[gi].id).phase;
        for (uint256 i = 0; i < steps && k.view_(k.infos[gi].id).phase == phase; i++) {
            _advance(gi, _r(seed, 0xad + i));
        }
        k.honest = false;
    }

    function _advance(uint256 gi, uint256 seed) internal {
        Info storage f = k.infos[gi];
        GameView memory v = k.view_(f.id);
        (uint8 phase, uint256 deadline) = (v.phase, v.deadline);
        if (phase == uint8(IShroudGame.Phase.Settled) || phase == uint8(IShroudGame.Phase.Cancelled)) return;
        if (phase == uint8(IShroudGame.Phase.Audit) && f.tileKind != 0 && block.timestamp <= deadline) {
            return HandlerLate.proveFraud(k, gi, seed); // the served tile was forged: a player proves it
        }
        // Past the deadline (or in the audit window), anyone takes the exit; sometimes a party lets the phase
        // lapse (a dealer that posts no root or ignores a dispute, a defender that does not answer).
        bool lapse = _r(seed, 0xa1) % 6 == 0
            && (phase == uint8(IShroudGame.Phase.Deal) || phase == uint8(IShroudGame.Phase.Dispute)
                || phase == uint8(IShroudGame.Phase.Combat));
        if (lapse || block.timestamp > deadline || phase == uint8(IShroudGame.Phase.Audit)) {
            if (block.timestamp <= deadline) vm.warp(deadline + 1);
            k.act(gi, STRANGER, 0, model.exitCall(model.exitOf(phase), f.id));
        } else if (phase == uint8(IShroudGame.Phase.Commit)) {
            _commit(gi, seed);
        } else if (phase == uint8(IShroudGame.Phase.Reveal)) {
            _sealedReveal(gi, seed);
        } else if (phase == uint8(IShroudGame.Phase.Deal)) {
            _postRoot(gi, seed);
        } else if (phase == uint8(IShroudGame.Phase.Play)) {
            _playOrAttack(gi, seed);
        } else if (phase == uint8(IShroudGame.Phase.Combat)) {
            _respondCombat(gi, seed);
        } else if (phase == uint8(IShroudGame.Phase.Dispute)) {
            HandlerLate.disputeStep(k, gi, seed);
        } else if (phase == uint8(IShroudGame.Phase.ForceOpen)) {
            HandlerLate.revealShare(k, gi, seed);
        } else if (phase == uint8(IShroudGame.Phase.OpenRoot)) {
            HandlerLate.openRootStep(k, gi, seed, deadline);
        } else if (phase == uint8(IShroudGame.Phase.Secrets)) {
            HandlerLate.publishSecrets(k, gi, seed);
        }
    }

    // ================================================================ ceremony and play bodies

    function _createGame(uint256 seed) internal {
        (bytes memory data, address[] memory players, uint256 bond, address caller, bool pass) =
            model.createGameCall(seed, k.actors, STRANGER, rulesetFog, rulesetPass);
        (bool ok, bytes memory ret) = k.act(NONE, caller, bond, data);
        if (!ok) return;
        uint256 id = abi.decode(ret, (uint256));
        uint256 gi = ledger.open(id, caller, players, bond);
        require(gi == k.infos.length, "books out of step");
        k.infos.push();
        Info storage f = k.infos[gi];
        f.id = id;
        f.dealer = caller; // createGame succeeded: the caller is the dealer
        f.n = uint8(players.length);
        f.passability = pass;
        f.ms = _r(seed, 9) % P;
        f.tileKind = uint8(_r(seed, 10) % 3);
        // Mostly an on-board leaf (zones 0 and 1: rows 0..7); sometimes one of zone 3's off-board slots (rows ≥ 12).
        f.leaf = _r(seed, 11) % 5 == 0 ? uint32(3 * 64 + 32 + _r(seed, 12) % 32) : uint32(_r(seed, 12) % 128);
        k.playersOf[gi] = players;
        for (uint256 s = 0; s < players.length; s++) {
            k.shareOf[gi][s] = _r(seed, 100 + s) % P;
        }
    }

    function _commit(uint256 gi, uint256 seed) internal {
        Info storage f = k.infos[gi];
        uint256 seat = k.seatChoice(gi, seed, k.firstSeatWhere(gi, 0));
        address player = k.playersOf[gi][seat];
        (,,, uint256 stake,,,) = game.getGameConfig(f.id);
        uint256 value = k.oops(seed, 1, 8) ? stake + 1 : stake;
        uint256 c = model.shareCommitment(f.id, player, k.shareOf[gi][seat]);
        k.act(gi, k.who(gi, seed, player), value, abi.encodeCall(IShroudGame.commit, (f.id, c)));
    }

    function _sealedReveal(uint256 gi, uint256 seed) internal {
        Info storage f = k.infos[gi];
        uint256 seat = k.seatChoice(gi, seed, k.firstSeatWhere(gi, 1));
        address caller = k.who(gi, seed, k.playersOf[gi][seat]);
        uint256 ey = _r(seed, 2) % P;
        uint256 c = _r(seed, 4) % P;
        // [sealContext = Poseidon(gameId, sealKey.x, sealKey.y), player = msg.sender, C_i, E.y, c]
        uint256[] memory sig = new uint256[](5);
        sig[0] = model.sealContext(f.id);
        sig[1] = uint256(uint160(caller));
        sig[2] = game.getSeat(f.id, seat).commitment;
        sig[3] = ey;
        sig[4] = c;
        k.act(gi, caller, 0, model.sealedRevealCall(f.id, sig, !k.oops(seed, 5, 8), ey, c));
    }

    function _postRoot(uint256 gi, uint256 seed) internal {
        Info storage f = k.infos[gi];
        uint256[5] memory tile = model.servedTile(f.ms, f.leaf, f.tileKind, _shares(gi));
        uint256[12] memory path;
        for (uint256 i = 0; i < PATH; i++) {
            path[i] = _r(seed, 20 + i) % P;
        }
        uint256 root = model.climb(f.leaf, model.leafHash(tile), path);
        uint256 mc = k.oops(seed, 1, 10) ? _r(seed, 2) % P : model.hash1(f.ms);
        if (k.oops(seed, 3, 16)) root = P; // NotInField
        // The root climbs a random path, so no zone roots build it: one word per zone (2 × 2, zeros), sometimes one
        // too few (WrongLength). The zone audit's judging is tested in test/contracts/audit-zones.test.ts.
        uint256[] memory zoneRoots = new uint256[](k.oops(seed, 4, 12) ? 3 : 4);
        (bool ok,) = k.act(
            gi, k.who(gi, seed, f.dealer), 0, abi.encodeCall(IShroudGame.postRoot, (f.id, root, mc, zoneRoots))
        );
        if (ok) {
            k.tileOf[gi] = tile;
            k.pathOf[gi] = path;
        }
    }

    /// `advance` in play: a seat with a move on record disputes it one time in six; the mover attacks one time in
    /// four when someone is there to attack; else the mover plays its turn.
    function _playOrAttack(uint256 gi, uint256 seed) internal {
        Info storage f = k.infos[gi];
        uint256 toMove = k.view_(f.id).toMove;
        if (_r(seed, 0xa2) % 6 == 0) {
            uint256 s0 = _r(seed, 0xa3) % f.n;
            for (uint256 i = 0; i < f.n; i++) {
                uint256 s = (s0 + i) % f.n;
                if (k.leavesOf[gi][s].length != 0 && !game.getSeat(f.id, s).forfeited) {
                    return HandlerLate.openDispute(k, gi, seed, s);
                }
            }
        }
        // After an adopted open root, a mover whose commitment binds the dealer's root rebinds before anything else.
        if (game.getSeat(f.id, toMove).spawned && k.rootOf[gi][toMove] != k.view_(f.id).root) {
            return HandlerLate.rebind(k, gi, seed, toMove);
        }
        if (_r(seed, 0xa0) % 4 == 0 && game.getSeat(f.id, toMove).spawned) {
            for (uint256 s = 0; s < f.n; s++) {
                IShroudGame.Seat memory d = game.getSeat(f.id, s);
                if (s != toMove && d.spawned && !d.forfeited) return _attack(gi, seed);
            }
        }
        _playTurn(gi, seed);
    }

    function _playTurn(uint256 gi, uint256 seed) internal {
        ShroudModel.Move memory m = _move(gi, seed);
        // The reveal list: 1 or 2 leaves, often the known leaf (the only one the dealer can answer well).
        uint32[] memory leaves = new uint32[](1 + _r(seed, 2) % 2);
        for (uint256 i = 0; i < leaves.length; i++) {
            leaves[i] = _r(seed, 3 + i) % 2 == 0 ? k.infos[gi].leaf : uint32(_r(seed, 5 + i) % LEAVES);
        }
        uint256 revealCommit = model.revealCommit(leaves, m.blinding);
        uint256 stateCommit = _r(seed, 8) % P;
        // A spawn binds the game's root; a turn carries the one its old commitment binds.
        uint256 root = m.isSpawn ? m.root : k.rootOf[gi][m.seat];
        m.newCommit = model.play(stateCommit, revealCommit, root);
        uint256[] memory report = new uint256[](1);
        // After the context bits (seat 8, step 32, two 4-bit opponent masks): zone mask (4 bits), 7-bit forced lanes.
        report[0] = (_r(seed, 9) % (1 << 32)) << CONTEXT_BITS;
        Info storage f = k.infos[gi];
        bytes memory data = model.playCall(f.id, f.n, m, report, !k.oops(seed, 10, 10));
        (bool ok,) = k.act(gi, m.caller, 0, data);
        if (ok) {
            k.leavesOf[gi][m.seat] = leaves;
            k.blindingOf[gi][m.seat] = m.blinding;
            k.stateOf[gi][m.seat] = stateCommit;
            k.revealOf[gi][m.seat] = revealCommit;
            k.rootOf[gi][m.seat] = root;
        }
    }

    /// The mover's spawn or turn (sometimes the wrong kind: AlreadySpawned / NotSpawned), from the game's state.
    function _move(uint256 gi, uint256 seed) internal view returns (ShroudModel.Move memory m) {
        GameView memory v = k.view_(k.infos[gi].id);
        IShroudGame.Seat memory st = game.getSeat(k.infos[gi].id, v.toMove);
        m.caller = k.who(gi, seed, st.player);
        m.seat = v.toMove;
        m.isSpawn = st.spawned == k.oops(seed, 1, 10);
        m.step = m.isSpawn ? v.toMove : v.turn;
        m.oldCommit = st.playCommitment;
        m.root = v.root; // the game's root: a spawn's last signal
        m.blinding = _r(seed, 7) % P;
    }

    function _attack(uint256 gi, uint256 seed) internal {
        Info storage f = k.infos[gi];
        GameView memory v = k.view_(f.id);
        address caller = k.who(gi, seed, k.playersOf[gi][v.toMove]);
        uint256[4] memory a; // nullifier, col, row, defender
        a[0] = k.oops(seed, 6, 6) ? f.lastNullifier : _r(seed, 7) % P; // NullifierUsed
        a[1] = _r(seed, 3) % (k.oops(seed, 4, 10) ? 1024 : WIDTH); // OffBoard
        a[2] = _r(seed, 5) % HEIGHT;
        a[3] = _defender(gi, seed, v.toMove);
        // [nullifier, gameId, target = player | turn << 160 | col << 192 | row << 202, the stored play commitment]
        uint256[] memory sig = new uint256[](4);
        sig[0] = a[0];
        sig[1] = f.id;
        sig[2] = uint256(uint160(caller)) | (v.turn << 160) | (a[1] << 192) | (a[2] << 202);
        sig[3] = game.getSeat(f.id, v.toMove).playCommitment;
        bytes memory data = model.attackCall(f.id, sig, !k.oops(seed, 8, 8), a);
        (bool ok,) = k.act(gi, caller, 0, data);
        if (ok) f.lastNullifier = a[0];
    }

    /// Another seat (while honest, the last spawned one still in); sometimes the mover itself: BadDefender.
    function _defender(uint256 gi, uint256 seed, uint256 toMove) internal view returns (uint256 defender) {
        Info storage f = k.infos[gi];
        defender = (toMove + 1 + _r(seed, 1) % (f.n - 1)) % f.n;
        if (k.honest) {
            for (uint256 s = 0; s < f.n; s++) {
                IShroudGame.Seat memory d = game.getSeat(f.id, s);
                if (s != toMove && d.spawned && !d.forfeited) defender = s;
            }
        }
        if (k.oops(seed, 2, 10)) defender = toMove;
    }

    function _respondCombat(uint256 gi, uint256 seed) internal {
        uint256 id = k.infos[gi].id;
        IShroudGame.Combat memory c = game.getCombat(id);
        IShroudGame.Seat memory d = game.getSeat(id, c.defender < k.infos[gi].n ? c.defender : 0);
        address caller = k.who(gi, seed, d.player);
        // present, unitType, unitHp, newCommit (a new state, the same reveal commitment: still disputable)
        uint256 defender = c.defender < k.infos[gi].n ? c.defender : 0;
        uint256 stateCommit = _r(seed, 4) % P;
        uint256[4] memory a = [
            _r(seed, 1) % 2,
            _r(seed, 2) % 16,
            _r(seed, 3) % 256,
            model.play(stateCommit, k.revealOf[gi][defender], k.rootOf[gi][defender])
        ];
        // [newCommit, gameId, target = player | turn << 160 | col << 192 | row << 202 | damage << 212 | outcome << 220,
        //  oldCommit] (ShroudGame.defend); the player in the target is the caller (the defender)
        uint256[] memory sig = new uint256[](4);
        sig[0] = a[3];
        sig[1] = id;
        sig[2] = uint256(uint160(caller)) | (k.view_(id).turn << 160) | (uint256(c.col) << 192)
            | (uint256(c.row) << 202) | (DAMAGE << 212) | ((a[0] | (a[1] << 1) | (a[2] << 5)) << 220);
        sig[3] = d.playCommitment;
        bytes memory data = model.respondCombatCall(id, sig, !k.oops(seed, 5, 8), a);
        (bool ok,) = k.act(gi, caller, 0, data);
        if (ok) k.stateOf[gi][defender] = stateCommit;
    }

    // ================================================================ internals

    /// The game's shares r_1..r_n in seat order.
    function _shares(uint256 gi) internal view returns (uint256[] memory shares) {
        shares = new uint256[](k.infos[gi].n);
        for (uint256 s = 0; s < shares.length; s++) {
            shares[s] = k.shareOf[gi][s];
        }
    }

    /// A game: three times in four a live one (scanning from a random start), else any.
    function _pick(uint256 gs) internal view returns (bool, uint256) {
        uint256 len = k.infos.length;
        if (len == 0) return (false, 0);
        uint256 start = (gs >> 8) % len;
        if (gs % 4 != 0) {
            for (uint256 i = 0; i < len; i++) {
                uint256 gi = (start + i) % len;
                if (!ledger.terminal(gi)) return (true, gi);
            }
        }
        return (true, start);
    }

    function _r(uint256 seed, uint256 key) internal pure returns (uint256) {
        return HandlerBase.r(seed, key);
    }
}
