/**
 * The Node side of artifact handling: a file cache, and `proverFromDealer`, the one call a Node player (the
 * CLI, a bot) needs to prove with artifacts the chain vouches for. Not exported from index.ts (node: imports).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import {
  type ArtifactCache,
  type ArtifactEvent,
  type ArtifactHash,
  ArtifactStore,
} from '../sdk/artifacts.ts';
import type { GameChain } from '../sdk/chain.ts';
import { StoreProver } from '../sdk/prover.ts';

/**
 * Artifacts as files `<dir>/<sha256 hex>`, written atomically (a temporary file, then rename): a crash or a
 * second process mid-write never leaves a half file under a hash's name. The store re-checks every read.
 */
export class FileArtifactCache implements ArtifactCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  /** The file a hash is kept in. */
  pathOf(hash: ArtifactHash): string {
    return path.join(this.dir, hash.slice(2).toLowerCase());
  }

  async get(hash: ArtifactHash): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await readFile(this.pathOf(hash)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async put(hash: ArtifactHash, bytes: Uint8Array): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const to = this.pathOf(hash);
    const tmp = `${to}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, bytes);
      await rename(tmp, to);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }
}

/** `$XDG_CACHE_HOME/shroud/artifacts`, else `~/.cache/shroud/artifacts`. */
export function defaultArtifactCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'shroud', 'artifacts');
}

/** The dealer's artifact base URL: `<dealerUrl>/v1/artifacts`. */
export function dealerArtifactsUrl(dealerUrl: string): string {
  return `${dealerUrl.replace(/\/+$/, '')}/v1/artifacts`;
}

export interface ProverFromDealerOptions {
  chain: GameChain;
  gameId: bigint;
  /** The dealer's base URL (as for DealerClient); artifacts come from `<dealerUrl>/v1/artifacts`. */
  dealerUrl: string;
  /** Default: defaultArtifactCacheDir(). */
  cacheDir?: string;
  /** Static hosts (`npm run artifacts:export` trees) tried before the dealer, in order. */
  mirrors?: readonly string[];
  /** Fetch and check every player circuit before returning (default true: fail before any stake). */
  prefetch?: boolean;
  onEvent?: (e: ArtifactEvent) => void;
  fetch?: typeof fetch;
}

/**
 * A StoreProver for `gameId`: artifacts from the mirrors, then the dealer, cached in `cacheDir`, each checked
 * against the hashes the game's VerifierRegistry (and its seal verifier) registered. With `prefetch` (the
 * default) every circuit is fetched and checked before this returns, so the caller fails before committing.
 */
export async function proverFromDealer(o: ProverFromDealerOptions): Promise<StoreProver> {
  const store = new ArtifactStore({
    baseUrls: [...(o.mirrors ?? []), dealerArtifactsUrl(o.dealerUrl)],
    cache: new FileArtifactCache(o.cacheDir ?? defaultArtifactCacheDir()),
    ...(o.onEvent ? { onEvent: o.onEvent } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  const prover = new StoreProver({ store, chain: o.chain, game: o.gameId });
  if (o.prefetch ?? true) await prover.prefetch();
  return prover;
}
