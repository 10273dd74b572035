/**
 * The dealer process: `node dealer/main.ts [--config FILE]`, with SHROUD_* environment overrides
 * (see dealer/config-env.ts). Secrets come from the config or, preferably, the environment; never logged.
 * `node dealer/main.ts keys|check|backup|restore|prover …` runs an operations command instead (dealer/ops/,
 * dealer/prover/).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { loadHasher } from '../core/index.ts';
import { generateSealKey, sealPublicKey } from '../core/sealed.ts';
import { cliArgs, inputFile } from '../lib/cli.ts';
import { buildApp, REDACT_PATHS } from './app.ts';
import { openArtifactCatalog } from './artifacts.ts';
import { cacheLimits } from './cache-limits.ts';
import { EthersChain } from './chain/ethers.ts';
import { FakeChain } from './chain/fake.ts';
import { ChainHead } from './chain/head.ts';
import type { ChainView, GameCreator } from './chain/types.ts';
import {
  ConfigError,
  checkStartupPolicy,
  DEFAULT_ARTIFACTS_DIR,
  dealerSealSecret,
  hexKey,
  loadConfig,
  lobbyKinds,
} from './config.ts';
import type { DealStep } from './dealing.ts';
import { DEFAULT_MAX_PENDING_GAMES, LobbyService } from './lobby.ts';
import { queuePolicy } from './mapproof/chunk-job.ts';
import { ProverPool } from './mapproof/pool.ts';
import { ChunkQueue } from './mapproof/queue.ts';
import { buildDirArtifacts, MapProver } from './mapproof/service.ts';
import { MapCache } from './maps.ts';
import { createMetrics } from './metrics.ts';
import { isCommand, runCommand } from './ops/commands.ts';
import { StoreOpenError } from './store/errors.ts';
import { describeStore, openStore } from './store/open.ts';
import { secretBox } from './store/secret-box.ts';
import type { DealerStore } from './store/types.ts';
import { ChainWatcher } from './watcher.ts';

const USAGE = `usage: npm run dealer -- [--config FILE] | --new-seal-key
       npm run dealer -- keys | check | backup | restore | prover … (each answers --help)

The dealer-prover service. FILE defaults to dealer/config.default.json (the local chain 31337, its
demo keys); every setting can also come from the environment, which wins (docs/dealer-config.md lists
them all): SHROUD_RPC_URL, SHROUD_CHAIN_ID, SHROUD_GAME_CONTRACT, SHROUD_DEALER_KEY, SHROUD_TX_KEY
(required), SHROUD_MASTER_KEY, SHROUD_DB, SHROUD_DB_DRIVER, SHROUD_DB_URL, SHROUD_DEALER_PORT, …
  keys            make the three keys into a new 0600 file; print only the public parts
  check           check the configuration (file, then environment) and print it, secrets hidden
  backup          copy the database to a file, safely while the dealer runs
  restore         load such a backup into an empty (or, with --force, any) database
  prover          prove map chunks from the PostgreSQL job queue (SHROUD_MAP_PROOF_QUEUE), on any machine
  --new-seal-key  print a fresh Baby Jubjub seal secret (keys.dealerKey) and its public sealKey, then exit
                  (prefer \`keys\`, which never prints a secret)`;
// An operations command runs to completion and exits: nothing below (the service) starts.
if (isCommand(process.argv[2])) await runCommand(process.argv[2], process.argv.slice(3));
const { configFile, newSealKey } = cliArgs(
  {
    name: 'dealer',
    usage: USAGE,
    options: { config: { type: 'string' }, 'new-seal-key': { type: 'boolean' } },
  },
  ({ values }) => ({
    newSealKey: values['new-seal-key'] === true,
    configFile: values.config
      ? inputFile('config', values.config)
      : fileURLToPath(new URL('./config.default.json', import.meta.url)),
  }),
);
if (newSealKey) {
  // A fresh seal secret for keys.dealerKey (SHROUD_DEALER_KEY), and the public sealKey games will name.
  const k = generateSealKey();
  process.stdout.write(
    `${JSON.stringify({
      dealerKey: `0x${k.secretKey.toString(16).padStart(64, '0')}`,
      sealKey: k.publicKey.map(String),
    })}\n`,
  );
  process.exit(0);
}

let config: ReturnType<typeof loadConfig>;
let policy: ReturnType<typeof checkStartupPolicy>;
try {
  config = loadConfig(configFile);
  policy = checkStartupPolicy(config);
} catch (e) {
  if (e instanceof ConfigError) {
    process.stderr.write(`dealer: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}

const logger = pino({ level: config.log.level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
const sealSecretKey = dealerSealSecret(config);
const atRestKey = hexKey(config.keys.masterKey);
/** Every in-memory cache is bounded by these (dealer/cache-limits.ts). */
const caches = cacheLimits(config.caches);

