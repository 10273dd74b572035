import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';

export interface DealerConfig {
  http: {
    host: string;
    port: number;
    bodyLimitBytes: number;
    /** Allowed browser origins; empty = no CORS headers. `"*"` allows any. */
    corsOrigins: string[];
    rateLimit: { max: number; timeWindowMs: number };
    docs: boolean;
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
  };
  reveals: { maxExpirySeconds: number };
  db: { path: string };
  /** Secrets: prefer the environment. Never logged. */
  keys: {
    /** 32-byte hex secp256k1 secret behind `dealerEncKey`. */
    dealerKey: string;
    /** 32-byte hex AES-256 key for secrets at rest. */
    masterKey: string;
  };
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' };
}

const hex32 = { type: 'string', pattern: '^(0x)?[0-9a-fA-F]{64}$' };

const schema = {
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
      },
    },
    reveals: {
      type: 'object',
      additionalProperties: false,
      required: ['maxExpirySeconds'],
      properties: { maxExpirySeconds: { type: 'integer', minimum: 1, maximum: 3600 } },
    },
    db: {
      type: 'object',
      additionalProperties: false,
      required: ['path'],
      properties: { path: { type: 'string', minLength: 1 } },
    },
    keys: {
      type: 'object',
      additionalProperties: false,
      required: ['dealerKey', 'masterKey'],
      properties: { dealerKey: hex32, masterKey: hex32 },
    },
    log: {
      type: 'object',
      additionalProperties: false,
      required: ['level'],
      properties: { level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] } },
    },
  },
};

const check = new Ajv({ allErrors: false, strict: false }).compile(schema);

/** Environment overrides: variable → dotted config path, with how to parse it. */
const ENV: readonly [string, string, 'string' | 'int'][] = [
  ['SHROUD_DEALER_HOST', 'http.host', 'string'],
  ['SHROUD_DEALER_PORT', 'http.port', 'int'],
  ['SHROUD_RPC_URL', 'chain.rpcUrl', 'string'],
  ['SHROUD_CHAIN_KIND', 'chain.kind', 'string'],
  ['SHROUD_CHAIN_ID', 'chain.chainId', 'int'],
  ['SHROUD_GAME_CONTRACT', 'chain.gameContract', 'string'],
  ['SHROUD_FAKE_CHAIN_FILE', 'chain.fakeFile', 'string'],
  ['SHROUD_POLL_MS', 'chain.pollMs', 'int'],
  ['SHROUD_DB', 'db.path', 'string'],
  ['SHROUD_DEALER_KEY', 'keys.dealerKey', 'string'],
  ['SHROUD_MASTER_KEY', 'keys.masterKey', 'string'],
  ['SHROUD_LOG_LEVEL', 'log.level', 'string'],
  ['SHROUD_RATE_LIMIT_MAX', 'http.rateLimit.max', 'int'],
];

export class ConfigError extends Error {}

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
 * Reads a JSON config file, applies `SHROUD_*` environment overrides, and validates the result.
 * Errors name the config path and never echo values (keys may be among them).
 */
export function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): DealerConfig {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(`${file}: cannot read JSON config (${(e as Error).name})`);
  }
  for (const [name, path, kind] of ENV) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (kind === 'int' && !/^[0-9]+$/.test(v)) throw new ConfigError(`${name}: not an integer`);
    setPath(raw, path, kind === 'int' ? Number(v) : v);
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
  return raw as unknown as DealerConfig;
}

export function hexKey(v: string): Uint8Array {
  return new Uint8Array(Buffer.from(v.replace(/^0x/, ''), 'hex'));
}
