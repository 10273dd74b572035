import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { InputError } from '../core/errors.ts';
import { shippedRuleset } from '../core/ruleset/shipped.ts';
import { sealSecretKey } from '../core/sealed.ts';
import type { CacheLimits } from './cache-limits.ts';
import { checkGameTerms } from './chain/create-game.ts';
import { applyEnv, EnvValueError } from './config-env.ts';
import type { DealStep } from './dealing.ts';
import type { LobbyKind } from './lobby.ts';
import type { PlayerRateLimit } from './rate-limit.ts';
import { postgresTarget } from './store/postgres-url.ts';

export interface DealerConfig {
  http: {
    host: string;
    port: number;
    bodyLimitBytes: number;
    /** Allowed browser origins; empty = no CORS headers. `"*"` allows any. */
    corsOrigins: string[];
    rateLimit: { max: number; timeWindowMs: number };
    docs: boolean;
    /**
     * Addresses (or CIDR ranges) of the reverse proxies in front of the dealer, whose `X-Forwarded-For` names the
     * client: the per-IP rate limit then keys on each client, not on the proxy (which every client shares). Empty
     * (the default): the socket's peer is the client.
     */
    trustProxy?: string[];
  };
  chain: {
    /** `ethers`: JSON-RPC (pending the contract ABI). `fake-file`: a FakeChain JSON file (tests, demos). */
    kind: 'ethers' | 'fake-file';
    rpcUrl: string;
    chainId: number;
    gameContract: string;
    fakeFile: string;
    pollMs: number;
    startBlock: number;
    /** Blocks behind the head treated as final (ethers only; default 2). */
    confirmations?: number;
    /** MapProofRegistry: where the dealer posts each game's map root proof (optional). */
    mapProofRegistry?: string;
  };
  reveals: {
    maxExpirySeconds: number;
    /**
     * Token bucket per verified player (signature or session MAC checked, a player of the game) over the
     * reveal, session, session-reveal and receipt routes: `perSecond` sustained (may be fractional), `burst` at
     * once. Over budget: 429 `rate-limited`, field `player`, with Retry-After. Default 10/s, burst 40.
     * Env: SHROUD_PLAYER_RATE_PER_SECOND, SHROUD_PLAYER_RATE_BURST.
     */
    playerRateLimit?: PlayerRateLimit;
  };
  /**
   * Bounds of the in-memory caches, in entries (dealer/cache-limits.ts says what each holds and why its
   * default); a setting left out takes its default. Env: SHROUD_CACHE_*.
   */
  caches?: Partial<CacheLimits>;
  /** ZK map proofs: built keys under `buildDir/<ruleset>/{mapchunk,maproot}` (see circuits/README.md). */
  mapProof?: {
    enabled: boolean;
    buildDir: string;
    /** The dealer's prover processes (one with the queue: root proofs only); each `dealer prover`'s default. */
    workers: number;
    /**
     * Chunk proofs as jobs on a durable queue in the PostgreSQL database (pg-boss), proven by
     * `npm run dealer -- prover` processes on any machines (db.driver `postgres` only). Default false.
     */
    queue?: boolean;
    /** 32-byte hex AES-256-GCM key sealing each job's input; dealer and provers share it (secret). */
    jobKey?: string;
    /** A prover silent this long loses its job to another (10 to 3600 s, default 30). */
    heartbeatSeconds?: number;
    /** Tries of a chunk job before it is marked failed (1 to 10, default 3). */
    attempts?: number;
  };
  /**
   * Proving artifacts served under `/v1/artifacts` (content-addressed): the zkeys and wasms that
   * `dir`/manifest.json and seal.json name. Default `contracts/generated` (from the working directory); the
   * routes are off when the folder is absent. Env: SHROUD_ARTIFACTS_DIR.
   */
  artifacts?: { dir: string };
  db: {
    /** `sqlite` (default): one file at `path`. `postgres`: the server at `url`. */
    driver?: 'sqlite' | 'postgres';
    path?: string;
    /** `postgres://user:password@host:5432/database`: prefer SHROUD_DB_URL (the password is a secret). */
    url?: string;
  };
  /** Secrets: prefer the environment. Never logged. */
  keys: {
    /**
     * The Baby Jubjub seal secret d (0x-hex, 1 ≤ d < l): players seal their shares to d·BASE8, the
     * `sealKey` of every game this dealer creates. `npm run dealer -- keys` makes one.
     */
    dealerKey: string;
    /** 32-byte hex AES-256 key for secrets at rest. */
    masterKey: string;
    /** 32-byte hex secp256k1 key that sends the dealer's transactions (chain kind `ethers`); separate from dealerKey. */
    txKey?: string;
  };
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' };
  /**
   * Open lobbies (dealer/lobby.ts): players join one with an EIP-712 `Join`; when its seats are taken the
   * dealer creates the game from its transaction key. Env: SHROUD_LOBBIES (the `kinds` array as JSON),
   * SHROUD_LOBBY_JOIN_AHEAD_SECONDS, SHROUD_LOBBY_MAX_PENDING_GAMES.
   */
  lobbies?: {
    /** Furthest ahead a join's deadline may be, seconds (default 600): how long its nonce matters. */
    maxJoinAheadSeconds?: number;
    /** Most lobby games that may be waiting for their players at once (default 8): see dealer/lobby.ts. */
    maxPendingGames?: number;
    /** Absent: no lobby (the routes still name the dealer and its seal key). */
    kinds?: LobbyKindConfig[];
  };
}

