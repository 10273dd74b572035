import { checksumAddress } from './address.ts';
import { isHexBytes } from './bytes.ts';
import { hashTypedData, type TypedDataDomain, type TypedDataSigner, type TypedDataTypes } from './eip712.ts';
import { InputError } from './errors.ts';
import { recoverAddress } from './signature.ts';

/**
 * The EIP-712 `Leave` a player signs to give up its seat in a lobby that has not filled (nothing is staked before
 * the game exists, so leaving costs nothing). It names the join it cancels by that join's nonce: it frees that
 * seat only, and replayed after the player joined again it matches no seat. Same domain as `Join`
 * (core/lobby.ts `lobbyDomain`), another primary type: a join signature is never a leave signature.
 */
export interface LeaveMessage {
  /** The lobby (0x, 32 bytes). */
  lobbyId: string;
  player: string;
  /** The nonce of the join whose seat this gives up (0x, 32 bytes). */
  joinNonce: string;
}

export const LEAVE_TYPES: TypedDataTypes = {
  Leave: [
    { name: 'lobbyId', type: 'bytes32' },
    { name: 'player', type: 'address' },
    { name: 'joinNonce', type: 'bytes32' },
  ],
};

/** `POST /v1/lobbies/:id/leaves` body: the leave (lobby id from the URL) with its signature. */
export interface LeaveBody {
  player: string;
  joinNonce: string;
  signature: string;
}

/** What the dealer answers a leave it applied. */
export interface LeaveView {
  lobbyId: string;
  player: string;
  /** The seat given up (later seats moved down by one). */
  seat: number;
  status: 'left';
}

/** Throws an InputError naming the first field that is not what the typed data says. */
export function checkLeaveMessage(m: LeaveMessage): void {
  if (!isHexBytes(m.lobbyId, 32)) throw new InputError('lobbyId', 'must be 0x and 32 bytes');
  checksumAddress(m.player, 'player');
  if (!isHexBytes(m.joinNonce, 32)) throw new InputError('joinNonce', 'must be 0x and 32 bytes');
}

export function signLeave(
  signer: TypedDataSigner,
  domain: TypedDataDomain,
  m: LeaveMessage,
): Promise<string> {
  return signer.signTypedData(domain, LEAVE_TYPES, m);
}

/** Lowercase address of the signer; throws on a malformed signature. */
export function recoverLeaveSigner(domain: TypedDataDomain, m: LeaveMessage, signature: string): string {
  return recoverAddress(hashTypedData(domain, LEAVE_TYPES, m), signature).toLowerCase();
}

export function toLeaveBody(m: LeaveMessage, signature: string): LeaveBody {
  return { player: m.player, joinNonce: m.joinNonce, signature };
}

/** The message a body carries for lobby `lobbyId`; throws an InputError naming a malformed field. */
export function fromLeaveBody(lobbyId: string, b: LeaveBody): LeaveMessage {
  const m: LeaveMessage = { lobbyId, player: b.player, joinNonce: b.joinNonce };
  checkLeaveMessage(m);
  return m;
}
