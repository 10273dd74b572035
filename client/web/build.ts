/**
 * `buildPlayPage(outDir)`: the web client as static files — index.html, play.css, play.js (the page) and
 * worker.js (the prover worker) — bundled with esbuild for browsers. The dealer serves them under `/play`;
 * `npm run play:web` serves them locally. Node only (esbuild); nothing here runs in the page.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedRuleset, shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import type { MapProofKeys } from '../sdk/mapproof.ts';
import type { BuiltMapProof } from './map-proof.ts';
import { LOCAL_CHAIN_ID, type TrustedGames } from './trust.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..', '..');
/** Where `npm run play:web` and the dealer look for the built page by default. */
export const DEFAULT_PLAY_DIR = path.join(ROOT, 'build', 'web', 'play');

/** The deployment records the page trusts by default (`deployments/<chainId>.json`, written by scripts/deploy.ts). */
export const DEFAULT_DEPLOYMENTS_DIR = path.join(ROOT, 'deployments');

/** The deployment records in `dir` (`<chainId>.json`), checked: a malformed name, chain id or address stops the build. */
function deploymentRecords(
  dir: string,
): { id: string; file: string; shroudGame: string; mapProofRegistry?: unknown }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const id = f.slice(0, -'.json'.length);
      if (!/^[1-9][0-9]*$/.test(id)) throw new Error(`${file}: a deployment record is named <chainId>.json`);
      const d = JSON.parse(readFileSync(file, 'utf8')) as {
        chainId?: unknown;
        shroudGame?: unknown;
        mapProofRegistry?: unknown;
      };
      if (String(d.chainId) !== id) throw new Error(`${file}: chainId ${String(d.chainId)} is not ${id}`);
      if (typeof d.shroudGame !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(d.shroudGame))
        throw new Error(`${file}: shroudGame is not an address`);
      return { id, file, shroudGame: d.shroudGame, mapProofRegistry: d.mapProofRegistry };
    });
}

/**
 * The game contracts a page built now will trust (client/web/trust.ts): the ShroudGame of every deployment record
 * in `dir` but the local chain's. A record whose name, chain id or address is malformed stops the build.
 */
export function trustedGamesFrom(dir: string = DEFAULT_DEPLOYMENTS_DIR): TrustedGames {
  const trust: Record<string, string[]> = {};
  for (const r of deploymentRecords(dir))
    if (BigInt(r.id) !== LOCAL_CHAIN_ID) trust[r.id] = [r.shroudGame.toLowerCase()];
  return trust;
}

/**
 * The MapProofRegistry a page built now reads on each public chain (client/web/map-proof.ts): the
 * `mapProofRegistry` of every deployment record in `dir` that has one, but the local chain's (its page takes
 * `?mapProofRegistry=`). A malformed one stops the build.
 */
export function mapProofRegistriesFrom(dir: string = DEFAULT_DEPLOYMENTS_DIR): BuiltMapProof['registries'] {
  const out: Record<string, string> = {};
  for (const r of deploymentRecords(dir)) {
    if (BigInt(r.id) === LOCAL_CHAIN_ID || r.mapProofRegistry === undefined) continue;
    if (typeof r.mapProofRegistry !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(r.mapProofRegistry))
      throw new Error(`${r.file}: mapProofRegistry is not an address`);
    out[r.id] = r.mapProofRegistry.toLowerCase();
  }
  return out;
}

/** Where `npm run circuits:build -- --ruleset R --circuits mapchunk,maproot` writes (`R/<circuit>/<circuit>.vkey.json`). */
export const DEFAULT_CIRCUITS_DIR = path.join(ROOT, 'build', 'circuits');

/** The fields of a verification key the check reads (snarkjs' files also hold vk_alphabeta_12, unused). */
const VKEY_FIELDS = [
  'protocol',
  'curve',
  'nPublic',
  'vk_alpha_1',
  'vk_beta_2',
  'vk_gamma_2',
  'vk_delta_2',
  'IC',
];

