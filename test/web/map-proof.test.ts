/**
 * The play page checks the game's ZK map proof with what it was built with (client/web/map-proof.ts): the
 * verification keys of the shipped rulesets built under build/circuits and each public chain's MapProofRegistry,
 * compiled in by the build (build.ts); on the local chain the registry of `?mapProofRegistry=` (config.ts). The
 * check runs in the prover worker (worker-verify.ts), whose refusal the page rethrows as the same MapProofError
 * (worker-prover.ts).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Curve } from 'ffjavascript';
import * as snarkjs from 'snarkjs';
import { MapProofUncheckedError } from '../../client/sdk/errors.ts';
import { type MapProofOptions, refusingUnverified } from '../../client/sdk/game-player.ts';
import { bn254, type MapProofClaim, MapProofError, type MapProofKeys } from '../../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import {
  buildPlayPage,
  mapProofBuildLine,
  mapProofKeysFrom,
  mapProofRefusedWarning,
  mapProofRegistriesFrom,
} from '../../client/web/build.ts';
import { ConfigError, pageConfig } from '../../client/web/config.ts';
import { type BuiltMapProof, pageMapProof } from '../../client/web/map-proof.ts';
import type { VerifyMapProofReply, VerifyMapProofRequest } from '../../client/web/worker-protocol.ts';
import { mapProofErrorOf, WorkerProver } from '../../client/web/worker-prover.ts';
import { handleVerifyMapProof } from '../../client/web/worker-verify.ts';
import type { MapProof } from '../../core/mapproof/types.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { syntheticMapKeys, syntheticMapProof } from '../helpers/synthetic-map-proof.ts';

const REGISTRY = '0x00000000000000000000000000000000000000aa';
const GAME = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const circuitsFile = (dir: string, c: string) => path.join(dir, c, `${c}.vkey.json`);

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'shroud-map-proof-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A circuits folder laid out as circuits:build does: `<ruleset>/<circuit>/<circuit>.vkey.json`. */
function circuitsDir(layout: Record<string, Partial<Record<'mapchunk' | 'maproot', string>>>): string {
  const d = tmp();
  for (const [ruleset, files] of Object.entries(layout))
    for (const [c, from] of Object.entries(files)) {
      mkdirSync(path.join(d, ruleset, c), { recursive: true });
      copyFileSync(from, circuitsFile(path.join(d, ruleset), c));
    }
  return d;
}
/** tiny's two keys as files (synthetic: a fresh clone has built no mapchunk key when this runs). */
const curve = (await bn254()) as unknown as Curve;
const tinyKeys = syntheticMapKeys(curve);
const tinyFiles = (() => {
  const d = tmp();
  const file = (c: 'mapchunk' | 'maproot') => {
    const f = path.join(d, `${c}.vkey.json`);
    writeFileSync(f, JSON.stringify(tinyKeys[c].vkey));
    return f;
  };
  return { mapchunk: file('mapchunk'), maproot: file('maproot') };
})();
/** Runtime code that holds `vkey`'s constants, as its snarkjs verifier contract does (client/sdk/vkey-onchain.ts). */
const codeHolding = (vkey: MapProofKeys['maproot']) =>
  `0x6080${[vkey.vk_alpha_1, ...vkey.vk_beta_2, ...vkey.vk_gamma_2, ...vkey.vk_delta_2, ...vkey.IC]
    .flatMap((p) => [p[0]!, p[1]!])
    .map((x) => `7f${BigInt(x).toString(16).padStart(64, '0')}`)
    .join('')}`;

