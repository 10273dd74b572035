// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../../../contracts/IShroudGame.sol";
import {MapGen} from "../../../contracts/MapGen.sol";
import {ShroudGame} from "../../../contracts/ShroudGame.sol";
import {VerifierRegistry} from "../../../contracts/VerifierRegistry.sol";
import {FakePoseidon} from "../../../contracts/harness/FakePoseidon.sol";
import {MockVerifier} from "../../../contracts/harness/MockVerifier.sol";
import {ShroudHandler} from "./ShroudHandler.sol";
import {ShroudLedger} from "./ShroudLedger.sol";
import {ShroudModel} from "./ShroudModel.sol";
import {FuzzSelector, vm} from "./Vm.sol";

/// @title ShroudInvariants
/// @notice Invariant tests of ShroudGame's phase machine and money, run by Hardhat 3's Solidity test runner
///         (`npm run test:sol`). The runner calls random sequences of `ShroudHandler` actions (`targetContracts`,
///         `targetSelectors`) and checks every `invariant_*` function after each call.
/// @dev Deployment: ShroudGame with its four external libraries (the runner deploys and links them itself, as
///      Foundry does), one FakePoseidon for all six arities (hash values do not matter here; circomlibjs bytecode
///      cannot be deployed from Solidity), the real MapGen on the fake hash, a MockVerifier as the seal verifier
///      and every play verifier, and a real VerifierRegistry with two mock rulesets (hex 16×12, 3 seats, damage 4,
///      16 revealed tiles), one with passability and one without. Runs and depth: hardhat.config.ts `test.solidity`.
contract ShroudInvariants {
    ShroudGame internal game;
    ShroudHandler internal handler;
    ShroudModel internal model;
    ShroudLedger internal ledger;
    address internal constant STRANGER = address(0x5742A9E4);

    /// An invariant broke: `what`, for game index `gi` (type(uint256).max: global), with the two sides compared.
    error Violation(string what, uint256 gi, uint256 actual, uint256 expected);
    /// `probeFinish` brought the game to its end in `steps` exits (the marker that rolls the probe back).
    error ProbeDone(uint256 steps);
    /// No permissionless exit of the expired game succeeded; `reason` is its own exit's revert data.
    error Stuck(uint256 gi, uint8 phase, bytes reason);
    /// An exit succeeded but left the game non-terminal and still past its deadline.
    error NoProgress(uint256 gi, uint8 phaseBefore, uint8 phaseAfter);

    function setUp() public {
        FakePoseidon fake = new FakePoseidon();
        MockVerifier mock = new MockVerifier();
        VerifierRegistry registry = new VerifierRegistry(address(this));
        MapGen mapGen = new MapGen(address(fake));
        address f = address(fake);
        game = new ShroudGame([f, f, f, f, f, f], address(mapGen), registry, address(mock));
        bytes32 fog = keccak256("invariants/fog");
        bytes32 pass = keccak256("invariants/passability");
        registry.registerRuleset(fog, 0, 16, 12, 3, 4, false, 16);
        registry.registerRuleset(pass, 0, 16, 12, 3, 4, true, 16);
        // Public signals per circuit (spawn, turn, attack, combat), the same for both rulesets: a spawn takes the map
        // root last (the play commitment binds it; turns carry it inside the commitment).
        // (ShroudGame: one packed word; a turn has no gameId, its stored commitment binds the game; spawn and turn
        // have no revealCommit, the play commitment binds it.)
        uint16[4] memory n = [uint16(4), 3, 4, 4];
        for (uint8 c = 0; c < 4; c++) {
            registry.setVerifier(fog, c, address(mock), 0x12345678, n[c]);
            registry.setVerifier(pass, c, address(mock), 0x12345678, n[c]);
        }
        uint256[] memory keys = new uint256[](6); // the actors' private keys (players sign reveal receipts)
        for (uint256 i = 0; i < keys.length; i++) {
            keys[i] = 0xA11CE0 + i;
        }
        model = new ShroudModel(IShroudGame(address(game)), fake, mapGen);
        handler = new ShroudHandler(model, fog, pass, keys);
        ledger = handler.ledger();
    }

    /// The campaign reaches play: honest steps alone create, deal, spawn and play turns. (A model whose signals had
    /// drifted from `ShroudGame._signals` once made every spawn, turn and combat answer fail as `InvalidProof`, so the
    /// invariants never saw a turn; this fails then.)
    function test_honestStepsPlayTurns() public {
        for (uint256 i = 0; i < 400 && ledger.okCount(IShroudGame.playTurn.selector) == 0; i++) {
            if (i % 40 == 0) handler.createGame(uint256(keccak256(abi.encode("game", i))));
            handler.advance(i, uint256(keccak256(abi.encode("step", i))));
        }
        require(ledger.okCount(IShroudGame.spawn.selector) > 0, "no spawn succeeded");
        require(ledger.okCount(IShroudGame.playTurn.selector) > 0, "no turn succeeded");
    }

    /// The campaign reaches the audit's zone challenges: honest steps bring games to their audit, where a seat's
    /// zone challenge and a zone-roots proof succeed (so the invariants see deposits held and refunded).
    function test_auditChallengesReached() public {
        bytes4 challenge = IShroudGame.challengeZone.selector;
        bytes4 prove = IShroudGame.proveZoneRootsFraud.selector;
        for (uint256 i = 0; i < 3000 && (ledger.okCount(challenge) == 0 || ledger.okCount(prove) == 0); i++) {
            if (i % 40 == 0) handler.createGame(uint256(keccak256(abi.encode("game", i))));
            handler.advance(i, uint256(keccak256(abi.encode("step", i))));
            handler.auditZone(i, uint256(keccak256(abi.encode("audit", i))));
        }
        require(ledger.okCount(challenge) > 0, "no zone challenge succeeded");
        require(ledger.okCount(prove) > 0, "no zone-roots proof succeeded");
    }

    /// The campaign reaches payees: a game pays an actor's payee (booked as the actor's), and someone pushes a
    /// payee's credit to it (`withdrawToPayee`), so that the funds invariants see both.
    function test_payeesReached() public {
        for (uint256 i = 0; i < 6; i++) {
            handler.setPayee(i); // every actor names its payee (even seeds: bit 8 clear)
        }
        bytes4 push = IShroudGame.withdrawToPayee.selector;
        for (uint256 i = 0; i < 3000 && ledger.okCount(push) == 0; i++) {
            if (i % 40 == 0) handler.createGame(uint256(keccak256(abi.encode("game", i))));
            handler.advance(i, uint256(keccak256(abi.encode("step", i))));
            handler.withdrawToPayee(i);
        }
        require(ledger.okCount(push) > 0, "no payee was paid and pushed its credit");
        invariant_fundsConserved();
        invariant_honestSeatsRecoverStake();
    }

    // ================================================================ runner configuration

    /// Only the handler is fuzzed (not the game, the registry or the mocks directly).
    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    /// The handler's actions (its views and helpers are not targets).
    function targetSelectors() public view returns (FuzzSelector[] memory selectors) {
        bytes4[] memory s = new bytes4[](28);
        s[0] = ShroudHandler.createGame.selector;
        s[1] = ShroudHandler.commit.selector;
        s[2] = ShroudHandler.sealedReveal.selector;
        s[3] = ShroudHandler.postRoot.selector;
        s[4] = ShroudHandler.playTurn.selector;
        s[5] = ShroudHandler.attack.selector;
        s[6] = ShroudHandler.respondCombat.selector;
        s[7] = ShroudHandler.forfeit.selector;
        s[8] = ShroudHandler.exitAny.selector;
        s[9] = ShroudHandler.openDispute.selector;
        s[10] = ShroudHandler.answerDispute.selector;
        s[11] = ShroudHandler.challengeDisputeAnswer.selector;
        s[12] = ShroudHandler.acceptDisputeAnswer.selector;
        s[13] = ShroudHandler.revealShare.selector;
        s[14] = ShroudHandler.proposeOpenRoot.selector;
        s[15] = ShroudHandler.challengeOpenRoot.selector;
        s[16] = ShroudHandler.publishSecrets.selector;
        s[17] = ShroudHandler.proveFraud.selector;
        s[18] = ShroudHandler.withdraw.selector;
        s[19] = ShroudHandler.warp.selector;
        s[20] = ShroudHandler.advance.selector;
        // `advance` three times as likely: games reach the late phases.
        s[21] = ShroudHandler.advance.selector;
        s[22] = ShroudHandler.advance.selector;
        s[23] = ShroudHandler.answerOpenRootChallenge.selector;
        s[24] = ShroudHandler.auditZone.selector;
        s[25] = ShroudHandler.setPayee.selector;
        s[26] = ShroudHandler.withdrawToPayee.selector;
        s[27] = ShroudHandler.rebind.selector;
        selectors = new FuzzSelector[](1);
        selectors[0] = FuzzSelector(address(handler), s);
    }

    // ================================================================ 1. money

    /// Funds are conserved: the contract's balance is exactly what is owed (every credit, and what each live game
    /// holds: bond, stakes of staked seats, escrowed deposits, an open dispute's deposit), which is exactly what
    /// was paid in minus what was withdrawn; per game, what was paid in is what it still holds plus what it
    /// credited; no game action ever credits a non-participant or lowers anyone's credit.
    function invariant_fundsConserved() public view {
        uint256 balance = address(game).balance;
        uint256 sent = ledger.sentIn();
        uint256 out = ledger.withdrawn();
        if (balance + out != sent) revert Violation("balance != sent in - withdrawn", type(uint256).max, balance, sent - out);
        uint256 owed;
        address[] memory all = ledger.everyone();
        for (uint256 i = 0; i < all.length; i++) {
            owed += game.credit(all[i]);
        }
        uint256 len = ledger.gamesLength();
        for (uint256 gi = 0; gi < len; gi++) {
            ShroudLedger.Book memory f = ledger.book(gi);
            uint256 held = model.held(f.id);
            owed += held;
            if (f.paidIn != f.paidOut + held) revert Violation("game paid in != paid out + held", gi, f.paidIn, f.paidOut + held);
        }
        if (balance != owed) revert Violation("balance != credits + held", type(uint256).max, balance, owed);
        if (ledger.strayCredit() != 0) revert Violation("credit to a non-participant", type(uint256).max, ledger.strayCredit(), 0);
        if (ledger.creditDecreases() != 0) revert Violation("a game action lowered a credit", type(uint256).max, ledger.creditDecreases(), 0);
        if (ledger.misdirected() != 0) revert Violation("a withdrawal paid another account", type(uint256).max, ledger.misdirected(), 0);
    }

    // ================================================================ 2. liveness

    /// No stuck game: every live game whose deadline passed (an audit's: its last zone challenge's answer window) has
    /// a permissionless exit that succeeds for a stranger
    /// and leaves it terminal or with a deadline ahead; and from any state, waiting out deadlines and calling only
    /// such exits ends every live game (Settled or Cancelled) with nothing left held. Checked by `probeFinish`,
    /// which does that for real and then reverts with `ProbeDone`, so nothing persists (but `warp`, restored here).
    function invariant_noStuckGame() public {
        uint256 t0 = block.timestamp;
        uint256 len = ledger.gamesLength();
        for (uint256 gi = 0; gi < len; gi++) {
            if (_terminal(_phase(ledger.book(gi).id))) continue;
            try this.probeFinish(gi) {
                revert("probeFinish returned");
            } catch (bytes memory r) {
                if (r.length < 4 || bytes4(r) != ProbeDone.selector) {
                    assembly {
                        revert(add(r, 32), mload(r))
                    }
                }
            }
            vm.warp(t0);
        }
    }

    /// Drives game `gi` to its end with permissionless exits only (as a stranger), then reverts `ProbeDone`.
    function probeFinish(uint256 gi) external {
        require(msg.sender == address(this), "self only");
        uint256 id = ledger.book(gi).id;
        for (uint256 step = 0; step < 64; step++) {
            (, uint8 phase,, uint256 deadline) = _state(id);
            if (_terminal(phase)) {
                if (model.held(id) != 0) revert Violation("finished game holds funds", gi, model.held(id), 0);
                revert ProbeDone(step);
            }
            // An audit with a zone challenge unanswered ends only when the challenge's answer window closed too.
            if (phase == uint8(IShroudGame.Phase.Audit) && game.getAudit(id).open != 0) {
                (,,,, IShroudGame.Durations memory d,,) = game.getGameConfig(id);
                deadline += d.disputeSeconds;
            }
            if (block.timestamp <= deadline) vm.warp(deadline + 1);
            // The phase's own exit first, then any other: at least one must work.
            uint256 first = model.exitOf(phase);
            bytes memory why;
            bool moved;
            for (uint256 k = 0; k < 8 && !moved; k++) {
                bytes memory exit = model.exitCall((first + k) % 8, id); // before the prank, which the next call takes
                vm.prank(STRANGER);
                (bool ok, bytes memory r) = address(game).call(exit);
                if (k == 0) why = r;
                moved = ok;
            }
            if (!moved) revert Stuck(gi, phase, why);
            (, uint8 after_,, uint256 deadline2) = _state(id);
            if (!_terminal(after_) && block.timestamp > deadline2) revert NoProgress(gi, phase, after_);
        }
        revert Violation("game not finished after 64 exits", gi, 64, 0);
    }

    // ================================================================ 3. the dealer's pay

    /// A dealer is never paid out of a game it failed: neither one where DealerSlashed was emitted for it nor one
    /// where, by the rules, it failed (a successful startForceOpen, claimSecretsTimeout, proveFraud,
    /// challengeDisputeAnswer, or claimDisputeTimeout of an unanswered dispute; booked by the ledger independently
    /// of the events), and every such failure is slashed; no dealer is paid before its game ends; and a dealer
    /// that never failed is paid exactly its bond plus the escrowed deposits (disputes it answered with the
    /// disputer's receipt).
    function invariant_failedDealerNeverPaid() public view {
        if (ledger.foreignSlashes() != 0) revert Violation("slash of another game", type(uint256).max, ledger.foreignSlashes(), 0);
        uint256 len = ledger.gamesLength();
        for (uint256 gi = 0; gi < len; gi++) {
            ShroudLedger.Book memory f = ledger.book(gi);
            if ((f.slashed || f.failed) && f.dealerGain != 0) revert Violation("failed dealer was paid", gi, f.dealerGain, 0);
            if (f.failed && !f.slashed) revert Violation("dealer failed but was not slashed", gi, 0, 1);
            if (!f.terminal && f.dealerGain != 0) revert Violation("dealer paid before the end", gi, f.dealerGain, 0);
            if (f.terminal && f.dealerGain != f.dealerOwed) {
                revert Violation("dealer payout != bond + escrow", gi, f.dealerGain, f.dealerOwed);
            }
        }
    }

    // ================================================================ 4. the design's other promises

    /// A settled or cancelled game holds nothing (bond, stakes, escrow, deposit) and keeps no combat, dispute or
    /// open-root record.
    function invariant_finishedGameHoldsNothing() public view {
        uint256 len = ledger.gamesLength();
        for (uint256 gi = 0; gi < len; gi++) {
            uint256 id = ledger.book(gi).id;
            if (!_terminal(_phase(id))) continue;
            if (model.held(id) != 0) revert Violation("finished game holds funds", gi, model.held(id), 0);
            IShroudGame.Combat memory c = game.getCombat(id);
            if (c.attacker != c.defender) revert Violation("finished game keeps a combat", gi, c.attacker, c.defender);
            if (game.getDispute(id).leavesHash != 0) revert Violation("finished game keeps a dispute", gi, 1, 0);
            if (game.getOpenRoot(id).proposed) revert Violation("finished game keeps a proposal", gi, 1, 0);
        }
    }

    /// The phase is a valid enum value; Combat ⇔ a combat record, Dispute ⇔ a dispute record, a proposal ⇒
    /// OpenRoot; the ceremony phases have no spawn or forfeit; play phases keep ≥ 2 seats in, a valid unforfeited
    /// seat to move and a turn below the limit; a combat's attacker is the mover and its defender a spawned seat
    /// still in; the bond is the posted one until the dealer is slashed (then 0); live deadlines are at most 30
    /// days ahead; the game count matches.
    function invariant_phaseRecordsConsistent() public view {
        uint256 len = ledger.gamesLength();
        if (game.gameCount() != len) revert Violation("gameCount", type(uint256).max, game.gameCount(), len);
        for (uint256 gi = 0; gi < len; gi++) {
            _checkRecords(gi);
        }
    }

    /// A seat that committed and is not at fault gets at least its stake back when the game ends.
    function invariant_honestSeatsRecoverStake() public view {
        uint256 len = ledger.gamesLength();
        for (uint256 gi = 0; gi < len; gi++) {
            ShroudLedger.Book memory f = ledger.book(gi);
            if (!f.terminal) continue;
            (,,, uint256 stake,,,) = game.getGameConfig(f.id);
            for (uint256 s = 0; s < f.n; s++) {
                IShroudGame.Seat memory st = game.getSeat(f.id, s);
                uint256 gain = ledger.playerGain(gi, s);
                if (st.committed && !st.atFault && gain < stake) revert Violation("honest seat lost its stake", gi, gain, stake);
            }
        }
    }

    // ================================================================ internals

    function _checkRecords(uint256 gi) internal view {
        ShroudLedger.Book memory f = ledger.book(gi);
        (uint256 raw, uint8 phase, uint256 bond, uint256 deadline) = _state(f.id);
        if (raw > uint256(type(IShroudGame.Phase).max) || raw == 0) revert Violation("invalid phase", gi, raw, 0);
        IShroudGame.Phase p = IShroudGame.Phase(phase);
        IShroudGame.Combat memory c = game.getCombat(f.id);
        if ((c.attacker != c.defender) != (p == IShroudGame.Phase.Combat)) {
            revert Violation("Combat <=> combat record", gi, phase, uint256(IShroudGame.Phase.Combat));
        }
        bool dispute = game.getDispute(f.id).leavesHash != 0;
        if (dispute != (p == IShroudGame.Phase.Dispute)) {
            revert Violation("Dispute <=> dispute record", gi, phase, uint256(IShroudGame.Phase.Dispute));
        }
        IShroudGame.OpenRoot memory o = game.getOpenRoot(f.id);
        if (o.proposed && p != IShroudGame.Phase.OpenRoot) {
            revert Violation("proposal outside OpenRoot", gi, phase, uint256(IShroudGame.Phase.OpenRoot));
        }
        if (o.challenged && !o.proposed) revert Violation("challenge without a proposal", gi, 1, 0);
        if (f.slashed && bond != 0) revert Violation("slashed dealer's bond still held", gi, bond, 0);
        if (!f.slashed && !_terminal(phase) && bond != f.bond0) revert Violation("bond changed", gi, bond, f.bond0);
        if (_terminal(phase)) return;
        if (deadline > block.timestamp + 30 days) revert Violation("deadline too far", gi, deadline, block.timestamp);
        _checkLive(gi, f, p, c);
    }

    function _checkLive(uint256 gi, ShroudLedger.Book memory f, IShroudGame.Phase p, IShroudGame.Combat memory c)
        internal
        view
    {
        (,,, uint256 turn, uint256 toMove) = _turnState(f.id);
        uint256 spawned;
        uint256 forfeited;
        for (uint256 s = 0; s < f.n; s++) {
            IShroudGame.Seat memory st = game.getSeat(f.id, s);
            if (st.spawned) spawned++;
            if (st.forfeited) forfeited++;
        }
        if (p == IShroudGame.Phase.Commit || p == IShroudGame.Phase.Reveal || p == IShroudGame.Phase.Deal) {
            if (spawned + forfeited + turn != 0) revert Violation("play before the root", gi, spawned + forfeited, turn);
            return;
        }
        // Play, Combat, Dispute, ForceOpen, OpenRoot (Secrets and Audit come after play).
        bool playing = p != IShroudGame.Phase.Secrets && p != IShroudGame.Phase.Audit;
        if (playing && f.n - forfeited < 2) revert Violation("fewer than 2 seats in play", gi, f.n - forfeited, 2);
        if (p == IShroudGame.Phase.Play || p == IShroudGame.Phase.Combat || p == IShroudGame.Phase.Dispute) {
            (IShroudGame.Board memory board,,,,,,) = game.getGameConfig(f.id);
            if (turn >= board.maxTurns) revert Violation("turn past the limit", gi, turn, board.maxTurns);
            if (toMove >= f.n || game.getSeat(f.id, toMove).forfeited) revert Violation("mover forfeited", gi, toMove, f.n);
        }
        if (p == IShroudGame.Phase.Combat) {
            IShroudGame.Seat memory d = game.getSeat(f.id, c.defender);
            if (c.attacker != toMove) revert Violation("attacker is not the mover", gi, c.attacker, toMove);
            if (!d.spawned || d.forfeited) revert Violation("defender not in play", gi, c.defender, 0);
        }
    }

    /// (raw phase, phase, bond, deadline) of a game, decoding the phase by hand (an invalid enum value would make
    /// the typed decoder revert).
    function _state(uint256 id) internal view returns (uint256 raw, uint8 phase, uint256 bond, uint256 deadline) {
        (bool ok, bytes memory r) = address(game).staticcall(abi.encodeCall(IShroudGame.getGame, (id)));
        require(ok, "getGame reverted");
        assembly {
            raw := mload(add(r, 64)) // word 1: phase
            deadline := mload(add(r, 128)) // word 3: deadline
            bond := mload(add(r, 320)) // word 9: bond
        }
        phase = uint8(raw);
    }

    function _turnState(uint256 id)
        internal
        view
        returns (address dealer, uint256 n, uint256 deadline, uint256 turn, uint256 toMove)
    {
        (bool ok, bytes memory r) = address(game).staticcall(abi.encodeCall(IShroudGame.getGame, (id)));
        require(ok, "getGame reverted");
        assembly {
            dealer := mload(add(r, 32))
            n := mload(add(r, 96))
            deadline := mload(add(r, 128))
            turn := mload(add(r, 160))
            toMove := mload(add(r, 192))
        }
    }

    function _phase(uint256 id) internal view returns (uint8 phase) {
        (, phase,,) = _state(id);
    }

    function _terminal(uint8 phase) internal pure returns (bool) {
        return phase == uint8(IShroudGame.Phase.Settled) || phase == uint8(IShroudGame.Phase.Cancelled);
    }
}
