/**
 * The slice of `ShroudGame` the dealer calls, as human-readable fragments. Kept here rather than read
 * from `artifacts/` so the dealer runs without a Hardhat build; test/dealer/ethers-chain.test.ts checks
 * every fragment against the compiled ABI, so drift fails a test instead of a transaction.
 */
export const SHROUD_GAME_ABI = [
  'function getGame(uint256 gameId) view returns (address dealer, uint8 phase, uint256 nPlayers, uint256 deadline, uint256 turn, uint256 toMove, uint256 root, uint256 masterCommitment, uint256 seed, uint256 bond, bool openMap)',
  'function getGameConfig(uint256 gameId) view returns ((uint8 kind, uint16 width, uint16 height, uint32 maxTurns) board, uint256 depth, bytes32 rulesetHash, uint256 stake, (uint32 commitSeconds, uint32 revealSeconds, uint32 rootSeconds, uint32 turnSeconds, uint32 combatSeconds, uint32 secretsSeconds, uint32 auditSeconds) durations, bytes dealerEncKey)',
  'function getSeat(uint256 gameId, uint256 seat) view returns ((address player, bool committed, bool revealed, bool shareRevealed, bool atFault, bool forfeited, bool staked, bool spawned, uint32 lastTurn, uint256 commitment, bytes32 ciphertextHash, uint256 share, uint256 stateCommitment, uint256 zoneMask, uint256 revealCommit))',
  'function revealCommit(uint256 gameId, address player, uint256 turn) view returns (uint256)',
  'function seatPlusOne(uint256 gameId, address player) view returns (uint256)',
  'function postRoot(uint256 gameId, uint256 root, uint256 masterCommitment)',
  'function reportBadCiphertext(uint256 gameId, uint256 seat, bytes ciphertext, bytes evidence)',
  'function publishSecrets(uint256 gameId, uint256 masterSecret, uint256[] shares)',
  'event GameCreated(uint256 indexed gameId, address indexed dealer, address[] players, bytes32 rulesetHash, uint256 bond, uint256 stake)',
  'event SealedReveal(uint256 indexed gameId, uint256 seat, bytes ciphertext)',
  'event TurnSubmitted(uint256 indexed gameId, address indexed player, uint256 turn, uint256 revealCommit)',
] as const;

/** The MapProofRegistry functions the dealer calls. */
export const MAP_PROOF_REGISTRY_ABI = [
  'function submitMapProof(uint256 gameId, uint256 seedHash, uint256[] zoneRoots, (uint256[2] a, uint256[2][2] b, uint256[2] c) proof)',
  'function isVerified(uint256 gameId) view returns (bool)',
] as const;

/** `ShroudGame.Phase`, in declaration order (shared with the SDK). */
export { GAME_PHASES as CHAIN_PHASES } from '../../core/game-phases.ts';

/** Custom errors decoded into ChainWriteError messages (names only: they carry no secrets). */
export const CONTRACT_ERRORS = [
  'error UnknownGame()',
  'error NotDealer()',
  'error NotPlayer()',
  'error WrongPhase(uint8 expected, uint8 actual)',
  'error DeadlinePassed(uint256 deadline)',
  'error NotInField()',
  'error CiphertextMismatch()',
  'error EmptyEvidence()',
  'error NotRevealed()',
  'error ShareMismatch(uint256 seat)',
  'error MasterSecretMismatch()',
  'error WrongShareCount(uint256 expected, uint256 got)',
  'error RevealCommitInLogs(uint256 latestTurn)',
] as const;
