// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "./IShroudGame.sol";
import {Poseidon} from "./Poseidon.sol";
import {PLAY_CIRCUITS_VERSION, VerifierRegistry} from "./VerifierRegistry.sol";
import {ShroudCeremony} from "./game/ShroudCeremony.sol";
import {ShroudDisputes} from "./game/ShroudDisputes.sol";
import {ShroudAudit} from "./game/ShroudAudit.sol";
import {ShroudForceOpen} from "./game/ShroudForceOpen.sol";
import {ShroudLimits} from "./game/ShroudLimits.sol";
import {ShroudPhases} from "./game/ShroudPhases.sol";
import {ShroudSettlement} from "./game/ShroudSettlement.sol";
import {Deps, Store} from "./game/ShroudStore.sol";
import {ShroudTurns} from "./game/ShroudTurns.sol";

/// @title ShroudGame
/// @notice Shroud's game contract: the storage of every game, the play itself (spawn, turns, attacks, combat answers,
///         timeouts) and the views. Each other concern lives in a linked library that runs in this contract's
///         storage through DELEGATECALL: the seed ceremony (`ShroudCeremony`), reveal disputes (`ShroudDisputes`),
///         force-open and the open map's root (`ShroudForceOpen`), secrets, fraud proofs and settlement
///         (`ShroudSettlement`), the audit's zone challenges that bind the root to `Gen(seed)` (`ShroudAudit`). The
///         vocabulary (phases, records, errors, events) is `IShroudGame`.
/// @dev Play (P4, P5, P8):
///      * Every public input a proof carries is either built from this contract's state (game id, player =
///        `msg.sender`, seat, turn, stored commitments, the opponents' stored zone masks in increasing seat order
///        skipping the prover, 0 for seats the ruleset has but the game does not and for forfeited seats, the
///        ruleset's damage, and for spawns the map root) or a prover-supplied output < p (`NotInField`).
///      * The map root: every play commitment is `Poseidon(stateCommit, revealCommit, mapRoot)`. A spawn takes the
///        game's root as a signal, so the seat's commitment binds it once; turn proofs carry it privately from the
///        old commitment to the new one and check passability against it. After force-open an adopted open root
///        replaces the dealer's: each seat that spawned before must `rebind` before its next turn.
///      * Turn order (`ShroudTurns`): turns 0..n−1 are the spawns in seat order, then `playTurn`s round-robin over
///        the unforfeited seats; a seat that misses its deadline is forfeited at fault by `claimTurnTimeout`.
///      * Combat: during its own turn (before `playTurn`), the mover may `attack` a tile, naming the defender. The
///        game enters `Phase.Combat` until the defender answers `defend` with a combat proof against its
///        stored commitment, or misses the deadline (`claimCombatTimeout`: it forfeits at fault). No turn proof is
///        accepted meanwhile, so the defender's commitment cannot change between the attack and the answer.
///      Each ruleset's play verifiers are copied from the write-once registry at the ruleset's first game, so proofs
///      are checked with one direct static call.
contract ShroudGame is IShroudGame {
    /// @notice circomlibjs Poseidon contracts for 1 to 6 inputs (`poseidonN` hashes N inputs).
    address public immutable poseidon1;
    /// @notice See `poseidon1`.
    address public immutable poseidon2;
    /// @notice See `poseidon1`.
    address public immutable poseidon3;
    /// @notice See `poseidon1`.
    address public immutable poseidon4;
    /// @notice See `poseidon1`.
    address public immutable poseidon5;
    /// @notice See `poseidon1`.
    address public immutable poseidon6;
    /// @notice The single-tile generator used by fraud proofs and open-root challenges.
    address public immutable mapGen;
    /// @notice Rulesets and their Groth16 verifiers.
    VerifierRegistry public immutable registry;
    /// @notice The sealed-share circuit's Groth16 verifier (5 public signals; circuits/seal.circom).
    address public immutable sealVerifier;

    uint8 internal constant VERIFIER_SPAWN = 0;
    uint8 internal constant VERIFIER_TURN = 1;
    uint8 internal constant VERIFIER_ATTACK = 2;
    uint8 internal constant VERIFIER_COMBAT = 3;
    /// @notice Bits per packed public-signal word (2^253 < the field modulus): see `_signals`.
    uint256 internal constant PACKED_WORD_BITS = 253;
    /// @notice Bits of the seat field of the spawn/turn packed words.
    uint256 internal constant SEAT_BITS = 8;
    /// @notice Bits of the step (turn number) field of the spawn/turn packed words.
    uint256 internal constant STEP_BITS = 32;

    Store internal s;

    /// @notice Wires the hashers, the tile generator, the verifier registry and the seal verifier; all immutable.
    /// @param hashers circomlibjs Poseidon contracts for 1 to 6 inputs (index = arity − 1).
    /// @param mapGen_ The MapGen contract.
    /// @param registry_ The verifier registry.
    /// @param sealVerifier_ The sealed-share verifier.
    constructor(address[6] memory hashers, address mapGen_, VerifierRegistry registry_, address sealVerifier_) {
        // A registry filled for other circuits would check their proofs against this contract's signals.
        uint16 version = 0; // no code there: no registry
        if (address(registry_).code.length != 0) {
            try registry_.CIRCUITS_VERSION() returns (uint16 v) {
                version = v;
            } catch {
                version = 0; // a contract without the view: a registry from before versions
            }
        }
        if (version != PLAY_CIRCUITS_VERSION) revert RegistryVersion(PLAY_CIRCUITS_VERSION, version);
        poseidon1 = hashers[0];
        poseidon2 = hashers[1];
        poseidon3 = hashers[2];
        poseidon4 = hashers[3];
        poseidon5 = hashers[4];
        poseidon6 = hashers[5];
        mapGen = mapGen_;
        registry = registry_;
        sealVerifier = sealVerifier_;
    }

    // ---------------------------------------------------------------- ceremony (ShroudCeremony)

    /// @inheritdoc IShroudGame
    function createGame(GameParams calldata params) external payable returns (uint256) {
        return ShroudCeremony.createGame(s, _deps(), params, msg.value);
    }

    /// @inheritdoc IShroudGame
    function commit(uint256 gameId, uint256 commitment) external payable {
        ShroudCeremony.commit(s, gameId, commitment, msg.value);
    }

    /// @inheritdoc IShroudGame
    function sealedReveal(uint256 gameId, uint256 ephemeralY, uint256 ciphertext, Proof calldata proof) external {
        ShroudCeremony.sealedReveal(s, _deps(), gameId, ephemeralY, ciphertext, proof);
    }

    /// @inheritdoc IShroudGame
    function cancelMissed(uint256 gameId) external {
        ShroudCeremony.cancelMissed(s, gameId);
    }

    /// @inheritdoc IShroudGame
    function postRoot(uint256 gameId, uint256 root, uint256 masterCommitment, uint256[] calldata zoneRoots)
        external
    {
        ShroudCeremony.postRoot(s, gameId, root, masterCommitment, zoneRoots);
    }

    // ---------------------------------------------------------------- play

    /// @inheritdoc IShroudGame
    /// @dev The caller's first turn: places its spawn units in its start area (hidden) with a spawn proof; public
    ///      signals [packed…, gameId, newCommit, mapRoot] for every ruleset: the proof binds the game's root into
    ///      the seat's play commitment (core/state.ts playCommitment), which its turns then carry. After an adopted
    ///      open root the seat is rebound from the start (`Seat.rebound`). The packed words are `report` with this
    ///      contract's context ORed in (seat, step, opponents' masks; `_signals`); the report part holds the new zone
    ///      bitmask (stored) and one forced-reveal lane per unit slot (`ZoneReveals` lists the non-zero ones).
    function spawn(uint256 gameId, Proof calldata proof, uint256[] calldata report, uint256 newCommit) external {
        _play(gameId, proof, report, newCommit, true);
    }

    /// @inheritdoc IShroudGame
    /// @dev Moves the caller's hidden units with a turn proof against its stored commitment; public signals
    ///      [packed…, oldCommit, newCommit] for every ruleset. No gameId: the stored commitment binds the game, since
    ///      every stored commitment was made by a proof that knew its opening. No map root either: the old commitment
    ///      binds it (its spawn's signal, or `rebind`), and the proof carries it into the new one. Both commitments
    ///      are play commitments: no reveal commitment signal or slot of its own (core/state.ts playCommitment).
    ///      After an adopted open root a seat still bound to the dealer's root is refused (`NotRebound`).
    function playTurn(uint256 gameId, Proof calldata proof, uint256[] calldata report, uint256 newCommit) external {
        _play(gameId, proof, report, newCommit, false);
    }

    /// @inheritdoc IShroudGame
    /// @dev Public signals [nullifier, gameId, target, commit (the stored play commitment)], target = player |
    ///      turn << 160 | col << 192 | row << 202 (built here); `nullifier = Poseidon(stateBlinding, slot, turn)`: each
    ///      unit attacks once a turn.
    function attack(
        uint256 gameId,
        Proof calldata proof,
        uint256 nullifier,
        uint256 targetCol,
        uint256 targetRow,
        uint256 defender
    ) external {
        (Game storage g, Seat storage st, uint256 seat) = _mover(gameId);
        if (!st.spawned) revert NotSpawned();
        if (defender == seat || defender >= g.nPlayers) revert BadDefender();
        Seat storage d = s.seats[gameId][defender];
        if (!d.spawned || d.forfeited) revert BadDefender();
        if (targetCol >= g.width || targetRow >= g.height) revert OffBoard();
        if (nullifier >= Poseidon.FIELD_MODULUS) revert NotInField();
        if (s.nullifierUsed[gameId][nullifier]) revert NullifierUsed();
        uint256[] memory sig = new uint256[](4);
        sig[0] = nullifier;
        sig[1] = gameId;
        sig[2] = _target(g.turn, targetCol, targetRow);
        sig[3] = st.playCommitment;
        _verify(g, VERIFIER_ATTACK, proof, sig);
        s.nullifierUsed[gameId][nullifier] = true;
        s.combats[gameId] = Combat(
            uint8(seat), uint8(defender), uint16(targetCol), uint16(targetRow), uint40(g.deadline - block.timestamp)
        );
        ShroudPhases.enter(g, gameId, Phase.Combat, g.durations.combatSeconds);
        emit AttackDeclared(gameId, msg.sender, d.player, targetCol, targetRow, nullifier, g.deadline);
    }

    /// @inheritdoc IShroudGame
    /// @dev Public signals [newCommit, gameId, target, oldCommit]: target = player | turn << 160 | col << 192 |
    ///      row << 202 | damage << 212 | outcome << 220 (built here), outcome = present | unitType << 1 | unitHp << 5
    ///      (the defender's claim, checked to fit its fields, so the word is injective).
    function defend(
        uint256 gameId,
        Proof calldata proof,
        uint256 present,
        uint256 unitType,
        uint256 unitHp,
        uint256 newCommit
    ) external {
        Game storage g = s.games[gameId];
        ShroudPhases.requireOpen(g, Phase.Combat);
        Combat memory c = s.combats[gameId];
        Seat storage d = s.seats[gameId][c.defender];
        if (msg.sender != d.player) revert NotDefender();
        // The outcome word's fields: present 1 bit, type 4 bits, hp 8 bits (as the circuit outputs them).
        if (present > 1 || unitType > 15 || unitHp > 255 || newCommit >= Poseidon.FIELD_MODULUS) revert NotInField();
        uint256[] memory sig = new uint256[](4);
        sig[0] = newCommit;
        sig[1] = gameId;
        sig[2] = _target(g.turn, c.col, c.row) | (uint256(g.damage) << 212)
            | ((present | (unitType << 1) | (unitHp << 5)) << 220);
        sig[3] = d.playCommitment;
        _verify(g, VERIFIER_COMBAT, proof, sig);
        d.playCommitment = newCommit;
        address attacker = s.seats[gameId][c.attacker].player;
        if (present == 1) {
            emit CombatResolved(gameId, attacker, msg.sender, c.col, c.row, unitType, unitHp, unitHp <= g.damage);
        } else {
            emit CombatFizzled(gameId, attacker, msg.sender, c.col, c.row);
        }
        _resume(gameId, g, c);
    }

    /// @inheritdoc IShroudGame
    function claimCombatTimeout(uint256 gameId) external {
        Game storage g = s.games[gameId];
        ShroudPhases.requireExpired(g, Phase.Combat);
        Combat memory c = s.combats[gameId];
        _resume(gameId, g, c);
        ShroudTurns.forfeit(s, gameId, c.defender, true);
    }

    /// @inheritdoc IShroudGame
    function forfeit(uint256 gameId) external {
        ShroudPhases.requireOpen(s.games[gameId], Phase.Play);
        uint256 seat = ShroudPhases.seatOf(s, gameId, msg.sender);
        if (s.seats[gameId][seat].forfeited) revert AlreadyForfeited();
        ShroudTurns.forfeit(s, gameId, seat, false);
    }

    /// @inheritdoc IShroudGame
    function claimTurnTimeout(uint256 gameId) external {
        Game storage g = s.games[gameId];
        ShroudPhases.requireExpired(g, Phase.Play);
        ShroudTurns.forfeit(s, gameId, g.toMove, true);
    }

    // ---------------------------------------------------------------- reveal disputes (ShroudDisputes)

    /// @inheritdoc IShroudGame
    function openDispute(uint256 gameId, uint32[] calldata leaves, uint256 blinding, uint256 stateCommit)
        external
        payable
    {
        ShroudDisputes.openDispute(s, _deps(), gameId, leaves, blinding, stateCommit, msg.value);
    }

    /// @inheritdoc IShroudGame
    function answerDispute(uint256 gameId, uint256[] calldata answer, bytes calldata receipt) external {
        ShroudDisputes.answerDispute(s, gameId, answer, receipt);
    }

    /// @inheritdoc IShroudGame
    function challengeDisputeAnswer(
        uint256 gameId,
        uint32[] calldata leaves,
        uint256[] calldata answer,
        uint256 index
    ) external {
        ShroudDisputes.challengeDisputeAnswer(s, _deps(), gameId, leaves, answer, index);
    }

    /// @inheritdoc IShroudGame
    function acceptDisputeAnswer(uint256 gameId) external {
        ShroudDisputes.acceptDisputeAnswer(s, gameId);
    }

    /// @inheritdoc IShroudGame
    function claimDisputeTimeout(uint256 gameId) external {
        ShroudDisputes.claimDisputeTimeout(s, gameId);
    }

    // ---------------------------------------------------------------- force-open (ShroudForceOpen)

    /// @inheritdoc IShroudGame
    function startForceOpen(uint256 gameId) external {
        ShroudForceOpen.startForceOpen(s, gameId);
    }

    /// @inheritdoc IShroudGame
    function revealShare(uint256 gameId, uint256 share) external {
        ShroudForceOpen.revealShare(s, _deps(), gameId, share);
    }

    /// @inheritdoc IShroudGame
    function proposeOpenRoot(uint256 gameId, uint256[] calldata zoneRoots) external {
        ShroudForceOpen.proposeOpenRoot(s, _deps(), gameId, zoneRoots);
    }

    /// @inheritdoc IShroudGame
    function challengeOpenRoot(uint256 gameId, uint256[] calldata zoneRoots, uint256 zone, uint256[64] calldata leaves)
        external
    {
        ShroudForceOpen.challengeOpenRoot(s, _deps(), gameId, zoneRoots, zone, leaves);
    }

    /// @inheritdoc IShroudGame
    function answerOpenRootChallenge(
        uint256 gameId,
        uint256[] calldata zoneRoots,
        uint256[64] calldata challengerLeaves,
        uint256[64] calldata proposerLeaves
    ) external {
        ShroudForceOpen.answerOpenRootChallenge(s, _deps(), gameId, zoneRoots, challengerLeaves, proposerLeaves);
    }

    /// @inheritdoc IShroudGame
    function claimOpenRootTimeout(uint256 gameId) external {
        ShroudForceOpen.claimOpenRootTimeout(s, gameId);
    }

    /// @inheritdoc IShroudGame
    function rebind(uint256 gameId, uint256 stateCommit, uint256 revealCommit) external {
        ShroudForceOpen.rebind(s, _deps(), gameId, stateCommit, revealCommit);
    }

    // ------------------------------------------------- secrets, audit, settlement (ShroudSettlement, ShroudAudit)

    /// @inheritdoc IShroudGame
    function publishSecrets(uint256 gameId, uint256 masterSecret, uint256[] calldata shares) external {
        ShroudSettlement.publishSecrets(s, _deps(), gameId, masterSecret, shares);
    }

    /// @inheritdoc IShroudGame
    function claimSecretsTimeout(uint256 gameId) external {
        ShroudSettlement.claimSecretsTimeout(s, gameId);
    }

    /// @inheritdoc IShroudGame
    function proveFraud(uint256 gameId, uint256 leafIndex, uint256[5] calldata tile, uint256[] calldata path)
        external
    {
        ShroudSettlement.proveFraud(s, _deps(), gameId, leafIndex, tile, path);
    }

    /// @inheritdoc IShroudGame
    function proveZoneRootsFraud(uint256 gameId, uint256[] calldata zoneRoots) external {
        ShroudAudit.proveZoneRootsFraud(s, _deps(), gameId, zoneRoots);
    }

    /// @inheritdoc IShroudGame
    function challengeZone(uint256 gameId, uint256[] calldata zoneRoots, uint256 zone, uint256[64] calldata leaves)
        external
        payable
    {
        ShroudAudit.challengeZone(s, _deps(), gameId, zoneRoots, zone, leaves, msg.value);
    }

    /// @inheritdoc IShroudGame
    function answerZoneChallenge(
        uint256 gameId,
        uint256 seat,
        uint256[64] calldata challengerLeaves,
        uint256[64] calldata dealerLeaves
    ) external {
        ShroudAudit.answerZoneChallenge(s, _deps(), gameId, seat, challengerLeaves, dealerLeaves);
    }

    /// @inheritdoc IShroudGame
    function settle(uint256 gameId) external {
        ShroudSettlement.settle(s, gameId);
    }

    /// @inheritdoc IShroudGame
    function withdraw() external {
        _withdraw(msg.sender);
    }

    /// @inheritdoc IShroudGame
    function setPayee(address payee) external {
        if (payee == address(this)) revert BadPayee();
        s.payee[msg.sender] = payee;
        emit PayeeSet(msg.sender, payee);
    }

    /// @inheritdoc IShroudGame
    function withdrawToPayee() external {
        address payee = s.payee[msg.sender];
        if (payee == address(0)) revert NoPayee();
        _withdraw(payee);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IShroudGame
    function getGame(uint256 gameId)
        external
        view
        returns (
            address dealer,
            Phase phase,
            uint256 nPlayers,
            uint256 deadline,
            uint256 turn,
            uint256 toMove,
            uint256 root,
            uint256 masterCommitment,
            uint256 seed,
            uint256 bond,
            bool openMap,
            bool rootAdopted,
            uint256 replacedRoot
        )
    {
        Game storage g = _known(gameId);
        return (
            g.dealer,
            g.phase,
            g.nPlayers,
            g.deadline,
            g.turn,
            g.toMove,
            g.root,
            g.masterCommitment,
            g.seed,
            g.bond,
            g.openMap,
            g.rootAdopted,
            g.replacedRoot
        );
    }

    /// @inheritdoc IShroudGame
    function getGameConfig(uint256 gameId)
        external
        view
        returns (
            Board memory board,
            uint256 depth,
            bytes32 rulesetHash,
            uint256 stake,
            Durations memory durations,
            uint256[2] memory sealKey,
            uint256 disputeDeposit
        )
    {
        Game storage g = _known(gameId);
        board = Board(g.kind, g.width, g.height, g.maxTurns);
        return (board, g.depth, g.rulesetHash, g.stake, g.durations, g.sealKey, g.disputeDeposit);
    }

    /// @inheritdoc IShroudGame
    function getSeat(uint256 gameId, uint256 seat) external view returns (Seat memory) {
        if (seat >= s.games[gameId].nPlayers) revert NotPlayer();
        return s.seats[gameId][seat];
    }

    /// @inheritdoc IShroudGame
    function getCombat(uint256 gameId) external view returns (Combat memory) {
        return s.combats[gameId];
    }

    /// @inheritdoc IShroudGame
    function getDispute(uint256 gameId) external view returns (Dispute memory) {
        return s.disputes[gameId];
    }

    /// @inheritdoc IShroudGame
    function getOpenRoot(uint256 gameId) external view returns (OpenRoot memory) {
        return s.openRoots[gameId];
    }

    /// @inheritdoc IShroudGame
    function getAudit(uint256 gameId) external view returns (Audit memory) {
        return s.audits[gameId];
    }

    /// @inheritdoc IShroudGame
    function getZoneChallenge(uint256 gameId, uint256 seat) external view returns (ZoneChallenge memory) {
        return s.zoneChallenges[gameId][seat];
    }

    /// @inheritdoc IShroudGame
    /// @dev Only each seat's latest play commitment is stored (a fresh slot per turn cost 22.1k gas). Earlier ones
    ///      are in the `TurnSubmitted` logs; asking for one here reverts `CommitmentInLogs(latestTurn)` rather than
    ///      answering 0. 0 when the player has none at `turn` and no later one either. A combat answer replaces the
    ///      state part without a turn, and `rebind` the root (`Rebound` logs it), so callers must not treat this
    ///      answer as final (the log's is).
    function playCommitment(uint256 gameId, address player, uint256 turn) external view returns (uint256) {
        uint256 p = s.seatPlusOne[gameId][player];
        if (p == 0) return 0;
        Seat storage st = s.seats[gameId][p - 1];
        uint256 c = st.playCommitment;
        if (c == 0 || turn > st.lastTurn) return 0;
        if (turn < st.lastTurn) revert CommitmentInLogs(st.lastTurn);
        return c;
    }

    /// @inheritdoc IShroudGame
    function gameIdOf(uint256 counter) external view returns (uint256) {
        return ShroudPhases.gameIdOf(counter);
    }

    /// @inheritdoc IShroudGame
    function gameCount() external view returns (uint256) {
        return s.gameCount;
    }

    /// @inheritdoc IShroudGame
    function credit(address account) external view returns (uint256) {
        return s.credit[account];
    }

    /// @inheritdoc IShroudGame
    function rootBlock(uint256 gameId) external view returns (uint256) {
        return s.games[gameId].rootBlock;
    }

    /// @inheritdoc IShroudGame
    function payeeOf(address account) external view returns (address) {
        return s.payee[account];
    }

    /// @inheritdoc IShroudGame
    function seatPlusOne(uint256 gameId, address player) external view returns (uint256) {
        return s.seatPlusOne[gameId][player];
    }

    /// @notice Whether an attack nullifier was used in a game.
    function nullifierUsed(uint256 gameId, uint256 nullifier) external view returns (bool) {
        return s.nullifierUsed[gameId][nullifier];
    }

    /// @inheritdoc IShroudGame
    function boardBounds() external pure returns (uint256 maxSide, uint256 maxZones, uint256 zoneSize) {
        return (ShroudLimits.MAX_BOARD_SIDE, ShroudLimits.MAX_ZONES, ShroudLimits.ZONE_SIZE);
    }

    /// @inheritdoc IShroudGame
    function durationBounds() external pure returns (Durations memory minimum, Durations memory maximum) {
        return (ShroudLimits.floors(), ShroudLimits.ceilings());
    }

    /// @notice The verifier this contract uses for a ruleset's play circuit (0 spawn, 1 turn, 2 attack, 3 combat):
    ///         the registry's entry as copied at the ruleset's first game (zero target: read from the registry).
    function verifierOf(bytes32 rulesetHash, uint256 circuit) external view returns (VerifierRegistry.Verifier memory) {
        return s.verifierCache[s.rulesetIdOf[rulesetHash]][circuit];
    }

    // ---------------------------------------------------------------- internals

    function _deps() private view returns (Deps memory) {
        return Deps([poseidon1, poseidon2, poseidon3, poseidon4, poseidon5, poseidon6], mapGen, address(registry), sealVerifier);
    }

    function _known(uint256 gameId) private view returns (Game storage g) {
        g = s.games[gameId];
        if (g.phase == Phase.None) revert UnknownGame();
    }

    /// Sends `account` all its credit.
    function _withdraw(address account) private {
        uint256 amount = s.credit[account];
        if (amount == 0) revert NothingToWithdraw();
        s.credit[account] = 0;
        emit Withdrawn(account, amount);
        (bool ok,) = account.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    /// The caller's seat when it is the seat to move in `Phase.Play`, before the deadline.
    function _mover(uint256 gameId) private view returns (Game storage g, Seat storage st, uint256 seat) {
        g = s.games[gameId];
        ShroudPhases.requireOpen(g, Phase.Play);
        seat = g.toMove;
        st = s.seats[gameId][seat];
        if (st.player != msg.sender) {
            ShroudPhases.seatOf(s, gameId, msg.sender); // NotPlayer for strangers
            revert NotYourTurn();
        }
    }

    /// Spawn (`isSpawn`) or turn. Signals: spawn [packed…, gameId, newCommit, mapRoot], turn [packed…, oldCommit,
    /// newCommit]; the packed words are the prover's report words (below 2^253, 0 at every context bit) with the
    /// context ORed in.
    function _play(uint256 gameId, Proof calldata proof, uint256[] calldata report, uint256 newCommit, bool isSpawn)
        private
    {
        (Game storage g, Seat storage st, uint256 seat) = _mover(gameId);
        if (isSpawn == st.spawned) {
            if (isSpawn) revert AlreadySpawned();
            revert NotSpawned();
        }
        // After an adopted open root, a turn from a commitment on the dealer's root would prove moves over a map
        // nobody can open any more (both flags sit in slots read already).
        if (!isSpawn && g.rootAdopted && !st.rebound) revert NotRebound();
        if (newCommit >= Poseidon.FIELD_MODULUS) revert NotInField();
        uint256 zones = g.zones;
        uint256 at;
        {
            uint256[] memory sig;
            (sig, at) = _signals(gameId, g, st, seat, report, zones, isSpawn);
            uint256 n = sig.length;
            // A spawn binds the game's root into its commitment: its last public input.
            if (isSpawn) sig[--n] = g.root;
            sig[n - 1] = newCommit;
            _verify(g, isSpawn ? VERIFIER_SPAWN : VERIFIER_TURN, proof, sig);
        }
        uint32 turn = g.turn;
        if (isSpawn) {
            st.spawned = true;
            if (g.rootAdopted) st.rebound = true; // its commitment binds the adopted root (same slot as `spawned`)
        }
        st.playCommitment = newCommit;
        // One slot, written together: the mask and the last turn.
        st.zoneMask = uint224((report[at >> 8] >> (at & 0xff)) & ((uint256(1) << zones) - 1));
        st.lastTurn = turn;
        if (isSpawn) emit Spawned(gameId, msg.sender, seat);
        bool ended = _submitted(gameId, turn, newCommit);
        _emitForced(gameId, report, zones, at);
        if (ended) ShroudTurns.endGame(s, gameId);
    }

    /// Moves to the next turn and logs the accepted one with it (`TurnSubmitted`); true at the turn limit.
    function _submitted(uint256 gameId, uint256 turn, uint256 newCommit) private returns (bool ended) {
        uint256 nextSeat;
        uint256 deadline;
        (ended, nextSeat, deadline) = ShroudTurns.next(s, gameId);
        emit TurnSubmitted(gameId, msg.sender, turn, newCommit, nextSeat, deadline);
    }

    /// The spawn/turn signals with newCommit (and a spawn's trailing mapRoot) left for the caller, and where the
    /// report part starts (`at` = word << 8 | bit offset of the zone bitmask).
    /// The packed words (core/witness/publics.ts) hold the context (seat 8 bits, step 32 bits: the turn, or the
    /// seat for a spawn; each opponent seat's stored zone mask, seats 0..maxPlayers−1 skipping `seat`, 0 for empty
    /// seats), then the report (zone bitmask, forced lanes), placed next-fit in 253-bit words. The prover's report
    /// words must be 0 at every context bit (`ContextBitsSet`): this contract ORs its context into them.
    function _signals(
        uint256 gameId,
        Game storage g,
        Seat storage st,
        uint256 seat,
        uint256[] calldata report,
        uint256 zones,
        bool isSpawn
    ) private view returns (uint256[] memory sig, uint256 at) {
        uint256 rw = report.length;
        uint256 tail = isSpawn ? 3 : 2;
        sig = new uint256[](rw + tail);
        for (uint256 k = 0; k < rw; k++) {
            uint256 w = report[k];
            if (w >> PACKED_WORD_BITS != 0) revert NotInField();
            sig[k] = w;
        }
        at = _context(gameId, g, seat, isSpawn ? seat : g.turn, zones, sig, rw);
        // A turn has no gameId or root signal: the stored commitment binds both (circuits/turn.circom).
        sig[rw] = isSpawn ? gameId : st.playCommitment;
    }

    /// ORs the context into the `rw` packed words of `sig`: the seat, `step` and each opponent seat's stored zone
    /// mask. Returns where the zone bitmask goes (word << 8 | offset, next-fit after the context).
    function _context(
        uint256 gameId,
        Game storage g,
        uint256 seat,
        uint256 step,
        uint256 zones,
        uint256[] memory sig,
        uint256 rw
    ) private view returns (uint256 at) {
        uint256 pos = _put(sig, rw, 0, seat, SEAT_BITS);
        pos = _put(sig, rw, pos, step, STEP_BITS);
        for (uint256 o = 0; o < g.maxPlayers; o++) {
            if (o != seat) pos = _put(sig, rw, pos, _maskOf(gameId, g, o), zones);
        }
        at = (pos & 0xff) + zones > PACKED_WORD_BITS ? ((pos >> 8) + 1) << 8 : pos;
        if ((at >> 8) >= rw) revert WrongSignalCount((at >> 8) + 1, rw);
    }

    /// Seat `o`'s stored zone mask, 0 for a seat the ruleset has but the game does not.
    function _maskOf(uint256 gameId, Game storage g, uint256 o) private view returns (uint256) {
        return o < g.nPlayers ? s.seats[gameId][o].zoneMask : 0;
    }

    /// Places a context field of `bits` bits at `pos` (word << 8 | offset, next-fit) in the `rw` packed words, which
    /// must be 0 there; returns the next position.
    function _put(uint256[] memory sig, uint256 rw, uint256 pos, uint256 value, uint256 bits)
        private
        pure
        returns (uint256)
    {
        // Unchecked: pos, bits ≤ 2^16 and word < rw, a memory array's length (no arithmetic here can overflow).
        unchecked {
            uint256 word = pos >> 8;
            uint256 off = pos & 0xff;
            if (off + bits > PACKED_WORD_BITS) {
                word++;
                off = 0;
            }
            if (word >= rw) revert WrongSignalCount(word + 1, rw);
            uint256 w = sig[word];
            if ((w >> off) & ((uint256(1) << bits) - 1) != 0) revert ContextBitsSet(word);
            sig[word] = w | (value << off);
            return (word << 8) | (off + bits);
        }
    }

    /// Checks the proof with the ruleset's verifier for `circuit`: the copy made at the ruleset's first game (one
    /// direct static call of `selector ‖ a ‖ b ‖ c ‖ signals`), or the registry when none was registered then.
    function _verify(Game storage g, uint8 circuit, Proof calldata proof, uint256[] memory sig) private view {
        VerifierRegistry.Verifier memory v = s.verifierCache[g.rulesetId][circuit];
        if (v.target == address(0)) {
            if (!registry.verify(g.rulesetHash, circuit, proof.a, proof.b, proof.c, sig)) revert InvalidProof();
            return;
        }
        uint256 n = sig.length;
        if (n != v.nPublic) revert WrongSignalCount(v.nPublic, n);
        address target = v.target;
        uint256 selector = uint256(uint32(v.selector)) << 224;
        uint256[2] calldata a = proof.a; // a, b and c lie back to back in calldata
        bool ok;
        // `selector ‖ a ‖ b ‖ c ‖ signals` built in free memory (not kept: nothing is allocated after it), the answer
        // read from scratch space: abi.encodePacked's copies and the returned bytes cost ~0.75k more a proof.
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let buf := mload(0x40)
            mstore(buf, selector)
            calldatacopy(add(buf, 4), a, 256)
            let src := add(sig, 32)
            let dst := add(buf, 260)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(add(dst, shl(5, i)), mload(add(src, shl(5, i))))
            }
            ok := staticcall(gas(), target, buf, add(260, shl(5, n)), 0, 32)
            // Yul evaluates arguments right to left: the answer is read after the call, in statements of their own.
            ok := and(ok, and(eq(returndatasize(), 32), eq(mload(0), 1)))
        }
        if (!ok) revert InvalidProof();
    }

    /// The packed target word of attack and combat proofs: the caller's address | turn << 160 | col << 192 |
    /// row << 202 (col and row < ShroudLimits.MAX_BOARD_SIDE = 1024, checked at creation).
    function _target(uint256 turn, uint256 col, uint256 row) private view returns (uint256) {
        return uint256(uint160(msg.sender)) | (turn << 160) | (col << 192) | (row << 202);
    }

    /// One `ZoneReveals` with every non-zero forced-reveal lane (lane = zone * 16 + unitType + 1, emitted as lane − 1),
    /// none when there are none: the lanes follow the zone bitmask (at `at` = word << 8 | offset) and fill the later
    /// words from bit 0, `bitLength(16 * zones)` bits each. One log per proof rather than one per lane: a log's base
    /// and topics cost ~1.9k, each further lane 256 gas.
    function _emitForced(uint256 gameId, uint256[] calldata report, uint256 zones, uint256 at) private {
        uint256 first = at >> 8;
        uint256 head = report[first] >> ((at & 0xff) + zones);
        uint256 rest = 0;
        for (uint256 k = first + 1; k < report.length; k++) {
            rest |= report[k];
        }
        if (head | rest == 0) return; // no forced reveal (most turns): no array, no log
        uint256 lb = 0;
        for (uint256 v = zones << 4; v != 0; v >>= 1) lb++;
        // Two passes over the lane words (at most a few): count the non-zero lanes, then list them.
        uint256[] memory lanes = new uint256[](_forcedLanes(report, first, head, lb, new uint256[](0)));
        _forcedLanes(report, first, head, lb, lanes);
        emit ZoneReveals(gameId, msg.sender, lanes);
    }

    /// The non-zero lanes (minus 1) of the lane words (`head`, then the report words after `first`), written to `out`
    /// when it is long enough; returns how many there are.
    function _forcedLanes(uint256[] calldata report, uint256 first, uint256 head, uint256 lb, uint256[] memory out)
        private
        pure
        returns (uint256 n)
    {
        uint256 laneMask = (uint256(1) << lb) - 1;
        for (uint256 k = first; k < report.length; k++) {
            uint256 w = k == first ? head : report[k];
            while (w != 0) {
                uint256 lane = w & laneMask;
                w >>= lb;
                if (lane == 0) continue;
                if (n < out.length) out[n] = lane - 1;
                n++;
            }
        }
    }

    /// Ends the pending combat: back to `Phase.Play` with the attacker's remaining turn time, at least a minimum
    /// turn's: an attack sent in its turn's last second must not leave the attacker a deadline already due when the
    /// answer lands (as a dispute's resume, `ShroudDisputes._close`).
    function _resume(uint256 gameId, Game storage g, Combat memory c) private {
        delete s.combats[gameId];
        uint256 left = c.turnLeft < ShroudLimits.MIN_TURN ? ShroudLimits.MIN_TURN : c.turnLeft;
        ShroudPhases.enter(g, gameId, Phase.Play, left);
    }
}
