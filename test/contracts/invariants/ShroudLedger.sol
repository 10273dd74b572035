// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../../../contracts/IShroudGame.sol";
import {vm, Vm} from "./Vm.sol";

/// @title ShroudLedger
/// @notice The invariants' ghost books. Every call the handler makes to the game goes through `act`, which makes it
///         as the chosen caller (prank) with its value and books what happened around it: the ETH paid in and
///         withdrawn, the credit each party of the acted-on game gained, `DealerSlashed` in the logs, and the
///         game's terminal transition (with what the dealer was owed just before it). Deployed by the handler,
///         which alone may write.
contract ShroudLedger {
    uint256 public constant NONE = type(uint256).max;

    /// One game's books.
    struct Book {
        uint256 id;
        address dealer;
        uint8 n;
        uint96 bond0; // the bond posted at creation
        bool slashed; // DealerSlashed(id) was emitted
        bool failed; // an action that by the rules means the dealer failed succeeded (independent of the events)
        bool terminal; // reached Settled or Cancelled
        uint256 dealerOwed; // bond + escrow held just before the terminal action (0 when slashed by then)
        uint256 dealerGain; // credit the dealer gained during actions on this game
        uint256 paidIn; // bond + stakes + deposits paid into this game
        uint256 paidOut; // credit anyone gained during actions on this game
    }

    struct Snap {
        uint256[] credit;
        uint8 phase;
        uint256 bond;
        uint256 escrow;
        bool unanswered; // a reveal dispute is open and unanswered
    }

    IShroudGame public immutable game;
    address public immutable handler;
    /// Every address that can ever hold credit: the actors, the stranger and the actors' payees.
    address[] internal all;
    /// Whose payee each address of `all` is (the one actor that may name it: `setPayee`), zero for none. A game's
    /// credit to a payee is booked as the naming actor's.
    mapping(address payee => address) public ownerOf;

    Book[] internal books;
    mapping(uint256 gi => address[]) internal players;
    mapping(uint256 gi => mapping(uint256 seat => uint256)) public playerGain;

    uint256 public sentIn; // msg.value of every successful call
    uint256 public withdrawn; // credit paid out by successful withdrawals
    uint256 public strayCredit; // credit gained by someone outside the acted-on game (must stay 0)
    uint256 public creditDecreases; // a call other than the caller's withdraw lowered a credit (must stay 0)
    uint256 public misdirected; // a withdrawal whose ETH did not reach the account whose credit it took (must stay 0)
    uint256 public foreignSlashes; // DealerSlashed for another game than the acted-on one (must stay 0)
    uint256 public calls; // game calls made
    mapping(bytes4 selector => uint256) public okCount; // successful game calls per function
    mapping(bytes4 selector => uint256) public failCount; // reverted game calls per function
    mapping(bytes4 selector => bytes) public lastError; // the latest revert data per function (for debugging)
    mapping(uint256 phase => uint256) public phaseAfter; // game calls per phase the game was in after them

    /// @param owners_ For each address of `everyone_`, the actor whose payee it is (zero: none).
    constructor(IShroudGame game_, address[] memory everyone_, address[] memory owners_) {
        game = game_;
        handler = msg.sender;
        all = everyone_;
        for (uint256 i = 0; i < owners_.length; i++) {
            ownerOf[everyone_[i]] = owners_[i];
        }
    }

    modifier onlyHandler() {
        require(msg.sender == handler, "handler only");
        _;
    }

    // ================================================================ views

    function everyone() external view returns (address[] memory) {
        return all;
    }

    function gamesLength() external view returns (uint256) {
        return books.length;
    }

    function book(uint256 gi) external view returns (Book memory) {
        return books[gi];
    }

    function terminal(uint256 gi) external view returns (bool) {
        return books[gi].terminal;
    }

    // ================================================================ writes (the handler's)

    /// Opens the books of a created game (its bond was booked as paid in by `act`).
    function open(uint256 id, address dealer, address[] memory seats, uint256 bond)
        external
        onlyHandler
        returns (uint256 gi)
    {
        gi = books.length;
        books.push();
        Book storage b = books[gi];
        b.id = id;
        b.dealer = dealer;
        b.n = uint8(seats.length);
        b.bond0 = uint96(bond);
        b.paidIn = bond;
        players[gi] = seats;
    }

    /// Calls the game as `caller` with `value` (paid from the caller's balance) and books the outcome against game
    /// `gi` (NONE: no game, e.g. createGame or withdraw; then no credit may appear).
    function act(uint256 gi, address caller, uint256 value, bytes calldata data)
        external
        onlyHandler
        returns (bool ok, bytes memory ret)
    {
        Snap memory pre = _snap(gi);
        uint256[] memory eth = _balances();
        address payee = game.payeeOf(caller);
        vm.recordLogs();
        vm.prank(caller);
        (ok, ret) = address(game).call{value: value}(data);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        calls++;
        if (ok) {
            sentIn += value;
            okCount[bytes4(data)]++;
        } else {
            failCount[bytes4(data)]++;
            lastError[bytes4(data)] = ret;
        }
        _bookLogs(gi, logs);
        Snap memory post = _snap(gi);
        phaseAfter[post.phase]++;
        if (gi == NONE) {
            // The caller's own credit (`withdraw`), or its payee's (`withdrawToPayee`), may go: to that account.
            address from = !ok ? address(0) : bytes4(data) == IShroudGame.withdraw.selector
                ? caller
                : bytes4(data) == IShroudGame.withdrawToPayee.selector ? payee : address(0);
            uint256[] memory ethAfter = _balances();
            for (uint256 i = 0; i < all.length; i++) {
                if (post.credit[i] > pre.credit[i]) {
                    strayCredit += post.credit[i] - pre.credit[i];
                } else if (post.credit[i] < pre.credit[i]) {
                    uint256 taken = pre.credit[i] - post.credit[i];
                    if (from == address(0) || all[i] != from) creditDecreases++;
                    else withdrawn += taken;
                    if (ethAfter[i] != eth[i] + taken) misdirected++;
                } else if (ethAfter[i] != eth[i] && all[i] != caller) {
                    misdirected++; // ETH reached an account whose credit did not pay it
                }
            }
            return (ok, ret);
        }
        Book storage b = books[gi];
        if (ok) b.paidIn += value;
        if (ok && _dealerFault(bytes4(data), pre)) b.failed = true;
        _bookCredit(gi, pre, post);
        if (!b.terminal && (post.phase == uint8(IShroudGame.Phase.Settled) || post.phase == uint8(IShroudGame.Phase.Cancelled))) {
            b.terminal = true;
            b.dealerOwed = b.slashed || b.failed ? 0 : pre.bond + pre.escrow;
        }
    }

    // ================================================================ internals

    /// Whether a successful call means the dealer failed: no root by the deadline, no secrets by theirs, a forged
    /// tile proven, a dispute answer shown wrong, or a dispute left unanswered past its deadline.
    function _dealerFault(bytes4 sel, Snap memory pre) internal pure returns (bool) {
        return sel == IShroudGame.startForceOpen.selector || sel == IShroudGame.claimSecretsTimeout.selector
            || sel == IShroudGame.proveFraud.selector || sel == IShroudGame.challengeDisputeAnswer.selector
            || (sel == IShroudGame.claimDisputeTimeout.selector && pre.unanswered);
    }

    function _bookLogs(uint256 gi, Vm.Log[] memory logs) internal {
        for (uint256 i = 0; i < logs.length; i++) {
            Vm.Log memory l = logs[i];
            if (l.emitter != address(game) || l.topics.length < 2) continue;
            if (l.topics[0] != IShroudGame.DealerSlashed.selector) continue;
            if (gi != NONE && uint256(l.topics[1]) == books[gi].id) books[gi].slashed = true;
            else foreignSlashes++;
        }
    }

    function _bookCredit(uint256 gi, Snap memory pre, Snap memory post) internal {
        Book storage b = books[gi];
        for (uint256 i = 0; i < all.length; i++) {
            if (post.credit[i] < pre.credit[i]) {
                creditDecreases++;
                continue;
            }
            uint256 delta = post.credit[i] - pre.credit[i];
            if (delta == 0) continue;
            b.paidOut += delta;
            address who = ownerOf[all[i]] == address(0) ? all[i] : ownerOf[all[i]];
            if (who == b.dealer) {
                b.dealerGain += delta;
                continue;
            }
            bool seated;
            for (uint256 s = 0; s < b.n; s++) {
                if (players[gi][s] == who) {
                    playerGain[gi][s] += delta;
                    seated = true;
                }
            }
            if (!seated) strayCredit += delta;
        }
    }

    /// Each address's ETH balance.
    function _balances() internal view returns (uint256[] memory b) {
        b = new uint256[](all.length);
        for (uint256 i = 0; i < all.length; i++) {
            b[i] = all[i].balance;
        }
    }

    function _snap(uint256 gi) internal view returns (Snap memory sn) {
        sn.credit = new uint256[](all.length);
        for (uint256 i = 0; i < all.length; i++) {
            sn.credit[i] = game.credit(all[i]);
        }
        if (gi == NONE) return sn;
        uint256 id = books[gi].id;
        (bool ok, bytes memory r) = address(game).staticcall(abi.encodeCall(IShroudGame.getGame, (id)));
        require(ok, "getGame reverted");
        uint256 phase;
        uint256 bond;
        assembly {
            phase := mload(add(r, 64)) // word 1
            bond := mload(add(r, 320)) // word 9
        }
        sn.phase = uint8(phase);
        sn.bond = bond;
        for (uint256 s = 0; s < books[gi].n; s++) {
            sn.escrow += game.getSeat(id, s).escrow;
        }
        IShroudGame.Dispute memory d = game.getDispute(id);
        sn.unanswered = d.leavesHash != 0 && !d.answered;
    }
}
