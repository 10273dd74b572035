/**
 * The CLI player's check of the game's ZK map proof (`--map-proof-keys DIR`, `--map-proof-registry ADDRESS`):
 * the verification keys come from the player, never from the dealer (a lying dealer would serve keys that accept
 * its false proof), and the MapProofRegistry from the flag or the `--deployment` record. The `GamePlayer` gets
 * `verifyMapProof` (client/sdk/mapproof.ts) bound to those keys; its `BotPlayer` then checks in the background and
 * reports `map-proof` / `map-proof-refused` (client/play/loop.ts prints them).
 *
 * DIR holds `mapchunk.vkey.json` and `maproot.vkey.json` of the game's ruleset, each either at
 * `DIR/<circuit>.vkey.json` or at `DIR/<circuit>/<circuit>.vkey.json`: the second is how
 * `npm run circuits:build -- --ruleset R --circuits mapchunk,maproot` lays out `build/circuits/R/`, so that folder
 * serves as it is.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Contract, type Provider } from 'ethers';
import { LOCAL_CHAIN_ID } from '../../core/limits.ts';
import { mapRootSignalCount } from '../../core/mapproof/signals.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { UsageError } from '../../lib/cli.ts';
import type { GameChain } from '../sdk/chain.ts';
import type { MapProofCheck, MapProofOptions } from '../sdk/game-player.ts';
import { parseKey } from '../sdk/groth16-batch.ts';
import { bn254, type Groth16VerificationKey, type MapProofKeys, verifyMapProof } from '../sdk/mapproof.ts';
import { vkeyInVerifierCode } from '../sdk/vkey-onchain.ts';

export const MAP_PROOF_CIRCUITS = ['mapchunk', 'maproot'] as const;
type MapCircuit = (typeof MAP_PROOF_CIRCUITS)[number];

/** What `--map-proof-keys` and the registry flags resolved to at argument parsing. */
export interface MapProofFlags {
  /** The `--map-proof-keys` folder, and the vkey file read for each circuit. */
  keysDir: string;
  files: Record<MapCircuit, string>;
  vkeys: MapProofKeys;
  /** Keys of the development setup (a setup.json beside a key with `devSetup`): their trapdoor is public. */
  dev: boolean;
  /** The MapProofRegistry address, and where it came from (`--map-proof-registry` or `--deployment FILE`). */
  registry: string;
  registrySource: string;
}

const isAddress = (s: string) => /^0x[0-9a-f]{40}$/i.test(s);
const isDecimal = (s: unknown): s is string => typeof s === 'string' && /^[0-9]{1,78}$/.test(s);
const isG1 = (p: unknown) => Array.isArray(p) && p.length === 3 && p.every(isDecimal);
const isG2 = (p: unknown) =>
  Array.isArray(p) &&
  p.length === 3 &&
  p.every((c) => Array.isArray(c) && c.length === 2 && c.every(isDecimal));

/** Where circuit `c`'s vkey lies in `dir` (flat first, then circuits:build's per-circuit folder); null: neither. */
function vkeyFile(dir: string, c: MapCircuit): string | null {
  for (const f of [path.join(dir, `${c}.vkey.json`), path.join(dir, c, `${c}.vkey.json`)])
    if (existsSync(f) && statSync(f).isFile()) return f;
  return null;
}

/** The shape of a snarkjs Groth16 BN254 verification key (the points themselves are checked by `checkMapProofKeys`). */
function vkeyOf(flag: string, file: string, text: string): Groth16VerificationKey {
  let vk: Record<string, unknown>;
  try {
    vk = JSON.parse(text);
  } catch {
    throw new UsageError(`--${flag}: ${file}: not JSON`);
  }
  const bad = (why: string) => new UsageError(`--${flag}: ${file}: not a Groth16 verification key (${why})`);
  if (typeof vk !== 'object' || vk === null || Array.isArray(vk)) throw bad('not an object');
  if (vk.protocol !== 'groth16') throw bad(`protocol ${JSON.stringify(vk.protocol)}`);
  if (typeof vk.curve !== 'string' || !/^bn(128|254)$/i.test(vk.curve))
    throw bad(`curve ${JSON.stringify(vk.curve)}, expected bn128`);
  if (!Number.isSafeInteger(vk.nPublic) || (vk.nPublic as number) < 1) throw bad('no nPublic');
  if (!Array.isArray(vk.IC) || vk.IC.length !== (vk.nPublic as number) + 1 || !vk.IC.every(isG1))
    throw bad(`IC is not ${(vk.nPublic as number) + 1} G1 points`);
  if (!isG1(vk.vk_alpha_1)) throw bad('vk_alpha_1 is not a G1 point');
  for (const k of ['vk_beta_2', 'vk_gamma_2', 'vk_delta_2'] as const)
    if (!isG2(vk[k])) throw bad(`${k} is not a G2 point`);
  return vk as unknown as Groth16VerificationKey;
}

