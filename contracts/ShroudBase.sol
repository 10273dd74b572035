// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The single-tile generator (MapGen.sol).
interface IMapGen {
    /// @notice One tile of `Gen(seed)`.
    function generateTile(uint256 seed, uint8 kind, uint256 width, uint256 height, uint256 col, uint256 row)
        external
        view
        returns (uint8 terrain, uint8 feature, uint8 resource, uint8 rivers);
}

/// @title ShroudBase
/// @notice Shroud's shared vocabulary: the game's types, constants, errors and events, inherited by `ShroudGame`
///         and used by the `ShroudAudit` library (which runs in ShroudGame's context through DELEGATECALL, so
///         its events and errors are ShroudGame's).
abstract contract ShroudBase {
    // ---------------------------------------------------------------- types

    /// @notice Game phases. Settled and Cancelled are terminal.
    enum Phase {
        None,
        Commit,
        Reveal,
        Deal,
        Play,
        Secrets,
        Audit,
        Settled,
        Cancelled,
        ForceOpen,
        Combat
    }

    /// @notice A Groth16 proof as snarkjs' `exportSolidityCallData` gives it (b with swapped coordinates).
    struct Proof {
        uint256[2] a;
        uint256[2][2] b;
        uint256[2] c;
    }

    /// @notice The pending combat of a game (one at most, during `Phase.Combat`).
    struct Combat {
        uint8 attacker;
        uint8 defender;
        uint16 col;
        uint16 row;
        uint40 turnLeft; // the attacker's remaining turn time, restored when the combat ends
    }

    /// @notice Phase durations in seconds (the ruleset's `deadlines`, plus the post-game audit window).
    struct Durations {
        uint32 commitSeconds;
        uint32 revealSeconds;
        uint32 rootSeconds;
        uint32 turnSeconds;
        uint32 combatSeconds;
        uint32 secretsSeconds;
        uint32 auditSeconds;
    }

    /// @notice Board parameters the generator needs, and the turn limit that ends the game.
    struct Board {
        uint8 kind; // 0 hex, 1 square
        uint16 width;
        uint16 height;
        uint32 maxTurns;
    }

    /// @notice A game's state. Slot 0 holds everything a spawn, turn, attack or combat answer reads or writes
    ///         about the game (one cold read, one write per turn); the rest is ceremony, settlement and audit data.
    struct Game {
        // slot 0 (hot)
        Phase phase;
        uint8 nPlayers;
        uint8 toMove; // seat whose turn it is
        uint8 active; // seats not forfeited
        uint8 maxPlayers; // the ruleset's players.max (proofs carry maxPlayers − 1 opponent masks)
        uint8 damage; // the ruleset's hp per hit
        uint8 forfeitMask; // bit s: seat s forfeited
        uint32 rulesetId; // the game contract's index of the ruleset (its verifier cache)
        uint40 deadline; // the current phase's deadline (inclusive)
        uint32 turn;
        uint32 maxTurns;
        uint32 turnSeconds; // durations.turnSeconds, copied here for the turn path
        uint8 zones; // zones on the board (≤ 253): the width of every packed zone bitmask
        bool passability; // the ruleset proves passability: turn proofs take `root` as their last public signal
        // slot 1
        address dealer;
        uint8 kind;
        uint8 depth;
        uint8 commits;
        uint8 reveals;
        uint8 sharesRevealed;
        bool openMap; // true after force-open: the seed is public and there is no root
        uint16 width;
        uint16 height;
        // slot 2
        uint96 bond; // dealer bond still held
        uint96 stake; // per-player deposit paid with `commit`
        // slot 3
        Durations durations;
        // then
        bytes32 rulesetHash;
        uint256 root;
        uint256 masterCommitment;
        uint256 seed;
        uint256 masterSecret;
        bytes dealerEncKey;
    }

    /// @notice One player seat. The turn fields are written by phase-2 turn logic.
    struct Seat {
        // slot 0
        address player;
        bool committed;
        bool revealed; // sealed reveal posted
        bool shareRevealed; // r_i public (force-open or audit)
        bool atFault;
        bool forfeited;
        bool staked;
        bool spawned; // the spawn proof was accepted
        uint32 lastTurn; // the turn number of the seat's last spawn or turn proof
        // then
        uint256 commitment; // C_i = Poseidon(gameId, player, r_i)
        bytes32 ciphertextHash; // keccak256 of the sealed reveal (the blob is in the event)
        uint256 share; // r_i once public
        // phase-2 turn state
        uint256 stateCommitment; // the hidden units' commitment (spawn, turn and combat proofs update it)
        uint256 zoneMask; // bit z: the player has vision in zone z (boards have at most 253 zones)
        uint256 revealCommit; // the reveal commitment of the seat's latest spawn or turn (`lastTurn`)
    }

    // ---------------------------------------------------------------- constants

    uint256 public constant MIN_PLAYERS = 2;
    uint256 public constant MAX_PLAYERS = 6;
    /// @notice Zone bitmasks are one field element, so boards have at most 253 zones.
    uint256 public constant MAX_ZONES = 253;
    uint256 public constant ZONE_SIZE = 8;
    /// @notice Largest board side: coordinates are 10-bit fields in the circuits.
    uint256 public constant MAX_SIDE = 1024;
    /// @notice Bits per packed public-signal word (2^253 < the field modulus): see `_context`.
    uint256 public constant PACKED_WORD_BITS = 253;
    uint8 internal constant VERIFIER_SPAWN = 0;
    uint8 internal constant VERIFIER_TURN = 1;
    uint8 internal constant VERIFIER_ATTACK = 2;
    uint8 internal constant VERIFIER_COMBAT = 3;
    /// @notice Verifiers copied per ruleset into the game contract: spawn, turn, attack, combat.
    uint256 internal constant PLAY_VERIFIERS = 4;

    /// @notice Cancellation and slashing reasons (event codes).
    uint8 public constant REASON_MISSED_COMMIT = 1;
    uint8 public constant REASON_MISSED_REVEAL = 2;
    uint8 public constant REASON_BAD_CIPHERTEXT = 3;
    uint8 public constant REASON_MISSED_SHARE = 4;
    uint8 public constant REASON_NO_ROOT = 5;
    uint8 public constant REASON_NO_SECRETS = 6;
    uint8 public constant REASON_FRAUD = 7;

    // ---------------------------------------------------------------- errors

    error BadPlayerCount(uint256 count);
    error BadPlayer(uint256 index);
    error BadDealer();
    error BadEncKey();
    error BadBoard();
    error BadDurations();
    error BondRequired();
    error ValueTooLarge();
    error NotDealer();
    error NotPlayer();
    error WrongPhase(Phase expected, Phase actual);
    error DeadlinePassed(uint256 deadline);
    error DeadlineNotPassed(uint256 deadline);
    error AlreadyCommitted();
    error AlreadyRevealed();
    error NotRevealed();
    error WrongStake(uint256 expected, uint256 sent);
    error NotInField();
    error EmptyCiphertext();
    error CiphertextMismatch();
    error EmptyEvidence();
    error ShareMismatch(uint256 seat);
    error MasterSecretMismatch();
    error WrongShareCount(uint256 expected, uint256 got);
    error AlreadyForfeited();
    error BadLeafIndex();
    error BadPathLength(uint256 expected, uint256 got);
    error InvalidPath();
    error NoFraud();
    error NothingToWithdraw();
    error TransferFailed();
    error UnknownGame();
    error UnknownRuleset(bytes32 rulesetHash);
    error RulesetMismatch();
    error InvalidProof();
    error NotYourTurn();
    error NotSpawned();
    error AlreadySpawned();
    error BadDefender();
    error NotDefender();
    error OffBoard();
    error NullifierUsed();
    error WrongSignalCount(uint256 expected, uint256 got);
    error RevealCommitInLogs(uint256 latestTurn);

    // ---------------------------------------------------------------- events

    /// @notice A game was created and the dealer's bond locked.
    event GameCreated(
        uint256 indexed gameId, address indexed dealer, address[] players, bytes32 rulesetHash, uint256 bond, uint256 stake
    );
    /// @notice The created game's board, durations and the dealer's encryption key for sealed reveals.
    event GameConfigured(uint256 indexed gameId, Board board, Durations durations, bytes dealerEncKey);
    /// @notice The game entered `phase`; `deadline` closes it.
    event PhaseChanged(uint256 indexed gameId, Phase phase, uint256 deadline);
    /// @notice Seat `seat` committed `C_i`.
    event Committed(uint256 indexed gameId, uint256 seat, uint256 commitment);
    /// @notice Seat `seat` posted `Enc(dealerEncKey, r_i)`.
    event SealedReveal(uint256 indexed gameId, uint256 seat, bytes ciphertext);
    /// @notice The dealer says seat `seat`'s ciphertext does not open to the preimage of `C_i`.
    /// @dev `evidence` is the dealer's shared secret plus DLEQ proof, checkable off-chain against the ciphertext.
    event BadCiphertext(uint256 indexed gameId, uint256 seat, bytes evidence);
    /// @notice The game was cancelled; bit s of `faultMask` marks seat s at fault.
    event GameCancelled(uint256 indexed gameId, uint8 reason, uint256 faultMask);
    /// @notice The dealer posted the map root and `Poseidon(master_secret)`.
    event RootPosted(uint256 indexed gameId, uint256 root, uint256 masterCommitment);
    /// @notice It is `seat`'s turn `turn` until `deadline`.
    event TurnStarted(uint256 indexed gameId, uint256 turn, uint256 seat, uint256 deadline);
    /// @notice Seat `seat` left the game (`timedOut`: it missed its turn deadline and is at fault).
    event Forfeited(uint256 indexed gameId, uint256 seat, bool timedOut);
    /// @notice `player` (seat `seat`) spawned; `TurnSubmitted` follows with the spawn turn's reveal commitment.
    event Spawned(uint256 indexed gameId, address indexed player, uint256 seat);
    /// @notice `player`'s turn `turn` proof was accepted; `revealCommit` commits to the tiles it may request.
    event TurnSubmitted(uint256 indexed gameId, address indexed player, uint256 turn, uint256 revealCommit);
    /// @notice A forced reveal: `player` has a unit of `unitType` in `zone`, which an opponent sees.
    event ZoneReveal(uint256 indexed gameId, address indexed player, uint256 zone, uint256 unitType);
    /// @notice `attacker` attacked tile (`col`, `row`) of `defender`, who must answer by `deadline`.
    event AttackDeclared(
        uint256 indexed gameId,
        address indexed attacker,
        address indexed defender,
        uint256 col,
        uint256 row,
        uint256 nullifier,
        uint256 deadline
    );
    /// @notice The defender's unit of `unitType` on the tile was hit (`hpBefore` before the hit); `killed` when it died.
    event CombatResolved(
        uint256 indexed gameId,
        address indexed attacker,
        address indexed defender,
        uint256 col,
        uint256 row,
        uint256 unitType,
        uint256 hpBefore,
        bool killed
    );
    /// @notice The defender proved it has no unit on the tile.
    event CombatFizzled(
        uint256 indexed gameId, address indexed attacker, address indexed defender, uint256 col, uint256 row
    );
    /// @notice Play is over after `turn` turns.
    event GameEnded(uint256 indexed gameId, uint256 turn);
    /// @notice The dealer's secrets checked out; `seed` is the ceremony's seed.
    event SecretsPublished(uint256 indexed gameId, uint256 masterSecret, uint256[] shares, uint256 seed);
    /// @notice `prover` showed the served tile at `leafIndex` differs from `Gen(seed)` or its salt is wrong.
    event FraudProven(uint256 indexed gameId, uint256 leafIndex, address prover);
    /// @notice The dealer's bond (`amount`) went to the players.
    event DealerSlashed(uint256 indexed gameId, uint8 reason, uint256 amount);
    /// @notice Seat `seat` revealed `r_i` on-chain (force-open).
    event ShareRevealed(uint256 indexed gameId, uint256 seat, uint256 share);
    /// @notice Force-open completed: the map is public, regenerate it from `seed`.
    event MapOpened(uint256 indexed gameId, uint256 seed);
    /// @notice Bonds and stakes were credited; the game is over.
    event Settled(uint256 indexed gameId);
    /// @notice `account` withdrew `amount`.
    event Withdrawn(address indexed account, uint256 amount);
}
