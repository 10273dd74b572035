/**
 * Proving artifacts a player can trust: the zkey and wasm of each circuit, downloaded from any host (the
 * dealer's `/v1/artifacts`, a static mirror written by `npm run artifacts:export`) and accepted only when
 * their SHA-256 is the one the chain registered beside the circuit's verifier
 * (`VerifierRegistry.artifactsOf(verifier)`). A wrong file could only make proofs fail, but a player who
 * staked and then cannot prove forfeits: so files are checked before the first proof, and a bad one is
 * never cached. Browser-safe (fetch and WebCrypto only); the Node file cache and
 * `proverFromDealer` are in client/node/artifacts.ts (Node only).
 */
import {
  type ArtifactHashes,
  type ArtifactKind,
  artifactFileName,
  artifactSha256,
  isArtifactHash,
} from '@shroud/core/artifacts.ts';
import type { CircuitKind, GameChain, RegistryCircuit } from './chain.ts';
import {
  type ArtifactAttempt,
  ArtifactMismatchError,
  ArtifactsNotRegisteredError,
  ArtifactUnavailableError,
} from './errors.ts';
import { readBody } from './http-body.ts';

export type ArtifactHash = `0x${string}`;
/** A circuit with artifacts: the player's (seal and the play circuits) and the dealer's maproot. */
export type ArtifactCircuit = CircuitKind | 'maproot';

/** The bytes `snarkjs.groth16.fullProve(input, wasm, zkey)` takes. */
export interface CircuitArtifactBytes {
  wasm: Uint8Array;
  zkey: Uint8Array;
}

/**
 * Where checked artifacts are kept between runs, by SHA-256. The store re-checks what `get` returns, so a
 * cache needs no integrity of its own; `put` only ever receives bytes that matched their hash.
 */
export interface ArtifactCache {
  get(hash: ArtifactHash): Promise<Uint8Array | null>;
  put(hash: ArtifactHash, bytes: Uint8Array): Promise<void>;
}

/** A cache for one process (tests, short-lived pages). */
export class MemoryArtifactCache implements ArtifactCache {
  readonly #m = new Map<string, Uint8Array>();
  async get(hash: ArtifactHash): Promise<Uint8Array | null> {
    return this.#m.get(hash) ?? null;
  }
  async put(hash: ArtifactHash, bytes: Uint8Array): Promise<void> {
    this.#m.set(hash, bytes);
  }
}

/** What the store did, for progress displays and tests. */
export type ArtifactEvent =
  | { type: 'cache-hit'; circuit: string; kind: ArtifactKind; hash: ArtifactHash; bytes: number }
  | { type: 'cache-corrupt'; circuit: string; kind: ArtifactKind; hash: ArtifactHash }
  | { type: 'cache-write-failed'; circuit: string; kind: ArtifactKind; hash: ArtifactHash; error: string }
  | {
      type: 'download';
      circuit: string;
      kind: ArtifactKind;
      hash: ArtifactHash;
      url: string;
      bytes: number;
      ms: number;
    }
  | {
      type: 'host-failed';
      circuit: string;
      kind: ArtifactKind;
      hash: ArtifactHash;
      url: string;
      reason: string;
    };

/** The chain reads the store needs (GameChain has them; tests may pass a stub). */
export type ArtifactChain = Pick<GameChain, 'config' | 'sealVerifier' | 'verifierOf' | 'artifactsOf'>;

export interface ArtifactStoreOptions {
  /** Base URLs tried in order, e.g. `https://dealer.example/v1/artifacts` or a static mirror's folder. */
  baseUrls: string | readonly string[];
  /** Default: a MemoryArtifactCache. */
  cache?: ArtifactCache;
  /** Default: globalThis.fetch. */
  fetch?: typeof fetch;
  /** Per download, milliseconds (default 5 min: a large zkey on a slow link). */
  timeoutMs?: number;
  /** A host sending more than this is cut off (default 1 GiB; the largest shipped zkey is ~10 MB). */
  maxBytes?: number;
  onEvent?: (e: ArtifactEvent) => void;
}

const ZERO_HASH = `0x${'0'.repeat(64)}`;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** The verifier and registered hashes of one circuit. */
export interface ExpectedArtifacts extends ArtifactHashes {
  circuit: ArtifactCircuit;
  verifier: string;
}

/**
 * Downloads and checks proving artifacts against the chain. `forCircuit` is the one call a prover needs;
 * each hash is fetched at most once at a time, however many callers ask.
 */
export class ArtifactStore {
  readonly baseUrls: readonly string[];
  readonly #cache: ArtifactCache;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #onEvent: (e: ArtifactEvent) => void;
  readonly #inflight = new Map<string, Promise<Uint8Array>>();

  constructor(o: ArtifactStoreOptions) {
    const bases = typeof o.baseUrls === 'string' ? [o.baseUrls] : [...o.baseUrls];
    if (bases.length === 0) throw new Error('ArtifactStore: at least one base URL');
    this.baseUrls = bases.map((b) => b.replace(/\/+$/, ''));
    this.#cache = o.cache ?? new MemoryArtifactCache();
    this.#fetch = o.fetch ?? ((...a) => globalThis.fetch(...a));
    this.#timeoutMs = o.timeoutMs ?? 300_000;
    this.#maxBytes = o.maxBytes ?? 2 ** 30;
    this.#onEvent = o.onEvent ?? (() => {});
  }

