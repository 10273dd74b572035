// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "../IShroudGame.sol";
import {VerifierRegistry} from "../VerifierRegistry.sol";

/// @notice Everything ShroudGame stores, in one struct so that each concern's library takes one storage pointer.
///         The libraries run through DELEGATECALL in ShroudGame's storage; `ShroudGame.s` is the only instance.
struct Store {
    /// Number of games created; the n-th game (from 1) has id `gameIdOf(n)`.
    uint256 gameCount;
    /// Number of distinct rulesets played here; ruleset ids count from 1.
    uint32 rulesetCount;
    mapping(uint256 gameId => IShroudGame.Game) games;
    mapping(uint256 gameId => mapping(uint256 seat => IShroudGame.Seat)) seats;
    /// Seat index + 1 of a player in a game (0: not a player).
    mapping(uint256 gameId => mapping(address player => uint256)) seatPlusOne;
    /// Attack nullifiers already used in a game.
    mapping(uint256 gameId => mapping(uint256 nullifier => bool)) nullifierUsed;
    mapping(uint256 gameId => IShroudGame.Combat) combats;
    mapping(uint256 gameId => IShroudGame.Dispute) disputes;
    mapping(uint256 gameId => IShroudGame.OpenRoot) openRoots;
    /// The audit after the secrets: published zone roots and challenge counts (ShroudAudit).
    mapping(uint256 gameId => IShroudGame.Audit) audits;
    mapping(uint256 gameId => mapping(uint256 seat => IShroudGame.ZoneChallenge)) zoneChallenges;
    /// This contract's id of a ruleset (0: no game played it yet).
    mapping(bytes32 rulesetHash => uint32) rulesetIdOf;
    /// The registry's play verifiers, copied per ruleset id at its first game (the registry is write-once).
    mapping(uint256 rulesetId => mapping(uint256 circuit => VerifierRegistry.Verifier)) verifierCache;
    /// Pull payments: bonds, stakes, deposits and slashed funds owed to each account.
    mapping(address account => uint256) credit;
    /// Where an account's credit accrues when it named another address (`setPayee`; zero: to itself).
    mapping(address account => address) payee;
}

/// @notice ShroudGame's immutable collaborators, passed to the libraries (which cannot read its immutables).
struct Deps {
    /// circomlibjs Poseidon contracts for 1 to 6 inputs (index = arity − 1).
    address[6] hashers;
    /// The single-tile generator (fraud proofs and open-root challenges).
    address mapGen;
    /// Rulesets and their play verifiers.
    address registry;
    /// The Groth16 verifier of the sealed-share circuit (5 public signals).
    address sealVerifier;
}
