/**
 * Which game contracts this page acts with. A link (`?dealer=`, `?contract=`, `?rpc=`) is anyone's to write, so
 * on a public chain the page trusts only the ShroudGame deployments it was built with (`deployments/<chainId>.json`
 * at `npm run build:web` time, compiled into play.js): a hostile link or dealer cannot point it at a look-alike
 * contract that takes the stake or serves a fake map root. The local chain (31337, addresses differ per run) is
 * exempt. Pure: the build fills `BUILT_IN_TRUST`, tests pass their own table.
 */
import { LOCAL_CHAIN_ID } from '@shroud/core/limits.ts';

export { LOCAL_CHAIN_ID };

/** Chain id (decimal) → the game contracts trusted on it (lower-case addresses). */
export type TrustedGames = Readonly<Record<string, readonly string[]>>;

declare const __SHROUD_TRUSTED_GAMES__: TrustedGames | undefined;

/** The table compiled into the bundle (esbuild `define`); empty when the page runs unbundled (tests). */
export const BUILT_IN_TRUST: TrustedGames =
  typeof __SHROUD_TRUSTED_GAMES__ === 'undefined' ? {} : __SHROUD_TRUSTED_GAMES__;

export class UntrustedGameError extends Error {
  override name = 'UntrustedGameError';
}

/** The contracts trusted on `chainId`, or null when any is (the local chain). */
export function trustedOn(trust: TrustedGames, chainId: bigint): readonly string[] | null {
  return chainId === LOCAL_CHAIN_ID ? null : (trust[String(chainId)] ?? []);
}

/** Refuses a game contract this page was not built to trust on `chainId` (UntrustedGameError names both). */
export function assertTrustedGame(trust: TrustedGames, chainId: bigint, contract: string): void {
  if (isTrustedGame(trust, chainId, contract)) return;
  const ok = trustedOn(trust, chainId)!;
  throw new UntrustedGameError(
    ok.length === 0
      ? `this page trusts no game contract on chain ${chainId} (it was built without a deployment for it); refusing ${contract}`
      : `${contract} is not a game contract this page trusts on chain ${chainId} (it trusts ${ok.join(', ')})`,
  );
}

/** Whether `contract` is trusted on `chainId` (for listing lobbies without throwing). */
export function isTrustedGame(trust: TrustedGames, chainId: bigint, contract: string): boolean {
  const ok = trustedOn(trust, chainId);
  return ok === null || ok.includes(contract.toLowerCase());
}
