import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { hexFromBytes } from './bytes.ts';
import { hashTypedData, type TypedDataDomain, type TypedDataSigner, type TypedDataTypes } from './eip712.ts';
import { keccak256 } from './keccak.ts';

/**
 * Reveal sessions: a player signs ONE EIP-712 `RevealSession` (same domain as RevealRequest, see
 * core/reveal-request.ts) binding the hash of a 32-byte client-random session key; later reveal
 * requests carry an HMAC-SHA256 under a key derived from it instead of a secp256k1 signature each.
 * Browser-safe (noble only); shared by the dealer (verifies) and the SDK (signs and MACs).
 *
 * The session key travels to the dealer once, in the session-creation body (so only over TLS in
 * production). Both sides then derive the MAC key with HKDF, bound to the session id: the MAC key
 * is domain-separated from the key whose hash the player signed, and a MAC for one session never
 * verifies under another even if a client reused a key.
 */
export interface RevealSessionMessage {
  gameId: bigint;
  player: string;
  /** keccak256 of the 32-byte session key (0x-hex). */
  sessionKeyHash: string;
  /** Unix seconds after which the session is refused. */
  expiry: number;
  /** Client-random uint256, burned by the dealer like a request nonce. */
  nonce: bigint;
}

export const REVEAL_SESSION_TYPES: TypedDataTypes = {
  RevealSession: [
    { name: 'gameId', type: 'uint256' },
    { name: 'player', type: 'address' },
    { name: 'sessionKeyHash', type: 'bytes32' },
    { name: 'expiry', type: 'uint64' },
    { name: 'nonce', type: 'uint256' },
  ],
};

/** Longest session a dealer should accept, in seconds. */
export const MAX_SESSION_SECONDS = 3600;

export function sessionKeyHash(sessionKey: Uint8Array): string {
  if (sessionKey.length !== 32) throw new Error('sessionKey: must be 32 bytes');
  return keccak256(sessionKey);
}

/** The EIP-712 digest of a session message; also the session id (unique per signed session). */
export function revealSessionDigest(domain: TypedDataDomain, msg: RevealSessionMessage): string {
  return hashTypedData(domain, REVEAL_SESSION_TYPES, msg);
}

export function signRevealSession(
  signer: TypedDataSigner,
  domain: TypedDataDomain,
  msg: RevealSessionMessage,
): Promise<string> {
  return signer.signTypedData(domain, REVEAL_SESSION_TYPES, msg);
}

const MAC_INFO = utf8ToBytes('shroud-reveal-session/v1/mac');

/** HKDF-SHA256(ikm = session key, salt = session id bytes, info = "shroud-reveal-session/v1/mac"), 32 bytes. */
export function sessionMacKey(sessionKey: Uint8Array, sessionId: string): Uint8Array {
  return hkdf(sha256, sessionKey, hexToBytes(sessionId.replace(/^0x/, '')), MAC_INFO, 32);
}

/** One reveal request under a session. Numbers as parsed values, so the canonical bytes are unambiguous. */
export interface SessionRevealMessage {
  sessionId: string;
  gameId: bigint;
  turn: number;
  leaves: readonly number[];
  blinding: bigint;
  /** With leaves and blinding, opens the turn's on-chain play commitment (core/state.ts playCommitment). */
  stateCommit: bigint;
  nonce: bigint;
  expiry: number;
}

/**
 * Canonical bytes the MAC covers: a versioned, newline-separated list of lowercase-hex session id and
 * decimal numbers (leaves comma-separated). Decimal re-encoding means "0x10" and "16" MAC the same.
 */
export function sessionRevealMacInput(m: SessionRevealMessage): string {
  return [
    'shroud-reveal/v2',
    m.sessionId.toLowerCase(),
    m.gameId.toString(),
    String(m.turn),
    m.leaves.join(','),
    m.blinding.toString(),
    m.stateCommit.toString(),
    m.nonce.toString(),
    String(m.expiry),
  ].join('\n');
}

/** 0x-hex HMAC-SHA256 of the canonical request bytes under the session's MAC key. */
export function sessionRevealMac(macKey: Uint8Array, m: SessionRevealMessage): string {
  return hexFromBytes(hmac(sha256, macKey, utf8ToBytes(sessionRevealMacInput(m))));
}