let store: DealerStore;
try {
  store = await openStore(config.db, secretBox(atRestKey), {
    nonceMemo: caches.entries,
    onConnectionLost: (reason) =>
      logger.warn({ reason }, 'database connection lost; reconnecting on next use'),
  });
} catch (e) {
  if (e instanceof StoreOpenError) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  throw e;
}
const chain: ChainView & GameCreator =
  config.chain.kind === 'fake-file'
    ? new FakeChain({
        chainId: BigInt(config.chain.chainId),
        file: config.chain.fakeFile,
        contract: config.chain.gameContract,
      })
    : new EthersChain({
        rpcUrl: config.chain.rpcUrl,
        chainId: config.chain.chainId,
        gameContract: config.chain.gameContract,
        txKey: config.keys.txKey!,
        confirmations: config.chain.confirmations,
        startBlock: config.chain.startBlock,
        ...(config.chain.mapProofRegistry ? { mapProofRegistry: config.chain.mapProofRegistry } : {}),
      });
const h = await loadHasher();
const maps = new MapCache(h, store, caches.maps);
const metrics = createMetrics();
const chainId = BigInt(config.chain.chainId);
/** Written by the watcher each tick, read by the reveal service (see dealer/chain/head.ts). */
const head = new ChainHead();

try {
  const onChain = await chain.chainId();
  if (onChain !== chainId) {
    logger.fatal({ configured: chainId.toString(), rpc: onChain.toString() }, 'chain id mismatch');
    process.exit(2);
  }
} catch {
  logger.warn('chain not reachable at startup; /health will say so until it is');
}

/** Test hook (NODE_ENV=test on chain 31337 only, see checkStartupPolicy): stop dead at a dealing step so a test can SIGKILL there. */
const pauseAt = policy.pauseAt;
const onStep = pauseAt
  ? async (step: DealStep, gameId: bigint) => {
      if (step !== pauseAt) return;
      logger.warn({ pausedAt: step, gameId: gameId.toString() }, 'paused for test (SHROUD_TEST_PAUSE_AT)');
      await new Promise(() => {});
    }
  : undefined;

const queued = config.mapProof?.enabled === true && config.mapProof.queue === true;
const pool = config.mapProof?.enabled
  ? new ProverPool({
      // With the queue the dealer proves only root proofs itself.
      size: queued ? 1 : config.mapProof.workers,
      onExit: (e) =>
        logger[e.respawnInMs === null ? 'error' : 'warn'](
          { worker: e.slot, code: e.code, signal: e.signal, jobLost: e.jobLost, deaths: e.deaths },
          e.respawnInMs === null
            ? 'proving worker died again: map proofs stopped (restart the dealer once the cause is fixed)'
            : `proving worker died; replaced in ${e.respawnInMs} ms`,
        ),
    })
  : undefined;
