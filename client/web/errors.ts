/**
 * What the page says when something fails, and whether it tries again by itself: a dropped connection to the
 * chain or the dealer is retried with backoff; a refusal (the wallet's, a lying dealer's tile, terms the player
 * did not agree to) waits for the player.
 */
import {
  ChainUnavailableError,
  DealerRefusedError,
  DealerUnavailableError,
  GameTermsRejectedError,
  LobbyTermsRejectedError,
  TileRejectedError,
} from '@shroud/sdk';
import { ConfigError } from './config.ts';
import { SessionFundingError } from './session.ts';
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

export function describeError(e: unknown): PageError {
  if (e instanceof TileRejectedError)
    return {
      message: `The dealer served a tile that fails verification against the on-chain root (${e.message}); none of that turn's tiles were drawn.`,
      transient: false,
    };
  if (e instanceof ChainUnavailableError || (e as { code?: string })?.code === 'NETWORK_ERROR')
    return { message: `The chain does not answer: ${first(e)}. Retrying…`, transient: true };
  if (e instanceof DealerUnavailableError)
    return { message: `The dealer does not answer: ${first(e)}. Retrying…`, transient: true };
  if (e instanceof TypeError && /fetch/i.test(e.message))
    return { message: `Connection lost: ${first(e)}. Retrying…`, transient: true };
  if (NETWORK_CODES.has((e as { code?: string })?.code ?? ''))
    return { message: `The chain does not answer: ${first(e)}. Retrying…`, transient: true };
  if (e instanceof ProofFailedError)
    return { message: `The proof could not be built: ${first(e)}`, transient: false };
  if (e instanceof SessionFundingError || e instanceof WalletError || e instanceof ConfigError)
    return { message: first(e), transient: false };
  if (e instanceof GameTermsRejectedError || e instanceof LobbyTermsRejectedError)
    return { message: `Refused, nothing staked: ${first(e)}`, transient: false };
  if (e instanceof DealerRefusedError)
    return { message: `The dealer refused: ${first(e)}`, transient: false };
  return { message: first(e), transient: false };
}
