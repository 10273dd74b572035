// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ShroudLimits} from "./game/ShroudLimits.sol";

// The play circuits' public interface (core `CIRCUITS_VERSION`). Ruleset hashes name no circuit version, so a
// ShroudGame takes only a registry compiled with its own. Bumped whenever a circuit's public signals change meaning:
// 1 separate state and reveal commitments, 2 play commitments, 3 play commitments binding the map root (the spawn
// takes the root, the turn no longer does).
uint16 constant PLAY_CIRCUITS_VERSION = 3;

/// @title VerifierRegistry
/// @notice Maps a ruleset (by `rulesetHash`) to its board, seat count, combat damage and the Groth16 verifier of
///         each circuit. Entries are write-once: a registered ruleset or verifier can never be replaced, so a running
///         game's proofs are always checked by the verifier it started with. The owner (the deployer) registers.
/// @dev Circuit ids: 0 spawn, 1 turn, 2 attack, 3 combat, 4 maproot (reserved). A verifier is any contract answering
///      `selector(uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[nPublic] signals) returns (bool)`, e.g. the
///      snarkjs-exported `verifyProof` with the circuit's public-signal count.
///      Beside each verifier, the registry keeps the SHA-256 of the proving artifacts it was exported with (the zkey
///      and the witness-generator wasm), keyed by the verifier's address: clients download the artifacts from any
///      host (the dealer, a CDN) and check them here before their first proof. The sealed-share verifier, which
///      ShroudGame holds itself, is registered the same way.
contract VerifierRegistry {
    /// @notice Circuit id of the spawn circuit.
    uint8 public constant SPAWN = 0;
    /// @notice Circuit id of the turn circuit.
    uint8 public constant TURN = 1;
    /// @notice Circuit id of the attack circuit.
    uint8 public constant ATTACK = 2;
    /// @notice Circuit id of the combat circuit.
    uint8 public constant COMBAT = 3;
    /// @notice Circuit id of the map-root circuit (its verifier lives in MapProofRegistry).
    uint8 public constant MAPROOT = 4;
    /// @notice How many circuit ids there are.
    uint8 public constant CIRCUITS = 5;
    /// @notice A dispute recomputes `Poseidon(blinding, words…)` with at most 5 words of 14 leaves.
    uint8 public constant MAX_REVEALED_TILES = 70;
    /// @notice The play circuits' public interface this registry's verifiers are registered for (`PLAY_CIRCUITS_VERSION`).
    uint16 public constant CIRCUITS_VERSION = PLAY_CIRCUITS_VERSION;

    /// @notice What a game must match to play a ruleset: the board its circuits were built for, the seat count
    ///         its proofs carry opponent masks for, the damage of one hit (the combat proof's public input), and
    ///         whether its turn proofs prove passability (against the map root inside the play commitment, which
    ///         every spawn proof binds with the root as its last public signal), and how many
    ///         tiles a turn may reveal (the size of the reveal list a dispute opens on-chain).
    struct Ruleset {
        bool registered;
        uint8 kind; // 0 hex, 1 square
        uint16 width;
        uint16 height;
        uint8 maxPlayers;
        uint8 damage;
        bool passability; // ruleset.provePassability: turns check destinations against the commitment's root
        uint8 maxRevealedTiles; // 1..70: the reveal commitment is Poseidon(blinding, ≤ 5 words of 14 leaves)
    }

    /// @notice One circuit's verifier (fits one storage slot).
    struct Verifier {
        address target;
        bytes4 selector;
        uint16 nPublic;
    }

    /// @notice SHA-256 of the proving artifacts matching one verifier (a Groth16 zkey only works with its own vkey).
    struct Artifacts {
        bytes32 zkey;
        bytes32 wasm;
    }

    error NotOwner();
    error ZeroAddress();
    error AlreadyRegistered();
    error UnknownRuleset(bytes32 rulesetHash);
    error BadRuleset();
    error BadCircuit(uint256 circuit);
    error NotAContract(address target);
    error NoVerifier(uint256 circuit);
    error WrongSignalCount(uint256 expected, uint256 got);
    error BadArtifacts();

    /// @notice Ownership moved to `owner`.
    event OwnerChanged(address indexed owner);
    /// @notice A ruleset was registered.
    event RulesetRegistered(bytes32 indexed rulesetHash, Ruleset ruleset);
    /// @notice `circuit`'s verifier for the ruleset was registered.
    event VerifierRegistered(
        bytes32 indexed rulesetHash, uint8 indexed circuit, address target, bytes4 selector, uint16 nPublic
    );

    /// @notice The start areas the map generator favours for the ruleset were set (packed as core `packStartAreas`).
    event StartAreasSet(bytes32 indexed rulesetHash, uint256 startAreas);
    /// @notice The proving artifacts of verifier `verifier` were registered.
    event ArtifactsRegistered(address indexed verifier, bytes32 zkey, bytes32 wasm);

    /// @notice May register rulesets and verifiers.
    address public owner;
    mapping(bytes32 rulesetHash => Ruleset) internal rulesets;
    mapping(bytes32 rulesetHash => mapping(uint256 circuit => Verifier)) internal verifiers;
    mapping(address verifier => Artifacts) internal artifacts;
    mapping(bytes32 rulesetHash => uint256) internal startAreas;

    /// @notice Sets the account allowed to register rulesets.
    /// @param owner_ The registering account.
    constructor(address owner_) {
        if (owner_ == address(0)) revert ZeroAddress();
        owner = owner_;
        emit OwnerChanged(owner_);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    /// @notice Hands the registry to `owner_` (existing entries stay immutable).
    /// @param owner_ The new owner.
    function transferOwnership(address owner_) external onlyOwner {
        if (owner_ == address(0)) revert ZeroAddress();
        owner = owner_;
        emit OwnerChanged(owner_);
    }

    /// @notice Registers a ruleset, once.
    /// @param rulesetHash keccak256 of the shipped ruleset JSON (see scripts/contracts/rulesets.ts).
    /// @param kind Grid kind, 0 hex or 1 square.
    /// @param width Board width the circuits were built for (1..1024: `ShroudLimits.boardFits`, as `createGame`).
    /// @param height Board height (1..1024; at most 224 zones of 8×8).
    /// @param maxPlayers `players.max` of the ruleset (2..6): proofs carry `maxPlayers − 1` opponent masks.
    /// @param damage Hp removed by one hit (0..255), the combat proof's `damage` input.
    /// @param passability The ruleset's `provePassability`: turn proofs then check each destination against the map
    ///        root bound in the play commitment (every ruleset's spawn proof ends with the game's root as a signal).
    /// @param maxRevealedTiles The ruleset's `maxRevealedTiles` (1..70).
    function registerRuleset(
        bytes32 rulesetHash,
        uint8 kind,
        uint16 width,
        uint16 height,
        uint8 maxPlayers,
        uint8 damage,
        bool passability,
        uint8 maxRevealedTiles
    ) external onlyOwner {
        if (rulesets[rulesetHash].registered) revert AlreadyRegistered();
        if (kind > 1 || maxPlayers < 2 || maxPlayers > 6) revert BadRuleset();
        if (!ShroudLimits.boardFits(width, height)) revert BadRuleset();
        if (maxRevealedTiles == 0 || maxRevealedTiles > MAX_REVEALED_TILES) revert BadRuleset();
        Ruleset memory r = Ruleset(true, kind, width, height, maxPlayers, damage, passability, maxRevealedTiles);
        rulesets[rulesetHash] = r;
        emit RulesetRegistered(rulesetHash, r);
    }

    /// @notice Sets, once, the start areas of a registered ruleset: part of its map generator (`MapGen` blends the
    ///         land toward them), so a ruleset's deployment sets them with its registration, before any game.
    /// @param rulesetHash The ruleset.
    /// @param packed Its first `players.max` start areas, core `packStartAreas`: area i at bits 40i (col0, row0, col1,
    ///        row1; 10 bits each), the count (1..6) at bits 240..; each non-empty and on the ruleset's board.
    function setStartAreas(bytes32 rulesetHash, uint256 packed) external onlyOwner {
        Ruleset memory r = rulesets[rulesetHash];
        if (!r.registered) revert UnknownRuleset(rulesetHash);
        if (startAreas[rulesetHash] != 0) revert AlreadyRegistered();
        uint256 n = packed >> 240;
        if (n == 0 || n > 6 || (packed & ((1 << 240) - 1)) >> (40 * n) != 0) revert BadRuleset();
        for (uint256 i = 0; i < n; i++) {
            uint256 a = packed >> (40 * i);
            uint256 c0 = a & 0x3ff;
            uint256 r0 = (a >> 10) & 0x3ff;
            uint256 c1 = (a >> 20) & 0x3ff;
            uint256 r1 = (a >> 30) & 0x3ff;
            if (c0 > c1 || r0 > r1 || c1 >= r.width || r1 >= r.height) revert BadRuleset();
        }
        startAreas[rulesetHash] = packed;
        emit StartAreasSet(rulesetHash, packed);
    }

    /// @notice The ruleset's packed start areas (0: none set, the generator favours no area).
    /// @param rulesetHash The ruleset.
    function startAreasOf(bytes32 rulesetHash) external view returns (uint256) {
        return startAreas[rulesetHash];
    }

    /// @notice Registers one circuit's verifier for a registered ruleset, once.
    /// @param rulesetHash The ruleset.
    /// @param circuit Circuit id (0 spawn, 1 turn, 2 attack, 3 combat, 4 maproot).
    /// @param target The verifier contract.
    /// @param selector Its `verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[nPublic])` selector.
    /// @param nPublic The circuit's public-signal count.
    function setVerifier(bytes32 rulesetHash, uint8 circuit, address target, bytes4 selector, uint16 nPublic)
        external
        onlyOwner
    {
        if (!rulesets[rulesetHash].registered) revert UnknownRuleset(rulesetHash);
        if (circuit >= CIRCUITS) revert BadCircuit(circuit);
        if (target.code.length == 0) revert NotAContract(target);
        Verifier storage v = verifiers[rulesetHash][circuit];
        if (v.target != address(0)) revert AlreadyRegistered();
        verifiers[rulesetHash][circuit] = Verifier(target, selector, nPublic);
        emit VerifierRegistered(rulesetHash, circuit, target, selector, nPublic);
    }

    /// @notice Registers, once, the SHA-256 of the zkey and wasm a verifier contract was exported with.
    /// @param verifier The verifier contract (a ruleset circuit's, or the game's sealed-share verifier).
    /// @param zkey SHA-256 of the Groth16 proving key file.
    /// @param wasm SHA-256 of the circuit's witness-generator wasm file.
    function registerArtifacts(address verifier, bytes32 zkey, bytes32 wasm) external onlyOwner {
        if (verifier.code.length == 0) revert NotAContract(verifier);
        if (zkey == bytes32(0) || wasm == bytes32(0)) revert BadArtifacts();
        if (artifacts[verifier].zkey != bytes32(0)) revert AlreadyRegistered();
        artifacts[verifier] = Artifacts(zkey, wasm);
        emit ArtifactsRegistered(verifier, zkey, wasm);
    }

    /// @notice Checks a Groth16 proof with the ruleset's verifier for `circuit`: a staticcall of
    ///         `selector ‖ a ‖ b ‖ c ‖ signals` (fixed-size arrays encode inline). True iff the verifier returned true.
    /// @dev Reverts `NoVerifier` when none is registered and `WrongSignalCount` when `signals` has the wrong length.
    /// @param rulesetHash The ruleset.
    /// @param circuit Circuit id.
    /// @param a Proof point A.
    /// @param b Proof point B (snarkjs calldata order).
    /// @param c Proof point C.
    /// @param signals The public signals in snarkjs order (outputs, then inputs).
    function verify(
        bytes32 rulesetHash,
        uint256 circuit,
        uint256[2] calldata a,
        uint256[2][2] calldata b,
        uint256[2] calldata c,
        uint256[] calldata signals
    ) external view returns (bool) {
        Verifier memory v = verifiers[rulesetHash][circuit];
        if (v.target == address(0)) revert NoVerifier(circuit);
        if (signals.length != v.nPublic) revert WrongSignalCount(v.nPublic, signals.length);
        (bool ok, bytes memory ret) = v.target.staticcall(abi.encodePacked(v.selector, a, b, c, signals));
        return ok && ret.length == 32 && abi.decode(ret, (uint256)) == 1;
    }

    /// @notice A ruleset's registration (`registered` false when unknown).
    /// @param rulesetHash The ruleset.
    function getRuleset(bytes32 rulesetHash) external view returns (Ruleset memory) {
        return rulesets[rulesetHash];
    }

    /// @notice One circuit's verifier (zero target when none is registered).
    /// @param rulesetHash The ruleset.
    /// @param circuit Circuit id.
    function getVerifier(bytes32 rulesetHash, uint256 circuit) external view returns (Verifier memory) {
        return verifiers[rulesetHash][circuit];
    }

    /// @notice The proving artifacts registered for `verifier` (zero hashes when none are).
    /// @param verifier The verifier contract.
    function artifactsOf(address verifier) external view returns (Artifacts memory) {
        return artifacts[verifier];
    }
}
