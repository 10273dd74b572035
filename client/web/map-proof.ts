/**
 * Whether the page checks the game's ZK map proof, and with what. Like the trusted game contracts (trust.ts), only
 * with what the page was built with: the map-proof verification keys of each shipped ruleset that was built
 * (`build/circuits/<ruleset>/{mapchunk,maproot}/*.vkey.json` at `npm run build:web` time), never keys from the
 * dealer (a lying dealer would serve keys that accept its false proof), and the MapProofRegistry of each public
 * chain's deployment record. On the local chain 31337 (addresses differ per run) the registry comes from the
 * link's `?mapProofRegistry=`. The check itself runs in the prover worker (worker-verify.ts). Pure: the build
 * fills `BUILT_IN_MAP_PROOF`, tests pass their own.
 */
import type { MapProof } from '@shroud/core/mapproof/types.ts';
import type { MapProofOptions } from '@shroud/sdk';
import type { MapProofClaim, MapProofKeys } from '@shroud/sdk/mapproof.ts';
import { vkeyInVerifierCode } from '@shroud/sdk/vkey-onchain.ts';
import { LOCAL_CHAIN_ID } from './trust.ts';

/** What the page was built with: keys per ruleset name, registry per chain id (decimal, public chains only). */
export interface BuiltMapProof {
  /** `dev`: keys of the development setup, whose trapdoor is public (used on the local chain only). */
  keys: Readonly<Record<string, MapProofKeys & { dev?: true }>>;
  registries: Readonly<Record<string, string>>;
}

declare const __SHROUD_MAP_PROOF_KEYS__: BuiltMapProof['keys'] | undefined;
declare const __SHROUD_MAP_PROOF_REGISTRIES__: BuiltMapProof['registries'] | undefined;

/** The keys and registries compiled into the bundle (esbuild `define`); none when the page runs unbundled. */
export const BUILT_IN_MAP_PROOF: BuiltMapProof = {
  keys: typeof __SHROUD_MAP_PROOF_KEYS__ === 'undefined' ? {} : __SHROUD_MAP_PROOF_KEYS__,
  registries: typeof __SHROUD_MAP_PROOF_REGISTRIES__ === 'undefined' ? {} : __SHROUD_MAP_PROOF_REGISTRIES__,
};

/** The page's choice: the GamePlayer's `mapProof` option and the line that says so, or the reason it is off. */
export type PageMapProof = { options: MapProofOptions; line: string } | { options: null; line: string };

/**
 * The `mapProof` option of the game's player when the page was built with the keys of the game's ruleset and a
 * registry is known (the built-in one of the chain; on the local chain `?mapProofRegistry=`), else null; and the
 * one log line saying which, and why not.
 */
export function pageMapProof(o: {
  built: BuiltMapProof;
  /** The game's ruleset (shipped name, matched by the chain's ruleset hash). */
  ruleset: string;
  chainId: bigint;
  /** `?mapProofRegistry=` (config.ts): used on the local chain only. */
  localRegistry: string | null;
  /** Verifies with the given keys, throwing MapProofError (the worker's check: WorkerProver.verifyMapProof). */
  verify: (claim: MapProofClaim, proof: MapProof, vkeys: MapProofKeys) => Promise<void>;
  /**
   * The runtime code of the chain's maproot verifier for the ruleset (`0x` when none is registered): the built-in
   * maproot key must be the one it holds, or every honest proof would be refused (review 35).
   */
  verifierCode: string;
}): PageMapProof {
  const off = (why: string): PageMapProof => ({
    options: null,
    line: `map proof: not checked (${why}): the dealer's map is not verified to be Gen(seed) during play; the audit after the game still judges it`,
  });
  const vkeys = Object.hasOwn(o.built.keys, o.ruleset) ? o.built.keys[o.ruleset] : undefined;
  if (!vkeys)
    return off(
      `this page was built without the map-proof verification keys of ruleset ${o.ruleset}: build them with npm run circuits:build -- --ruleset ${o.ruleset} --circuits mapchunk,maproot, then npm run build:web`,
    );
  const local = o.chainId === LOCAL_CHAIN_ID;
  const chain = String(o.chainId);
  if (vkeys.dev && !local)
    return off(
      `this page was built with development map-proof keys of ruleset ${o.ruleset}, whose trapdoor is public: they prove nothing on chain ${chain}; build the page with the keys of the ceremony the deployment used`,
    );
  const { dev: _, ...keys } = vkeys;
  if (!vkeyInVerifierCode(keys.maproot, o.verifierCode))
    return off(
      o.verifierCode === '0x'
        ? `the chain registers no maproot verifier for ruleset ${o.ruleset}: no map proof of its games can be recorded`
        : `the maproot key this page was built with is not the one the chain's verifier holds for ruleset ${o.ruleset} (keys of another setup)`,
    );
  const registry = local
    ? o.localRegistry
    : Object.hasOwn(o.built.registries, chain)
      ? o.built.registries[chain]!
      : null;
  if (!registry)
    return off(
      local
        ? 'no MapProofRegistry: on the local chain give it in the address, ?mapProofRegistry=0x… (deployments/31337.json)'
        : `this page was built without a MapProofRegistry for chain ${chain} (deployments/${chain}.json has none)`,
    );
  const ignored =
    !local && o.localRegistry && o.localRegistry.toLowerCase() !== registry.toLowerCase()
      ? `; ?mapProofRegistry=${o.localRegistry} is ignored off the local chain`
      : '';
  return {
    options: { registry, verify: (claim, proof) => o.verify(claim, proof, keys) },
    line: `map proof: checked in the page's worker with the ${o.ruleset} verification keys this page was built with, against the MapProofRegistry ${registry}${local ? ' (?mapProofRegistry=)' : ` (built in for chain ${chain})`}${ignored}`,
  };
}
