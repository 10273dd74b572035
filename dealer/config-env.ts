/**
 * Every dealer setting's environment variable: the one table `loadConfig` applies, `check` reports and
 * docs/dealer-config.md is generated from (test/dealer/config-env.test.ts keeps the three in step with the
 * config schema, so a new setting without a variable or a doc row fails the tests).
 */
import { DEFAULT_CACHE_LIMITS } from './cache-limits.ts';
import { DEFAULT_PLAYER_RATE_LIMIT } from './rate-limit.ts';

/** How a variable's text becomes the setting's value. */
export type EnvKind =
  | 'string'
  | 'int'
  | 'number'
  /** `true` or `false` (also `1` or `0`). */
  | 'bool'
  /** Comma-separated; `none` is the empty list. */
  | 'list'
  /** A JSON value (an array of lobby kinds). */
  | 'json';

export interface EnvSetting {
  /** Dotted config path, e.g. `http.port`. */
  path: string;
  env: string;
  kind: EnvKind;
  /** One line for the doc's table. */
  meaning: string;
  /** What applies when neither the file nor the environment sets it, if config.default.json does not say. */
  fallback?: string;
  /** A key or a password: never printed (`check` shows only whether it is set). */
  secret?: boolean;
}

export const ENV_SETTINGS: readonly EnvSetting[] = [
  {
    path: 'http.host',
    env: 'SHROUD_DEALER_HOST',
    kind: 'string',
    meaning: 'Address to listen on (`0.0.0.0`: every interface).',
  },
  {
    path: 'http.port',
    env: 'SHROUD_DEALER_PORT',
    kind: 'int',
    meaning: 'TCP port (`0`: any free port, logged).',
  },
  {
    path: 'http.bodyLimitBytes',
    env: 'SHROUD_BODY_LIMIT_BYTES',
    kind: 'int',
    meaning: 'Largest request body accepted (256 to 1048576 bytes).',
  },
  {
    path: 'http.corsOrigins',
    env: 'SHROUD_CORS_ORIGINS',
    kind: 'list',
    meaning: 'Browser origins allowed by CORS, comma-separated; `*` any, `none` no CORS headers.',
  },
  {
    path: 'http.rateLimit.max',
    env: 'SHROUD_RATE_LIMIT_MAX',
    kind: 'int',
    meaning: 'Requests per client IP per window, all routes.',
  },
  {
    path: 'http.rateLimit.timeWindowMs',
    env: 'SHROUD_RATE_LIMIT_WINDOW_MS',
    kind: 'int',
    meaning: 'That window, in milliseconds.',
  },
  { path: 'http.docs', env: 'SHROUD_DOCS', kind: 'bool', meaning: 'Serve the OpenAPI page at `/docs`.' },
  {
    path: 'http.trustProxy',
    env: 'SHROUD_TRUST_PROXY',
    kind: 'list',
    meaning:
      'Reverse proxies (addresses or CIDRs, comma-separated) whose `X-Forwarded-For` names the client, for the per-IP rate limit; `none` (default): trust none.',
  },
  {
    path: 'chain.kind',
    env: 'SHROUD_CHAIN_KIND',
    kind: 'string',
    meaning: '`ethers` (JSON-RPC) or `fake-file` (a FakeChain JSON file: tests and demos only).',
  },
  {
    path: 'chain.rpcUrl',
    env: 'SHROUD_RPC_URL',
    kind: 'string',
    meaning: 'JSON-RPC endpoint (may hold an API key: only its host is ever printed).',
  },
  {
    path: 'chain.chainId',
    env: 'SHROUD_CHAIN_ID',
    kind: 'int',
    meaning:
      'Expected chain id; the dealer exits if the RPC reports another. The demo keys are refused on any chain but 31337.',
  },
  {
    path: 'chain.gameContract',
    env: 'SHROUD_GAME_CONTRACT',
    kind: 'string',
    meaning:
      "ShroudGame address (`deployments/<chainId>.json`). The default, the local chain's first deployment, is refused on any chain but 31337.",
  },
  {
    path: 'chain.fakeFile',
    env: 'SHROUD_FAKE_CHAIN_FILE',
    kind: 'string',
    meaning: 'The FakeChain file (chain kind `fake-file` only).',
  },
  {
    path: 'chain.pollMs',
    env: 'SHROUD_POLL_MS',
    kind: 'int',
    meaning: 'How often the watcher polls the chain, in milliseconds.',
  },
  {
    path: 'chain.startBlock',
    env: 'SHROUD_START_BLOCK',
    kind: 'int',
    meaning: "First block scanned on an empty database: the game contract's deployment block.",
  },
  {
    path: 'chain.confirmations',
    env: 'SHROUD_CONFIRMATIONS',
    kind: 'int',
    meaning: 'Blocks behind the head treated as final (0 to 64).',
    fallback: '`2`',
  },
  {
    path: 'chain.mapProofRegistry',
    env: 'SHROUD_MAP_PROOF_REGISTRY',
    kind: 'string',
    meaning: "MapProofRegistry address the dealer posts each game's map root proof to.",
    fallback: 'none (proofs served at `/map-proof` only)',
  },
  {
    path: 'reveals.maxExpirySeconds',
    env: 'SHROUD_MAX_EXPIRY_SECONDS',
    kind: 'int',
    meaning: 'Longest validity a signed reveal request may claim (1 to 3600 s).',
  },
  {
    path: 'reveals.playerRateLimit.perSecond',
    env: 'SHROUD_PLAYER_RATE_PER_SECOND',
    kind: 'number',
    meaning: 'Reveal requests per verified player per second, sustained (may be fractional).',
  },
  {
    path: 'reveals.playerRateLimit.burst',
    env: 'SHROUD_PLAYER_RATE_BURST',
    kind: 'int',
    meaning: 'Reveal requests per verified player at once.',
  },
  {
    path: 'caches.maps',
    env: 'SHROUD_CACHE_MAPS',
    kind: 'int',
    meaning:
      'Dealt maps kept in memory, most recently used (~1.2 MB each on duel, ~7 MB on standard); one evicted is rebuilt from the database (~0.2 s on duel).',
  },
  {
    path: 'caches.games',
    env: 'SHROUD_CACHE_GAMES',
    kind: 'int',
    meaning: 'Games whose record and map-proof progress are kept in memory (~1 KB each).',
  },
  {
    path: 'caches.openings',
    env: 'SHROUD_CACHE_OPENINGS',
    kind: 'int',
    meaning: 'Answers of verified openings kept for re-fetches (~1 KB per tile).',
  },
  {
    path: 'caches.signers',
    env: 'SHROUD_CACHE_SIGNERS',
    kind: 'int',
    meaning: "Players' public keys kept with precomputed tables for the signed route (~0.55 MB each).",
  },
  {
    path: 'caches.sessions',
    env: 'SHROUD_CACHE_SESSIONS',
    kind: 'int',
    meaning: 'Live reveal sessions; beyond it the least recently used one ends (its client opens another).',
  },
  {
    path: 'caches.entries',
    env: 'SHROUD_CACHE_ENTRIES',
    kind: 'int',
    meaning:
      "Entries of each small memo (play commitments, refusals, served and receipted turns, players' rate buckets, burned nonces; ~150 B each).",
  },
  {
    path: 'mapProof.enabled',
    env: 'SHROUD_MAP_PROOF_ENABLED',
    kind: 'bool',
    meaning:
      "Prove each dealt game's map in the background (needs the mapchunk and maproot keys; a config file without `mapProof`: off).",
  },
  {
    path: 'mapProof.buildDir',
    env: 'SHROUD_MAP_PROOF_DIR',
    kind: 'string',
    meaning: 'Where those keys are: `<dir>/<ruleset>/{mapchunk,maproot}` (`npm run circuits:build`).',
  },
  {
    path: 'mapProof.workers',
    env: 'SHROUD_MAP_PROOF_WORKERS',
    kind: 'int',
    meaning:
      "Prover child processes (1 to 64); with the queue, each `dealer prover`'s default concurrency (the dealer keeps one, for root proofs).",
  },
  {
    path: 'mapProof.queue',
    env: 'SHROUD_MAP_PROOF_QUEUE',
    kind: 'bool',
    meaning:
      'Chunk proofs become jobs on a durable queue (pg-boss, schema `pgboss`) in the PostgreSQL database (`db.driver` `postgres` only), proven by `npm run dealer -- prover` on any machines; the dealer verifies each proof, then proves the root and posts.',
    fallback: '`false` (the local pool)',
  },
  {
    path: 'mapProof.jobKey',
    env: 'SHROUD_MAP_PROOF_JOB_KEY',
    kind: 'string',
    meaning:
      "32-byte AES-256-GCM key sealing each chunk job's input (the game's seed and the zone's salts); the dealer and every prover share it. Required with the queue; must differ from the master key.",
    fallback: 'none',
    secret: true,
  },
  {
    path: 'mapProof.heartbeatSeconds',
    env: 'SHROUD_MAP_PROOF_HEARTBEAT_SECONDS',
    kind: 'int',
    meaning:
      'A prover that has not renewed its claim on a chunk job for this long (10 to 3600 s; killed, cut off) loses it to another.',
    fallback: '`30`',
  },
  {
    path: 'mapProof.attempts',
    env: 'SHROUD_MAP_PROOF_ATTEMPTS',
    kind: 'int',
    meaning:
      'Tries of a chunk job (1 to 10, backoff 1 s, 2 s, 4 s … between them) before it is marked failed, and with it the map proof until the dealer restarts.',
    fallback: '`3`',
  },
  {
    path: 'artifacts.dir',
    env: 'SHROUD_ARTIFACTS_DIR',
    kind: 'string',
    meaning:
      'Proving artifacts served content-addressed under `/v1/artifacts` (zkeys, wasms, their manifest); off when the folder is absent.',
    fallback: '`contracts/generated`',
  },
  {
    path: 'lobbies.kinds',
    env: 'SHROUD_LOBBIES',
    kind: 'json',
    meaning:
      'Open lobbies, a JSON array of `{name, ruleset, seats, stake, disputeDeposit, maxTurns, bond}` (wei as decimal strings); the dealer creates each game once its seats are taken.',
    fallback: 'none (no lobby; `GET /v1/lobbies` still names the dealer and its seal key)',
  },
  {
    path: 'lobbies.maxJoinAheadSeconds',
    env: 'SHROUD_LOBBY_JOIN_AHEAD_SECONDS',
    kind: 'int',
    meaning: "How far in the future a signed join's deadline may be.",
    fallback: '600',
  },
  {
    path: 'lobbies.maxPendingGames',
    env: 'SHROUD_LOBBY_MAX_PENDING_GAMES',
    kind: 'int',
    meaning:
      'Most games created for lobbies that may still be waiting for their players (within their commit and reveal windows); the join that would fill one more is refused (503 `lobbies-busy`): what addresses that never commit can cost in createGame gas and locked bonds.',
    fallback: '8',
  },
  {
    path: 'db.driver',
    env: 'SHROUD_DB_DRIVER',
    kind: 'string',
    meaning: '`sqlite` or `postgres`.',
    fallback: '`sqlite`',
  },
  {
    path: 'db.path',
    env: 'SHROUD_DB',
    kind: 'string',
    meaning: 'The SQLite file (its folder must be writable: WAL files sit beside it).',
  },
  {
    path: 'db.url',
    env: 'SHROUD_DB_URL',
    kind: 'string',
    meaning: '`postgres://user:password@host:5432/database` (driver `postgres`).',
    fallback: 'none',
    secret: true,
  },
  {
    path: 'keys.dealerKey',
    env: 'SHROUD_DEALER_KEY',
    kind: 'string',
    meaning: 'Baby Jubjub seal secret players seal their shares to (`npm run dealer -- keys`).',
    fallback: 'the public demo key (chain 31337 only)',
    secret: true,
  },
  {
    path: 'keys.masterKey',
    env: 'SHROUD_MASTER_KEY',
    kind: 'string',
    meaning:
      '32-byte AES-256-GCM key encrypting secrets at rest. Keep a copy apart from the database backups.',
    fallback: 'all zeros (chain 31337 only)',
    secret: true,
  },
  {
    path: 'keys.txKey',
    env: 'SHROUD_TX_KEY',
    kind: 'string',
    meaning:
      "secp256k1 key sending the dealer's transactions (fund its address); must differ from the seal secret.",
    fallback: 'none (required for chain kind `ethers`)',
    secret: true,
  },
  {
    path: 'log.level',
    env: 'SHROUD_LOG_LEVEL',
    kind: 'string',
    meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent` (JSON lines on stdout).',
  },
];

/**
 * Optional groups a file may leave out: when the environment sets part of one, the rest comes from here
 * (the same values as config.default.json, checked by a test).
 */
export const GROUP_DEFAULTS: Readonly<Record<string, Record<string, unknown>>> = {
  'reveals.playerRateLimit': { ...DEFAULT_PLAYER_RATE_LIMIT },
  caches: { ...DEFAULT_CACHE_LIMITS },
  mapProof: { enabled: true, buildDir: './build/circuits', workers: 2 },
  // Without it, SHROUD_LOBBY_* set and SHROUD_LOBBIES empty (the example env file) was refused: no `kinds`.
  lobbies: { kinds: [] },
};

/** A variable whose text is not of its kind: the message names the variable, never the value. */
export class EnvValueError extends Error {}

export function parseEnvValue(s: EnvSetting, v: string): unknown {
  switch (s.kind) {
    case 'string':
      return v;
    case 'int':
      if (!/^[0-9]+$/.test(v)) throw new EnvValueError(`${s.env}: not an integer`);
      return Number(v);
    case 'number':
      if (!/^[0-9]+(\.[0-9]+)?$/.test(v)) throw new EnvValueError(`${s.env}: not a number`);
      return Number(v);
    case 'bool':
      if (/^(true|1)$/i.test(v)) return true;
      if (/^(false|0)$/i.test(v)) return false;
      throw new EnvValueError(`${s.env}: not true or false`);
    case 'list':
      if (v.trim() === 'none') return [];
      return v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
    case 'json':
      try {
        return JSON.parse(v);
      } catch {
        throw new EnvValueError(`${s.env}: not valid JSON`);
      }
  }
}

function getPath(obj: Record<string, unknown>, path: string): unknown {
  let o: unknown = obj;
  for (const k of path.split('.')) {
    if (typeof o !== 'object' || o === null) return undefined;
    o = (o as Record<string, unknown>)[k];
  }
  return o;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) {
    if (typeof o[k] !== 'object' || o[k] === null) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  o[keys[keys.length - 1]!] = value;
}

/**
 * Applies every set (non-empty) variable to `raw` in place; returns the names applied. An empty variable
 * counts as unset, so an env file may list every name with blanks for the defaults.
 */
export function applyEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  const applied: string[] = [];
  const absentGroups = Object.keys(GROUP_DEFAULTS).filter((g) => getPath(raw, g) === undefined);
  for (const s of ENV_SETTINGS) {
    const v = env[s.env];
    if (v === undefined || v === '') continue;
    setPath(raw, s.path, parseEnvValue(s, v));
    applied.push(s.env);
  }
  // A group the file left out, now partly set by the environment: its other fields keep their defaults.
  for (const g of absentGroups) {
    const group = getPath(raw, g) as Record<string, unknown> | undefined;
    if (group) for (const [k, v] of Object.entries(GROUP_DEFAULTS[g]!)) group[k] ??= v;
  }
  return applied;
}
