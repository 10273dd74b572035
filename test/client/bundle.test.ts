import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as esbuild from 'esbuild';
import { Wallet } from 'ethers';
import type { Browser, Page } from 'playwright-core';
import * as snarkjs from 'snarkjs';
import { type Groth16Claim, invalidGroth16 } from '../../client/sdk/groth16-batch.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { FIELD_MODULUS } from '../../core/field.ts';
import { loadHasher } from '../../core/poseidon.ts';
import {
  type RevealRequestMessage,
  revealDigest,
  revealDomain,
  signRevealRequest,
} from '../../core/reveal-request.ts';
import { chromiumSkip, launchChromium } from '../../scripts/lib/chromium.ts';
import { syntheticKey } from '../helpers/groth16-synthetic.ts';
import { dealtMap, leafOf, serve } from './fixture.ts';

/**
 * The SDK and the core must bundle for browsers as they are: no `alias`, no `inject`, no polyfills. So no
 * Node built-ins, no circomlibjs / ffjavascript (they need `events` and `assert` shims: the core's
 * Poseidon is poseidon-lite under the `browser` condition), and no ethers in the core (EIP-712 and
 * keccak are on noble). The bundle then runs in headless Chromium and must agree with Node.
 */

/** An app using the SDK, with the hasher it passes in and the core pieces the browser run exercises. */
const APP = `
import * as sdk from '@shroud/sdk';
import * as poseidon from '@shroud/core/poseidon.ts';
import * as generator from '@shroud/core/generator/index.ts';
import * as maptree from '@shroud/core/maptree.ts';
import * as revealRequest from '@shroud/core/reveal-request.ts';
import * as shipped from '@shroud/core/ruleset/shipped.ts';
globalThis.shroud = { sdk, poseidon, generator, maptree, revealRequest, shipped };
`;

