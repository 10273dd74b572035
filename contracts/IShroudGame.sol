// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IShroudGame
/// @notice Shroud's game contract as others see it: the protocol's one vocabulary (phases, reasons, records,
///         errors, events) and its external functions. `ShroudGame` implements it; the libraries that hold each
///         concern's logic (`ShroudCeremony`, `ShroudDisputes`, `ShroudForceOpen`, `ShroudSettlement`) emit its
///         events and revert with its errors; the registries and clients depend on it, not on the implementation.
/// @dev Lifecycle: Commit → Reveal → Deal → Play ⇄ (Combat | Dispute) → Secrets → Audit → Settled. Branches:
///      Cancelled (a player missed a ceremony step), ForceOpen (the dealer failed: no root, or a reveal dispute
///      unanswered or answered wrongly; players reveal their shares on-chain), then OpenRoot (passability rulesets:
///      the map root anyone can regenerate from the public seed is proposed and challengeable) and Play on the
///      public map. Every non-terminal phase has a deadline and a permissionless exit once it passes.
interface IShroudGame {
    // ---------------------------------------------------------------- types

    /// @notice Game phases (the index is the ABI value; core/game-phases.ts mirrors this order).
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
        Combat,
        Dispute,
        OpenRoot
    }

    /// @notice Why a game was cancelled or the dealer slashed (event codes; core/game-phases.ts mirrors them).
    enum Reason {
        None,
        MissedCommit,
        MissedReveal,
        MissedShare,
        NoRoot,
        NoSecrets,
        Fraud,
        UnansweredDispute,
        BadDisputeAnswer,
        NoOpenRoot,
        BadZoneRoots,
        UnansweredAuditChallenge
    }

    /// @notice A Groth16 proof as snarkjs' `exportSolidityCallData` gives it (b with swapped coordinates).
    struct Proof {
        uint256[2] a;
        uint256[2][2] b;
        uint256[2] c;
    }

    /// @notice Phase durations in seconds, each within `ShroudLimits`' floor and ceiling (`durationBounds`).
    struct Durations {
        uint32 commitSeconds;
        uint32 revealSeconds; // sealed reveals, and the force-open share reveals
        uint32 rootSeconds;
        uint32 turnSeconds;
        uint32 combatSeconds;
        uint32 disputeSeconds; // the dealer's answer to a reveal dispute, each challenge window, open-root proposals
        uint32 secretsSeconds;
        uint32 auditSeconds; // the fraud-proof window after the secrets
    }

    /// @notice Board parameters the generator needs, and the turn limit that ends the game.
    struct Board {
        uint8 kind; // 0 hex, 1 square
        uint16 width;
        uint16 height;
        uint32 maxTurns;
    }

    /// @notice What `createGame` takes: the seats in order (2 to 6 distinct addresses; seed = Poseidon(r_1..r_n) in
    ///         this order), the dealer (the caller), its Baby Jubjub seal key, the ruleset (registered for this board
    ///         and seat count), durations within `durationBounds()`, the board (within `boardBounds()`: ≤ 224 zones,
    ///         sides ≤ 1024; a turn limit), each player's stake (paid with `commit`) and the dispute deposit (≤ stake,
    ///         paid with `openDispute`).
    struct GameParams {
        address[] players;
        address dealer;
        uint256[2] sealKey;
        bytes32 rulesetHash;
        Durations durations;
        Board board;
        uint96 stake;
        uint96 disputeDeposit;
    }

    /// @notice A game's state. Slot 0 holds everything a spawn, turn, attack or combat answer reads or writes about
    ///         the game (one cold read, one write per turn); the rest is ceremony, dispute and settlement data.
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
        uint8 zones; // zones on the board (≤ 224): the width of every packed zone bitmask
        bool passability; // turn proofs check destinations against the root inside the play commitment
        bool rootAdopted; // the open root replaced the dealer's (`claimOpenRootTimeout`): turns need `Seat.rebound`
        // slot 1
        address dealer;
        uint8 kind;
        uint8 depth; // levels of the 4-ary map tree
        uint8 commits;
        uint8 reveals;
        uint8 sharesRevealed;
        bool openMap; // after force-open: the seed is public
        bool dealerFailed; // the dealer was slashed: it is paid nothing from this game
        uint16 width;
        uint16 height;
        // slot 2
        uint96 bond; // dealer bond still held
        uint96 stake; // per-player deposit paid with `commit`
        uint8 revealWords; // words of a packed reveal list (ceil(maxRevealedTiles / 14))
        uint40 rootBlock; // the block of `RootPosted` (the zone roots are in its log), 0 before the root
        // slot 3
        uint96 disputeDeposit; // paid with `openDispute`, ≤ stake
        // slot 4
        Durations durations;
        // then
        bytes32 rulesetHash;
        uint256 root;
        uint256 masterCommitment;
        uint256 seed;
        uint256 masterSecret;
        uint256[2] sealKey; // the dealer's Baby Jubjub key the shares are sealed to
        uint256 sealContext; // Poseidon(gameId, sealKey.x, sealKey.y): the seal proofs' context signal
        // once `rootAdopted`: the dealer's root the open root replaced (the commitments made before bind it)
        uint256 replacedRoot;
    }

    /// @notice One player seat.
    struct Seat {
        // slot 0
        address player;
        bool committed;
        bool revealed; // sealed reveal accepted
        bool shareRevealed; // r_i public (force-open)
        bool atFault;
        bool forfeited;
        bool staked;
        bool spawned; // the spawn proof was accepted
        bool proposedOpenRoot; // one open-root proposal per seat
        // its play commitment binds the adopted open root (`Game.rootAdopted`): spawned after adoption, or `rebind`
        bool rebound;
        // slot 1
        uint96 escrow; // deposits of answered disputes and zone challenges: the dealer's at settlement unless it failed
        uint32 disputedTurn; // lastTurn + 1 of the seat's last dispute (0: none)
        // then
        uint256 commitment; // C_i = Poseidon(gameId, player, r_i)
        uint256 share; // r_i once public
        // Poseidon(state commitment, reveal commitment, map root): the hidden units bound to the reveal list of the
        // seat's latest spawn or turn (`lastTurn`) and to the root its moves are checked against (the game's root at
        // its spawn); spawn and turn proofs replace it, a combat answer changes the state part, `rebind` the root
        uint256 playCommitment;
        // One slot, so a turn writes one seat slot besides its commitment.
        uint224 zoneMask; // bit z: the player has vision in zone z (boards have at most 224 zones)
        uint32 lastTurn; // the turn number of the seat's last spawn or turn proof
    }

    /// @notice The pending combat of a game (one at most, during `Phase.Combat`).
    struct Combat {
        uint8 attacker;
        uint8 defender;
        uint16 col;
        uint16 row;
        uint40 turnLeft; // the attacker's remaining turn time, restored when the combat ends
    }

    /// @notice The open reveal dispute of a game (one at most, during `Phase.Dispute`).
    struct Dispute {
        uint8 seat;
        uint8 nLeaves;
        bool answered;
        bool receipted; // the dealer showed the disputer's receipt for this turn: a false dispute
        uint32 turn; // the disputed spawn or turn
        uint40 pausedLeft; // the interrupted turn's remaining time, restored when play resumes
        uint96 deposit;
        bytes32 leavesHash; // keccak256(abi.encodePacked(uint32[] leaves))
        bytes32 answerHash; // keccak256(abi.encodePacked(uint256[] answer))
        uint256 revealCommit; // the disputed reveal list's commitment, which a receipt signs
    }

    /// @notice The standing open-root proposal of a force-opened passability game (`Phase.OpenRoot`), and its
    ///         pending challenge: one zone whose leaves the challenger says hash to another zone root.
    struct OpenRoot {
        bool proposed;
        uint8 proposer;
        bool challenged;
        uint8 challenger;
        uint16 zone;
        uint256 root;
        bytes32 zoneRootsHash; // keccak256(abi.encodePacked(zoneRoots))
        bytes32 challengeHash; // keccak256(abi.encodePacked(the challenger's 64 leaves))
    }

    /// @notice The audit of a game whose secrets are out: the dealer's zone roots as published with them, and how
    ///         many of its seats' zone challenges (`challengeZone`, one per seat) are unanswered.
    struct Audit {
        bytes32 zoneRootsHash; // keccak256(abi.encodePacked(zoneRoots)) as published with the secrets
        uint8 open; // challenges not yet answered
    }

    /// @notice A seat's zone challenge of the audit: its 64 salted leaves of `zone` (as it computes them from the
    ///         published secrets) hash to another zone root than the dealer's. Open until answered.
    struct ZoneChallenge {
        address challenger;
        uint16 zone;
        bool open;
        uint96 deposit;
        uint256 zoneRoot; // the dealer's published root of `zone`
        bytes32 leavesHash; // keccak256(abi.encodePacked(the challenger's 64 leaves))
    }

    // ---------------------------------------------------------------- errors

    error BadPlayerCount(uint256 count);
    error BadPlayer(uint256 index);
    error BadDealer();
    error BadSealKey();
    error BadBoard();
    /// @notice `field` of the durations is below its floor.
    error DurationTooShort(string field, uint256 minimum, uint256 actual);
    /// @notice `field` of the durations is above its ceiling.
    error DurationTooLong(string field, uint256 maximum, uint256 actual);
    error BondRequired();
    error ValueTooLarge();
    error DepositAboveStake(uint256 deposit, uint256 stake);
    error NotDealer();
    error NotPlayer();
    error WrongPhase(Phase expected, Phase actual);
    error DeadlinePassed(uint256 deadline);
    error DeadlineNotPassed(uint256 deadline);
    error AlreadyCommitted();
    error AlreadyRevealed();
    error WrongStake(uint256 expected, uint256 sent);
    error NotInField();
    /// @notice A tile field (terrain, feature, resource, rivers) is not a byte: its leaf word would alias another tile.
    error NotATile();
    error ShareMismatch(uint256 seat);
    error MasterSecretMismatch();
    error WrongShareCount(uint256 expected, uint256 got);
    error AlreadyForfeited();
    error BadLeafIndex();
    error BadPathLength(uint256 expected, uint256 got);
    error InvalidPath();
    error NoFraud();
    error NothingToWithdraw();
    error NoPayee();
    error BadPayee();
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
    /// @notice The verifier registry was filled for another version of the play circuits (0: none, or unversioned).
    error RegistryVersion(uint256 expected, uint256 got);
    /// @notice A spawn or turn report word has a bit set where this contract's context goes (packed word `word`).
    error ContextBitsSet(uint256 word);
    error CommitmentInLogs(uint256 latestTurn);
    /// @notice The seat has no spawn or turn whose reveals could be disputed, or it was disputed already.
    error NothingToDispute();
    error WrongDeposit(uint256 expected, uint256 sent);
    /// @notice The opening given (leaves and blinding, or state and reveal commitments) does not open the seat's stored
    ///         play commitment.
    error OpeningMismatch();
    /// @notice The game adopted an open root and the seat's play commitment still binds the dealer's: `rebind` first.
    error NotRebound();
    /// @notice `rebind` needs an adopted open root and a spawned, unforfeited seat not yet rebound.
    error NothingToRebind();
    error NotDisputer();
    error NotAnswered();
    error AlreadyAnswered();
    /// @notice The answer (or the leaves) passed do not hash to the ones the dispute stored.
    error AnswerMismatch();
    error WrongAnswerLength(uint256 expected, uint256 got);
    /// @notice The receipt is not the disputer's signature of a `RevealReceipt` for the disputed turn.
    error BadReceipt();
    error AlreadyProposed();
    error NoProposal();
    error ProposalMismatch();
    error AlreadyChallenged();
    error NotChallenged();
    /// @notice The leaves passed do not hash to the zone root they must.
    error ZoneMismatch();
    error WrongLength(uint256 expected, uint256 got);
    /// @notice The zone roots given are not the ones the dealer published with the secrets.
    error ZoneRootsMismatch();
    /// @notice The seat's zone challenge is not open (none, or already answered).
    error ChallengeClosed(uint256 seat);
    /// @notice The zone challenge can be answered only until the audit deadline plus the dispute window.
    error AnswerWindowClosed(uint256 until);

    // ---------------------------------------------------------------- events

    /// @notice A game was created and the dealer's bond locked.
    event GameCreated(
        uint256 indexed gameId, address indexed dealer, address[] players, bytes32 rulesetHash, uint256 bond, uint256 stake
    );
    /// @notice The created game's board, durations, the dealer's seal key and the dispute deposit.
    event GameConfigured(
        uint256 indexed gameId, Board board, Durations durations, uint256[2] sealKey, uint256 disputeDeposit
    );
    /// @notice The game entered `phase`; `deadline` closes it.
    event PhaseChanged(uint256 indexed gameId, Phase phase, uint256 deadline);
    /// @notice Seat `seat` committed `C_i`.
    event Committed(uint256 indexed gameId, uint256 seat, uint256 commitment);
    /// @notice Seat `seat`'s share, sealed to the dealer's key (`ephemeralY`: the y of E), with a verified proof
    ///         that it opens `C_i`.
    event SealedReveal(uint256 indexed gameId, uint256 seat, uint256 ephemeralY, uint256 ciphertext);
    /// @notice The game was cancelled; bit s of `faultMask` marks seat s at fault.
    event GameCancelled(uint256 indexed gameId, Reason reason, uint256 faultMask);
    /// @notice The dealer posted the map root, `Poseidon(master_secret)` and its zone roots (the tree's nodes at the
    ///         zones' level, one per zone): every player builds its passability witnesses from them, so no dealer
    ///         can stall a seat by withholding them.
    event RootPosted(uint256 indexed gameId, uint256 root, uint256 masterCommitment, uint256[] zoneRoots);
    /// @notice It is `seat`'s turn `turn` until `deadline`: when play starts or resumes, and when a turn passes
    ///         without a proof (the seat to move forfeited). After an accepted spawn or turn, `TurnSubmitted` says it.
    event TurnStarted(uint256 indexed gameId, uint256 turn, uint256 seat, uint256 deadline);
    /// @notice Seat `seat` left the game (`timedOut`: it missed a deadline or cheated, and is at fault).
    event Forfeited(uint256 indexed gameId, uint256 seat, bool timedOut);
    /// @notice `player` (seat `seat`) spawned; `TurnSubmitted` follows with the spawn turn's play commitment.
    event Spawned(uint256 indexed gameId, address indexed player, uint256 seat);
    /// @notice `player`'s turn `turn` proof was accepted; `commitment` is the play commitment it stored,
    ///         `Poseidon(stateCommit, revealCommit, mapRoot)`: its opening names the tiles the player may request. Turn
    ///         `turn + 1` is then seat `nextSeat`'s until `deadline` (one log rather than a `TurnStarted` beside it);
    ///         both 0 when this turn was the last (`GameEnded` follows).
    event TurnSubmitted(
        uint256 indexed gameId,
        address indexed player,
        uint256 turn,
        uint256 commitment,
        uint256 nextSeat,
        uint256 deadline
    );
    /// @notice The forced reveals of one spawn or turn proof: for each `lane`, `player` has a unit of type
    ///         `lane & 15` in zone `lane >> 4`, which an opponent sees (one event per proof, lanes in proof order).
    event ZoneReveals(uint256 indexed gameId, address indexed player, uint256[] lanes);
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
    /// @notice Seat `seat` says the dealer did not serve its turn `turn`: the opening (public from now on) must be
    ///         answered on-chain by `deadline`.
    event DisputeOpened(uint256 indexed gameId, uint256 seat, uint256 turn, uint32[] leaves, uint256 deadline);
    /// @notice The dealer's answer: per leaf, terrain, feature, resource, rivers, salt and 3 · `depth` path siblings.
    event DisputeAnswered(uint256 indexed gameId, uint256 seat, uint256 turn, uint256[] answer);
    /// @notice The dispute ended with the dealer's answer standing; play resumed.
    event DisputeClosed(uint256 indexed gameId, uint256 seat, uint256 turn);
    /// @notice Play is over after `turn` turns.
    event GameEnded(uint256 indexed gameId, uint256 turn);
    /// @notice The dealer's secrets checked out; `seed` is the ceremony's seed.
    event SecretsPublished(uint256 indexed gameId, uint256 masterSecret, uint256[] shares, uint256 seed);
    /// @notice A seat says the dealer's leaves of `zone` are not `leaves` (its own computation from the secrets).
    event ZoneChallenged(uint256 indexed gameId, uint256 seat, uint256 zone, uint256[] leaves);
    /// @notice A seat's zone challenge answered with the dealer's leaves: the first differing leaf decided it.
    event ZoneChallengeDecided(uint256 indexed gameId, uint256 seat, uint256 leafIndex, bool dealerStands);
    /// @notice `prover` showed the served tile at `leafIndex` differs from `Gen(seed)` or its salt is wrong.
    event FraudProven(uint256 indexed gameId, uint256 leafIndex, address prover);
    /// @notice The dealer's bond (`amount`) went to the players.
    event DealerSlashed(uint256 indexed gameId, Reason reason, uint256 amount);
    /// @notice Seat `seat` revealed `r_i` on-chain (force-open).
    event ShareRevealed(uint256 indexed gameId, uint256 seat, uint256 share);
    /// @notice Force-open completed: the map is public, regenerate it from `seed`.
    event MapOpened(uint256 indexed gameId, uint256 seed);
    /// @notice Seat `seat` proposed the open map's root (the salt-0 tree of `Gen(seed)`) with its zone roots.
    event OpenRootProposed(uint256 indexed gameId, uint256 seat, uint256 root, uint256[] zoneRoots, uint256 deadline);
    /// @notice Seat `seat` says zone `zone` holds `leaves`, which hash to another zone root than the proposal's; the
    ///         proposal's leaves of that zone must be shown by `deadline`.
    event OpenRootChallenged(uint256 indexed gameId, uint256 seat, uint256 zone, uint256[] leaves, uint256 deadline);
    /// @notice The challenge was settled at leaf `leafIndex` against `Gen(seed)`: seat `loser` lied and forfeits.
    event OpenRootDecided(uint256 indexed gameId, uint256 leafIndex, uint256 loser, bool proposalStands);
    /// @notice The proposal stood through its challenge window: passability proofs now open against `root`. Seats
    ///         that spawned before must `rebind` their play commitments to it before their next turn.
    event OpenRootAdopted(uint256 indexed gameId, uint256 root);
    /// @notice Seat `seat` moved its play commitment from the replaced dealer root to the adopted open root;
    ///         `playCommitment` is the new value, `Poseidon(stateCommit, revealCommit, root)`.
    event Rebound(uint256 indexed gameId, uint256 seat, uint256 playCommitment);
    /// @notice Bonds and stakes were credited; the game is over.
    event Settled(uint256 indexed gameId);
    /// @notice `account` withdrew `amount`.
    event Withdrawn(address indexed account, uint256 amount);
    /// @notice `account`'s credit accrues to `payee` from now on (zero: to itself again).
    event PayeeSet(address indexed account, address indexed payee);

    // ---------------------------------------------------------------- ceremony

    /// @notice Creates a game and locks the dealer's bond (`msg.value`); the caller must be the dealer.
    function createGame(GameParams calldata params) external payable returns (uint256 gameId);

    /// @notice Posts the caller's share commitment `C_i = Poseidon(gameId, player, r_i)`, paying the stake.
    function commit(uint256 gameId, uint256 commitment) external payable;

    /// @notice Posts the caller's share sealed to the dealer's key with the proof that it opens `C_i`.
    function sealedReveal(uint256 gameId, uint256 ephemeralY, uint256 ciphertext, Proof calldata proof) external;

    /// @notice After the commit, reveal or force-open deadline: cancels, with every seat that did not act at fault.
    function cancelMissed(uint256 gameId) external;

    /// @notice The dealer posts the map root, `Poseidon(master_secret)` and its zone roots (one per zone, stored as a
    ///         hash and checked only when shown wrong: `proveZoneRootsFraud`); play starts.
    function postRoot(uint256 gameId, uint256 root, uint256 masterCommitment, uint256[] calldata zoneRoots) external;

    // ---------------------------------------------------------------- play

    /// @notice The caller's first turn: places its units in its start area, hidden, with a spawn proof, its vision
    ///         report and its play commitment (the units bound to the reveal list the dealer serves against and to the
    ///         game's map root).
    function spawn(uint256 gameId, Proof calldata proof, uint256[] calldata report, uint256 newCommit) external;

    /// @notice The caller's move: a turn proof from its stored play commitment to `newCommit` and the vision report
    ///         it proves. After an adopted open root, only once the seat is rebound (`NotRebound`; see `rebind`).
    /// @dev Named so that its selector (0x0c36cb1a) comes early in the dispatcher, which the IR pipeline compiles
    ///      to one comparison per function in selector order: `submitTurn` (0xb9215a17) was the 43rd of 61, ~0.8k
    ///      gas of comparisons on every turn.
    function playTurn(uint256 gameId, Proof calldata proof, uint256[] calldata report, uint256 newCommit) external;

    /// @notice During the caller's turn, one of its hidden units attacks the tile (`targetCol`, `targetRow`) of
    ///         `defender`, with an attack proof; the nullifier lets each unit attack once a turn.
    function attack(
        uint256 gameId,
        Proof calldata proof,
        uint256 nullifier,
        uint256 targetCol,
        uint256 targetRow,
        uint256 defender
    ) external;

    /// @notice The defender proves whether one of its units stands on the attacked tile (with its type and HP) and
    ///         commits to its units after the combat; the attacker's turn then goes on.
    /// @dev Named, as `playTurn`, so that its selector (0x32c39f3d) comes early in the dispatcher: `respondCombat`
    ///      (0xd24179b2) was the 51st of 61.
    function defend(
        uint256 gameId,
        Proof calldata proof,
        uint256 present,
        uint256 unitType,
        uint256 unitHp,
        uint256 newCommit
    ) external;

    /// @notice Past the combat deadline without an answer: the defender forfeits, at fault.
    function claimCombatTimeout(uint256 gameId) external;

    /// @notice The caller leaves the game during play (not at fault).
    function forfeit(uint256 gameId) external;

    /// @notice Past the turn deadline: the seat to move forfeits, at fault.
    function claimTurnTimeout(uint256 gameId) external;

    // ---------------------------------------------------------------- reveal disputes (P7 after the root)

    /// @notice The caller's latest turn was not served: it puts the turn's opening on-chain, pays the deposit and
    ///         pauses the game until the dealer answers.
    function openDispute(uint256 gameId, uint32[] calldata leaves, uint256 blinding, uint256 stateCommit)
        external
        payable;

    /// @notice The dealer's answer to the open dispute: each leaf's tile, salt and Merkle path, and (when it has one)
    ///         the disputer's EIP-712 receipt for that turn, which shows the dispute false: the deposit is then the
    ///         dealer's; without one it goes back to the disputer.
    function answerDispute(uint256 gameId, uint256[] calldata answer, bytes calldata receipt) external;

    /// @notice Anyone shows that the answer's `index`-th tile does not verify against the root: the dealer failed.
    function challengeDisputeAnswer(
        uint256 gameId,
        uint32[] calldata leaves,
        uint256[] calldata answer,
        uint256 index
    ) external;

    /// @notice The disputer accepts the answer: play resumes before the challenge window ends.
    function acceptDisputeAnswer(uint256 gameId) external;

    /// @notice Past the dispute's deadline: an answered dispute closes, an unanswered one slashes and force-opens.
    function claimDisputeTimeout(uint256 gameId) external;

    // ---------------------------------------------------------------- force-open (P7)

    /// @notice No root by the root deadline: the dealer failed. Slashes its bond and opens the window in which
    ///         every player reveals its share.
    function startForceOpen(uint256 gameId) external;

    /// @notice During force-open, reveals the caller's share; it must open the caller's commitment `C_i`. With the
    ///         last share the seed is public and play resumes (after an open root, for passability rulesets).
    function revealShare(uint256 gameId, uint256 share) external;

    /// @notice A seat proposes the salt-0 map root of `Gen(seed)` as its zone roots; it is adopted unless
    ///         challenged in time.
    function proposeOpenRoot(uint256 gameId, uint256[] calldata zoneRoots) external;

    /// @notice Another seat disagrees on zone `zone`: it posts that zone's 64 leaves as it computes them, which
    ///         must hash to another root than the proposal's.
    function challengeOpenRoot(uint256 gameId, uint256[] calldata zoneRoots, uint256 zone, uint256[64] calldata leaves)
        external;

    /// @notice Anyone shows the proposal's leaves of the challenged zone; the first leaf where they differ from the
    ///         challenger's is regenerated from `Gen(seed)`, and whoever posted a wrong one forfeits at fault.
    function answerOpenRootChallenge(
        uint256 gameId,
        uint256[] calldata zoneRoots,
        uint256[64] calldata challengerLeaves,
        uint256[64] calldata proposerLeaves
    ) external;

    /// @notice Past the open-root deadline: an unchallenged proposal is adopted; an unanswered challenge sinks it
    ///         (its proposer forfeits); without a proposal the game is cancelled.
    function claimOpenRootTimeout(uint256 gameId) external;

    /// @notice After an adopted open root, the caller moves its play commitment from the dealer's root it bound at
    ///         its spawn to the adopted one: it opens the stored value with its state and reveal commitments and the
    ///         replaced root, and the contract stores `Poseidon(stateCommit, revealCommit, root)`. Once per seat,
    ///         during play or a combat before the phase's deadline (past it, the timeout is claimed first), before
    ///         its next turn (`NotRebound`).
    /// @dev Why: turn proofs check every destination against the root inside the play commitment. After force-open the
    ///      dealer's salted tree can no longer be opened by anyone, and a seat left on the dealer's root could keep
    ///      proving moves over a map a colluding dealer made up; so turns refuse it until it rebinds. The opening
    ///      puts the state commitment on-chain: it is hiding (it has its own blinding), and a dispute shows it
    ///      already; the reveal commitment is blinded as well.
    function rebind(uint256 gameId, uint256 stateCommit, uint256 revealCommit) external;

    // ---------------------------------------------------------------- secrets, audit, settlement

    /// @notice After play, the master secret and every share (checked against their commitments) are published so
    ///         anyone can audit the map against the zone roots posted with the root. Only the dealer may call
    ///         (`NotDealer`).
    function publishSecrets(uint256 gameId, uint256 masterSecret, uint256[] calldata shares) external;

    /// @notice Past the secrets deadline without them: the dealer failed and its bond is slashed.
    function claimSecretsTimeout(uint256 gameId) external;

    /// @notice During the audit window, anyone shows a leaf of the root that differs from `Gen(seed)`, carries a
    ///         wrong salt, or fills an off-board slot: the dealer's bond is slashed and the game settles.
    function proveFraud(uint256 gameId, uint256 leafIndex, uint256[5] calldata tile, uint256[] calldata path) external;

    /// @notice Anyone shows that the zone roots posted with the root do not build it: the dealer's bond is slashed.
    ///         During play (or a reveal dispute) the game is force-opened, since no seat can prove a passability turn
    ///         against such a root; after play (secrets, audit) it settles. Not during a combat (it resolves first).
    function proveZoneRootsFraud(uint256 gameId, uint256[] calldata zoneRoots) external;

    /// @notice During the audit window, a seat (once per game, paying the game's dispute deposit) posts zone
    ///         `zone`'s 64 salted leaves as it computes them from the secrets; they must hash to another root than
    ///         the dealer's. The dealer must answer (`answerZoneChallenge`) by the audit deadline plus the dispute
    ///         window.
    function challengeZone(uint256 gameId, uint256[] calldata zoneRoots, uint256 zone, uint256[64] calldata leaves)
        external
        payable;

    /// @notice Anyone shows the dealer's 64 leaves of a challenged zone (they must hash to its published zone
    ///         root); the first leaf where they differ from the challenger's is recomputed (`Gen(seed)` with the
    ///         salt `Poseidon(master_secret, index)`, or 0 off the board). A wrong dealer leaf slashes the bond and
    ///         settles (the deposit goes back); a right one puts the deposit in the seat's escrow, the dealer's at
    ///         settlement unless it failed later (as a false dispute's).
    function answerZoneChallenge(
        uint256 gameId,
        uint256 seat,
        uint256[64] calldata challengerLeaves,
        uint256[64] calldata dealerLeaves
    ) external;

    /// @notice The audit window closed (and every zone challenge was answered, or its window closed too): stakes,
    ///         bond and escrow become withdrawable credit. An unanswered zone challenge slashes the dealer first.
    ///         However the audit ends, the deposits of challenges still unanswered go back to their seats.
    function settle(uint256 gameId) external;

    /// @notice Sends the caller their credit.
    function withdraw() external;

    /// @notice From now on what the caller is owed (stakes, refunds, shares of a slashed bond) is credited to
    ///         `payee`, who withdraws it itself; zero undoes it. A session key names the wallet that funded it, so
    ///         that its stake does not wait on the key: the wallet takes it home from anywhere. Not this contract.
    function setPayee(address payee) external;

    /// @notice Sends the whole credit of the caller's payee to it (a session key closing its game pays the gas, no
    ///         wallet signature needed). Funds only ever go to their owner, but any account may name any payee, so
    ///         any caller can push any account's credit to that account at a time of its choosing: an account
    ///         (a contract) must not assume its credit leaves only through its own `withdraw`.
    function withdrawToPayee() external;

    // ---------------------------------------------------------------- views

    /// @notice A game's dealer, phase, seats, deadline, turn, seat to move, root, master commitment, seed, bond,
    ///         open-map flag, whether an open root was adopted (`rebind`), and the dealer's root it replaced.
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
        );

    /// @notice A game's board, tree depth, ruleset hash, stake, durations, dealer seal key and dispute deposit.
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
        );

    /// @notice One seat of a game.
    function getSeat(uint256 gameId, uint256 seat) external view returns (Seat memory);

    /// @notice The game's pending combat, if any.
    function getCombat(uint256 gameId) external view returns (Combat memory);

    /// @notice The game's open dispute, if any.
    function getDispute(uint256 gameId) external view returns (Dispute memory);

    /// @notice The game's open-root proposal and challenge, if any.
    function getOpenRoot(uint256 gameId) external view returns (OpenRoot memory);

    /// @notice The game's audit: the published zone roots' hash and the unanswered challenges.
    function getAudit(uint256 gameId) external view returns (Audit memory);

    /// @notice A seat's zone challenge of the game's audit (zero values: none).
    function getZoneChallenge(uint256 gameId, uint256 seat) external view returns (ZoneChallenge memory);

    /// @notice The play commitment `player` stored with its spawn or turn `turn`, while that is its latest one
    ///         (zero if none; a combat answer since changes its state part, a `rebind` its root).
    function playCommitment(uint256 gameId, address player, uint256 turn) external view returns (uint256);

    /// @notice The id of the `counter`-th game created.
    function gameIdOf(uint256 counter) external view returns (uint256);

    /// @notice How many games were created.
    function gameCount() external view returns (uint256);

    /// @notice What `account` can withdraw.
    function credit(address account) external view returns (uint256);

    /// @notice The block the game's root was posted in: its `RootPosted` log holds the dealer's zone roots, which
    ///         players build passability witnesses from and the audit judges against (0: no root yet).
    function rootBlock(uint256 gameId) external view returns (uint256);

    /// @notice Where `account`'s credit accrues: the payee it named, zero for itself.
    function payeeOf(address account) external view returns (address);

    /// @notice `player`'s seat in the game plus one (zero if not seated).
    function seatPlusOne(uint256 gameId, address player) external view returns (uint256);

    /// @notice The largest board `createGame` and `VerifierRegistry.registerRuleset` take: width and height at most
    ///         `maxSide`, at most `maxZones` zones of `zoneSize`×`zoneSize` tiles (core/limits.ts holds the same).
    function boardBounds() external pure returns (uint256 maxSide, uint256 maxZones, uint256 zoneSize);

    /// @notice The floors and ceilings every game's durations must respect.
    function durationBounds() external pure returns (Durations memory minimum, Durations memory maximum);
}
