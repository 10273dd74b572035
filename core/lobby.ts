import { checksumAddress } from './address.ts';
import { hexFromBytes, isHexBytes } from './bytes.ts';
import { hashTypedData, type TypedDataDomain, type TypedDataSigner, type TypedDataTypes } from './eip712.ts';
import { InputError } from './errors.ts';
import type { Durations } from './limits.ts';
import { recoverAddress } from './signature.ts';

/**
 * The EIP-712 `Join` a player signs to take a seat in one of a dealer's open lobbies: the lobby, the
 * terms it accepts (ruleset, seat count, the most it stakes), a random nonce the dealer burns, and a
 * deadline after which the dealer refuses it. Shared by the dealer (verifies) and the SDK (signs).
 * Bound to the chain and the game contract like reveal requests, under its own domain name so a
 * join signature is never a reveal signature.
 */
export interface JoinMessage {
  /** The lobby instance (0x, 32 bytes): a filled lobby's joins cannot seat anyone in the next one. */
  lobbyId: string;
  player: string;
  /** The ruleset the player agrees to play (`rulesetHash`, 0x, 32 bytes). */
  rulesetHash: string;
  /** The most the player agrees to stake, in wei (uint96): a lobby asking more refuses the join. */
  stake: bigint;
  /** Seats of the game the player agrees to (2..6). */
  seats: number;
  /** Client-random 32 bytes (0x), single use per player. */
  nonce: string;
  /** Unix seconds after which the dealer refuses the join (uint64). */
  deadline: number;
}

export const JOIN_TYPES: TypedDataTypes = {
  Join: [
    { name: 'lobbyId', type: 'bytes32' },
    { name: 'player', type: 'address' },
    { name: 'rulesetHash', type: 'bytes32' },
    { name: 'stake', type: 'uint96' },
    { name: 'seats', type: 'uint8' },
    { name: 'nonce', type: 'bytes32' },
    { name: 'deadline', type: 'uint64' },
  ],
};

export const LOBBY_DOMAIN_NAME = 'Shroud Lobby';

/** Bound to the chain and the game contract the lobby's games are created on. */
export function lobbyDomain(chainId: bigint, gameContract: string): TypedDataDomain {
  return { name: LOBBY_DOMAIN_NAME, version: '1', chainId, verifyingContract: gameContract };
}

export const MAX_UINT96 = (1n << 96n) - 1n;
const MAX_UINT64 = (1n << 64n) - 1n;
/** Seat counts the contract accepts (ShroudLimits MIN_PLAYERS..MAX_PLAYERS). */
export const MIN_SEATS = 2;
export const MAX_SEATS = 6;

const isBytes32 = (v: unknown): v is string => isHexBytes(v, 32);

/** Throws an InputError naming the first field that is not what the typed data says. */
export function checkJoinMessage(m: JoinMessage): void {
  if (!isBytes32(m.lobbyId)) throw new InputError('lobbyId', 'must be 0x and 32 bytes');
  checksumAddress(m.player, 'player');
  if (!isBytes32(m.rulesetHash)) throw new InputError('rulesetHash', 'must be 0x and 32 bytes');
  if (typeof m.stake !== 'bigint' || m.stake < 0n || m.stake > MAX_UINT96) {
    throw new InputError('stake', 'must be a uint96 (wei)');
  }
  if (!Number.isInteger(m.seats) || m.seats < MIN_SEATS || m.seats > MAX_SEATS) {
    throw new InputError('seats', `must be an integer in ${MIN_SEATS}..${MAX_SEATS}, got ${m.seats}`);
  }
  if (!isBytes32(m.nonce)) throw new InputError('nonce', 'must be 0x and 32 bytes');
  if (!Number.isSafeInteger(m.deadline) || m.deadline < 0 || BigInt(m.deadline) > MAX_UINT64) {
    throw new InputError('deadline', 'must be unix seconds (a non-negative integer)');
  }
}

/** The EIP-712 digest of a join. */
export function joinDigest(domain: TypedDataDomain, m: JoinMessage): string {
  return hashTypedData(domain, JOIN_TYPES, m);
}

/** Lowercase address of the signer; throws on a malformed signature. */
export function recoverJoinSigner(domain: TypedDataDomain, m: JoinMessage, signature: string): string {
  return recoverAddress(joinDigest(domain, m), signature).toLowerCase();
}

export function signJoin(signer: TypedDataSigner, domain: TypedDataDomain, m: JoinMessage): Promise<string> {
  return signer.signTypedData(domain, JOIN_TYPES, m);
}

/** Why a well-formed, well-signed join does not fit a lobby (stable codes, shared by dealer and SDK). */
export type JoinRefusalCode =
  | 'expired'
  | 'deadline-too-far'
  | 'lobby-mismatch'
  | 'ruleset-mismatch'
  | 'seats-mismatch'
  | 'stake-too-low';

/** A join that does not fit: `field` names the signed field at fault. */
export class JoinRefusedError extends InputError {
  readonly code: JoinRefusalCode;
  constructor(code: JoinRefusalCode, field: string, message: string) {
    super(field, message);
    this.name = 'JoinRefusedError';
    this.code = code;
  }
}

