/**
 * What the page says when something fails, and whether it tries again by itself: a dropped connection to the
 * chain or the dealer is retried with backoff; a refusal (the wallet's, a lying dealer's tile, terms the player
 * did not agree to, a proving key that fails its on-chain hash) waits for the player's Retry.
 */
import {
  ArtifactMismatchError,
  ArtifactUnavailableError,
  ChainUnavailableError,
  DealerRefusedError,
  DealerUnavailableError,
  GameTermsRejectedError,
  LobbyTermsRejectedError,
  StateStoreError,
  TileRejectedError,
  VaultError,
} from '@shroud/sdk';
import { isError } from 'ethers';
import { ConfigError } from './config.ts';
import { ExportFileError } from './export-file.ts';
import { SessionFundingError } from './session.ts';
import { SessionRecordError } from './session-store.ts';
import { UntrustedGameError } from './trust.ts';
import { WalletError } from './wallet.ts';
import { ProofFailedError } from './worker-prover.ts';

export interface PageError {
  message: string;
  /** Retried automatically (a dropped connection); otherwise the player retries. */
  transient: boolean;
}

const first = (e: unknown) => String((e as Error)?.message ?? e).split('\n')[0]!;

/** ethers' error codes of a connection that may come back. */
const NETWORK_CODES = new Set(['NETWORK_ERROR', 'SERVER_ERROR', 'TIMEOUT', 'UNKNOWN_ERROR']);

/** `e` and what it wraps (`cause`, ethers' `error`): a dropped connection may be a few wrappers deep. */
function* causes(e: unknown): Generator<unknown> {
  for (let i = 0; i < 6 && e; i++) {
    yield e;
    e = (e as { cause?: unknown }).cause ?? (e as { error?: unknown }).error;
  }
}

/** A connection that dropped or was refused (the browser's fetch TypeError, or ethers' network codes). */
function connectionLost(e: unknown): boolean {
  for (const c of causes(e)) {
    if (c instanceof TypeError && /fetch|network/i.test(c.message)) return true;
    if (NETWORK_CODES.has((c as { code?: string })?.code ?? '')) return true;
  }
  return false;
}

/** The wallet's user said no (EIP-1193 code 4001, which ethers reports as ACTION_REJECTED). */
function refusedByWallet(e: unknown): boolean {
  return isError(e, 'ACTION_REJECTED') || (e instanceof Error && isError(e.cause, 'ACTION_REJECTED'));
}

export function describeError(e: unknown): PageError {
  if (refusedByWallet(e))
    return {
      message:
        e instanceof SessionFundingError
          ? 'Your wallet refused the funding transfer: nothing was sent and nothing staked. Retry to be asked again.'
          : 'Your wallet refused to sign the message that locks this game on this device: nothing was saved or sent. Retry to be asked again.',
      transient: false,
    };
  if (e instanceof TileRejectedError)
    return {
      message: `The dealer served a tile that fails verification against the on-chain root (${e.message}); none of that turn's tiles were drawn.`,
      transient: false,
    };
  if (e instanceof ChainUnavailableError)
    return { message: `The chain does not answer: ${first(e)}. Retrying…`, transient: true };
  if (e instanceof DealerUnavailableError)
    return { message: `The dealer does not answer: ${first(e)}. Retrying…`, transient: true };
  if (connectionLost(e))
    return {
      message: `The connection to the chain or the dealer dropped (${first(e)}). Retrying…`,
      transient: true,
    };
  if (e instanceof ArtifactMismatchError)
    return {
      message: `A proving key the dealer served is not the one the chain registered (${e.circuit} ${e.kind}: SHA-256 ${e.got.slice(0, 12)}…, registered ${e.expected.slice(0, 12)}…); it was thrown away, nothing was proved or sent. Retry downloads it again.`,
      transient: false,
    };
  if (e instanceof ArtifactUnavailableError)
    return { message: `The proving keys could not be downloaded: ${first(e)}. Retrying…`, transient: true };
  if (e instanceof VaultError)
    return {
      message:
        e.reason === 'signer' ? first(e) : `The saved game does not open with this wallet: ${first(e)}`,
      transient: false,
    };
  if (e instanceof StateStoreError)
    return {
      message: `This browser did not let the page save the game (${first(e)}); a private window or blocked storage cannot keep a game.`,
      transient: false,
    };
  if (e instanceof SessionRecordError || e instanceof ExportFileError)
    return { message: first(e), transient: false };
  if (e instanceof ProofFailedError)
    return {
      message: `The proof could not be built in this browser (${first(e)}); nothing was sent to the chain. Retry proves the same move again.`,
      transient: false,
    };
  if (
    e instanceof SessionFundingError ||
    e instanceof WalletError ||
    e instanceof ConfigError ||
    e instanceof UntrustedGameError
  )
    return { message: first(e), transient: false };
  if (e instanceof GameTermsRejectedError || e instanceof LobbyTermsRejectedError)
    return { message: `Refused, nothing staked: ${first(e)}`, transient: false };
  if (e instanceof DealerRefusedError)
    return { message: `The dealer refused: ${first(e)}`, transient: false };
  return { message: first(e), transient: false };
}
