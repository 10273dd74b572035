// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Poseidon} from "./Poseidon.sol";
import {ShroudAudit} from "./ShroudAudit.sol";
import {IMapGen, ShroudBase} from "./ShroudBase.sol";
import {VerifierRegistry} from "./VerifierRegistry.sol";

/// @title ShroudGame
/// @notice Shroud's game contract. Phase 1: seed ceremony (commit, sealed reveal), root posting, a simple end,
///         dealer audit (secrets checked on-chain, seed computed), tile fraud proofs, liveness paths
///         (force-open when the root is late, slashing when the secrets are late), and pull-payment settlement.
/// @dev Lifecycle (`Phase`): Commit → Reveal → Deal → Play → Secrets → Audit → Settled, with Cancelled (a player
///      missed the ceremony or sent a bad ciphertext) and ForceOpen (no root by the deadline: players reveal their
///      shares on-chain, the map becomes public and play continues without fog) branches. Every non-terminal phase
///      has a deadline and a permissionless function that moves on once it passes, so no game and no funds get stuck.
///
///      Phase 2 (hidden units, Groth16 proofs checked by the ruleset's verifiers from `VerifierRegistry`):
///      * Game ids are field elements bound to the chain and this contract (`gameIdOf`), because every share
///        commitment and proof binds to the id.
///      * Turn order: turns are numbered from 0 and pass round-robin over the unforfeited seats, starting at seat 0.
///        Each seat's first turn is its `spawn` (so turns 0..n−1 are the spawns, in seat order); every later turn is
///        a `submitTurn`. `maxTurns` counts the spawn turns too. A seat that misses a turn deadline (spawn included)
///        is forfeited at fault by `claimTurnTimeout`.
///      * Every public input a proof carries is either built from this contract's state (game id, player =
///        `msg.sender`, seat, turn, stored commitments, the opponents' stored zone masks in increasing seat order
///        skipping the prover, 0 for seats the ruleset has but the game does not and for forfeited seats, the
///        ruleset's damage) or a prover-supplied output, which must be < the field modulus (`NotInField`).
///      * Combat: during its own turn (before `submitTurn`), the mover may `attack` a tile, naming the defender seat.
///        The game enters `Phase.Combat`: nothing else moves until the named defender answers `respondCombat` with
///        a combat proof against its stored commitment (damage = the ruleset's registered damage), or misses the
///        combat deadline (`claimCombatTimeout`: the defender forfeits at fault). Since no turn proof is accepted
///        during a combat, the defender's commitment cannot change between the attack and the answer. The
///        attacker's turn clock is paused meanwhile and resumes with the time it had left. A hit may leave the
///        defender's stored zone mask larger than its real vision until its next turn (harmless: it only forces
///        extra reveals towards a zone the defender no longer sees).
///
///      Split: types, errors and events live in `ShroudBase`; the secrets, audit, fraud-proof and settlement code
///      in the linked `ShroudAudit` library (DELEGATECALL, same storage and events). Each ruleset's play verifiers
///      are copied from the write-once registry into this contract at the ruleset's first game (`verifierOf`), so
///      proofs are checked with one direct static call.
contract ShroudGame is ShroudBase {
    // ---------------------------------------------------------------- storage

    address public immutable poseidon1;
    address public immutable poseidon2;
    address public immutable poseidon3;
    address public immutable poseidon4;
    address public immutable poseidon5;
    address public immutable poseidon6;
    /// @notice The single-tile generator used by fraud proofs.
    IMapGen public immutable mapGen;
    /// @notice Rulesets and their Groth16 verifiers.
    VerifierRegistry public immutable registry;

    /// @notice Number of games created; the n-th game (from 1) has id `gameIdOf(n)`.
    uint256 public gameCount;
    mapping(uint256 gameId => Game) internal games;
    mapping(uint256 gameId => mapping(uint256 seat => Seat)) internal seats;
    /// @notice Seat index + 1 of a player in a game (0: not a player).
    mapping(uint256 gameId => mapping(address player => uint256)) public seatPlusOne;
    /// @notice Attack nullifiers already used in a game.
    mapping(uint256 gameId => mapping(uint256 nullifier => bool)) public nullifierUsed;
    mapping(uint256 gameId => Combat) internal combats;
    /// @notice Number of distinct rulesets played here; ruleset ids count from 1.
    uint32 public rulesetCount;
    /// @notice This contract's id of a ruleset (0: no game played it yet).
    mapping(bytes32 rulesetHash => uint32) public rulesetIdOf;
    /// @notice The registry's play verifiers, copied per ruleset id (the registry is write-once, so a copy never
    ///         goes stale); a zero target means "not registered when copied": `_verify` then asks the registry.
    mapping(uint256 rulesetId => mapping(uint256 circuit => VerifierRegistry.Verifier)) internal verifierCache;
    /// @notice Pull payments: bonds, stakes and slashed funds owed to each account.
    mapping(address account => uint256) public credit;

    /// @param hashers circomlibjs Poseidon contracts for 1 to 6 inputs (index = arity − 1).
    /// @param mapGen_ The MapGen contract.
    /// @param registry_ The verifier registry.
    constructor(address[6] memory hashers, IMapGen mapGen_, VerifierRegistry registry_) {
        poseidon1 = hashers[0];
        poseidon2 = hashers[1];
        poseidon3 = hashers[2];
        poseidon4 = hashers[3];
        poseidon5 = hashers[4];
        poseidon6 = hashers[5];
        mapGen = mapGen_;
        registry = registry_;
    }

    // ---------------------------------------------------------------- ceremony

    /// @notice Creates a game and locks the dealer's bond (`msg.value`). The caller must be the dealer.
    /// @param players 2 to 6 distinct player addresses, in seat order (seed = Poseidon(r_1..r_n) in this order).
    /// @param dealer The dealer (must be `msg.sender`, not a player).
    /// @param dealerEncKey The dealer's compressed secp256k1 public key (33 bytes) for sealed reveals.
    /// @param rulesetHash Hash of the ruleset JSON the game plays; it must be registered in the `registry`, with
    ///        the same board and at least as many seats.
    /// @param durations Phase durations in seconds, all non-zero.
    /// @param board Grid kind (0 hex, 1 square), width, height (≤ 253 zones) and the turn limit (> 0).
    /// @param stake Deposit each player pays with `commit` (may be 0); forfeited to the others on a fault.
    /// @return gameId The new game's id, `gameIdOf(gameCount)`: a field element bound to the chain and contract.
    function createGame(
        address[] calldata players,
        address dealer,
        bytes calldata dealerEncKey,
        bytes32 rulesetHash,
        Durations calldata durations,
        Board calldata board,
        uint96 stake
    ) external payable returns (uint256 gameId) {
        uint256 n = players.length;
        if (n < MIN_PLAYERS || n > MAX_PLAYERS) revert BadPlayerCount(n);
        if (dealer == address(0) || dealer != msg.sender) revert BadDealer();
        if (dealerEncKey.length != 33 || (dealerEncKey[0] != 0x02 && dealerEncKey[0] != 0x03)) revert BadEncKey();
        if (msg.value == 0) revert BondRequired();
        if (msg.value > type(uint96).max) revert ValueTooLarge();
        if (
            durations.commitSeconds == 0 || durations.revealSeconds == 0 || durations.rootSeconds == 0
                || durations.turnSeconds == 0 || durations.combatSeconds == 0 || durations.secretsSeconds == 0
                || durations.auditSeconds == 0
        ) revert BadDurations();

        gameId = gameIdOf(++gameCount);
        for (uint256 i = 0; i < n; i++) {
            address p = players[i];
            if (p == address(0) || p == dealer || seatPlusOne[gameId][p] != 0) revert BadPlayer(i);
            seatPlusOne[gameId][p] = i + 1;
            seats[gameId][i].player = p;
        }
        Game storage g = games[gameId];
        g.dealer = dealer;
        g.phase = Phase.Commit;
        g.nPlayers = uint8(n);
        g.active = uint8(n);
        _setBoard(g, board);
        g.turnSeconds = durations.turnSeconds;
        g.bond = uint96(msg.value);
        _bindRuleset(g, rulesetHash, board, n);
        g.stake = stake;
        g.durations = durations;
        g.rulesetHash = rulesetHash;
        g.dealerEncKey = dealerEncKey;
        emit GameCreated(gameId, dealer, players, rulesetHash, msg.value, stake);
        _announce(gameId, g);
    }

    /// The ruleset must be registered for this board and seat count; the game keeps its seats and damage, and the
    /// ruleset's registered play verifiers are copied here once.
    function _bindRuleset(Game storage g, bytes32 rulesetHash, Board calldata board, uint256 n) private {
        VerifierRegistry.Ruleset memory rs = registry.getRuleset(rulesetHash);
        if (!rs.registered) revert UnknownRuleset(rulesetHash);
        if (rs.kind != board.kind || rs.width != board.width || rs.height != board.height || n > rs.maxPlayers) {
            revert RulesetMismatch();
        }
        g.maxPlayers = rs.maxPlayers;
        g.damage = rs.damage;
        g.passability = rs.passability;
        uint32 id = rulesetIdOf[rulesetHash];
        if (id == 0) {
            id = ++rulesetCount;
            rulesetIdOf[rulesetHash] = id;
        }
        g.rulesetId = id;
        for (uint256 c = 0; c < PLAY_VERIFIERS; c++) {
            if (verifierCache[id][c].target != address(0)) continue;
            VerifierRegistry.Verifier memory v = registry.getVerifier(rulesetHash, c);
            if (v.target != address(0)) verifierCache[id][c] = v;
        }
    }

    function _announce(uint256 gameId, Game storage g) private {
        emit GameConfigured(gameId, Board(g.kind, g.width, g.height, g.maxTurns), g.durations, g.dealerEncKey);
        uint256 deadline = block.timestamp + g.durations.commitSeconds;
        g.deadline = uint40(deadline);
        emit PhaseChanged(gameId, Phase.Commit, deadline);
    }

    /// @notice Posts the caller's share commitment `C_i = Poseidon(gameId, player, r_i)`, paying the stake.
    /// @param gameId The game.
    /// @param commitment `C_i`, a field element.
    function commit(uint256 gameId, uint256 commitment) external payable {
        Game storage g = games[gameId];
        _inPhase(g, Phase.Commit);
        if (commitment >= Poseidon.FIELD_MODULUS) revert NotInField();
        uint256 s = _seatOf(gameId, msg.sender);
        Seat storage seat = seats[gameId][s];
        if (seat.committed) revert AlreadyCommitted();
        if (msg.value != g.stake) revert WrongStake(g.stake, msg.value);
        seat.committed = true;
        seat.staked = msg.value != 0;
        seat.commitment = commitment;
        emit Committed(gameId, s, commitment);
        if (++g.commits == g.nPlayers) _enter(gameId, g, Phase.Reveal, g.durations.revealSeconds);
    }

    /// @notice Posts the caller's sealed reveal `Enc(dealerEncKey, r_i)`. Only its hash is stored; the blob is
    ///         emitted. The contract cannot check it: the dealer disputes a bad one with `reportBadCiphertext`.
    /// @param gameId The game.
    /// @param ciphertext The ciphertext (non-empty).
    function sealedReveal(uint256 gameId, bytes calldata ciphertext) external {
        Game storage g = games[gameId];
        _inPhase(g, Phase.Reveal);
        if (ciphertext.length == 0) revert EmptyCiphertext();
        uint256 s = _seatOf(gameId, msg.sender);
        Seat storage seat = seats[gameId][s];
        if (seat.revealed) revert AlreadyRevealed();
        seat.revealed = true;
        seat.ciphertextHash = keccak256(ciphertext);
        emit SealedReveal(gameId, s, ciphertext);
        if (++g.reveals == g.nPlayers) _enter(gameId, g, Phase.Deal, g.durations.rootSeconds);
    }

    /// @notice The dealer reports that seat `seat`'s ciphertext does not open to the preimage of `C_i`. The game
    ///         is cancelled with that player at fault. Allowed from the seat's sealed reveal until the root is posted.
    /// @dev The evidence (shared secret + DLEQ proof) is recorded for off-chain checking, not verified here.
    /// @param gameId The game.
    /// @param seat The accused seat.
    /// @param ciphertext The seat's ciphertext, checked against the stored hash.
    /// @param evidence The dealer's evidence (non-empty).
    function reportBadCiphertext(uint256 gameId, uint256 seat, bytes calldata ciphertext, bytes calldata evidence)
        external
    {
        Game storage g = games[gameId];
        if (g.phase != Phase.Reveal && g.phase != Phase.Deal) revert WrongPhase(Phase.Deal, g.phase);
        if (block.timestamp > g.deadline) revert DeadlinePassed(g.deadline);
        if (msg.sender != g.dealer) revert NotDealer();
        if (seat >= g.nPlayers) revert NotPlayer();
        Seat storage st = seats[gameId][seat];
        if (!st.revealed) revert NotRevealed();
        if (keccak256(ciphertext) != st.ciphertextHash) revert CiphertextMismatch();
        if (evidence.length == 0) revert EmptyEvidence();
        st.atFault = true;
        emit BadCiphertext(gameId, seat, evidence);
        ShroudAudit.cancel(g, seats[gameId], credit, gameId, REASON_BAD_CIPHERTEXT);
    }

    /// @notice After the commit, reveal or force-open deadline passes, anyone cancels the game: every seat that
    ///         did not act is at fault and the funds settle.
    /// @param gameId The game.
    function cancelMissed(uint256 gameId) external {
        Game storage g = games[gameId];
        Phase p = g.phase;
        if (p != Phase.Commit && p != Phase.Reveal && p != Phase.ForceOpen) revert WrongPhase(Phase.Commit, p);
        if (block.timestamp <= g.deadline) revert DeadlineNotPassed(g.deadline);
        uint256 n = g.nPlayers;
        for (uint256 i = 0; i < n; i++) {
            Seat storage st = seats[gameId][i];
            bool done = p == Phase.Commit ? st.committed : p == Phase.Reveal ? st.revealed : st.shareRevealed;
            if (!done) st.atFault = true;
        }
        ShroudAudit.cancel(
            g,
            seats[gameId],
            credit,
            gameId,
            p == Phase.Commit ? REASON_MISSED_COMMIT : p == Phase.Reveal ? REASON_MISSED_REVEAL : REASON_MISSED_SHARE
        );
    }

    /// @notice The dealer posts the map root and `Poseidon(master_secret)`, once, after every sealed reveal and
    ///         before the root deadline. Play starts.
    /// @param gameId The game.
    /// @param root The Merkle root of the salted zone-major leaves.
    /// @param masterCommitment `Poseidon(master_secret)`.
    function postRoot(uint256 gameId, uint256 root, uint256 masterCommitment) external {
        Game storage g = games[gameId];
        _inPhase(g, Phase.Deal);
        if (msg.sender != g.dealer) revert NotDealer();
        if (root >= Poseidon.FIELD_MODULUS || masterCommitment >= Poseidon.FIELD_MODULUS) revert NotInField();
        g.root = root;
        g.masterCommitment = masterCommitment;
        emit RootPosted(gameId, root, masterCommitment);
        _startPlay(gameId, g);
    }

    // ---------------------------------------------------------------- liveness (P7)

    /// @notice No root by the deadline: anyone starts force-open. The dealer's bond is slashed to the players,
    ///         who then reveal their shares with `revealShare`.
    /// @param gameId The game.
    function startForceOpen(uint256 gameId) external {
        Game storage g = games[gameId];
        if (g.phase != Phase.Deal) revert WrongPhase(Phase.Deal, g.phase);
        if (block.timestamp <= g.deadline) revert DeadlineNotPassed(g.deadline);
        ShroudAudit.slash(g, seats[gameId], credit, gameId, REASON_NO_ROOT);
        _enter(gameId, g, Phase.ForceOpen, g.durations.revealSeconds);
    }

    /// @notice Force-open: the caller reveals `r_i`, checked against `C_i`. When every share is in, the seed is
    ///         computed and play starts on the public map (no fog, no root).
    /// @param gameId The game.
    /// @param share `r_i`, a field element.
    function revealShare(uint256 gameId, uint256 share) external {
        Game storage g = games[gameId];
        _inPhase(g, Phase.ForceOpen);
        ShroudAudit.revealShare(g, seats[gameId], _hashers(), gameId, _seatOf(gameId, msg.sender), share);
    }

    /// @notice The dealer missed the secrets deadline after the game ended: anyone slashes the bond to the
    ///         players and settles the game.
    /// @param gameId The game.
    function claimSecretsTimeout(uint256 gameId) external {
        Game storage g = games[gameId];
        if (g.phase != Phase.Secrets) revert WrongPhase(Phase.Secrets, g.phase);
        if (block.timestamp <= g.deadline) revert DeadlineNotPassed(g.deadline);
        ShroudAudit.slash(g, seats[gameId], credit, gameId, REASON_NO_SECRETS);
        ShroudAudit.settle(g, seats[gameId], credit, gameId);
    }

    // ---------------------------------------------------------------- play (phase-1 subset)

    /// @notice The caller leaves the game. When one player (or none) remains, the game ends.
    /// @param gameId The game.
    function forfeit(uint256 gameId) external {
        Game storage g = games[gameId];
        _inPhase(g, Phase.Play);
        uint256 s = _seatOf(gameId, msg.sender);
        if (seats[gameId][s].forfeited) revert AlreadyForfeited();
        _forfeit(gameId, g, s, false);
    }

    /// @notice The seat to move missed its turn deadline: anyone forfeits it (at fault) and play moves on.
    /// @param gameId The game.
    function claimTurnTimeout(uint256 gameId) external {
        Game storage g = games[gameId];
        if (g.phase != Phase.Play) revert WrongPhase(Phase.Play, g.phase);
        if (block.timestamp <= g.deadline) revert DeadlineNotPassed(g.deadline);
        uint256 s = g.toMove;
        seats[gameId][s].atFault = true;
        _forfeit(gameId, g, s, true);
    }

    // ---------------------------------------------------------------- spawn, turns, combat (phase 2)

    /// @notice The caller's first turn: places its spawn units in its start area (hidden) with a spawn proof.
    ///         Turns 0..n−1 are the spawns in seat order; the caller must be the seat to move and not have spawned.
    ///         Emits `Spawned`, `TurnSubmitted` (the dealer serves the spawn turn's reveals) and the `ZoneReveal`s.
    /// @param gameId The game (in `Phase.Play`, before the turn deadline).
    /// @param proof The spawn proof; public signals [report…, gameId, context…, newCommit, revealCommit], the
    ///        context words built here from this contract's state (circuits/README.md).
    /// @param report The proof's packed outputs: the new zone bitmask (low `zones` bits of word 0, stored) and one
    ///        forced-reveal lane per unit slot (`ZoneReveal` per non-zero lane).
    /// @param newCommit The initial state commitment, stored.
    /// @param revealCommit_ The reveal commitment of this turn, stored for the dealer.
    function spawn(
        uint256 gameId,
        Proof calldata proof,
        uint256[] calldata report,
        uint256 newCommit,
        uint256 revealCommit_
    ) external {
        _play(gameId, proof, report, newCommit, revealCommit_, true);
    }

    /// @notice The caller's turn: moves its hidden units with a turn proof against its stored commitment.
    /// @param gameId The game (in `Phase.Play`, before the turn deadline; the caller is the seat to move and has
    ///        spawned).
    /// @param proof The turn proof; public signals [report…, gameId, context…, oldCommit, newCommit, revealCommit].
    /// @param report The proof's packed outputs: the new zone bitmask (stored) and the forced-reveal lanes.
    /// @param newCommit The new state commitment, stored.
    /// @param revealCommit_ The turn's reveal commitment, stored for the dealer.
    function submitTurn(
        uint256 gameId,
        Proof calldata proof,
        uint256[] calldata report,
        uint256 newCommit,
        uint256 revealCommit_
    ) external {
        _play(gameId, proof, report, newCommit, revealCommit_, false);
    }

    /// @notice During its own turn (before `submitTurn`), the mover attacks a tile with an attack proof against its
    ///         stored commitment, naming the defender seat it expects there. The game enters `Phase.Combat` until the
    ///         defender answers (`respondCombat`) or misses the combat deadline (`claimCombatTimeout`); the mover's
    ///         turn clock is paused meanwhile.
    /// @param gameId The game.
    /// @param proof The attack proof; public signals [nullifier, gameId, target, stateCommit], target = the packed
    ///        word player | turn << 160 | col << 192 | row << 202 (built here).
    /// @param nullifier `Poseidon(stateBlinding, slot, turn)` (proof output): each unit attacks once per turn.
    /// @param targetCol Target tile column (on the board).
    /// @param targetRow Target tile row (on the board).
    /// @param defender The attacked seat: spawned, not forfeited, not the caller's.
    function attack(
        uint256 gameId,
        Proof calldata proof,
        uint256 nullifier,
        uint256 targetCol,
        uint256 targetRow,
        uint256 defender
    ) external {
        (Game storage g, Seat storage st, uint256 s) = _mover(gameId);
        if (!st.spawned) revert NotSpawned();
        if (defender == s || defender >= g.nPlayers) revert BadDefender();
        Seat storage d = seats[gameId][defender];
        if (!d.spawned || d.forfeited) revert BadDefender();
        if (targetCol >= g.width || targetRow >= g.height) revert OffBoard();
        if (nullifier >= Poseidon.FIELD_MODULUS) revert NotInField();
        if (nullifierUsed[gameId][nullifier]) revert NullifierUsed();
        uint256[] memory sig = new uint256[](4);
        sig[0] = nullifier;
        sig[1] = gameId;
        sig[2] = _target(g.turn, targetCol, targetRow);
        sig[3] = st.stateCommitment;
        _verify(g, VERIFIER_ATTACK, proof, sig);
        nullifierUsed[gameId][nullifier] = true;
        combats[gameId] = Combat(uint8(s), uint8(defender), uint16(targetCol), uint16(targetRow), uint40(g.deadline - block.timestamp));
        uint256 deadline = block.timestamp + g.durations.combatSeconds;
        g.phase = Phase.Combat;
        g.deadline = uint40(deadline);
        emit AttackDeclared(gameId, msg.sender, d.player, targetCol, targetRow, nullifier, deadline);
        emit PhaseChanged(gameId, Phase.Combat, deadline);
    }

    /// @notice The attacked seat answers the pending combat with a combat proof against its stored commitment:
    ///         the unit it has on the target (if any) loses the ruleset's damage, dying at hp ≤ damage. Play resumes
    ///         with the attacker's turn.
    /// @param gameId The game (in `Phase.Combat`, before the combat deadline; the caller is the named defender).
    /// @param proof The combat proof; public signals [outcome, newCommit, gameId, target, oldCommit]: outcome =
    ///        present | unitType << 1 | unitHp << 5, target = player | turn << 160 | col << 192 | row << 202 |
    ///        damage << 212 (both built here).
    /// @param present 1 when a unit stands on the target, else 0 (proof output).
    /// @param unitType The hit unit's type (0 when absent).
    /// @param unitHp The hit unit's hp before the hit (0 when absent).
    /// @param newCommit The defender's new state commitment (same blinding), stored.
    function respondCombat(
        uint256 gameId,
        Proof calldata proof,
        uint256 present,
        uint256 unitType,
        uint256 unitHp,
        uint256 newCommit
    ) external {
        Game storage g = games[gameId];
        _inPhase(g, Phase.Combat);
        Combat memory c = combats[gameId];
        Seat storage d = seats[gameId][c.defender];
        if (msg.sender != d.player) revert NotDefender();
        // The outcome word's fields: present 1 bit, type 4 bits, hp 8 bits (as the circuit outputs them).
        if (present > 1 || unitType > 15 || unitHp > 255 || newCommit >= Poseidon.FIELD_MODULUS) revert NotInField();
        uint256[] memory sig = new uint256[](5);
        sig[0] = present | (unitType << 1) | (unitHp << 5);
        sig[1] = newCommit;
        sig[2] = gameId;
        sig[3] = _target(g.turn, c.col, c.row) | (uint256(g.damage) << 212);
        sig[4] = d.stateCommitment;
        _verify(g, VERIFIER_COMBAT, proof, sig);
        d.stateCommitment = newCommit;
        address attacker = seats[gameId][c.attacker].player;
        if (present == 1) {
            emit CombatResolved(gameId, attacker, msg.sender, c.col, c.row, unitType, unitHp, unitHp <= g.damage);
        } else {
            emit CombatFizzled(gameId, attacker, msg.sender, c.col, c.row);
        }
        _resume(gameId, g, c);
    }

    /// @notice The defender missed the combat deadline: anyone forfeits it (at fault); the attacker's turn resumes
    ///         (or the game ends when one player remains).
    /// @param gameId The game.
    function claimCombatTimeout(uint256 gameId) external {
        Game storage g = games[gameId];
        if (g.phase != Phase.Combat) revert WrongPhase(Phase.Combat, g.phase);
        if (block.timestamp <= g.deadline) revert DeadlineNotPassed(g.deadline);
        Combat memory c = combats[gameId];
        _resume(gameId, g, c);
        seats[gameId][c.defender].atFault = true;
        _forfeit(gameId, g, c.defender, true);
    }

    // ---------------------------------------------------------------- audit

    /// @notice Publishes `master_secret` and every `r_i` after the game ended. Checked against
    ///         `Poseidon(master_secret)` and each `C_i`; the seed is computed and stored, and the fraud-proof
    ///         window opens. Anyone may call (the content is verified).
    /// @param gameId The game.
    /// @param masterSecret The dealer's master secret.
    /// @param shares `r_1..r_n` in seat order.
    function publishSecrets(uint256 gameId, uint256 masterSecret, uint256[] calldata shares) external {
        Game storage g = games[gameId];
        _inPhase(g, Phase.Secrets);
        ShroudAudit.publishSecrets(g, seats[gameId], _hashers(), gameId, masterSecret, shares);
    }

    /// @notice Fraud proof: a served tile whose path verifies against the root but whose data differs from
    ///         `Gen(seed)` at its index, or whose salt is not `Poseidon(master_secret, index)`, or which sits in an
    ///         off-board slot (those leaves must be 0). The dealer's bond goes to the players; the game settles.
    /// @param gameId The game (in its audit window).
    /// @param leafIndex Zone-major leaf index.
    /// @param tile terrain, feature, resource, river bitmask, salt: the served leaf preimage (field elements).
    /// @param path Sibling hashes from the leaf up, `depth` of them.
    function proveFraud(uint256 gameId, uint256 leafIndex, uint256[5] calldata tile, uint256[] calldata path)
        external
    {
        Game storage g = games[gameId];
        _inPhase(g, Phase.Audit);
        ShroudAudit.proveFraud(g, seats[gameId], credit, _hashers(), mapGen, gameId, leafIndex, tile, path);
    }

    /// @notice After the audit window closes with no fraud proven, anyone settles: the bond returns to the
    ///         dealer, stakes to the players (a faulty player's stake goes to the others).
    /// @param gameId The game.
    function settle(uint256 gameId) external {
        Game storage g = games[gameId];
        if (g.phase != Phase.Audit) revert WrongPhase(Phase.Audit, g.phase);
        if (block.timestamp <= g.deadline) revert DeadlineNotPassed(g.deadline);
        ShroudAudit.settle(g, seats[gameId], credit, gameId);
    }

    /// @notice Withdraws everything credited to the caller.
    function withdraw() external {
        uint256 amount = credit[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        credit[msg.sender] = 0;
        emit Withdrawn(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }

    // ---------------------------------------------------------------- views

    /// @notice A game's public state (everything but the encryption key and the per-seat data).
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
            bool openMap
        )
    {
        Game storage g = games[gameId];
        if (g.phase == Phase.None) revert UnknownGame();
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
            g.openMap
        );
    }

    /// @notice A game's board, tree depth, ruleset hash, stake, durations and dealer encryption key.
    function getGameConfig(uint256 gameId)
        external
        view
        returns (
            Board memory board,
            uint256 depth,
            bytes32 rulesetHash,
            uint256 stake,
            Durations memory durations,
            bytes memory dealerEncKey
        )
    {
        Game storage g = games[gameId];
        if (g.phase == Phase.None) revert UnknownGame();
        board = Board(g.kind, g.width, g.height, g.maxTurns);
        return (board, g.depth, g.rulesetHash, g.stake, g.durations, g.dealerEncKey);
    }

    /// @notice The id of the `counter`-th game (from 1): `keccak256(chainid, this, counter) mod p`, a field element
    ///         bound to the chain and this contract.
    /// @param counter The game's creation index.
    function gameIdOf(uint256 counter) public view returns (uint256) {
        return uint256(keccak256(abi.encode(block.chainid, address(this), counter))) % Poseidon.FIELD_MODULUS;
    }

    /// @notice The reveal commitment `player`'s spawn or turn proof posted at turn `turn`, for the latest such
    ///         turn of the player (0 when the player has none at `turn` and no later one either).
    /// @dev Only each seat's latest reveal commitment is stored (a fresh slot per turn cost 22.1k gas). Earlier ones
    ///      are in the `TurnSubmitted(gameId, player, turn, revealCommit)` logs (gameId and player indexed); asking
    ///      for one here reverts `RevealCommitInLogs(latestTurn)` rather than answering 0.
    /// @param gameId The game.
    /// @param player The player.
    /// @param turn The turn number (seat s spawned at the turn it was first to move: s when nobody forfeited).
    function revealCommit(uint256 gameId, address player, uint256 turn) external view returns (uint256) {
        uint256 s = seatPlusOne[gameId][player];
        if (s == 0) return 0;
        Seat storage st = seats[gameId][s - 1];
        uint256 rc = st.revealCommit;
        if (rc == 0 || turn > st.lastTurn) return 0;
        if (turn < st.lastTurn) revert RevealCommitInLogs(st.lastTurn);
        return rc;
    }

    /// @notice The verifier this contract uses for a ruleset's play circuit (0 spawn, 1 turn, 2 attack, 3 combat):
    ///         the registry's entry as copied at the ruleset's first game (zero target: read from the registry).
    /// @param rulesetHash The ruleset.
    /// @param circuit The circuit id.
    function verifierOf(bytes32 rulesetHash, uint256 circuit) external view returns (VerifierRegistry.Verifier memory) {
        return verifierCache[rulesetIdOf[rulesetHash]][circuit];
    }

    /// @notice The pending combat (meaningful in `Phase.Combat`).
    function getCombat(uint256 gameId) external view returns (Combat memory) {
        return combats[gameId];
    }

    /// @notice One seat's ceremony and turn state.
    function getSeat(uint256 gameId, uint256 seat) external view returns (Seat memory) {
        if (seat >= games[gameId].nPlayers) revert NotPlayer();
        return seats[gameId][seat];
    }

    // ---------------------------------------------------------------- internals

    function _hashers() private view returns (address[6] memory h) {
        h = [poseidon1, poseidon2, poseidon3, poseidon4, poseidon5, poseidon6];
    }

    /// Tree depth 6 + ceil(log2(zones)), as `makeBoard` in core/geometry.ts.
    /// Checks the board (sides ≤ 1024, ≤ 253 zones of 8×8) and stores it with its zone count and tree depth.
    function _setBoard(Game storage g, Board calldata b) private {
        if (b.kind > 1 || b.width == 0 || b.height == 0 || b.maxTurns == 0) revert BadBoard();
        // Coordinates are 10-bit fields in the circuits and in the packed target word.
        if (b.width > MAX_SIDE || b.height > MAX_SIDE) revert BadBoard();
        uint256 zones = ((uint256(b.width) + ZONE_SIZE - 1) / ZONE_SIZE) * ((uint256(b.height) + ZONE_SIZE - 1) / ZONE_SIZE);
        if (zones > MAX_ZONES) revert BadBoard();
        uint256 lg = 0;
        while ((uint256(1) << lg) < zones) lg++;
        g.kind = b.kind;
        g.depth = uint8(6 + lg);
        g.zones = uint8(zones);
        g.width = b.width;
        g.height = b.height;
        g.maxTurns = b.maxTurns;
    }

    function _inPhase(Game storage g, Phase p) private view {
        if (g.phase != p) revert WrongPhase(p, g.phase);
        if (block.timestamp > g.deadline) revert DeadlinePassed(g.deadline);
    }

    function _seatOf(uint256 gameId, address who) private view returns (uint256) {
        uint256 s = seatPlusOne[gameId][who];
        if (s == 0) revert NotPlayer();
        return s - 1;
    }

    function _enter(uint256 gameId, Game storage g, Phase p, uint256 duration) private {
        uint256 deadline = block.timestamp + duration;
        g.phase = p;
        g.deadline = uint40(deadline);
        emit PhaseChanged(gameId, p, deadline);
    }

    function _startPlay(uint256 gameId, Game storage g) private {
        _enter(gameId, g, Phase.Play, g.turnSeconds);
        emit TurnStarted(gameId, 0, 0, g.deadline);
    }

    /// The caller's seat when it is the seat to move in `Phase.Play`, before the deadline.
    function _mover(uint256 gameId) private view returns (Game storage g, Seat storage st, uint256 s) {
        g = games[gameId];
        _inPhase(g, Phase.Play);
        s = g.toMove;
        st = seats[gameId][s];
        if (st.player != msg.sender) {
            _seatOf(gameId, msg.sender); // NotPlayer for strangers
            revert NotYourTurn();
        }
    }

    /// Spawn (`isSpawn`) or turn. Signals: [report…, gameId, context…, (oldCommit,) newCommit, revealCommit]; the
    /// report words are the prover's (checked to be field elements), everything else comes from this contract.
    function _play(
        uint256 gameId,
        Proof calldata proof,
        uint256[] calldata report,
        uint256 newCommit,
        uint256 revealCommit_,
        bool isSpawn
    ) private {
        (Game storage g, Seat storage st, uint256 s) = _mover(gameId);
        if (isSpawn == st.spawned) {
            if (isSpawn) revert AlreadySpawned();
            revert NotSpawned();
        }
        if (newCommit >= Poseidon.FIELD_MODULUS || revealCommit_ >= Poseidon.FIELD_MODULUS) revert NotInField();
        uint256 zones = g.zones;
        {
            uint256[] memory sig = _signals(gameId, g, st, s, report, zones, isSpawn);
            uint256 n = sig.length;
            // Passability: the turn proof's last public input is the map root its destinations open against.
            if (!isSpawn && g.passability) sig[--n] = g.root;
            sig[n - 2] = newCommit;
            sig[n - 1] = revealCommit_;
            _verify(g, isSpawn ? VERIFIER_SPAWN : VERIFIER_TURN, proof, sig);
        }
        uint32 turn = g.turn;
        if (isSpawn) st.spawned = true;
        st.lastTurn = turn;
        st.stateCommitment = newCommit;
        st.zoneMask = report[0] & ((uint256(1) << zones) - 1);
        st.revealCommit = revealCommit_;
        if (isSpawn) emit Spawned(gameId, msg.sender, s);
        emit TurnSubmitted(gameId, msg.sender, turn, revealCommit_);
        _emitForced(gameId, report, zones);
        _advanceTurn(gameId, g);
    }

    /// The spawn/turn signals with newCommit and revealCommit (and a passability turn's trailing mapRoot) left for
    /// the caller.
    function _signals(
        uint256 gameId,
        Game storage g,
        Seat storage st,
        uint256 s,
        uint256[] calldata report,
        uint256 zones,
        bool isSpawn
    ) private view returns (uint256[] memory sig) {
        uint256 rw = report.length;
        uint256 tail = isSpawn ? 2 : (g.passability ? 4 : 3);
        sig = new uint256[](rw + 1 + _contextWords(g.maxPlayers - 1, zones) + tail);
        for (uint256 k = 0; k < rw; k++) {
            uint256 w = report[k];
            if (w >= Poseidon.FIELD_MODULUS) revert NotInField();
            sig[k] = w;
        }
        sig[rw] = gameId;
        uint256 j = _context(gameId, g, s, isSpawn ? s : g.turn, zones, sig, rw + 1);
        if (!isSpawn) sig[j] = st.stateCommitment;
    }

    /// Words the packed context takes: player (160 bits) and step (32 bits), then `k` masks of `zones` bits, placed
    /// next-fit in 253-bit words (core/witness/publics.ts).
    function _contextWords(uint256 k, uint256 zones) private pure returns (uint256 words) {
        words = 1;
        uint256 off = 192;
        for (uint256 o = 0; o < k; o++) {
            if (off + zones > PACKED_WORD_BITS) {
                words++;
                off = 0;
            }
            off += zones;
        }
    }

    /// Writes the context words from sig[j]: the caller's address, `step` (the turn, or the seat for a spawn) and
    /// each opponent seat's stored zone mask (seats 0..maxPlayers−1 skipping `s`; 0 for empty seats). Returns the
    /// next index.
    function _context(
        uint256 gameId,
        Game storage g,
        uint256 s,
        uint256 step,
        uint256 zones,
        uint256[] memory sig,
        uint256 j
    ) private view returns (uint256) {
        uint256 word = uint256(uint160(msg.sender)) | (step << 160);
        uint256 off = 192;
        uint256 n = g.nPlayers;
        uint256 maxP = g.maxPlayers;
        for (uint256 o = 0; o < maxP; o++) {
            if (o == s) continue;
            if (off + zones > PACKED_WORD_BITS) {
                sig[j++] = word;
                word = 0;
                off = 0;
            }
            if (o < n) word |= seats[gameId][o].zoneMask << off;
            off += zones;
        }
        sig[j++] = word;
        return j;
    }

    /// Checks the proof with the ruleset's verifier for `circuit`: the copy made at the ruleset's first game (one
    /// direct static call of `selector ‖ a ‖ b ‖ c ‖ signals`), or the registry when none was registered then.
    function _verify(Game storage g, uint8 circuit, Proof calldata proof, uint256[] memory sig) private view {
        VerifierRegistry.Verifier memory v = verifierCache[g.rulesetId][circuit];
        if (v.target == address(0)) {
            if (!registry.verify(g.rulesetHash, circuit, proof.a, proof.b, proof.c, sig)) revert InvalidProof();
            return;
        }
        if (sig.length != v.nPublic) revert WrongSignalCount(v.nPublic, sig.length);
        (bool ok, bytes memory ret) = v.target.staticcall(abi.encodePacked(v.selector, proof.a, proof.b, proof.c, sig));
        if (!ok || ret.length != 32 || abi.decode(ret, (uint256)) != 1) revert InvalidProof();
    }

    /// The packed target word of attack and combat proofs: the caller's address | turn << 160 | col << 192 |
    /// row << 202 (col and row < MAX_SIDE = 1024, checked at creation).
    function _target(uint256 turn, uint256 col, uint256 row) private view returns (uint256) {
        return uint256(uint160(msg.sender)) | (turn << 160) | (col << 192) | (row << 202);
    }

    /// One `ZoneReveal` per non-zero forced-reveal lane (lane = zone * 16 + unitType + 1): the lanes follow the
    /// zone bitmask in word 0 and fill the later words from bit 0, `bitLength(16 * zones)` bits each.
    function _emitForced(uint256 gameId, uint256[] calldata report, uint256 zones) private {
        uint256 lb = 0;
        for (uint256 v = zones << 4; v != 0; v >>= 1) lb++;
        uint256 laneMask = (uint256(1) << lb) - 1;
        for (uint256 k = 0; k < report.length; k++) {
            uint256 w = k == 0 ? report[0] >> zones : report[k];
            while (w != 0) {
                uint256 lane = w & laneMask;
                w >>= lb;
                if (lane != 0) emit ZoneReveal(gameId, msg.sender, (lane - 1) >> 4, (lane - 1) & 15);
            }
        }
    }

    /// Ends the pending combat: back to `Phase.Play` with the attacker's remaining turn time.
    function _resume(uint256 gameId, Game storage g, Combat memory c) private {
        delete combats[gameId];
        uint256 deadline = block.timestamp + c.turnLeft;
        g.phase = Phase.Play;
        g.deadline = uint40(deadline);
        emit PhaseChanged(gameId, Phase.Play, deadline);
    }

    function _forfeit(uint256 gameId, Game storage g, uint256 s, bool timedOut) private {
        Seat storage st = seats[gameId][s];
        st.forfeited = true;
        g.forfeitMask |= uint8(1 << s);
        st.zoneMask = 0; // a forfeited seat sees nothing: opponents' proofs get 0 for it
        emit Forfeited(gameId, s, timedOut);
        if (--g.active <= 1) _endGame(gameId, g);
        else if (s == g.toMove) _advanceTurn(gameId, g);
    }

    /// @dev Phase-2 turn logic calls this after storing a verified turn: next unforfeited seat, fresh deadline,
    ///      or the end of the game at the turn limit.
    function _advanceTurn(uint256 gameId, Game storage g) internal {
        uint32 turn = g.turn + 1;
        g.turn = turn;
        if (turn >= g.maxTurns) {
            _endGame(gameId, g);
            return;
        }
        uint256 n = g.nPlayers;
        uint256 s = g.toMove;
        do {
            s = (s + 1) % n;
        } while ((g.forfeitMask >> s) & 1 != 0);
        g.toMove = uint8(s);
        uint256 deadline = block.timestamp + g.turnSeconds;
        g.deadline = uint40(deadline);
        emit TurnStarted(gameId, turn, s, deadline);
    }

    /// @dev Ends play. A fogged game waits for the dealer's secrets; a force-opened game has none and settles.
    function _endGame(uint256 gameId, Game storage g) internal {
        emit GameEnded(gameId, g.turn);
        if (g.openMap) ShroudAudit.settle(g, seats[gameId], credit, gameId);
        else _enter(gameId, g, Phase.Secrets, g.durations.secretsSeconds);
    }
}