async function bundle(contents: string): Promise<{ code: string; inputs: string[] }> {
  const r = await esbuild.build({
    stdin: { contents, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  assert.deepEqual(r.errors, []);
  return { code: r.outputFiles[0]!.text, inputs: Object.keys(r.metafile.inputs) };
}

/** Inputs from package `name` (node_modules may resolve through a symlink, so match anywhere in the path). */
const fromPackage = (inputs: string[], name: string) =>
  inputs.filter((f) => f.includes(`node_modules/${name}/`));

function assertShimFree(inputs: string[], forbidden: string[]): void {
  assert.deepEqual(
    inputs.filter((f) => f.startsWith('node:')),
    [],
    'no node: imports',
  );
  for (const name of forbidden) assert.deepEqual(fromPackage(inputs, name), [], `nothing from ${name}`);
}

const app = await bundle(APP);

/** A page that checks map proofs: the SDK's own module for it, which brings snarkjs' curve (not in the index). */
const MAP_PROOF_APP = `
import * as mapproof from '@shroud/sdk/mapproof.ts';
import * as batch from '@shroud/sdk/groth16-batch.ts';
globalThis.shroudMapProof = { mapproof, batch };
`;
const mapProofApp = await bundle(MAP_PROOF_APP);

test('@shroud/sdk, imported by package name as a third-party app would, bundles for the browser with no shims', () => {
  for (const f of [
    'core/merkle.ts',
    'core/fog.ts',
    'core/sealed.ts',
    'core/eip712.ts',
    'core/poseidon-lite.ts',
    'client/sdk/tiles.ts',
    'client/sdk/chain.ts',
    'client/sdk/artifacts.ts',
  ]) {
    assert.ok(app.inputs.includes(f), `${f} is in the bundle`);
  }
  assert.ok(!app.inputs.includes('core/poseidon-circomlib.ts'), 'the browser condition picks poseidon-lite');
  assert.ok(fromPackage(app.inputs, 'poseidon-lite').length > 0, 'poseidon-lite is in the bundle');
  assertShimFree(app.inputs, ['circomlibjs', 'ffjavascript']);
});

test('@shroud/sdk/mapproof.ts bundles for the browser too: snarkjs and its curve, no Node built-ins', () => {
  for (const f of ['client/sdk/mapproof.ts', 'client/sdk/groth16-batch.ts'])
    assert.ok(mapProofApp.inputs.includes(f), `${f} is in the bundle`);
  assert.ok(
    fromPackage(mapProofApp.inputs, 'snarkjs').length > 0,
    'snarkjs (its browser build) is in the bundle',
  );
  assertShimFree(mapProofApp.inputs, ['circomlibjs', 'ethers']);
  assert.ok(!app.inputs.includes('client/sdk/mapproof.ts'), 'the SDK index does not bring it');
});

test('every core module the SDK imports, and the whole core, bundle without ethers, circomlibjs or Node built-ins', async () => {
  const coreModules = app.inputs.filter((f) => f.startsWith('core/'));
  assert.ok(coreModules.length > 20, `the SDK imports ${coreModules.length} core modules`);
  for (const f of [
    'core/reveal-request.ts',
    'core/reveal-receipt.ts',
    'core/reveal-session.ts',
    'core/lobby.ts',
  ]) {
    assert.ok(coreModules.includes(f), `${f} is one of them`);
  }
  const entries = [...coreModules.filter((f) => f.endsWith('.ts')), 'core/index.ts'];
  const core = await bundle(
    entries.map((f, i) => `export * as m${i} from '@shroud/core/${f.slice(5)}';`).join('\n'),
  );
  for (const f of entries) assert.ok(core.inputs.includes(f), `${f} is in the core bundle`);
  assertShimFree(core.inputs, ['circomlibjs', 'ffjavascript', 'ethers']);
});

const skip = chromiumSkip;

describe('the bundle runs in headless Chromium and agrees with Node', { skip }, () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    await page.addScriptTag({ content: app.code, type: 'module' });
    await page.waitForFunction(() => 'shroud' in globalThis);
    assert.deepEqual(errors, []);
  });

  after(async () => {
    await browser?.close();
  });

  test('Poseidon: the same hash on every arity 1..16; a value ≥ p refused with the same error', async () => {
    const h = await loadHasher();
    const vectors = Array.from({ length: 16 }, (_, n) =>
      Array.from({ length: n + 1 }, (_, i) =>
        i === 0 ? FIELD_MODULUS - 1n : BigInt(i) * 0x1234567890abcdefn + BigInt(n),
      ),
    );
    const got = await page.evaluate(
      async ([vs, p]) => {
        const h = await (globalThis as any).shroud.poseidon.loadHasher();
        const hashes = vs.map((v: string[]) => h.hash(v.map(BigInt)).toString());
        let refused = '';
        try {
          h.hash([BigInt(p)]);
        } catch (e) {
          refused = (e as Error).message;
        }
        return { hashes, refused };
      },
      [vectors.map((v) => v.map(String)), String(FIELD_MODULUS)] as const,
    );
    assert.deepEqual(
      got.hashes,
      vectors.map((v) => h.hash(v).toString()),
    );
    assert.throws(
      () => h.hash([FIELD_MODULUS]),
      (e: Error) => e.message === got.refused,
    );
    assert.match(got.refused, /^inputs\[0\]: not a field element/);
  });

  test('a generated map commits to the same root, and served tiles verify (a tampered one is rejected)', async () => {
    const m = await dealtMap('tiny', 4242n, 99n);
    const leaves = [leafOf(m, { col: 1, row: 1 }), leafOf(m, { col: 5, row: 2 })];
    const served = leaves.map((l) => serve(m, l));
    const tampered = { ...served[1]!, salt: (BigInt(served[1]!.salt) + 1n).toString() };
    const got = await page.evaluate(
      async ({ leaves, served, tampered }) => {
        const { sdk, poseidon, generator, maptree, shipped } = (globalThis as any).shroud;
        const h = await poseidon.loadHasher();
        const board = shipped.shippedRuleset('tiny').board;
        const tiles = generator.generateMap(h, board, 4242n);
        const root = maptree.commitMap(h, board, tiles, 99n).tree.root as bigint;
        const verified = sdk.verifyRevealedTiles(h, board, root, leaves, served);
        let rejected = '';
        try {
          sdk.verifyRevealedTiles(h, board, root, leaves, [served[0], tampered]);
        } catch (e) {
          rejected = (e as { reason: string }).reason;
        }
        return {
          root: root.toString(),
          verified: verified.map((t: any) => `${t.leaf}:${t.terrain}:${t.salt}`),
          rejected,
        };
      },
      { leaves, served, tampered },
    );
    assert.equal(got.root, m.root.toString());
    assert.deepEqual(
      got.verified,
      served.map((t) => `${t.leaf}:${t.terrain}:${t.salt}`),
    );
    assert.equal(got.rejected, 'bad-path');
  });

  test('EIP-712: the same reveal digest, and the signer of an ethers signature recovered in the browser', async () => {
    const wallet = Wallet.createRandom();
    const domain = revealDomain(31337n, '0x5FbDB2315678afecb367f032d93F642f64180aa3');
    const msg: RevealRequestMessage = {
      gameId: 7n,
      player: wallet.address,
      turn: 3,
      leaves: [1, 2, 40],
      blinding: 123456789n,
      stateCommit: 987654321n,
      nonce: 42n,
      expiry: 2_000_000_000,
    };
    const signature = await signRevealRequest(wallet, domain, msg);
    const got = await page.evaluate(
      ({ player, signature }) => {
        const { revealRequest } = (globalThis as any).shroud;
        const domain = revealRequest.revealDomain(31337n, '0x5FbDB2315678afecb367f032d93F642f64180aa3');
        const m = {
          gameId: 7n,
          player,
          turn: 3,
          leaves: [1, 2, 40],
          blinding: 123456789n,
          stateCommit: 987654321n,
          nonce: 42n,
          expiry: 2e9,
        };
        return {
          digest: revealRequest.revealDigest(domain, m) as string,
          signer: revealRequest.recoverRevealSigner(domain, m, signature) as string,
          other: revealRequest.recoverRevealSigner(domain, { ...m, nonce: 43n }, signature) as string,
        };
      },
      { player: wallet.address, signature },
    );
    assert.equal(got.digest, revealDigest(domain, msg));
    assert.equal(got.signer, wallet.address.toLowerCase());
    assert.notEqual(got.other, wallet.address.toLowerCase());
  });

  test('the map-proof batch verifier runs in the page and names the same bad proof as Node', async () => {
    await page.addScriptTag({ content: mapProofApp.code, type: 'module' });
    await page.waitForFunction(() => 'shroudMapProof' in globalThis);
    const c = await snarkjs.curves.getCurveFromName('bn128');
    const key = syntheticKey(c, 3);
    const claims: Groth16Claim[] = Array.from({ length: 6 }, () => ({ vkey: key.vkey, ...key.prove() }));
    claims[4]!.proof = structuredClone(claims[2]!.proof);
    const node = (await invalidGroth16(c, claims)).map((b) => b.index);
    await releaseSnarkjsThreads();
    const got = await page.evaluate(async (claims) => {
      const { mapproof, batch } = (globalThis as any).shroudMapProof;
      const curve = await mapproof.bn254();
      const honest = await batch.invalidGroth16(
        curve,
        claims.filter((_: unknown, i: number) => i !== 4),
      );
      const all = await batch.invalidGroth16(curve, claims);
      return { honest: honest.length, bad: all.map((b: { index: number }) => b.index) };
    }, claims);
    assert.deepEqual(node, [4]);
    assert.deepEqual(got, { honest: 0, bad: [4] });
  });

  test('no page errors', () => {
    assert.deepEqual(errors, []);
  });
});
