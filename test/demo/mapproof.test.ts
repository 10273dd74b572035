/**
 * The demo's map proof on tiny, with the real dealer process on a real chain: the maproot verifier is registered
 * after the deployment, once the keys are ready (the demo's first-run path), the dealer proves the map and posts
 * it to the MapProofRegistry, each bot verifies it through its GamePlayer as soon as it is on-chain, and the
 * game waits for every seat before its audit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { JsonRpcProvider } from 'ethers';
import { typedContract } from '../../client/sdk/typed-contract.ts';
import { MAP_PROOF_REGISTRY_ABI } from '../../core/abi/map-proof-registry.ts';
import { loadHasher, shippedRuleset } from '../../core/index.ts';
import { playDemoGame } from '../../scripts/demo/game.ts';
import { stopAll } from '../../scripts/demo/procs.ts';
import { buildCircuitsAndVerifiers } from '../../scripts/demo/setup.ts';
import { liveChain } from '../helpers/live-chain.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-mapproof-demo-'));
after(async () => {
  await stopAll();
  if (process.env.SHROUD_KEEP_LOGS) console.error(`logs kept in ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
});

describe('the demo’s map proof (tiny)', () => {
  it('arrives on-chain and is verified by both bots before the audit', {
    // Keys cached (`npm test` builds tiny's map keys for test/mapproof): about a minute, most of it proving.
    timeout: 900_000,
  }, async () => {
    const ruleset = shippedRuleset('tiny');
    const artifacts = await buildCircuitsAndVerifiers('tiny', undefined);
    const live = await liveChain({ tmp, ruleset: 'tiny', mapProof: true });
    const keys = live.mapKeys!;
    const lines: string[] = [];
    const result = await playDemoGame({
      h: await loadHasher(),
      ruleset,
      artifacts,
      rpcUrl: live.url,
      gameContract: live.deployment.shroudGame,
      dealerUrl: live.dealerUrl,
      dealerKey: live.dealerKey,
      turns: 2,
      outDir: tmp,
      viewers: false,
      log: (l) => lines.push(`· ${l}`),
      print: (l) => lines.push(l),
      mapProof: {
        registry: live.deployment.mapProofRegistry,
        keys: keys.ready,
        vkeys: () => keys.vkeys(),
        // A dealer whose proof never lands (a submission the registry refuses) fails here, not at the timeout.
        stallMs: 180_000,
      },
    });
    assert.equal(keys.outcome?.error, undefined);
    assert.equal(keys.outcome?.built, true, 'keys prepared after the deployment, maproot registered late');
    for (const b of result.bots) {
      const c = b.player.mapProof;
      assert.ok(c, `seat ${b.seat} verified the map proof`);
      assert.ok(c.verifyMs > 0 && c.turn >= 0 && c.turn <= 6);
    }
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const summary = at(
      /^map proof: posted on-chain and verified (at turn \d+ of 6|after play \(turn 6\)), .* after the start; 4 zone proofs and the root proof verified by seat 0 in \d+ ms, seat 1 in \d+ ms$/,
    );
    const audit = at(/^audit: root matches/);
    assert.ok(summary >= 0, lines.join('\n'));
    assert.ok(audit > summary, 'the audit comes after the map proof');
    for (const seat of [0, 1]) {
      const v = at(new RegExp(`map proof verified by seat ${seat} at turn \\d+: .* in \\d+ ms$`));
      assert.ok(v >= 0 && v < summary, `seat ${seat}'s verification printed before the summary`);
    }
    assert.equal(result.mapProof, lines[summary]);
    // Then the game's life ends: settled past the audit window, the dealer's bond withdrawn by its own watcher.
    const settled = at(
      /^settlement: the audit window fast-forwarded on the local chain; (seat 0|the dealer) settled it.*; the dealer withdrew its 1000000000000000000 wei bond \d+ ms later/,
    );
    assert.ok(settled > audit, lines.join('\n'));
    // What the bots checked is what the chain recorded.
    const provider = new JsonRpcProvider(live.url, 31337, { staticNetwork: true });
    try {
      const registry = typedContract(live.deployment.mapProofRegistry, MAP_PROOF_REGISTRY_ABI, provider);
      assert.equal(await registry.isVerified(result.gameId), true);
    } finally {
      provider.destroy();
    }
  });
});
