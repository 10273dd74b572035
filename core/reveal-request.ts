import {
  hashDomain,
  structEncoder,
  type TypedDataDomain,
  type TypedDataSigner,
  type TypedDataTypes,
  typedDataDigest,
} from './eip712.ts';
import { recoverAddress } from './signature.ts';

/**
 * The EIP-712 request a player signs to fetch a turn's tiles from the dealer: the opening of that turn's
 * on-chain play commitment `C = Poseidon(stateCommit, revealCommit, mapRoot)` (core/state.ts `playCommitment`;
 * the root is the game's, which the dealer knows), i.e. the reveal list (leaves + blinding, whose
 * `revealCommitment` is R) and the state commitment S, plus a client-random nonce the dealer burns and an
 * expiry. Shared by the dealer (verifies) and the SDK (signs).
 */
export interface RevealRequestMessage {
  gameId: bigint;
  player: string;
  turn: number;
  leaves: number[];
  blinding: bigint;
  /**
   * The state commitment S that, with R = revealCommitment(leaves, blinding), opens the turn's on-chain play
   * commitment. Hiding (it has its own blinding), so not secret.
   */
  stateCommit: bigint;
  nonce: bigint;
  /** Unix seconds after which the dealer refuses the request. */
  expiry: number;
}

export const REVEAL_REQUEST_TYPES: TypedDataTypes = {
  RevealRequest: [
    { name: 'gameId', type: 'uint256' },
    { name: 'player', type: 'address' },
    { name: 'turn', type: 'uint32' },
    { name: 'leaves', type: 'uint32[]' },
    { name: 'blinding', type: 'uint256' },
    { name: 'stateCommit', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiry', type: 'uint64' },
  ],
};

const encoder = structEncoder(REVEAL_REQUEST_TYPES);

/** Bound to the chain and the game contract, so a request cannot be replayed against another deployment. */
export function revealDomain(chainId: bigint, gameContract: string): TypedDataDomain {
  return { name: 'Shroud Dealer', version: '1', chainId, verifyingContract: gameContract };
}

/** The EIP-712 digest (ethers' `TypedDataEncoder.hash(domain, types, msg)`); the domain part is cached. */
export function revealDigest(domain: TypedDataDomain, msg: RevealRequestMessage): string {
  return typedDataDigest(hashDomain(domain), encoder.hashStruct(msg));
}

/** Lowercase address of the signer; throws on a malformed signature. */
export function recoverRevealSigner(
  domain: TypedDataDomain,
  msg: RevealRequestMessage,
  signature: string,
): string {
  return recoverAddress(revealDigest(domain, msg), signature).toLowerCase();
}

export function signRevealRequest(
  signer: TypedDataSigner,
  domain: TypedDataDomain,
  msg: RevealRequestMessage,
): Promise<string> {
  return signer.signTypedData(domain, REVEAL_REQUEST_TYPES, msg);
}

/** One tile as the dealer serves it: contents, salt and Merkle path (field elements as decimal strings). */
export interface ServedTile {
  leaf: number;
  col: number;
  row: number;
  terrain: number;
  feature: number;
  resource: number;
  rivers: number;
  salt: string;
  path: string[];
}
