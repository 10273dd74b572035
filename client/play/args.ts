/**
 * The player CLI's flags and environment, checked before anything touches the network: every mistake is a
 * UsageError naming the flag (exit 2, lib/cli.ts's convention).
 */
import { existsSync, statSync } from 'node:fs';
import { cliArgs, inputDir, inputFile, intFlag, outputFile, UsageError } from '../../lib/cli.ts';
import { readDeploymentFile } from './deployment.ts';
import type { GameTarget } from './game-id.ts';
import { type MapProofFlags, mapProofFlags } from './map-proof.ts';

export interface PlayArgs {
  key: string;
  rpc: string;
  contract: string;
  /** Set when the contract came from `--deployment`: its chain must be the RPC's (checked once connected). */
  deployment?: { file: string; chainId: number };
  dealerUrl: string;
  target: GameTarget;
  interactive: boolean;
  /** `--settle`: after play, stay until the game is closed and the credit withdrawn. */
  settle: boolean;
  /** Local proving keys instead of downloads (`--artifacts`, `--seal-artifacts`). */
  artifacts?: string;
  sealArtifacts?: string;
  /** Static hosts tried before the dealer for downloads, and where downloads are cached. */
  artifactUrls: string[];
  artifactCache?: string;
  seed?: string;
  pollMs: number;
  /** Where to write the served, verified tiles at the end (the input of `npm run audit -- --tiles`). */
  tilesOut?: string;
  /** The sealed player state (`--state`; default: a file per seat under the XDG state folder). */
  stateFile?: string;
  /** `--export-state FILE`: write the seat's sealed state there and exit. */
  exportState?: string;
  /** `--restore-state FILE`: make that exported state this seat's, then play on from it. */
  restoreState?: string;
  /**
   * `--map-proof-keys DIR` (the player's own verification keys, read and checked here) with the MapProofRegistry
   * (`--map-proof-registry`, else the `--deployment` record's): the game's ZK map proof is checked during play.
   * Unset: not checked.
   */
  mapProof?: MapProofFlags;
}

export const USAGE = `usage: SHROUD_PLAYER_KEY=0x… npm run play -- (--game ID | --lobby NAME) [--max-stake WEI] [connection] [--interactive] [options]
       (or node client/cli.ts …)

Joins game ID, or takes a seat in the dealer's lobby NAME (a lobby id or kind; the game is created once
every seat is taken), as the player of SHROUD_PLAYER_KEY and plays it to the end: with the exploring bot, or with
--interactive, you at this terminal (the map, your units and your legal moves each turn; commands on stdin,
help lists them). Commits, seals, combat answers and disputes are automatic either way.

connection (a flag beats its environment variable):
  --rpc URL          the chain's JSON-RPC (or RPC_URL)
  --contract 0x…     the ShroudGame contract (or SHROUD_GAME_CONTRACT)
  --deployment FILE  a deployments/<chainId>.json record (npm run deploy:*): the contract from it
  --dealer URL       the dealer (or SHROUD_DEALER_URL)
map proof (that the dealer's map is Gen(seed) for the ceremony's seed; not checked without --map-proof-keys):
  --map-proof-keys DIR  check the game's ZK map proof with YOUR verification keys (never the dealer's: a lying
                     dealer would serve keys that accept its false proof): DIR holds the game ruleset's
                     mapchunk.vkey.json and maproot.vkey.json, each at DIR/<circuit>.vkey.json or
                     DIR/<circuit>/<circuit>.vkey.json, e.g. build/circuits/<ruleset> after
                     npm run circuits:build -- --ruleset <ruleset> --circuits mapchunk,maproot. Checked in the
                     background once the MapProofRegistry records the proof; a refused proof is reported and play
                     goes on (leaving would forfeit the stake), the audit after the game judges the map
  --map-proof-registry 0x…  the MapProofRegistry the dealer posts to (default: the --deployment record's)
options:
  --max-stake WEI    the most you agree to stake: with --lobby default 0 (a lobby asking a stake is refused);
                     with --game default any (the game's own stake, read on-chain)
  --interactive      play the turns yourself from the terminal
  --tiles-out FILE   at the end, write the tiles the dealer served you, verified (npm run audit -- --tiles FILE)
  --settle           after play, stay until the game is closed: past the dealer's secrets deadline (it is
                     slashed) and past the audit window (the game settles), then withdraw your credit. Without
                     it the player withdraws what is already due and says when to come back with --settle
  --artifacts-url URL  a static host of the proving keys, tried before the dealer (repeatable). By default
                     the keys come from the dealer's /v1/artifacts; either way each file is checked against
                     the SHA-256 the chain registered beside its verifier before the first proof
  --artifact-cache DIR  where checked downloads are kept (default $XDG_CACHE_HOME/shroud/artifacts)
  --artifacts DIR    local proving keys instead (e.g. contracts/generated/<ruleset>, not checked on-chain)
  --seal-artifacts DIR  with --artifacts: the sealed-share proving key (default contracts/generated/seal)
  --seed S           the random seed of the bot, or of --interactive's default placement and revealed
                     tiles (default: the player's address)
  --poll-ms N        how often to poll the chain while waiting (default 500)
player state (your share, units, blindings, served tiles: what a crash must not lose):
  --state FILE       where it is kept, encrypted under a key your wallet derives (it signs a fixed message;
                     nothing is sent), mode 0600, saved before every transaction that depends on it. Default:
                     $XDG_STATE_HOME/shroud/players/<chain>-<contract>-<game>-<address>.json (~/.local/state/…).
                     When it exists the player resumes from it: after a crash, run the same command again
                     (with --game ID: a --lobby run would take a new seat). A state left by an earlier chain
                     with the same ids (a restarted dev chain) is moved aside to FILE.stale-<time>
  --export-state FILE  write this seat's encrypted state to FILE (mode 0600) and exit
  --restore-state FILE  make FILE (an --export-state output, or a browser export of the same wallet) this
                     seat's state, then play on from it; refused when a different state is already kept`;

