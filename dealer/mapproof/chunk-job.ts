/**
 * The chunk-job queue's wire format, shared by the dealer (dealer/mapproof/queue.ts) and the provers
 * (dealer/prover/): the pg-boss queue, its retry and liveness policy, a job's id and data.
 *
 * What a job holds: the game id, the zone and the ruleset name in clear (routing, progress, the dealer's
 * lookups), and the circuit input sealed with AES-256-GCM under `mapProof.jobKey`, bound to that game,
 * zone and ruleset. The input holds the game's seed (from which the whole map is generated) and the
 * zone's tile salts: a prover learns the map, as the dealer knows it, but no player's share and nothing
 * else the dealer's database holds (those are sealed under `masterKey`, which provers never get). That is
 * the trust an operator gives its own machines; whoever merely reads the database (a backup, a replica,
 * a role limited to the job tables) learns nothing from a job without the job key.
 */
import { createHash } from 'node:crypto';
import { type ConstructorOptions, PgBoss, type Queue } from 'pg-boss';
import type { MapChunkInput } from '../../core/mapproof/witness.ts';
import type { SecretBox } from '../store/secret-box.ts';

/** The pg-boss queue of `mapchunk` proofs. */
export const CHUNK_QUEUE = 'shroud-mapchunk';

/** How the queue retries and notices dead provers (settings `mapProof.attempts`, `mapProof.heartbeatSeconds`). */
export interface ChunkQueuePolicy {
  /** Tries of a job before it is marked failed (the first one included). */
  attempts: number;
  /** A prover that has not renewed its claim for this long has lost the job to another (pg-boss: ≥ 10). */
  heartbeatSeconds: number;
}

export const DEFAULT_QUEUE_POLICY: ChunkQueuePolicy = { attempts: 3, heartbeatSeconds: 30 };

/** The policy the settings give (the dealer's and each prover's: the same `mapProof.*` settings). */
export function queuePolicy(m: Partial<ChunkQueuePolicy> | undefined): ChunkQueuePolicy {
  return {
    attempts: m?.attempts ?? DEFAULT_QUEUE_POLICY.attempts,
    heartbeatSeconds: m?.heartbeatSeconds ?? DEFAULT_QUEUE_POLICY.heartbeatSeconds,
  };
}

/** The pg-boss queue options: backoff between tries, and the heartbeat that frees a dead prover's job. */
export function queueOptions(p: ChunkQueuePolicy): Omit<Queue, 'name'> {
  return {
    retryLimit: p.attempts - 1,
    // 1 s, then about 2 s, 4 s … (jittered), at most a minute: a flaky machine is not hammered.
    retryDelay: 1,
    retryBackoff: true,
    retryDelayMax: 60,
    heartbeatSeconds: p.heartbeatSeconds,
    // Liveness is the heartbeat's job; this only bounds a prover that is alive but stuck.
    expireInSeconds: 3600,
    // The dealer stores each proof as soon as it sees it: finished jobs need not stay long.
    deleteAfterSeconds: 86_400,
  };
}

/**
 * pg-boss for one side of the queue. The dealer supervises (it retries jobs whose prover stopped
 * beating, often enough to notice within about a heartbeat) and installs the schema; provers only work.
 */
export function openBoss(
  url: string,
  role: 'dealer' | 'prover',
  policy: ChunkQueuePolicy,
  extra: Partial<ConstructorOptions> = {},
): PgBoss {
  const passSeconds = Math.max(1, Math.floor(policy.heartbeatSeconds / 3));
  return new PgBoss({
    connectionString: url,
    application_name: `shroud-${role}`,
    max: role === 'dealer' ? 3 : 2,
    schedule: false,
    ...(role === 'dealer'
      ? { supervise: true, superviseIntervalSeconds: passSeconds, monitorIntervalSeconds: passSeconds }
      : { supervise: false, migrate: false, createSchema: false }),
    ...extra,
  });
}

/** A job's data as stored: see the module comment for what is sealed. */
export interface ChunkJobData {
  v: 1;
  gameId: string;
  zone: number;
  ruleset: string;
  sealed: string;
}

/** What a prover gets out of a job once opened. */
export interface OpenedChunkJob {
  gameId: bigint;
  zone: number;
  ruleset: string;
  input: MapChunkInput;
}

/** A job that cannot be opened or is malformed: the prover fails it (and the queue retries it elsewhere). */
export class ChunkJobError extends Error {
  override name = 'ChunkJobError';
}

const aad = (gameId: bigint | string, zone: number, ruleset: string) =>
  `shroud-mapchunk:${gameId}:${zone}:${ruleset}`;

/**
 * One id per game and zone (a UUID from a hash), so a restarted dealer finds the job it queued before
 * instead of queueing a second one, and two calls race to a single job.
 */
export function chunkJobId(gameId: bigint, zone: number): string {
  const h = createHash('sha256').update(`shroud-mapchunk:${gameId}:${zone}`).digest('hex');
  // Version 8 (custom), RFC 9562 variant.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function sealChunkJob(box: SecretBox, j: OpenedChunkJob): ChunkJobData {
  return {
    v: 1,
    gameId: j.gameId.toString(),
    zone: j.zone,
    ruleset: j.ruleset,
    sealed: box.seal(JSON.stringify(j.input), aad(j.gameId, j.zone, j.ruleset)),
  };
}

const DECIMAL = /^[0-9]{1,78}$/;
/** A shipped or custom ruleset's name, never a path (provers join it to their keys folder). */
export const RULESET_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Checks every field (the database is not trusted to hold only what the dealer wrote) and opens the input. */
export function openChunkJob(box: SecretBox, data: unknown): OpenedChunkJob {
  const d = data as Partial<ChunkJobData> | null;
  if (
    d?.v !== 1 ||
    typeof d.gameId !== 'string' ||
    !DECIMAL.test(d.gameId) ||
    !Number.isSafeInteger(d.zone) ||
    d.zone! < 0 ||
    typeof d.ruleset !== 'string' ||
    !RULESET_NAME.test(d.ruleset) ||
    d.ruleset.includes('..') ||
    typeof d.sealed !== 'string'
  ) {
    throw new ChunkJobError('not a Shroud chunk job (v1)');
  }
  let input: MapChunkInput;
  try {
    input = JSON.parse(box.open(d.sealed, aad(d.gameId, d.zone!, d.ruleset))) as MapChunkInput;
  } catch {
    throw new ChunkJobError(
      `game ${d.gameId} zone ${d.zone}: the job does not open with this prover's SHROUD_MAP_PROOF_JOB_KEY (the dealer's?)`,
    );
  }
  return { gameId: BigInt(d.gameId), zone: d.zone!, ruleset: d.ruleset, input };
}