/** One kind of lobby: always one open instance of it; a filled one becomes a game of these terms. */
export interface LobbyKindConfig {
  /** Unique among the kinds, e.g. `tiny-duel`. */
  name: string;
  /** A shipped ruleset (registered with the game contract). */
  ruleset: string;
  seats: number;
  /** Wei, decimal strings (uint96 does not fit a JSON number). */
  stake: string;
  disputeDeposit: string;
  maxTurns: number;
  /** The dealer's bond per game, wei (> 0). */
  bond: string;
}

const hex32 = { type: 'string', pattern: '^(0x)?[0-9a-fA-F]{64}$' };
const wei = { type: 'string', pattern: '^[0-9]{1,29}$' };

/** The config file's JSON schema (exported so a test can walk its settings). */
export const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['http', 'chain', 'reveals', 'db', 'keys', 'log'],
  properties: {
    $schema: { type: 'string' },
    http: {
      type: 'object',
      additionalProperties: false,
      required: ['host', 'port', 'bodyLimitBytes', 'corsOrigins', 'rateLimit', 'docs'],
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        bodyLimitBytes: { type: 'integer', minimum: 256, maximum: 1048576 },
        corsOrigins: { type: 'array', items: { type: 'string' } },
        rateLimit: {
          type: 'object',
          additionalProperties: false,
          required: ['max', 'timeWindowMs'],
          properties: { max: { type: 'integer', minimum: 1 }, timeWindowMs: { type: 'integer', minimum: 1 } },
        },
        docs: { type: 'boolean' },
        trustProxy: { type: 'array', items: { type: 'string', minLength: 1 } },
      },
    },
    chain: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'rpcUrl', 'chainId', 'gameContract', 'fakeFile', 'pollMs', 'startBlock'],
      properties: {
        kind: { enum: ['ethers', 'fake-file'] },
        rpcUrl: { type: 'string' },
        chainId: { type: 'integer', minimum: 1 },
        gameContract: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
        fakeFile: { type: 'string' },
        pollMs: { type: 'integer', minimum: 10 },
        startBlock: { type: 'integer', minimum: 0 },
        confirmations: { type: 'integer', minimum: 0, maximum: 64 },
        mapProofRegistry: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
      },
    },
    reveals: {
      type: 'object',
      additionalProperties: false,
      required: ['maxExpirySeconds'],
      properties: {
        maxExpirySeconds: { type: 'integer', minimum: 1, maximum: 3600 },
        playerRateLimit: {
          type: 'object',
          additionalProperties: false,
          required: ['perSecond', 'burst'],
          properties: {
            perSecond: { type: 'number', exclusiveMinimum: 0, maximum: 100000 },
            burst: { type: 'integer', minimum: 1, maximum: 1000000 },
          },
        },
      },
    },
    caches: {
      type: 'object',
      additionalProperties: false,
      required: [],
      properties: {
        maps: { type: 'integer', minimum: 1, maximum: 100_000 },
        games: { type: 'integer', minimum: 1, maximum: 10_000_000 },
        openings: { type: 'integer', minimum: 1, maximum: 10_000_000 },
        signers: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        sessions: { type: 'integer', minimum: 1, maximum: 10_000_000 },
        entries: { type: 'integer', minimum: 1, maximum: 100_000_000 },
      },
    },
    mapProof: {
      type: 'object',
      additionalProperties: false,
      required: ['enabled', 'buildDir', 'workers'],
      properties: {
        enabled: { type: 'boolean' },
        buildDir: { type: 'string', minLength: 1 },
        workers: { type: 'integer', minimum: 1, maximum: 64 },
        queue: { type: 'boolean' },
        jobKey: hex32,
        heartbeatSeconds: { type: 'integer', minimum: 10, maximum: 3600 },
        attempts: { type: 'integer', minimum: 1, maximum: 10 },
      },
    },
    artifacts: {
      type: 'object',
      additionalProperties: false,
      required: ['dir'],
      properties: { dir: { type: 'string', minLength: 1 } },
    },
    db: {
      type: 'object',
      additionalProperties: false,
      required: [],
      properties: {
        driver: { enum: ['sqlite', 'postgres'] },
        path: { type: 'string', minLength: 1 },
        url: { type: 'string', minLength: 1 },
      },
    },
    keys: {
      type: 'object',
      additionalProperties: false,
      required: ['dealerKey', 'masterKey'],
      properties: {
        dealerKey: { type: 'string', pattern: '^(0x)?[0-9a-fA-F]{1,64}$' },
        masterKey: hex32,
        txKey: hex32,
      },
    },
    log: {
      type: 'object',
      additionalProperties: false,
      required: ['level'],
      properties: { level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] } },
    },
    lobbies: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxJoinAheadSeconds: { type: 'integer', minimum: 1, maximum: 86400 },
        maxPendingGames: { type: 'integer', minimum: 1, maximum: 10000 },
        kinds: {
          type: 'array',
          maxItems: 100,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'ruleset', 'seats', 'stake', 'disputeDeposit', 'maxTurns', 'bond'],
            properties: {
              name: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' },
              ruleset: { type: 'string', minLength: 1 },
              seats: { type: 'integer', minimum: 2, maximum: 6 },
              stake: wei,
              disputeDeposit: wei,
              maxTurns: { type: 'integer', minimum: 1, maximum: 4294967295 },
              bond: wei,
            },
          },
        },
      },
    },
  },
};

