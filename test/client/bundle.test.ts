import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as esbuild from 'esbuild';

/**
 * The SDK must bundle for browsers: no Node built-ins anywhere in its import graph. (The app supplies the
 * Poseidon hasher; circomlibjs, behind `core/poseidon.ts`, needs the `events` and `assert` shims that
 * browser bundlers provide.)
 */
test('@shroud/sdk, imported by package name as a third-party app would, bundles for the browser with no Node built-ins', async () => {
  const r = await esbuild.build({
    stdin: {
      contents: "export * from '@shroud/sdk';",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  assert.equal(r.errors.length, 0);
  const inputs = Object.keys(r.metafile.inputs);
  for (const f of [
    'core/merkle.ts',
    'core/fog.ts',
    'core/sealed.ts',
    'client/sdk/tiles.ts',
    'client/sdk/chain.ts',
    'client/sdk/artifacts.ts',
  ]) {
    assert.ok(inputs.includes(f), `${f} is in the bundle`);
  }
  assert.ok(!inputs.some((f) => f.startsWith('node:')), 'no node: imports');
});