/** Reads both verification keys from `dir`; a missing folder or file, or a malformed key, is a UsageError. */
export function readMapProofKeys(
  flag: string,
  dir: string,
): { files: Record<MapCircuit, string>; vkeys: MapProofKeys; dev: boolean } {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`--${flag} ${dir}: no such folder`);
  const files = {} as Record<MapCircuit, string>;
  const vkeys = {} as Record<MapCircuit, Groth16VerificationKey>;
  for (const c of MAP_PROOF_CIRCUITS) {
    const file = vkeyFile(dir, c);
    if (!file)
      throw new UsageError(
        `--${flag} ${dir}: no ${c}.vkey.json (looked for ${c}.vkey.json and ${c}/${c}.vkey.json; npm run circuits:build -- --ruleset R --circuits mapchunk,maproot makes them under build/circuits/R)`,
      );
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new UsageError(`--${flag}: ${file}: not readable`);
    }
    files[c] = file;
    vkeys[c] = vkeyOf(flag, file, text);
  }
  return { files, vkeys, dev: MAP_PROOF_CIRCUITS.some((c) => devSetupBeside(files[c])) };
}

/**
 * The first key of `vkeys` whose signal count is not `ruleset`'s (the maproot key takes 2·maxPlayers + 4 + zones
 * public signals, the mapchunk key 3), with both counts; null when both fit.
 */
export function signalCountMismatch(
  vkeys: MapProofKeys,
  ruleset: ValidRuleset,
): { circuit: MapCircuit; got: number; want: number } | null {
  const want = {
    maproot: mapRootSignalCount(ruleset.players.max, ruleset.board.zoneCount),
    mapchunk: 3,
  };
  for (const c of MAP_PROOF_CIRCUITS)
    if (vkeys[c].nPublic !== want[c]) return { circuit: c, got: vkeys[c].nPublic, want: want[c] };
  return null;
}

/**
 * `--map-proof-keys`, `--map-proof-registry` and the `--deployment` record's registry, checked: undefined when the
 * map proof is not to be checked (no keys). A registry without keys, keys without a registry, a malformed address
 * or a registry given twice is a UsageError.
 */
export function mapProofFlags(o: {
  keys?: string | undefined;
  registry?: string | undefined;
  /** The `--deployment` record, when one was given. */
  deployment?: { file: string; mapProofRegistry?: string | undefined } | undefined;
}): MapProofFlags | undefined {
  if (o.registry !== undefined && !isAddress(o.registry))
    throw new UsageError(`--map-proof-registry ${o.registry}: not a 0x-hex contract address`);
  if (o.keys === undefined) {
    if (o.registry !== undefined)
      throw new UsageError(
        '--map-proof-registry without --map-proof-keys DIR: the proof is checked only with verification keys you trust',
      );
    return undefined;
  }
  if (o.keys === '') throw new UsageError('--map-proof-keys needs a value');
  const { files, vkeys, dev } = readMapProofKeys('map-proof-keys', o.keys);
  const fromRecord = o.deployment?.mapProofRegistry;
  if (
    o.registry !== undefined &&
    fromRecord !== undefined &&
    o.registry.toLowerCase() !== fromRecord.toLowerCase()
  )
    throw new UsageError(
      `--map-proof-registry ${o.registry} and --deployment ${o.deployment!.file} (${fromRecord}) name different registries: give one`,
    );
  const registry = o.registry ?? fromRecord;
  if (registry === undefined)
    throw new UsageError(
      o.deployment
        ? `--map-proof-keys: --deployment ${o.deployment.file} has no mapProofRegistry; give --map-proof-registry ADDRESS`
        : '--map-proof-keys needs the MapProofRegistry: give --map-proof-registry ADDRESS or --deployment FILE',
    );
  return {
    keysDir: o.keys,
    files,
    vkeys,
    dev,
    registry,
    registrySource: o.registry !== undefined ? '--map-proof-registry' : `--deployment ${o.deployment!.file}`,
  };
}

/** Whether circuits:build's setup.json beside `file` records the development setup (its trapdoor is public). */
function devSetupBeside(file: string): boolean {
  const setup = path.join(path.dirname(file), 'setup.json');
  if (!existsSync(setup)) return false;
  try {
    return (JSON.parse(readFileSync(setup, 'utf8')) as { devSetup?: unknown }).devSetup === true;
  } catch {
    return false;
  }
}

/**
 * Once the game's ruleset is known: the keys must be that ruleset's (the maproot key takes 2·maxPlayers + 4 +
 * zones public signals, the mapchunk key 3) and their points on the curve. Otherwise every proof would be refused
 * for the player's mistake, so it is a UsageError naming the flag.
 */