/** The deadline must be ahead of `now` and at most `maxAheadSeconds` beyond it (bounds how long nonces matter). */
export function checkJoinDeadline(
  m: Pick<JoinMessage, 'deadline'>,
  now: number,
  maxAheadSeconds: number,
): void {
  if (m.deadline <= now)
    throw new JoinRefusedError('expired', 'deadline', `passed ${now - m.deadline} s ago`);
  if (m.deadline > now + maxAheadSeconds) {
    throw new JoinRefusedError(
      'deadline-too-far',
      'deadline',
      `${m.deadline - now} s ahead; at most ${maxAheadSeconds} s`,
    );
  }
}

/** The lobby terms a join is checked against. */
export interface JoinableLobby {
  id: string;
  ruleset: string;
  rulesetHash: string;
  seats: number;
  stake: bigint;
}

/** Throws JoinRefusedError naming the first signed term that differs from the lobby's. */
export function checkJoinTerms(m: JoinMessage, lobby: JoinableLobby): void {
  if (m.lobbyId.toLowerCase() !== lobby.id.toLowerCase()) {
    throw new JoinRefusedError('lobby-mismatch', 'lobbyId', `signed for lobby ${m.lobbyId}, not ${lobby.id}`);
  }
  if (m.rulesetHash.toLowerCase() !== lobby.rulesetHash.toLowerCase()) {
    throw new JoinRefusedError(
      'ruleset-mismatch',
      'rulesetHash',
      `the lobby plays ${lobby.ruleset} (${lobby.rulesetHash}), the join names ${m.rulesetHash}`,
    );
  }
  if (m.seats !== lobby.seats) {
    throw new JoinRefusedError(
      'seats-mismatch',
      'seats',
      `the lobby seats ${lobby.seats} players, the join names ${m.seats}`,
    );
  }
  if (m.stake < lobby.stake) {
    throw new JoinRefusedError(
      'stake-too-low',
      'stake',
      `the lobby's stake is ${lobby.stake} wei, the join accepts at most ${m.stake}`,
    );
  }
}

/** `POST /v1/lobbies/:id/joins` body: the join (lobby id from the URL) as JSON, with its signature. */
export interface JoinBody {
  player: string;
  rulesetHash: string;
  /** Decimal wei. */
  stake: string;
  seats: number;
  nonce: string;
  deadline: number;
  signature: string;
}

export function toJoinBody(m: JoinMessage, signature: string): JoinBody {
  return {
    player: m.player,
    rulesetHash: m.rulesetHash,
    stake: m.stake.toString(),
    seats: m.seats,
    nonce: m.nonce,
    deadline: m.deadline,
    signature,
  };
}

/** The message a body carries for lobby `lobbyId`; throws an InputError naming a malformed field. */
export function fromJoinBody(lobbyId: string, b: JoinBody): JoinMessage {
  if (typeof b.stake !== 'string' || !/^[0-9]{1,30}$/.test(b.stake)) {
    throw new InputError('stake', 'must be a decimal uint96 string (wei)');
  }
  const m: JoinMessage = {
    lobbyId,
    player: b.player,
    rulesetHash: b.rulesetHash,
    stake: BigInt(b.stake),
    seats: b.seats,
    nonce: b.nonce,
    deadline: b.deadline,
  };
  checkJoinMessage(m);
  return m;
}

/** A fresh lobby or nonce id: 32 random bytes, 0x-hex (Web Crypto: browsers and Node). */
export function randomBytes32(): string {
  return hexFromBytes(crypto.getRandomValues(new Uint8Array(32)));
}

/** Where a lobby is (dealer/lobby.ts); each step is persisted before the next starts. */
export type LobbyStatus =
  | 'open' // taking joins
  | 'filled' // every seat taken; no createGame signed yet
  | 'creating' // createGame signed and kept (`createTx`), perhaps broadcast
  | 'created' // the game exists on-chain (`gameId`)
  | 'failed' // the chain refused createGame (`fault` says why); its joins are kept
  | 'closed'; // retired before anyone joined (its kind left the config, or its terms changed)

// The wire shapes of the lobby routes, shared by the dealer that answers and the SDK that reads them.
/** A lobby as `GET /v1/lobbies` shows it. */
export interface LobbyView {
  id: string;
  kind: string;
  ruleset: string;
  rulesetHash: string;
  seats: number;
  filled: number;
  stake: string;
  disputeDeposit: string;
  maxTurns: number;
  bond: string;
  durations: Durations;
  status: LobbyStatus;
  gameId: string | null;
}

/** Everything a client needs to sign a join: the domain, and the dealer behind the games. */
export interface LobbiesView {
  chainId: string;
  gameContract: string;
  dealer: string;
  /** The seal public key the games carry (decimal strings). */
  sealKey: [string, string];
  lobbies: LobbyView[];
}

/** A player's join as the status route answers it: `gameId` once the game exists. */
export interface JoinStatusView {
  lobbyId: string;
  player: string;
  seat: number;
  /** The nonce of the join that holds the seat: what a `Leave` names (core/lobby-leave.ts). */
  nonce: string;
  status: 'waiting' | 'created' | 'failed';
  filled: number;
  seats: number;
  gameId: string | null;
  /** Why the game could not be created (status `failed`). */
  message: string | null;
}