const check = new Ajv({ allErrors: false, strict: false }).compile(CONFIG_SCHEMA);

/** Where the artifact routes read from when the config names no `artifacts.dir`. */
export const DEFAULT_ARTIFACTS_DIR = 'contracts/generated';

export class ConfigError extends Error {}

/**
 * Reads a JSON config file, applies `SHROUD_*` environment overrides, and validates the result.
 * Errors name the config path and never echo values (keys may be among them).
 */
export function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): DealerConfig {
  return loadConfigSources(file, env).config;
}

/** `loadConfig`, also naming the environment variables that set something (for `dealer check`). */
export function loadConfigSources(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): { config: DealerConfig; fromEnv: string[] } {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(`${file}: cannot read JSON config (${(e as Error).name})`);
  }
  let fromEnv: string[];
  try {
    fromEnv = applyEnv(raw, env);
  } catch (e) {
    if (e instanceof EnvValueError) throw new ConfigError(e.message);
    throw e;
  }
  if (!check(raw)) {
    const e = check.errors![0]!;
    const extra = (e.params as { additionalProperty?: string; missingProperty?: string }) ?? {};
    const path = [
      e.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      extra.additionalProperty ?? extra.missingProperty,
    ]
      .filter(Boolean)
      .join('.');
    throw new ConfigError(`config ${path || '(root)'}: ${e.message}`);
  }
  const config = raw as unknown as DealerConfig;
  checkDb(config.db);
  checkMapProofQueue(config);
  dealerSealSecret(config);
  lobbyKinds(config);
  return { config, fromEnv };
}