describe('the map-proof keys and registries a page is built with', () => {
  it("collects each shipped ruleset's two keys, trimmed to what the check reads; none when the files are absent", async () => {
    const { keys, refused } = await mapProofKeysFrom(
      circuitsDir({ tiny: tinyFiles, 'not-shipped': tinyFiles }),
    );
    assert.deepEqual(Object.keys(keys), ['tiny'], 'only shipped rulesets');
    assert.deepEqual(refused, {});
    const raw = JSON.parse(readFileSync(tinyFiles.maproot, 'utf8'));
    assert.deepEqual(keys.tiny!.maproot.IC, raw.IC);
    assert.equal(keys.tiny!.maproot.nPublic, raw.nPublic);
    assert.equal(keys.tiny!.mapchunk.nPublic, 3);
    assert.equal('vk_alphabeta_12' in keys.tiny!.maproot, false, 'unused fields are left out');
    // Keys of the development setup are marked (setup.json `devSetup`, as circuits:build writes it).
    const devDir = circuitsDir({ tiny: tinyFiles });
    writeFileSync(path.join(devDir, 'tiny', 'maproot', 'setup.json'), JSON.stringify({ devSetup: true }));
    assert.equal((await mapProofKeysFrom(devDir)).keys.tiny!.dev, true);
    assert.equal(keys.tiny!.dev, undefined, 'no setup.json: not marked');
    assert.deepEqual(await mapProofKeysFrom(tmp()), { keys: {}, refused: {} });
    assert.deepEqual(await mapProofKeysFrom(path.join(tmp(), 'missing')), { keys: {}, refused: {} });
  });

  it("leaves out a ruleset with one key of two, and one with a malformed key or another ruleset's, naming why", async () => {
    assert.deepEqual(
      await mapProofKeysFrom(circuitsDir({ tiny: { maproot: tinyFiles.maproot } })),
      { keys: {}, refused: {} },
      'a half-built ruleset is left out',
    );
    const bad = tmp();
    writeFileSync(path.join(bad, 'junk.json'), '{"protocol":"plonk"}');
    // tiny's keys filed as tiny-four's: the maproot key takes tiny's signal count, not tiny-four's.
    assert.notEqual(shippedRuleset('tiny').players.max, shippedRuleset('tiny-four').players.max);
    // One bad ruleset must not cost the others their check: tiny-pass's good keys still go in.
    const { keys, refused } = await mapProofKeysFrom(
      circuitsDir({
        tiny: { mapchunk: tinyFiles.mapchunk, maproot: path.join(bad, 'junk.json') },
        'tiny-four': tinyFiles,
        'tiny-pass': tinyFiles,
      }),
      ['tiny', 'tiny-four', 'tiny-pass'],
    );
    assert.deepEqual(Object.keys(refused).sort(), ['tiny', 'tiny-four']);
    assert.match(refused['tiny']!, /not a Groth16 verification key/);
    assert.match(refused['tiny-four']!, /maproot's key takes \d+ public signals, the ruleset's circuit \d+/);
    assert.equal(keys['tiny'], undefined);
    assert.equal(keys['tiny-four'], undefined);
    assert.ok(keys['tiny-pass'], "another ruleset's keys are kept");
  });

  it("takes each public chain's mapProofRegistry from its deployment record, not the local chain's", () => {
    const d = tmp();
    writeFileSync(
      path.join(d, '11155111.json'),
      JSON.stringify({
        chainId: 11155111,
        shroudGame: GAME,
        mapProofRegistry: REGISTRY.toUpperCase().replace('0X', '0x'),
      }),
    );
    writeFileSync(path.join(d, '5.json'), JSON.stringify({ chainId: 5, shroudGame: GAME }));
    writeFileSync(
      path.join(d, '31337.json'),
      JSON.stringify({ chainId: 31337, shroudGame: GAME, mapProofRegistry: REGISTRY }),
    );
    assert.deepEqual(mapProofRegistriesFrom(d), { '11155111': REGISTRY });
    assert.deepEqual(mapProofRegistriesFrom(path.join(d, 'missing')), {});
    const bad = tmp();
    writeFileSync(
      path.join(bad, '1.json'),
      JSON.stringify({ chainId: 1, shroudGame: GAME, mapProofRegistry: '0x12' }),
    );
    assert.throws(() => mapProofRegistriesFrom(bad), /1\.json: mapProofRegistry is not an address/);
  });

  it('the build line names the rulesets and registries, or says there are none', () => {
    assert.match(
      mapProofBuildLine({ mapProofRulesets: ['tiny'], mapProofRegistries: { '11155111': REGISTRY } }),
      new RegExp(`keys of tiny; MapProofRegistry chain 11155111: ${REGISTRY}`),
    );
    assert.match(
      mapProofBuildLine({ mapProofRulesets: [], mapProofRegistries: {} }),
      /no ruleset .*circuits:build.*MapProofRegistry of no public chain/,
    );
    assert.match(
      mapProofBuildLine({
        mapProofRulesets: ['tiny'],
        mapProofRefused: { 'tiny-four': "maproot's key takes 4 public signals, the ruleset's circuit 5" },
        mapProofRegistries: {},
      }),
      /keys of tiny; keys left out, not checked: tiny-four \(maproot's key takes 4 public signals.*\); MapProofRegistry/,
    );
    assert.equal(mapProofRefusedWarning({ mapProofRefused: {} }), null);
    assert.match(
      mapProofRefusedWarning({ mapProofRefused: { 'tiny-four': 'not a Groth16 verification key' } })!,
      /^warning: .*does not check the map proofs of tiny-four \(not a Groth16 verification key\)/,
    );
  });

  it('the build compiles the keys and registries into play.js', { timeout: 120_000 }, async () => {
    const { keys } = await mapProofKeysFrom(circuitsDir({ tiny: tinyFiles }));
    const out = path.join(tmp(), 'play');
    const built = await buildPlayPage(out, {
      trusted: {},
      mapProofKeys: keys,
      mapProofRegistries: { '11155111': REGISTRY },
    });
    assert.deepEqual(built.mapProofRulesets, ['tiny']);
    assert.deepEqual(built.mapProofRegistries, { '11155111': REGISTRY });
    const js = readFileSync(path.join(out, 'play.js'), 'utf8');
    assert.ok(js.includes(REGISTRY), 'the registry is in the bundle');
    assert.ok(js.includes(keys.tiny!.maproot.IC.at(-1)![0]!), "tiny's maproot key is in the bundle");
    assert.ok(!js.includes('__SHROUD_MAP_PROOF_'), 'the placeholders were replaced');
    assert.ok(!js.includes('vk_alphabeta_12'), 'trimmed keys');
  });
});

describe('?mapProofRegistry=', () => {
  const origin = 'http://127.0.0.1:8787';
  it('is the local registry when given, null when not, and refused when malformed (naming the parameter)', () => {
    assert.equal(pageConfig({ search: '', origin }).mapProofRegistry, null);
    assert.equal(pageConfig({ search: `?mapProofRegistry=${REGISTRY}`, origin }).mapProofRegistry, REGISTRY);
    for (const v of ['0x1234', 'nope', ''])
      assert.throws(
        () => pageConfig({ search: `?mapProofRegistry=${v}`, origin }),
        (e: unknown) =>
          e instanceof ConfigError && e.message.startsWith(`?mapProofRegistry=${v}: not an address`),
      );
  });
});

describe("the page's choice", () => {
  const vkeys = { mapchunk: tinyKeys.mapchunk.vkey, maproot: tinyKeys.maproot.vkey } as MapProofKeys;
  const built: BuiltMapProof = { keys: { tiny: vkeys }, registries: { '11155111': REGISTRY } };
  const seen: unknown[] = [];
  const verify = async (...a: unknown[]) => {
    seen.push(a);
  };
  const choose = (o: {
    ruleset?: string;
    chainId: bigint;
    localRegistry?: string | null;
    built?: BuiltMapProof;
    verifierCode?: string;
  }) =>
    pageMapProof({
      built: o.built ?? built,
      ruleset: o.ruleset ?? 'tiny',
      chainId: o.chainId,
      localRegistry: o.localRegistry ?? null,
      verifierCode: o.verifierCode ?? codeHolding(vkeys.maproot),
      verify,
    });

  it("checks with the built-in keys of the game's ruleset and the built-in registry of a public chain", async () => {
    const c = choose({ chainId: 11155111n, localRegistry: '0x00000000000000000000000000000000000000bb' });
    const options = c.options as MapProofOptions;
    assert.equal(options.registry, REGISTRY, "a link's registry is ignored off the local chain");
    assert.match(c.line, /^map proof: checked .*tiny verification keys this page was built with/);
    assert.match(c.line, /\?mapProofRegistry=0x0+bb is ignored off the local chain/);
    const claim = { gameId: 1n } as unknown as MapProofClaim;
    const proof = { chunks: [] } as unknown as MapProof;
    await options.verify(claim, proof);
    assert.deepEqual(seen.at(-1), [claim, proof, vkeys], 'bound to the built-in keys');
  });

  it("checks on the local chain with the link's registry", () => {
    const c = choose({ chainId: 31337n, localRegistry: REGISTRY });
    assert.equal(c.options?.registry, REGISTRY);
    assert.match(c.line, /\(\?mapProofRegistry=\)/);
  });

  it('checks with development keys (public trapdoor) on the local chain only (review 35)', () => {
    const dev = { ...built, keys: { tiny: { ...vkeys, dev: true as const } } };
    const off = choose({ built: dev, chainId: 11155111n });
    assert.equal(off.options, null);
    assert.match(off.line, /built with development map-proof keys of ruleset tiny, whose trapdoor is public/);
    const local = choose({ built: dev, chainId: 31337n, localRegistry: REGISTRY });
    assert.equal(local.options?.registry, REGISTRY);
  });

  it("does not check with a maproot key the chain's verifier does not hold, or with none registered (review 35)", () => {
    const other = syntheticMapKeys(curve);
    const wrong = choose({ chainId: 11155111n, verifierCode: codeHolding(other.maproot.vkey) });
    assert.equal(wrong.options, null);
    assert.match(wrong.line, /is not the one the chain's verifier holds for ruleset tiny/);
    const none = choose({ chainId: 11155111n, verifierCode: '0x' });
    assert.equal(none.options, null);
    assert.match(none.line, /the chain registers no maproot verifier for ruleset tiny/);
  });

  it('says why it does not check: no keys for the ruleset, or no registry', () => {
    const noKeys = choose({ ruleset: 'duel', chainId: 11155111n });
    assert.equal(noKeys.options, null);
    assert.match(
      noKeys.line,
      /^map proof: not checked \(this page was built without the map-proof verification keys of ruleset duel: .*circuits:build -- --ruleset duel/,
    );
    const proto = choose({ ruleset: 'toString', chainId: 11155111n });
    assert.equal(proto.options, null, 'a name on the prototype is no ruleset');
    const local = choose({ chainId: 31337n });
    assert.equal(local.options, null);
    assert.match(
      local.line,
      /no MapProofRegistry: on the local chain give it in the address, \?mapProofRegistry=0x…/,
    );
    const other = choose({ chainId: 1n, localRegistry: REGISTRY });
    assert.equal(other.options, null);
    assert.match(other.line, /built without a MapProofRegistry for chain 1 /);
  });
});

describe("the worker's map-proof check", () => {
  let c: Curve;
  before(async () => {
    c = await snarkjs.curves.getCurveFromName('bn128');
  });
  after(() => releaseSnarkjsThreads());

  const ask = (m: ReturnType<typeof syntheticMapProof>, proof = m.proof) =>
    handleVerifyMapProof({ id: 3, type: 'verify-map-proof', claim: m.claim, proof, vkeys: m.vkeys });

  it('answers done for a proof that verifies under the keys sent', { timeout: 60_000 }, async () => {
    const m = syntheticMapProof(c);
    const r = await ask(m);
    assert.equal(r.type, 'done');
    assert.equal(r.id, 3);
  });

  it("refuses a false chunk proof with its zone; the page's MapProofError has the same zone and message", {
    timeout: 60_000,
  }, async () => {
    const m = syntheticMapProof(c);
    const other = syntheticMapProof(c);
    const zone = m.Z - 1;
    const chunks = [...m.proof.chunks];
    // A valid proof of the same signals under another key: it does not verify under the page's key.
    chunks[zone] = { ...other.proof.chunks[zone]!, publicSignals: m.proof.chunks[zone]!.publicSignals };
    const r = await ask(m, { ...m.proof, chunks });
    assert.equal(r.type, 'error');
    const { zone: z, reason } = r as Extract<VerifyMapProofReply, { type: 'error' }>;
    assert.equal(z, zone);
    assert.equal(reason, 'chunk proof does not verify');
    const e = mapProofErrorOf(r as Extract<VerifyMapProofReply, { type: 'error' }>);
    assert.ok(e instanceof MapProofError);
    assert.equal(e.zone, zone);
    assert.equal(e.message, `map proof, zone ${zone}: chunk proof does not verify`);
  });

  it('refuses a malformed proof as a whole (zone null), and so whatever else the check throws', async () => {
    const m = syntheticMapProof(c);
    const r = await ask(m, { chunks: [] } as unknown as MapProof);
    assert.deepEqual(r, { id: 3, type: 'error', zone: null, reason: 'the root proof has no public signals' });
    assert.equal(mapProofErrorOf(r as never).message, 'map proof: the root proof has no public signals');
    const req = { id: 4, type: 'verify-map-proof' } as VerifyMapProofRequest;
    const seen: unknown[] = [];
    const thrown = await handleVerifyMapProof(req, async (...a) => {
      seen.push(a);
      throw new Error('point not on curve');
    });
    assert.deepEqual(seen, [[undefined, undefined, undefined]]);
    assert.deepEqual(thrown, {
      id: 4,
      type: 'error',
      zone: null,
      reason: 'does not verify (point not on curve)',
    });
  });

  it("answers unchecked, not refused, when the worker's own check could not run (review 35)", async () => {
    const m = syntheticMapProof(c);
    const r = await handleVerifyMapProof(
      { id: 5, type: 'verify-map-proof', claim: m.claim, proof: m.proof, vkeys: m.vkeys },
      async () => {
        throw new MapProofUncheckedError('the BN254 curve did not load (out of memory)');
      },
    );
    assert.deepEqual(r, { id: 5, type: 'unchecked', reason: 'the BN254 curve did not load (out of memory)' });
  });

  it("WorkerProver.verifyMapProof asks the worker and rethrows its refusal as the page's MapProofError", {
    timeout: 60_000,
  }, async () => {
    const m = syntheticMapProof(c);
    const posted: unknown[] = [];
    let crashes = 1;
    const crashNext = (n: number) => {
      crashes = n;
    };
    /** The worker, in this process: answers with the handler worker.ts calls; crashes once first. */
    class FakeWorker extends EventTarget {
      postMessage(msg: VerifyMapProofRequest) {
        posted.push(msg.type);
        if (crashes-- > 0) {
          queueMicrotask(() => this.dispatchEvent(Object.assign(new Event('error'), { message: 'crashed' })));
          return;
        }
        const req = structuredClone(msg);
        void handleVerifyMapProof(req).then((data) =>
          this.dispatchEvent(new MessageEvent('message', { data })),
        );
      }
      terminate() {}
    }
    const g = globalThis as { Worker?: unknown };
    const saved = g.Worker;
    g.Worker = FakeWorker;
    try {
      const prover = new WorkerProver({ workerUrl: 'worker.js' } as never);
      await prover.verifyMapProof(m.claim, m.proof, m.vkeys);
      assert.deepEqual(
        posted,
        ['verify-map-proof', 'verify-map-proof'],
        'a crashed worker is asked once more',
      );
      const root = {
        ...m.proof.root,
        publicSignals: m.proof.root.publicSignals.map((s, i) => (i === 0 ? '6' : s)),
      };
      await assert.rejects(
        prover.verifyMapProof(m.claim, { ...m.proof, root }, m.vkeys),
        (e: unknown) =>
          e instanceof MapProofError &&
          e.zone === null &&
          /root proof signal 0 is 6, the chain says 5/.test(e.message),
      );
      // A worker that dies twice is this page's failure: unchecked (asked again later), never a refusal.
      crashNext(2);
      await assert.rejects(
        prover.verifyMapProof(m.claim, m.proof, m.vkeys),
        (e: unknown) => e instanceof MapProofUncheckedError && !(e instanceof MapProofError),
      );
      await assert.rejects(
        refusingUnverified(async () => {
          throw new MapProofUncheckedError('the worker died');
        }),
        MapProofUncheckedError,
        'GamePlayer.checkMapProof passes it on as it is',
      );
    } finally {
      g.Worker = saved;
    }
  });
});