/**
 * The map-proof verification keys a page built now carries (client/web/map-proof.ts): of each shipped ruleset
 * whose `<dir>/<ruleset>/mapchunk/mapchunk.vkey.json` and `<dir>/<ruleset>/maproot/maproot.vkey.json` both exist,
 * read and checked as the CLI player's `--map-proof-keys` are (client/play/map-proof.ts), trimmed to the fields the
 * check reads. A ruleset without both files is left out (a half-built one too); so is one whose key is malformed
 * or has another ruleset's signal count, named in `refused` with the reason: one bad file must not stop the page
 * (which the dealer builds on its first `/play` request) for every other ruleset. A left-out ruleset's map proof
 * is reported unchecked by the page, never refused.
 */
export async function mapProofKeysFrom(
  dir: string = DEFAULT_CIRCUITS_DIR,
  rulesets: readonly string[] = shippedRulesetNames,
): Promise<{ keys: BuiltMapProof['keys']; refused: Record<string, string> }> {
  // Imported here: the CLI's reader brings the SDK's map-proof module (snarkjs), which the dealer loading this
  // module for its constants does not need.
  const { MAP_PROOF_CIRCUITS, readMapProofKeys, signalCountMismatch } = await import('../play/map-proof.ts');
  const out: Record<string, BuiltMapProof['keys'][string]> = {};
  const refused: Record<string, string> = {};
  for (const name of rulesets) {
    const rdir = path.join(dir, name);
    // A ruleset whose circuits are not (all) built is left out: the page says it does not check its map proof.
    if (!MAP_PROOF_CIRCUITS.every((c) => existsSync(path.join(rdir, c, `${c}.vkey.json`)))) continue;
    let read: ReturnType<typeof readMapProofKeys>;
    try {
      read = readMapProofKeys('map-proof-keys', rdir);
    } catch (e) {
      refused[name] = (e as Error).message;
      continue;
    }
    const m = signalCountMismatch(read.vkeys, shippedRuleset(name));
    if (m) {
      refused[name] = `${m.circuit}'s key takes ${m.got} public signals, the ruleset's circuit ${m.want}`;
      continue;
    }
    const trim = (k: object) =>
      Object.fromEntries(
        Object.entries(k).filter(([f]) => VKEY_FIELDS.includes(f)),
      ) as unknown as MapProofKeys['maproot'];
    // Development keys (public trapdoor) are marked: the page checks with them on the local chain only (map-proof.ts).
    out[name] = {
      mapchunk: trim(read.vkeys.mapchunk),
      maproot: trim(read.vkeys.maproot),
      ...(read.dev ? { dev: true } : {}),
    };
  }
  return { keys: out, refused };
}

/** The files of a built page; `index.html` is written last, so its presence means the build finished. */
export const PLAY_FILES = ['play.js', 'worker.js', 'play.css', 'index.html'] as const;

/**
 * The page holds a hot session key: it may load code only from its own origin (WebAssembly for the prover, blob
 * workers for snarkjs's threads), talk to any dealer and RPC over http(s), and may not be framed by another site
 * (clickjacking Export, Join or Retry). `'unsafe-eval'` because ajv compiles the ruleset schema into a function
 * at run time (core/ruleset/validate.ts); inline scripts and scripts from other origins stay refused.
 */
export const PLAY_SECURITY_HEADERS = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'",
    "worker-src 'self' blob:",
    "connect-src 'self' http: https: ws: wss:",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

export interface PlayBuild {
  dir: string;
  /** The game contracts compiled in (trust.ts). */
  trusted: TrustedGames;
  /** The rulesets whose map-proof verification keys are compiled in, and the registry per chain (map-proof.ts). */
  mapProofRulesets: string[];
  /** Rulesets whose keys were found but refused (malformed, or another ruleset's), with the reason. */
  mapProofRefused: Record<string, string>;
  mapProofRegistries: BuiltMapProof['registries'];
  /** Bytes per file, and `bundle` = play.js + worker.js. */
  bytes: Record<(typeof PLAY_FILES)[number], number> & { bundle: number };
}

/**
 * Builds into a fresh folder beside `outDir`, then renames it into place: a reader (the dealer answering
 * `/play`) never sees half a build, and two builds racing leave one whole one.
 */