/**
 * The configured lobby kinds, each checked as a game of its ruleset (seats within the ruleset's, deposit ≤
 * stake, a bond, the ruleset's durations within the protocol's floors). A ConfigError names the field.
 */
export function lobbyKinds(config: Pick<DealerConfig, 'lobbies'>): LobbyKind[] {
  const names = new Set<string>();
  return (config.lobbies?.kinds ?? []).map((k, i) => {
    const at = `config lobbies.kinds.${i}`;
    if (names.has(k.name)) throw new ConfigError(`${at}.name: "${k.name}" is used by another kind`);
    names.add(k.name);
    try {
      const ruleset = shippedRuleset(k.ruleset);
      const terms = {
        stake: BigInt(k.stake),
        disputeDeposit: BigInt(k.disputeDeposit),
        maxTurns: k.maxTurns,
        bond: BigInt(k.bond),
      };
      checkGameTerms(ruleset, k.seats, terms);
      return { name: k.name, ruleset, seats: k.seats, ...terms };
    } catch (e) {
      if (e instanceof InputError) throw new ConfigError(`${at}.${e.message}`);
      throw e;
    }
  });
}

/**
 * `keys.dealerKey` as the seal secret d. Throws a ConfigError naming the field (never the value) unless it
 * is a Baby Jubjub secret key, 1 ≤ d < l (a random 32-byte value is above l about 15 times in 16).
 */
export function dealerSealSecret(config: Pick<DealerConfig, 'keys'>): bigint {
  const v = config.keys.dealerKey;
  try {
    return sealSecretKey(v.startsWith('0x') ? v : `0x${v}`);
  } catch {
    throw new ConfigError(
      'config keys.dealerKey: not a Baby Jubjub seal secret (0x-hex, 1 ≤ d < l); make one with ' +
        '`npm run dealer -- keys`',
    );
  }
}

/** What the schema cannot say: which of path and url the driver needs, and that the url parses. */
function checkDb(db: DealerConfig['db']): void {
  if ((db.driver ?? 'sqlite') === 'sqlite') {
    if (!db.path) {
      throw new ConfigError('config db.path: required when db.driver is "sqlite" (set SHROUD_DB)');
    }
    return;
  }
  if (!db.url) {
    throw new ConfigError('config db.url: required when db.driver is "postgres" (set SHROUD_DB_URL)');
  }
  // Never echo the value: it holds the password.
  if (!postgresTarget(db.url)) {
    throw new ConfigError(
      'config db.url: not a postgres:// URL (postgres://user:password@host:5432/database)',
    );
  }
}

/** The queue needs PostgreSQL and its own key (provers hold it: never the at-rest key, which opens everything). */
function checkMapProofQueue(config: Pick<DealerConfig, 'mapProof' | 'db' | 'keys'>): void {
  const m = config.mapProof;
  if (m?.jobKey && hexKey(m.jobKey).every((b, i) => b === hexKey(config.keys.masterKey)[i])) {
    throw new ConfigError('config mapProof.jobKey: must differ from keys.masterKey (provers hold it)');
  }
  if (!m?.enabled || !m.queue) return;
  if (config.db.driver !== 'postgres') {
    throw new ConfigError(
      'config mapProof.queue: needs db.driver "postgres" (the queue lives in its database); SQLite proves on the local pool',
    );
  }
  if (!m.jobKey) {
    throw new ConfigError(
      'config mapProof.jobKey: required with mapProof.queue (set SHROUD_MAP_PROOF_JOB_KEY, e.g. `openssl rand -hex 32`, on the dealer and every prover)',
    );
  }
}

