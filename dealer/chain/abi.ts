/**
 * The slice of `ShroudGame` (contracts/IShroudGame.sol) the dealer calls, as human-readable fragments.
 * Kept here rather than read from `artifacts/` so the dealer runs without a Hardhat build;
 * test/dealer/ethers-chain.test.ts checks every fragment against the compiled ABI, so drift fails a test
 * instead of a transaction.
 */
export const SHROUD_GAME_ABI = [
  'function getGame(uint256 gameId) view returns (address dealer, uint8 phase, uint256 nPlayers, uint256 deadline, uint256 turn, uint256 toMove, uint256 root, uint256 masterCommitment, uint256 seed, uint256 bond, bool openMap)',
  'function getGameConfig(uint256 gameId) view returns ((uint8 kind, uint16 width, uint16 height, uint32 maxTurns) board, uint256 depth, bytes32 rulesetHash, uint256 stake, (uint32 commitSeconds, uint32 revealSeconds, uint32 rootSeconds, uint32 turnSeconds, uint32 combatSeconds, uint32 disputeSeconds, uint32 secretsSeconds, uint32 auditSeconds) durations, uint256[2] sealKey, uint256 disputeDeposit)',
  'function getSeat(uint256 gameId, uint256 seat) view returns ((address player, bool committed, bool revealed, bool shareRevealed, bool atFault, bool forfeited, bool staked, bool spawned, bool proposedOpenRoot, uint32 lastTurn, uint96 escrow, uint32 disputedTurn, uint256 commitment, uint256 share, uint256 stateCommitment, uint256 zoneMask, uint256 revealCommit))',
  'function getDispute(uint256 gameId) view returns ((uint8 seat, uint8 nLeaves, bool answered, bool receipted, uint32 turn, uint40 pausedLeft, uint96 deposit, bytes32 leavesHash, bytes32 answerHash))',
  'function revealCommit(uint256 gameId, address player, uint256 turn) view returns (uint256)',
  'function postRoot(uint256 gameId, uint256 root, uint256 masterCommitment)',
  'function createGame((address[] players, address dealer, uint256[2] sealKey, bytes32 rulesetHash, (uint32 commitSeconds, uint32 revealSeconds, uint32 rootSeconds, uint32 turnSeconds, uint32 combatSeconds, uint32 disputeSeconds, uint32 secretsSeconds, uint32 auditSeconds) durations, (uint8 kind, uint16 width, uint16 height, uint32 maxTurns) board, uint96 stake, uint96 disputeDeposit) params) payable returns (uint256)',
  'function answerDispute(uint256 gameId, uint256[] answer, bytes receipt)',
  'function publishSecrets(uint256 gameId, uint256 masterSecret, uint256[] shares)',
  'event GameCreated(uint256 indexed gameId, address indexed dealer, address[] players, bytes32 rulesetHash, uint256 bond, uint256 stake)',
  'event SealedReveal(uint256 indexed gameId, uint256 seat, uint256 ephemeralY, uint256 ciphertext)',
  'event TurnSubmitted(uint256 indexed gameId, address indexed player, uint256 turn, uint256 revealCommit)',
  'event DisputeOpened(uint256 indexed gameId, uint256 seat, uint256 turn, uint32[] leaves, uint256 deadline)',
] as const;

/** The MapProofRegistry functions the dealer calls. */
export const MAP_PROOF_REGISTRY_ABI = [
  'function submitMapProof(uint256 gameId, uint256 seedHash, uint256[] zoneRoots, (uint256[2] a, uint256[2][2] b, uint256[2] c) proof)',
  'function isVerified(uint256 gameId) view returns (bool)',
] as const;

/** `ShroudGame.Phase`, in declaration order (shared with the SDK). */
export { GAME_PHASES as CHAIN_PHASES } from '../../core/game-phases.ts';

/**
 * Every custom error of `IShroudGame`, decoded into ChainWriteError messages (names only: they carry no
 * secrets). The ethers-chain test checks this list equals the compiled contract's.
 */
export const CONTRACT_ERRORS = [
  'error AlreadyAnswered()',
  'error AlreadyChallenged()',
  'error AlreadyCommitted()',
  'error AlreadyForfeited()',
  'error AlreadyProposed()',
  'error AlreadyRevealed()',
  'error AlreadySpawned()',
  'error AnswerMismatch()',
  'error BadBoard()',
  'error BadDealer()',
  'error BadDefender()',
  'error BadLeafIndex()',
  'error BadPathLength(uint256 expected, uint256 got)',
  'error BadPlayer(uint256 index)',
  'error BadPlayerCount(uint256 count)',
  'error BadReceipt()',
  'error BadSealKey()',
  'error BondRequired()',
  'error DeadlineNotPassed(uint256 deadline)',
  'error DeadlinePassed(uint256 deadline)',
  'error DepositAboveStake(uint256 deposit, uint256 stake)',
  'error DurationTooLong(string field, uint256 maximum, uint256 actual)',
  'error DurationTooShort(string field, uint256 minimum, uint256 actual)',
  'error InvalidPath()',
  'error InvalidProof()',
  'error MasterSecretMismatch()',
  'error NoFraud()',
  'error NoProposal()',
  'error NotAnswered()',
  'error NotChallenged()',
  'error NotDealer()',
  'error NotDefender()',
  'error NotDisputer()',
  'error NothingToDispute()',
  'error NothingToWithdraw()',
  'error NotInField()',
  'error NotPlayer()',
  'error NotSpawned()',
  'error NotYourTurn()',
  'error NullifierUsed()',
  'error OffBoard()',
  'error OpeningMismatch()',
  'error ProposalMismatch()',
  'error RevealCommitInLogs(uint256 latestTurn)',
  'error RulesetMismatch()',
  'error ShareMismatch(uint256 seat)',
  'error TransferFailed()',
  'error UnknownGame()',
  'error UnknownRuleset(bytes32 rulesetHash)',
  'error ValueTooLarge()',
  'error WrongAnswerLength(uint256 expected, uint256 got)',
  'error WrongDeposit(uint256 expected, uint256 sent)',
  'error WrongLength(uint256 expected, uint256 got)',
  'error WrongPhase(uint8 expected, uint8 actual)',
  'error WrongShareCount(uint256 expected, uint256 got)',
  'error WrongSignalCount(uint256 expected, uint256 got)',
  'error WrongStake(uint256 expected, uint256 sent)',
  'error ZoneMismatch()',
] as const;
