/**
 * The receipt a player signs once a turn's tiles were served and verified (EIP-712, the dealer's domain:
 * `revealDomain`). The dealer keeps it; if the player later disputes that turn on-chain anyway, the dealer
 * answers with it and keeps the dispute deposit (`ShroudDisputes`): a false dispute costs the disputer, while
 * a dealer that did not serve has no receipt and earns nothing from the disputes it provokes.
 */
import { hashTypedData, type TypedDataDomain, type TypedDataSigner, type TypedDataTypes } from './eip712.ts';
import { recoverAddress } from './signature.ts';

export interface RevealReceiptMessage {
  gameId: bigint;
  turn: number;
  /** The turn's on-chain reveal commitment: the receipt is for exactly that opening. */
  revealCommit: bigint;
}

export const REVEAL_RECEIPT_TYPES: TypedDataTypes = {
  RevealReceipt: [
    { name: 'gameId', type: 'uint256' },
    { name: 'turn', type: 'uint32' },
    { name: 'revealCommit', type: 'uint256' },
  ],
};

export function signRevealReceipt(
  signer: TypedDataSigner,
  domain: TypedDataDomain,
  msg: RevealReceiptMessage,
): Promise<string> {
  return signer.signTypedData(domain, REVEAL_RECEIPT_TYPES, msg);
}

/** Lowercase address of the receipt's signer; throws on a malformed signature. */
export function recoverReceiptSigner(
  domain: TypedDataDomain,
  msg: RevealReceiptMessage,
  signature: string,
): string {
  return recoverAddress(hashTypedData(domain, REVEAL_RECEIPT_TYPES, msg), signature).toLowerCase();
}