  /**
   * The hashes the chain registered for `circuit`: the seal circuit's verifier is the game's own
   * (`sealVerifier()`), the others the registry's for the ruleset (`game` is a game id, whose ruleset is read,
   * or a 0x ruleset hash). Throws ArtifactsNotRegisteredError when there is no verifier or no hashes.
   */
  async expected(
    chain: ArtifactChain,
    game: bigint | string,
    circuit: ArtifactCircuit,
  ): Promise<ExpectedArtifacts> {
    let verifier: string;
    if (circuit === 'seal') verifier = await chain.sealVerifier();
    else {
      const rulesetHash = typeof game === 'bigint' ? (await chain.config(game)).rulesetHash : game;
      if (!isArtifactHash(rulesetHash.toLowerCase()))
        throw new Error(`${circuit}: ${rulesetHash} is not a ruleset hash (0x + 64 hex digits)`);
      verifier = await chain.verifierOf(rulesetHash, circuit as RegistryCircuit);
    }
    if (verifier === ZERO_ADDRESS) throw new ArtifactsNotRegisteredError(circuit, verifier);
    const a = await chain.artifactsOf(verifier);
    if (a.zkey === ZERO_HASH || a.wasm === ZERO_HASH)
      throw new ArtifactsNotRegisteredError(circuit, verifier);
    return { circuit, verifier, zkey: a.zkey, wasm: a.wasm };
  }

  /** The checked zkey and wasm of `circuit` for a game (or ruleset hash): from the cache, else downloaded. */
  async forCircuit(
    chain: ArtifactChain,
    game: bigint | string,
    circuit: ArtifactCircuit,
  ): Promise<CircuitArtifactBytes> {
    const e = await this.expected(chain, game, circuit);
    const [zkey, wasm] = await Promise.all([
      this.get(e.zkey, circuit, 'zkey'),
      this.get(e.wasm, circuit, 'wasm'),
    ]);
    return { zkey, wasm };
  }

  /** The bytes whose SHA-256 is `hash` (0x-hex): the cache's if they still hash right, else a download. */
  get(hash: ArtifactHash, circuit: string, kind: ArtifactKind): Promise<Uint8Array> {
    const h = hash.toLowerCase() as ArtifactHash;
    if (!isArtifactHash(h)) return Promise.reject(new Error(`${circuit} ${kind}: ${hash} is not a SHA-256`));
    let p = this.#inflight.get(h);
    if (!p) {
      p = this.#load(h, circuit, kind).finally(() => this.#inflight.delete(h));
      this.#inflight.set(h, p);
    }
    return p;
  }

  async #load(hash: ArtifactHash, circuit: string, kind: ArtifactKind): Promise<Uint8Array> {
    const cached = await this.#cache.get(hash).catch(() => null);
    if (cached) {
      if ((await artifactSha256(cached)) === hash) {
        this.#onEvent({ type: 'cache-hit', circuit, kind, hash, bytes: cached.byteLength });
        return cached;
      }
      this.#onEvent({ type: 'cache-corrupt', circuit, kind, hash });
    }
    const bytes = await this.#download(hash, circuit, kind);
    // A cache that cannot be written (disk full) costs a download next time, not this proof.
    await this.#cache.put(hash, bytes).catch((e: unknown) => {
      this.#onEvent({
        type: 'cache-write-failed',
        circuit,
        kind,
        hash,
        error: String((e as Error)?.message ?? e),
      });
    });
    return bytes;
  }

  /**
   * Tries each base URL in order. A host serving the wrong bytes is skipped like a host that is down (another
   * may serve the right ones); when none did, a mismatch is what is reported, since it is what needs a look.
   */
  async #download(hash: ArtifactHash, circuit: string, kind: ArtifactKind): Promise<Uint8Array> {
    const attempts: ArtifactAttempt[] = [];
    let mismatch: ArtifactMismatchError | undefined;
    for (const base of this.baseUrls) {
      const url = `${base}/${artifactFileName(hash, kind)}`;
      const t0 = performance.now();
      let bytes: Uint8Array;
      try {
        const res = await this.#fetch(url, { signal: AbortSignal.timeout(this.#timeoutMs) });
        if (!res.ok) {
          await res.body?.cancel().catch(() => {});
          throw new Error(`HTTP ${res.status}`);
        }
        bytes = await readBody(res, this.#maxBytes);
      } catch (e) {
        const err = e as Error;
        const reason = err?.name === 'TimeoutError' ? 'timeout' : String(err?.message ?? e);
        attempts.push({ url, reason });
        this.#onEvent({ type: 'host-failed', circuit, kind, hash, url, reason });
        continue;
      }
      const got = await artifactSha256(bytes);
      if (got !== hash) {
        mismatch ??= new ArtifactMismatchError({ circuit, kind, url, expected: hash, got });
        attempts.push({ url, reason: `SHA-256 ${got}` });
        this.#onEvent({ type: 'host-failed', circuit, kind, hash, url, reason: `SHA-256 ${got}` });
        continue;
      }
      const ms = performance.now() - t0;
      this.#onEvent({ type: 'download', circuit, kind, hash, url, bytes: bytes.byteLength, ms });
      return bytes;
    }
    throw mismatch ?? new ArtifactUnavailableError(circuit, kind, hash, attempts);
  }
}