const OPTIONS = {
  rpc: { type: 'string' },
  contract: { type: 'string' },
  deployment: { type: 'string' },
  dealer: { type: 'string' },
  game: { type: 'string' },
  lobby: { type: 'string' },
  'max-stake': { type: 'string' },
  'tiles-out': { type: 'string' },
  interactive: { type: 'boolean' },
  settle: { type: 'boolean' },
  artifacts: { type: 'string' },
  'seal-artifacts': { type: 'string' },
  'artifacts-url': { type: 'string', multiple: true },
  'artifact-cache': { type: 'string' },
  seed: { type: 'string' },
  'poll-ms': { type: 'string', default: '500' },
  state: { type: 'string' },
  'export-state': { type: 'string' },
  'restore-state': { type: 'string' },
  'map-proof-keys': { type: 'string' },
  'map-proof-registry': { type: 'string' },
} as const;

/** A setting from `--flag`, else from its environment variable; `source` names where it came from. */
interface Setting {
  value: string;
  source: string;
}

function flagOrEnv(flag: string, value: string | undefined, env: string, envs: NodeJS.ProcessEnv): Setting {
  if (value !== undefined && value !== '') return { value, source: `--${flag} ${value}` };
  const v = envs[env];
  if (v === undefined || v === '') throw new UsageError(`--${flag} (or ${env}) is required (see --help)`);
  return { value: v, source: `${env}=${v}` };
}

function url(s: Setting): string {
  if (!/^(https?|wss?):\/\/\S+$/i.test(s.value))
    throw new UsageError(`${s.source}: not an http(s) or ws(s) URL`);
  return s.value;
}

function address(s: Setting): string {
  if (!/^0x[0-9a-f]{40}$/i.test(s.value)) throw new UsageError(`${s.source}: not a 0x-hex contract address`);
  return s.value;
}

