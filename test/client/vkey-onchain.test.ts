/**
 * A verification key is matched against the verifier contract the chain registered (client/sdk/vkey-onchain.ts):
 * the CLI and the page refuse map-proof keys that are not the ones the chain's maproot verifier holds (keys of
 * another ruleset or another setup refuse every honest proof; review 35).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { GameChain } from '../../client/sdk/chain.ts';
import { bn254 } from '../../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { vkeyInVerifierCode } from '../../client/sdk/vkey-onchain.ts';
import { rulesetHash, shippedRuleset } from '../../core/index.ts';
import { readManifest } from '../../scripts/contracts/rulesets.ts';
import { type Env, setup } from '../contracts/helpers.ts';
import { syntheticKey } from '../helpers/groth16-synthetic.ts';

let env: Env;
before(async () => {
  env = await setup(['tiny']);
});
after(() => releaseSnarkjsThreads());

it("finds the chain's maproot key in its verifier's code, and no other key", {
  timeout: 120_000,
}, async () => {
  const chain = new GameChain(await env.game.getAddress(), env.ethers.provider);
  const verifier = await chain.verifierOf(rulesetHash(shippedRuleset('tiny')), 'maproot');
  const code = await env.ethers.provider.getCode(verifier);
  const v = readManifest().tiny!.verifiers;
  const key = (c: 'maproot' | 'spawn') => JSON.parse(readFileSync(v[c]!.vkey, 'utf8'));
  assert.equal(vkeyInVerifierCode(key('maproot'), code), true, "the registered verifier's own key");
  assert.equal(vkeyInVerifierCode(key('spawn'), code), false, "another circuit's key");
  const other = syntheticKey((await bn254()) as never, key('maproot').nPublic).vkey;
  assert.equal(vkeyInVerifierCode(other, code), false, 'a key of the same shape from another setup');
  assert.equal(vkeyInVerifierCode(key('maproot'), '0x'), false, 'no contract there');
});
