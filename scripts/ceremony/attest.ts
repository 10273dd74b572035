/**
 * Contributor attestations: each contributor signs (EIP-191 personal_sign, an Ethereum key) one canonical
 * line per circuit naming the contribution and the exact file it was built on, so a published list of
 * contributors can be checked against keys they control, and a contribution cannot be moved onto another
 * chain of files without the signature breaking.
 */
import { type HDNodeWallet, verifyMessage, Wallet } from 'ethers';
import { UsageError } from '../../lib/cli.ts';
import type { ContributionRecord } from './types.ts';

/** The environment variable holding a contributor's private key (0x-hex). */
export const CONTRIBUTOR_KEY_ENV = 'SHROUD_CONTRIBUTOR_KEY';

export type AttestedFields = Pick<ContributionRecord, 'index' | 'name' | 'hash' | 'prev'>;

/** `shroud-ceremony v1 <circuit> #<n> <name> <contribution hash> prev <prev zkey sha256>`. */
export function attestationText(circuit: string, c: AttestedFields): string {
  return `shroud-ceremony v1 ${circuit} #${c.index} ${c.name} ${c.hash} prev ${c.prev}`;
}

/** The contributor's key from the environment, or a fresh one (`fresh`: its address is worth printing). */
export function contributorWallet(env = process.env): { wallet: Wallet | HDNodeWallet; fresh: boolean } {
  const key = env[CONTRIBUTOR_KEY_ENV];
  if (!key) return { wallet: Wallet.createRandom(), fresh: true };
  try {
    return { wallet: new Wallet(key.startsWith('0x') ? key : `0x${key}`), fresh: false };
  } catch {
    throw new UsageError(`${CONTRIBUTOR_KEY_ENV}: not a private key (32 bytes of hex)`);
  }
}

/** Why a recorded attestation does not hold (its signature recovers another address), or undefined. */
export function attestationProblem(circuit: string, c: ContributionRecord): string | undefined {
  let signer: string;
  try {
    signer = verifyMessage(attestationText(circuit, c), c.signature);
  } catch {
    return 'the attestation signature is malformed';
  }
  if (signer.toLowerCase() !== c.address.toLowerCase())
    return `the attestation is signed by ${signer}, not by the recorded ${c.address}`;
  return undefined;
}