/** Parses argv and the environment; `--help` prints USAGE and exits 0, a mistake exits 2 with one line. */
export function parsePlayArgs(argv = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): PlayArgs {
  return cliArgs(
    { name: 'player', usage: USAGE, options: OPTIONS },
    ({ values }) => {
      const target = gameTarget(values.game, values.lobby, values['max-stake']);
      const tilesOut = values['tiles-out'] ? outputFile('tiles-out', values['tiles-out']) : undefined;
      if (values.artifacts) inputDir('artifacts', values.artifacts);
      if (values['seal-artifacts']) inputDir('seal-artifacts', values['seal-artifacts']);
      const artifactUrls = (values['artifacts-url'] ?? []).map((u) =>
        url({ value: u, source: `--artifacts-url ${u}` }),
      );
      const key = env.SHROUD_PLAYER_KEY;
      if (!key) throw new UsageError('SHROUD_PLAYER_KEY is required (see --help)');
      const rpc = url(flagOrEnv('rpc', values.rpc, 'RPC_URL', env));
      if (values.contract !== undefined && values.deployment !== undefined)
        throw new UsageError('--contract and --deployment both name the contract: give one');
      const record =
        values.deployment !== undefined ? readDeploymentFile('deployment', values.deployment) : null;
      const contract = record
        ? record.shroudGame
        : address(flagOrEnv('contract', values.contract, 'SHROUD_GAME_CONTRACT', env));
      const dealerUrl = url(flagOrEnv('dealer', values.dealer, 'SHROUD_DEALER_URL', env));
      const pollMs = intFlag('poll-ms', values['poll-ms']!, 10, 60_000);
      const state = stateFlags(values.state, values['export-state'], values['restore-state']);
      const mapProof = mapProofFlags({
        keys: values['map-proof-keys'],
        registry: values['map-proof-registry'],
        ...(record
          ? { deployment: { file: values.deployment!, mapProofRegistry: record.mapProofRegistry } }
          : {}),
      });
      if (!/^0x[0-9a-f]{64}$/i.test(key))
        throw new UsageError('SHROUD_PLAYER_KEY: not a 0x-hex 32-byte private key');
      return {
        key,
        rpc,
        contract,
        ...(record ? { deployment: { file: values.deployment!, chainId: record.chainId } } : {}),
        dealerUrl,
        target,
        ...(tilesOut ? { tilesOut } : {}),
        interactive: values.interactive ?? false,
        settle: values.settle ?? false,
        ...(values.artifacts ? { artifacts: values.artifacts } : {}),
        ...(values['seal-artifacts'] ? { sealArtifacts: values['seal-artifacts'] } : {}),
        artifactUrls,
        ...(values['artifact-cache'] ? { artifactCache: values['artifact-cache'] } : {}),
        ...(values.seed !== undefined ? { seed: values.seed } : {}),
        pollMs,
        ...state,
        ...(mapProof ? { mapProof } : {}),
      };
    },
    argv,
  );
}

/** `--game ID` or `--lobby NAME` (exactly one); `--max-stake` with either (a lobby's defaults to 0). */
function gameTarget(game?: string, lobby?: string, maxStake?: string): GameTarget {
  if ((game === undefined) === (lobby === undefined))
    throw new UsageError('give --game ID or --lobby NAME (see --help)');
  if (maxStake !== undefined && !/^\d{1,30}$/.test(maxStake))
    throw new UsageError(`--max-stake ${maxStake}: not a whole number of wei`);
  if (game !== undefined) {
    if (!/^(0x[0-9a-f]+|\d+)$/i.test(game))
      throw new UsageError(`--game ${game}: not a decimal or 0x-hex id`);
    return {
      kind: 'game',
      id: BigInt(game),
      ...(maxStake !== undefined ? { maxStake: BigInt(maxStake) } : {}),
    };
  }
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(lobby!))
    throw new UsageError(`--lobby ${lobby}: not a lobby id or name`);
  return { kind: 'lobby', lobby: lobby!, maxStake: BigInt(maxStake ?? 0) };
}

/** `--state`, `--export-state`, `--restore-state` (the last two exclusive). */
function stateFlags(
  state?: string,
  exportState?: string,
  restoreState?: string,
): Pick<PlayArgs, 'stateFile' | 'exportState' | 'restoreState'> {
  if (state !== undefined && existsSync(state) && statSync(state).isDirectory())
    throw new UsageError(`--state ${state}: is a folder, not a file`);
  if (exportState !== undefined && restoreState !== undefined)
    throw new UsageError('--export-state and --restore-state: give one');
  return {
    ...(state !== undefined ? { stateFile: state } : {}),
    ...(exportState !== undefined ? { exportState: outputFile('export-state', exportState) } : {}),
    ...(restoreState !== undefined ? { restoreState: inputFile('restore-state', restoreState) } : {}),
  };
}
