import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Hasher, ValidRuleset } from '../../core/index.ts';
import { mapRootSignals } from '../../core/mapproof/signals.ts';
import type { Groth16Proof, MapProof, ProverArtifacts } from '../../core/mapproof/types.ts';
import { DEFAULT_CACHE_LIMITS } from '../cache-limits.ts';
import type { ChainView } from '../chain/types.ts';
import { Lru } from '../lru.ts';
import type { MapCache } from '../maps.ts';
import type { DealerStore } from '../store/types.ts';
import type { ChunkProver } from './chunk-prover.ts';
import type { ProverPool } from './pool.ts';
import { proveMap } from './prove.ts';

/** `mapchunk.vkey` checks chunk proofs made on other machines (the job queue). */
export type MapCircuitArtifacts = {
  mapchunk: ProverArtifacts & { vkey: string };
  maproot: ProverArtifacts;
};

/** Where a ruleset's map-proof keys are; null when the operator has not built them. */
export type ArtifactSource = (ruleset: ValidRuleset) => MapCircuitArtifacts | null;

/**
 * The pipeline's cache layout (`npm run circuits:build -- --ruleset R --circuits mapchunk,maproot`).
 * The dealer never compiles or runs a setup itself: that takes minutes and blocks.
 */
export function buildDirArtifacts(buildDir: string): ArtifactSource {
  return (r) => {
    const mapchunk = circuitFiles(buildDir, r.name, 'mapchunk');
    const maproot = circuitFiles(buildDir, r.name, 'maproot');
    return mapchunk && maproot ? { mapchunk, maproot } : null;
  };
}

/** One circuit's wasm, zkey and verification key in that layout, or null when any is missing. */
export function circuitFiles(
  buildDir: string,
  ruleset: string,
  circuit: 'mapchunk' | 'maproot',
): (ProverArtifacts & { vkey: string }) | null {
  const dir = path.join(buildDir, ruleset, circuit);
  const a = {
    wasm: path.join(dir, `${circuit}_js`, `${circuit}.wasm`),
    zkey: path.join(dir, `${circuit}.zkey`),
    vkey: path.join(dir, `${circuit}.vkey.json`),
  };
  return existsSync(a.wasm) && existsSync(a.zkey) && existsSync(a.vkey) ? a : null;
}

export interface MapProofStatus {
  /** `waiting-keys`: the ruleset's map-proof keys are not built yet; proving starts once they are. */
  state: 'unavailable' | 'waiting-keys' | 'proving' | 'done' | 'failed';
  done: number;
  total: number;
}

export interface MapProverDeps {
  h: Hasher;
  /** Posts the root proof on-chain when the chain view supports it (a MapProofRegistry is configured). */
  chain?: Pick<ChainView, 'submitMapProof'>;
  store: DealerStore;
  maps: MapCache;
  /** Proves root proofs, and chunk proofs unless `chunks` is given. */
  pool: ProverPool;
  /** Where chunk proofs are made instead of `pool` (the PostgreSQL job queue). */
  chunks?: ChunkProver;
  artifacts: ArtifactSource;
  log: Logger;
  onProgress?: (gameId: bigint, done: number, total: number) => void;
  /** Games whose proving status is kept (config `caches.games`); a finished proof is read from the store. */
  maxStatuses?: number;
  /** How often a game waiting for its ruleset's keys looks for them again (default 2000 ms). */
  keysPollMs?: number;
}

const ROOT_PROOF = -1;

/**
 * Produces each dealt game's ZK map proof in the background: every zone's chunk proof in parallel on
 * the worker pool (or the job queue), and the root proof on the pool alongside them. Finished proofs are persisted
 * one by one, so a restarted dealer continues where it stopped. A game dealt before its ruleset's keys exist waits
 * for them (`waiting-keys`).
 */
export class MapProver {
  readonly #d: MapProverDeps;
  /** Progress per game, the most recently updated ones (a game being proven updates its own often). */
  readonly #status: Lru<string, MapProofStatus>;
  /** Proofs in progress (deleted when done: bounded by the games being proven). */
  readonly #running = new Map<string, Promise<void>>();

  constructor(d: MapProverDeps) {
    this.#d = d;
    this.#status = new Lru({ max: d.maxStatuses ?? DEFAULT_CACHE_LIMITS.games });
  }