export async function checkMapProofKeys(
  f: MapProofFlags,
  ruleset: ValidRuleset,
  name: string,
  chainId: bigint = LOCAL_CHAIN_ID,
): Promise<void> {
  // Development keys' trapdoor is public: a check with them proves nothing off the local chain (review 35).
  if (f.dev && chainId !== LOCAL_CHAIN_ID)
    throw new UsageError(
      `--map-proof-keys ${f.keysDir}: development keys (setup.json devSetup: their trapdoor is public) prove nothing on chain ${chainId}; give the verification keys of the ceremony the deployment used`,
    );
  const m = signalCountMismatch(f.vkeys, ruleset);
  if (m)
    throw new UsageError(
      `--map-proof-keys ${f.keysDir}: ${f.files[m.circuit]} takes ${m.got} public signals, the game's ruleset ${name} ${m.want}: not ${name}'s ${m.circuit} key`,
    );
  const curve = await bn254();
  for (const c of MAP_PROOF_CIRCUITS) {
    try {
      parseKey(curve, f.vkeys[c]);
    } catch (e) {
      throw new UsageError(`--map-proof-keys ${f.keysDir}: ${f.files[c]}: ${(e as Error).message}`);
    }
  }
}

/**
 * The maproot key must be the one the chain's maproot verifier holds for the game's ruleset (the registry's): keys
 * of another ruleset or another setup (one a player built with a ptau of its own) would refuse every honest proof
 * (review 35). A UsageError otherwise, and when the chain registers no maproot verifier (no proof is ever recorded).
 */
export async function checkMapProofKeysOnChain(
  f: MapProofFlags,
  chain: Pick<GameChain, 'verifierOf'>,
  provider: Pick<Provider, 'getCode'>,
  rulesetHash: string,
  name: string,
): Promise<void> {
  const verifier = await chain.verifierOf(rulesetHash, 'maproot');
  if (/^0x0{40}$/i.test(verifier))
    throw new UsageError(
      `--map-proof-keys: the chain registers no maproot verifier for ruleset ${name}: no map proof of its games can be recorded`,
    );
  if (!vkeyInVerifierCode(f.vkeys.maproot, await provider.getCode(verifier)))
    throw new UsageError(
      `--map-proof-keys ${f.keysDir}: ${f.files.maproot} is not the key of the chain's maproot verifier ${verifier} for ruleset ${name} (a key of another ruleset or another setup)`,
    );
}

/**
 * The registry must be a MapProofRegistry of this game contract (its `game()`): another one never records this
 * game's proof, so the check would silently never run (review 35). A UsageError otherwise.
 */
export async function checkMapProofRegistry(
  f: MapProofFlags,
  provider: Provider,
  gameContract: string,
): Promise<void> {
  let game: string;
  try {
    game = await new Contract(f.registry, ['function game() view returns (address)'], provider).getFunction(
      'game',
    )();
  } catch (e) {
    // No code there, or code without `game()`; a node that does not answer is another error, passed on.
    const code = (e as { code?: string }).code;
    if (code !== 'BAD_DATA' && code !== 'CALL_EXCEPTION') throw e;
    throw new UsageError(`${f.registrySource}: ${f.registry} is not a MapProofRegistry on this chain`);
  }
  if (game.toLowerCase() !== gameContract.toLowerCase())
    throw new UsageError(
      `${f.registrySource}: the MapProofRegistry ${f.registry} records the games of ${game}, not of ${gameContract}`,
    );
}

/** The `GamePlayer`'s `mapProof` option: the registry and `verifyMapProof` bound to the player's own keys. */
export function mapProofOptions(f: MapProofFlags, verify = verifyMapProof): MapProofOptions {
  return { registry: f.registry, verify: (claim, proof) => verify(claim, proof, f.vkeys) };
}

/** The line the CLI prints at the start about the map proof: checked (with which keys and registry) or not. */
export function mapProofStatusLine(f: MapProofFlags | undefined): string {
  return f
    ? `map proof: checked with your keys from ${f.keysDir} against the MapProofRegistry ${f.registry} (${f.registrySource})`
    : "map proof: not checked (the dealer's map is not verified to be Gen(seed) during play); to check it, give --map-proof-keys DIR (see --help)";
}

/**
 * The line after play about the map proof (null when it was not checked): verified, refused (the dealer's map is
 * not proven to be Gen(seed); play went on and the audit judges the map) or never recorded on-chain during play.
 * The loop already printed the news when it came (`describeAction`); this sums it up beside the game's end.
 */
export function mapProofOutcomeLine(
  f: MapProofFlags | undefined,
  seat: { mapProofRefused: Error | null; player: { mapProof: MapProofCheck | null } },
): string | null {
  if (!f) return null;
  const check = seat.player.mapProof;
  if (check)
    return `map proof: verified at turn ${check.turn} in ${Math.round(check.verifyMs)} ms: the dealer's root is Gen(seed) for the ceremony's seed`;
  if (seat.mapProofRefused)
    return `map proof: REFUSED (${seat.mapProofRefused.message}): the dealer's map is NOT proven to be Gen(seed); play went on (leaving would have forfeited the stake) and the audit after the game judges the map from the published secrets (this player runs it while closing the game)`;
  return `map proof: not recorded on the MapProofRegistry ${f.registry} and verified before play ended: the audit after the game still judges the map`;
}