export function hexKey(v: string): Uint8Array {
  return new Uint8Array(Buffer.from(v.replace(/^0x/, ''), 'hex'));
}

/** The local demo chain (Hardhat / anvil): the only chain where demo keys and test hooks are allowed. */
export const DEMO_CHAIN_ID = 31337;
/** The well-known demo seal secret (2^248 < l), shipped in config.default.json as `dealerKey`. */
export const DEMO_SEAL_KEY = `0x01${'00'.repeat(31)}`;
/** Hardhat's well-known account #1 key: the demo's dealer transaction key. */
const DEMO_TX_KEY = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
/**
 * config.default.json's game contract: the first deployment of Hardhat's account #0, whose key is public, so
 * on any other chain whoever deploys there first (anyone) controls the contract at that address.
 */
export const DEMO_GAME_CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const DEAL_STEPS: readonly DealStep[] = ['secrets-stored', 'root-computed', 'root-posted'];

/**
 * Refuses configurations that are only safe on the local demo chain: the public demo keys (anyone
 * could open every sealed share, or decrypt the DB), the demo contract address, and the SIGKILL test
 * hook, which freezes dealing and is enabled only when NODE_ENV=test on chain 31337. Returns the hook's
 * step when enabled. Messages name the setting, never its value.
 */
export function checkStartupPolicy(
  config: DealerConfig,
  env: NodeJS.ProcessEnv = process.env,
): { pauseAt: DealStep | undefined } {
  const demoChain = config.chain.chainId === DEMO_CHAIN_ID;
  if (!demoChain && hexKey(config.keys.masterKey).every((b) => b === 0)) {
    throw new ConfigError(
      'keys.masterKey is the all-zero demo key: set SHROUD_MASTER_KEY outside the local demo chain',
    );
  }
  const bare = (k: string | undefined) => k?.replace(/^0x/, '').toLowerCase();
  const value = (k: string | undefined) => (k === undefined ? undefined : BigInt(`0x${bare(k) || '0'}`));
  // Compared by value: leading zeros or case do not make the demo key another key.
  if (!demoChain && value(config.keys.dealerKey) === BigInt(DEMO_SEAL_KEY)) {
    throw new ConfigError(
      'keys.dealerKey is the well-known demo key: set SHROUD_DEALER_KEY outside the local demo chain',
    );
  }
  if (!demoChain && bare(config.keys.txKey) === DEMO_TX_KEY) {
    throw new ConfigError(
      'keys.txKey is the well-known demo key: set SHROUD_TX_KEY outside the local demo chain',
    );
  }
  if (!demoChain && config.chain.gameContract.toLowerCase() === DEMO_GAME_CONTRACT) {
    throw new ConfigError(
      'chain.gameContract is the local demo address: set SHROUD_GAME_CONTRACT outside the local demo chain',
    );
  }
  if (config.chain.kind === 'ethers' && !config.keys.txKey) {
    throw new ConfigError('keys.txKey: required for chain kind "ethers" (set SHROUD_TX_KEY)');
  }
  // One key per job: a leaked transaction key must not also open every sealed share.
  if (config.keys.txKey && value(config.keys.txKey) === value(config.keys.dealerKey)) {
    throw new ConfigError('keys.txKey: must differ from keys.dealerKey');
  }
  const pause = env.SHROUD_TEST_PAUSE_AT;
  if (pause === undefined || pause === '') return { pauseAt: undefined };
  if (env.NODE_ENV !== 'test' || !demoChain) {
    throw new ConfigError('SHROUD_TEST_PAUSE_AT is a test hook: only with NODE_ENV=test on chain 31337');
  }
  if (!DEAL_STEPS.includes(pause as DealStep)) {
    throw new ConfigError(`SHROUD_TEST_PAUSE_AT: not one of ${DEAL_STEPS.join(', ')}`);
  }
  return { pauseAt: pause as DealStep };
}
