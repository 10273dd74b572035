/**
 * The core Ignition module (id `Shroud`): Poseidon 1..6, MapGen, the VerifierRegistry (owned by the deployer,
 * account 0), the sealed-share verifier (its artifact hashes registered), ShroudGame's four libraries,
 * ShroudGame linked to them, and the MapProofRegistry. Future ids (`Shroud#MapGen`…) name each step in the journal.
 */
import { buildModule } from '@nomicfoundation/ignition-core';
import { GAME_LIBRARIES, POSEIDON_ARITIES, type SealPlan } from '../plan.ts';
import { poseidonArtifact } from '../poseidon.ts';

export const CORE_MODULE_ID = 'Shroud';

export function coreModule(seal: SealPlan) {
  return buildModule(CORE_MODULE_ID, (m) => {
    const poseidon = POSEIDON_ARITIES.map((n) => m.contract(`Poseidon${n}`, poseidonArtifact(n)));
    const mapGen = m.contract('MapGen', [poseidon[1]!]);
    const registry = m.contract('VerifierRegistry', [m.getAccount(0)]);
    const sealVerifier = m.contract(seal.contract);
    if (seal.artifacts)
      m.call(registry, 'registerArtifacts', [sealVerifier, seal.artifacts.zkey, seal.artifacts.wasm], {
        id: 'registerArtifacts_seal',
      });
    const libraries = Object.fromEntries(GAME_LIBRARIES.map((name) => [name, m.library(name)]));
    const game = m.contract('ShroudGame', [poseidon, mapGen, registry, sealVerifier], { libraries });
    const mapProofs = m.contract('MapProofRegistry', [game, registry]);
    return { registry, mapGen, sealVerifier, game, mapProofs };
  });
}

export type CoreModule = ReturnType<typeof coreModule>;