export async function buildPlayPage(
  outDir: string = DEFAULT_PLAY_DIR,
  opts: {
    /** The deployment records (default `deployments/`): the trusted games and registries not given below. */
    deployments?: string;
    trusted?: TrustedGames;
    mapProofRegistries?: BuiltMapProof['registries'];
    /** The map-proof keys per ruleset (default: `mapProofKeysFrom()`, from build/circuits). */
    mapProofKeys?: BuiltMapProof['keys'];
  } = {},
): Promise<PlayBuild> {
  const deployments = opts.deployments ?? DEFAULT_DEPLOYMENTS_DIR;
  const trusted = opts.trusted ?? trustedGamesFrom(deployments);
  const mapProofRegistries = opts.mapProofRegistries ?? mapProofRegistriesFrom(deployments);
  const { keys: mapProofKeys, refused: mapProofRefused } = opts.mapProofKeys
    ? { keys: opts.mapProofKeys, refused: {} }
    : await mapProofKeysFrom();
  const parent = path.dirname(path.resolve(outDir));
  mkdirSync(parent, { recursive: true });
  const tmp = mkdtempSync(path.join(parent, '.play-build-'));
  try {
    // Imported here, not at the top: the dealer imports this module for its constants and never needs esbuild
    // unless it builds.
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: { play: path.join(HERE, 'main.ts'), worker: path.join(HERE, 'worker.ts') },
      outdir: tmp,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      minify: true,
      sourcemap: false,
      legalComments: 'none',
      logLevel: 'silent',
      absWorkingDir: ROOT,
      define: {
        __SHROUD_TRUSTED_GAMES__: JSON.stringify(trusted),
        __SHROUD_MAP_PROOF_KEYS__: JSON.stringify(mapProofKeys),
        __SHROUD_MAP_PROOF_REGISTRIES__: JSON.stringify(mapProofRegistries),
      },
    });
    copyFileSync(path.join(HERE, 'play.css'), path.join(tmp, 'play.css'));
    copyFileSync(path.join(HERE, 'index.html'), path.join(tmp, 'index.html'));
    rmSync(outDir, { recursive: true, force: true });
    renameSync(tmp, outDir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  const bytes = Object.fromEntries(
    PLAY_FILES.map((f) => [f, statSync(path.join(outDir, f)).size]),
  ) as PlayBuild['bytes'];
  bytes.bundle = bytes['play.js'] + bytes['worker.js'];
  return {
    dir: outDir,
    trusted,
    mapProofRulesets: Object.keys(mapProofKeys),
    mapProofRefused,
    mapProofRegistries,
    bytes,
  };
}

/**
 * The warning a build prints (stderr) when keys were found but refused, or null: such a ruleset's map proofs go
 * unchecked in the page, which a release build must not ship unnoticed.
 */
export function mapProofRefusedWarning(b: Pick<PlayBuild, 'mapProofRefused'>): string | null {
  const names = Object.keys(b.mapProofRefused);
  if (!names.length) return null;
  return `warning: map-proof keys refused, the page does not check the map proofs of ${names.join(', ')} (${Object.values(
    b.mapProofRefused,
  ).join(
    '; ',
  )}): rebuild them (npm run circuits:build -- --ruleset R --circuits mapchunk,maproot) or move them away`;
}

/** The line `npm run build:web` prints about the map proof: which rulesets' keys and which registries went in. */
export function mapProofBuildLine(
  b: Pick<PlayBuild, 'mapProofRulesets' | 'mapProofRegistries'> & Partial<Pick<PlayBuild, 'mapProofRefused'>>,
): string {
  const regs = Object.entries(b.mapProofRegistries).map(([chain, r]) => `chain ${chain}: ${r}`);
  const refused = Object.entries(b.mapProofRefused ?? {}).map(([name, why]) => `${name} (${why})`);
  return `play checks map proofs: ${
    b.mapProofRulesets.length
      ? `keys of ${b.mapProofRulesets.join(', ')}`
      : 'no ruleset (no build/circuits/<ruleset>/{mapchunk,maproot} keys: npm run circuits:build -- --ruleset R --circuits mapchunk,maproot)'
  }${refused.length ? `; keys left out, not checked: ${refused.join('; ')}` : ''}; MapProofRegistry ${regs.length ? regs.join('; ') : 'of no public chain'} (local chain: ?mapProofRegistry=)`;
}
