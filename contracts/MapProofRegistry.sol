// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IShroudGame} from "./IShroudGame.sol";
import {Poseidon} from "./Poseidon.sol";
import {VerifierRegistry} from "./VerifierRegistry.sol";

/// @title MapProofRegistry
/// @notice Records, per game, a verified ZK map proof: the dealer's posted root is the Merkle tree over the given
///         zone roots, and `seedHash = Poseidon(seed)` for the seed the ceremony's committed shares define
///         (`seed = Poseidon(r_1..r_n)`, each `r_i` opening the on-chain `C_i = Poseidon(gameId, player_i, r_i)`).
/// @dev What is verified here is the aggregate only: the `maproot` Groth16 proof (circuit id 4 of the game's
///      ruleset in the `VerifierRegistry`), whose public signals are, in order,
///      `gameId, players[maxPlayers], shareCommits[maxPlayers], nPlayers, seedHash, root, zoneRoots[zones]`.
///      Every signal but `seedHash` and the zone roots is read from ShroudGame (`getGame`, `getGameConfig`,
///      `getSeat`), so a proof for another game, root, player list or set of commitments fails.
///      Each zone root's correctness (that zone's 64 salted leaves are `Gen(seed)` with salts from the master
///      secret, under the same `seedHash`) is proven by one `mapchunk` proof per zone, which clients verify
///      off-chain against the zone roots recorded here (`client/mapproof.ts`); verifying them on-chain would cost
///      ~230k+ gas each. The record is therefore "the root is bound to the ceremony's seed through these zone
///      roots", and a client that also checks the chunk proofs knows the whole map is `Gen(seed)`.
contract MapProofRegistry {
    /// @notice The `maproot` circuit id in the `VerifierRegistry`.
    uint8 public constant MAPROOT = 4;
    /// @notice Tiles per zone side (zones are 8×8, as in core/geometry.ts).
    uint256 public constant ZONE_SIZE = 8;

    /// @notice A verified map proof: keccak256 of the zone roots (32-byte words in zone order) and `Poseidon(seed)`.
    struct Record {
        bytes32 zoneRootsHash;
        uint256 seedHash;
    }

    error NoRoot();
    error NotInField();
    error WrongZoneCount(uint256 expected, uint256 got);
    error InvalidProof();
    error AlreadyVerified();

    /// @notice The map proof of `gameId` verified: its root comes from `zoneRootsHash`'s zone roots and the seed
    ///         with `Poseidon(seed) = seedHash` comes from the committed shares.
    event MapProofVerified(uint256 indexed gameId, uint256 seedHash, bytes32 zoneRootsHash);

    /// @notice The game contract whose roots and commitments the proofs are checked against.
    IShroudGame public immutable game;
    /// @notice Rulesets and their verifiers (the maproot verifier is circuit 4).
    VerifierRegistry public immutable registry;

    mapping(uint256 gameId => Record) internal records;

    /// @notice Wires the game and registry whose maps it proves.
    /// @param game_ The ShroudGame.
    /// @param registry_ The VerifierRegistry the game uses.
    constructor(IShroudGame game_, VerifierRegistry registry_) {
        game = game_;
        registry = registry_;
    }

    /// @notice Verifies and records the game's map proof (once per game): any caller may submit it.
    /// @dev Reverts `NoRoot` before the dealer posted a root (or for a force-opened game, which has none),
    ///      `NotInField` for a value ≥ the BN254 field modulus, `WrongZoneCount` unless one root per zone of the
    ///      game's board, `InvalidProof` when the maproot proof does not verify for the chain's values (another
    ///      game, root, player list or commitments), `AlreadyVerified` on a second submission, the registry's
    ///      `NoVerifier` when the ruleset has no maproot verifier, and ShroudGame's `UnknownGame` for unknown ids.
    /// @param gameId The game.
    /// @param seedHash `Poseidon(seed)` (the proof's public input; every zone's chunk proof carries it too).
    /// @param zoneRoots The root of each zone's subtree, in zone order (the chunk proofs' outputs).
    /// @param proof The maproot Groth16 proof (snarkjs calldata order: b with swapped coordinates).
    function submitMapProof(
        uint256 gameId,
        uint256 seedHash,
        uint256[] calldata zoneRoots,
        IShroudGame.Proof calldata proof
    ) external {
        if (records[gameId].zoneRootsHash != bytes32(0)) revert AlreadyVerified();
        (uint256[] memory sig, bytes32 rulesetHash) = _signals(gameId, seedHash, zoneRoots);
        if (!registry.verify(rulesetHash, MAPROOT, proof.a, proof.b, proof.c, sig)) revert InvalidProof();
        bytes32 zoneRootsHash = keccak256(abi.encodePacked(zoneRoots));
        records[gameId] = Record(zoneRootsHash, seedHash);
        emit MapProofVerified(gameId, seedHash, zoneRootsHash);
    }

    /// @notice The recorded map proof of a game (zero values when none was verified).
    /// @param gameId The game.
    function verified(uint256 gameId) external view returns (bytes32 zoneRootsHash, uint256 seedHash) {
        Record storage r = records[gameId];
        return (r.zoneRootsHash, r.seedHash);
    }

    /// @notice Whether the game's map proof was verified.
    /// @param gameId The game.
    function isVerified(uint256 gameId) external view returns (bool) {
        return records[gameId].zoneRootsHash != bytes32(0);
    }

    /// @notice keccak256 of zone roots as `submitMapProof` records it (to compare with `verified`).
    /// @param zoneRoots The zone roots in zone order.
    function hashZoneRoots(uint256[] calldata zoneRoots) external pure returns (bytes32) {
        return keccak256(abi.encodePacked(zoneRoots));
    }

    // ---------------------------------------------------------------- internals

    /// The maproot public signals from the chain's state plus the prover's `seedHash` and zone roots.
    function _signals(uint256 gameId, uint256 seedHash, uint256[] calldata zoneRoots)
        private
        view
        returns (uint256[] memory sig, bytes32 rulesetHash)
    {
        (,, uint256 n,,,, uint256 root,,,,,,) = game.getGame(gameId);
        if (root == 0) revert NoRoot();
        if (seedHash >= Poseidon.FIELD_MODULUS) revert NotInField();
        IShroudGame.Board memory board;
        (board,, rulesetHash,,,,) = game.getGameConfig(gameId);
        uint256 zones = ((uint256(board.width) + ZONE_SIZE - 1) / ZONE_SIZE)
            * ((uint256(board.height) + ZONE_SIZE - 1) / ZONE_SIZE);
        if (zoneRoots.length != zones) revert WrongZoneCount(zones, zoneRoots.length);
        uint256 m = registry.getRuleset(rulesetHash).maxPlayers;
        sig = new uint256[](2 * m + 4 + zones);
        sig[0] = gameId;
        for (uint256 i = 0; i < n; i++) {
            IShroudGame.Seat memory st = game.getSeat(gameId, i);
            sig[1 + i] = uint160(st.player);
            sig[1 + m + i] = st.commitment;
        }
        sig[1 + 2 * m] = n;
        sig[2 + 2 * m] = seedHash;
        sig[3 + 2 * m] = root;
        for (uint256 z = 0; z < zones; z++) {
            uint256 r = zoneRoots[z];
            if (r >= Poseidon.FIELD_MODULUS) revert NotInField();
            sig[4 + 2 * m + z] = r;
        }
    }
}