let chunkQueue: ChunkQueue | undefined;
if (queued) {
  try {
    chunkQueue = await ChunkQueue.open({
      url: config.db.url!,
      box: secretBox(hexKey(config.mapProof!.jobKey!)),
      policy: queuePolicy(config.mapProof),
      log: logger,
      onOutcome: (o) => metrics.mapChunkJobs.labels(o).inc(),
    });
  } catch (e) {
    // pg's messages name no password; the target is named the way the store names it.
    process.stderr.write(
      `dealer: cannot open the map-proof job queue on ${describeStore(config.db)}: ${(e as Error).message}\n`,
    );
    process.exit(1);
  }
  for (const o of ['queued', 'completed', 'failed', 'rejected'] as const)
    metrics.mapChunkJobs.labels(o).inc(0);
  metrics.watchChunkJobs(() => chunkQueue!.counts());
}
const mapProver =
  pool && config.mapProof
    ? new MapProver({
        h,
        store,
        maps,
        pool,
        ...(chunkQueue ? { chunks: chunkQueue } : {}),
        chain,
        artifacts: buildDirArtifacts(path.resolve(config.mapProof.buildDir)),
        log: logger,
        maxStatuses: caches.games,
        // A series per game being proven only: one per game ever dealt would grow for the life of the process.
        onProgress: (gameId, done, total) => {
          if (done < total) metrics.mapProofDone.labels(gameId.toString()).set(done);
          else metrics.mapProofDone.remove(gameId.toString());
        },
      })
    : undefined;

// Hashed once here: each file's URL is its SHA-256 (dealer/artifacts.ts).
const artifacts = await openArtifactCatalog(config.artifacts?.dir ?? DEFAULT_ARTIFACTS_DIR, logger);

// Always on, even without configured kinds: GET /v1/lobbies tells clients and `npm run game -- create
// --dealer-url` this dealer's address and seal key.
const lobbies = new LobbyService({
  store,
  creator: chain,
  chainId,
  gameContract: config.chain.gameContract,
  sealKey: sealPublicKey(sealSecretKey),
  kinds: lobbyKinds(config),
  log: logger,
  maxJoinAheadSeconds: config.lobbies?.maxJoinAheadSeconds ?? 600,
  maxPendingGames: config.lobbies?.maxPendingGames ?? DEFAULT_MAX_PENDING_GAMES,
  now: () => Math.floor(Date.now() / 1000),
  pollMs: Math.max(config.chain.pollMs, 500),
});
// Opens the configured lobbies and finishes any game creation a crash interrupted.
await lobbies.start();

const app = await buildApp({
  mapProver,
  artifacts,
  lobbies,
  h,
  chain,
  store,
  maps,
  metrics,
  chainId,
  logger,
  head,
  caches,
  http: {
    ...config.http,
    maxExpirySeconds: config.reveals.maxExpirySeconds,
    ...(config.reveals.playerRateLimit ? { playerRateLimit: config.reveals.playerRateLimit } : {}),
  },
});
const watcher = new ChainWatcher(
  {
    h,
    chain,
    store,
    maps,
    sealSecretKey,
    log: logger,
    onStep,
    onDealt: (gameId) => {
      metrics.gamesDealt.inc();
      void mapProver?.start(gameId);
    },
    onDisputeAnswered: () => metrics.disputesAnswered.inc(),
    onZoneChallengeAnswered: () => metrics.zoneChallengesAnswered.inc(),
    onClosed: (_gameId, call) => metrics.gamesClosed.inc({ call }),
    // A Counter takes a number: wei past 2^53 lose precision, not the count.
    onWithdrawn: (wei) => metrics.creditWithdrawn.inc(Number(wei)),
  },
  {
    pollMs: config.chain.pollMs,
    startBlock: config.chain.startBlock,
    sealPublicKey: sealPublicKey(sealSecretKey),
    head,
  },
);

const address = await app.listen({ host: config.http.host, port: config.http.port });
logger.info({ address, chain: config.chain.kind, db: describeStore(config.db) }, 'dealer listening');
watcher.start();
// A restarted dealer finishes the map proofs it had started (finished zones are kept in the DB).
for (const g of await store.listGames(['dealt', 'published'])) void mapProver?.start(g.gameId);

// Prune nonces whose requests can no longer be replayed (they expired).
const pruner = setInterval(() => {
  void store.pruneNonces(Math.floor(Date.now() / 1000)).catch(() => {});
}, 60_000);
pruner.unref();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    logger.info({ signal }, 'shutting down');
    await watcher.stop();
    await lobbies.stop();
    await chunkQueue?.close();
    await pool?.close();
    await app.close();
    await store.close();
    process.exit(0);
  });
}