  /** Entries per cache, for the `shroud_dealer_cache_entries` gauge. */
  cacheSizes(): Record<string, number> {
    return { 'map-proof-statuses': this.#status.size, 'map-proofs-running': this.#running.size };
  }

  status(gameId: bigint): MapProofStatus {
    return this.#status.get(gameId.toString()) ?? { state: 'unavailable', done: 0, total: 0 };
  }

  /** The complete proof, from the store; null until the root proof exists. */
  async proof(gameId: bigint): Promise<MapProof | null> {
    const all = await this.#d.store.mapProofs(gameId);
    const root = all.get(ROOT_PROOF);
    if (!root) return null;
    const chunks: Groth16Proof[] = [];
    for (let z = 0; all.has(z); z++) chunks.push(all.get(z)!);
    return { chunks, root };
  }

  /** Starts (or joins) proving a dealt game; resolves when its proof is complete or has failed. */
  start(gameId: bigint): Promise<void> {
    const key = gameId.toString();
    let run = this.#running.get(key);
    if (!run) {
      run = this.#prove(gameId).finally(() => this.#running.delete(key));
      this.#running.set(key, run);
    }
    return run;
  }

  /** Posts the root proof to the MapProofRegistry with the seed hash and zone roots it proves. */
  async #post(
    gameId: bigint,
    zones: number,
    maxPlayers: number,
    root: Groth16Proof,
    log: Logger,
  ): Promise<void> {
    if (!this.#d.chain?.submitMapProof) return;
    const s = mapRootSignals(root.publicSignals, maxPlayers, zones);
    const seedHash = BigInt(s.seedHash);
    const zoneRoots = s.zoneRoots.map((z) => BigInt(z));
    try {
      const tx = await this.#d.chain.submitMapProof(gameId, seedHash, zoneRoots, root);
      if (tx) log.info({ tx: tx.hash }, 'map proof verified on-chain');
    } catch (e) {
      log.error({ err: (e as Error).message }, 'map proof submission failed; it stays served over HTTP');
    }
  }

  async #prove(gameId: bigint): Promise<void> {
    const key = gameId.toString();
    const log = this.#d.log.child({ gameId: key });
    const game = await this.#d.store.getGame(gameId);
    const secrets = await this.#d.store.getSecrets(gameId);
    if (!game || !secrets) return;
    const map = await this.#d.maps.get(gameId);
    const board = map.ruleset.board;
    const total = board.zoneCount + 1;
    let artifacts = this.#d.artifacts(map.ruleset);
    if (!artifacts) {
      // Keys built while the dealer runs (the demo builds them in the background) are picked up when they appear.
      log.warn(
        { ruleset: map.ruleset.name },
        `map proofs need "npm run circuits:build -- --ruleset ${map.ruleset.name} --circuits mapchunk,maproot"; proving starts once they exist`,
      );
      this.#status.set(key, { state: 'waiting-keys', done: 0, total });
      const poll = this.#d.keysPollMs ?? 2000;
      while (!artifacts) {
        await new Promise((r) => setTimeout(r, poll).unref());
        artifacts = this.#d.artifacts(map.ruleset);
      }
      log.info({ ruleset: map.ruleset.name }, 'map-proof keys found');
    }
    const stored = await this.#d.store.mapProofs(gameId);
    if (stored.has(ROOT_PROOF)) {
      this.#status.set(key, { state: 'done', done: total, total });
      await this.#post(gameId, board.zoneCount, map.ruleset.players.max, stored.get(ROOT_PROOF)!, log);
      return;
    }
    this.#status.set(key, { state: 'proving', done: 0, total });
    const started = Date.now();
    try {
      await proveMap(this.#d.h, this.#d.pool, {
        board,
        maxPlayers: map.ruleset.players.max,
        gameId,
        players: game.players.map((p) => BigInt(p)),
        shares: secrets.shares,
        seed: secrets.seed,
        map: map.commitment,
        artifacts,
        ruleset: map.ruleset.name,
        ...(this.#d.chunks ? { chunks: this.#d.chunks } : {}),
        store: {
          load: async (zone) => stored.get(zone) ?? null,
          save: (zone, proof) => this.#d.store.putMapProof(gameId, zone, proof),
        },
        onProgress: (done) => {
          this.#status.set(key, { state: 'proving', done, total });
          this.#d.onProgress?.(gameId, done, total);
          log.info({ done, total }, 'map proof progress');
        },
      }).then(async (p) => {
        await this.#d.store.putMapProof(gameId, ROOT_PROOF, p.root);
        return p;
      });
      this.#status.set(key, { state: 'done', done: total, total });
      log.info({ seconds: (Date.now() - started) / 1000 }, 'map proof complete');
      await this.#post(
        gameId,
        board.zoneCount,
        map.ruleset.players.max,
        (await this.proof(gameId))!.root,
        log,
      );
    } catch (e) {
      this.#status.set(key, { state: 'failed', done: this.status(gameId).done, total });
      log.error({ err: (e as Error).message }, 'map proof failed');
    }
  }
}
