/**
 * What the contracts need to know about a shipped ruleset: its on-chain hash, board, seat count, combat
 * damage, and the generated verifier contracts (contracts/generated/manifest.json, written by verifiers.ts);
 * and the ruleset-independent seal verifier (contracts/generated/seal.json, `readSealArtifacts`).
 */
import { readFileSync } from 'node:fs';
import { id } from 'ethers';
import type { GeneratedVerifier, RulesetInfo } from '../../contracts/manifest.ts';
import { type ArtifactHashes, artifactSha256 } from '../../core/artifacts.ts';
import { packStartAreas } from '../../core/generator/shape.ts';
import { rulesetHash as canonicalRulesetHash } from '../../core/ruleset/hash.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';

export * from '../../contracts/manifest.ts';

/**
 * Combat damage per ruleset (the `damage` public input of every combat proof). Rulesets carry no damage
 * rule yet, so it is a protocol constant registered with the ruleset: 4 hp per hit.
 */
export const DAMAGE: Record<string, number> = {
  tiny: 4,
  'tiny-pass': 4,
  'tiny-square': 4,
  duel: 4,
  skirmish: 4,
  standard: 4,
};

/** On-chain ruleset id of a shipped ruleset: the core's `rulesetHash` (keccak256 of the canonical JSON). */
export function rulesetHash(name: string): string {
  return canonicalRulesetHash(shippedRuleset(name));
}

export function rulesetInfo(name: string): RulesetInfo {
  const r = shippedRuleset(name);
  return {
    name,
    kind: r.grid.kind === 'hex' ? 0 : 1,
    width: r.grid.width,
    height: r.grid.height,
    maxPlayers: r.players.max,
    damage: DAMAGE[name] ?? 4,
    passability: r.provePassability,
    maxRevealedTiles: r.maxRevealedTiles,
    startAreas: packStartAreas(r.board).toString(),
  };
}

/** `verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[n])` selector. */
export function selectorFor(n: number): string {
  return id(`verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[${n}])`).slice(0, 10);
}

const pascal = (s: string) =>
  s
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** `tiny-square` + `turn` → `TinySquareTurnVerifier`. */
export function verifierContractName(ruleset: string, circuit: string): string {
  return `${pascal(ruleset)}${pascal(circuit)}Verifier`;
}

/**
 * SHA-256 of a generated verifier's zkey and wasm files, as the deploy registers them on-chain. A hash the
 * manifest recorded (a ceremony's finalize does) must match the file: a swapped file is refused here, not on a
 * client's first proof.
 */
export async function artifactHashesOf(
  v: Pick<GeneratedVerifier, 'zkey' | 'wasm' | 'zkeySha256' | 'wasmSha256'> & { contract: string },
): Promise<ArtifactHashes> {
  const zkey = await artifactSha256(readFileSync(v.zkey));
  const wasm = await artifactSha256(readFileSync(v.wasm));
  for (const [kind, got, want] of [
    ['zkey', zkey, v.zkeySha256],
    ['wasm', wasm, v.wasmSha256],
  ] as const)
    if (want !== undefined && want.toLowerCase() !== got)
      throw new Error(`${v.contract}: ${kind} ${v[kind]} has SHA-256 ${got}, the manifest records ${want}`);
  return { zkey, wasm };
}
