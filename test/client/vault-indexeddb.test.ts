/**
 * The browser side of the vault in headless Chromium: a page (the SDK's IndexedDbStateStore and VaultKey bundled
 * with esbuild, served over http so the page has an origin with IndexedDB) seals a state, is reloaded, and opens
 * the same state again with the key its wallet derives again; another seat's key cannot open it.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { chromiumSkip, launchChromium } from '../../scripts/lib/chromium.ts';

const skip = chromiumSkip;

/** The page's script: the store and the key, as a web client would use them. */
const ENTRY = `
import { Wallet } from 'ethers';
import { IndexedDbStateStore } from './client/sdk/store-indexeddb.ts';
import { VaultKey } from './client/sdk/vault.ts';
const scope = { chainId: 31337n, contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3' };
const store = new IndexedDbStateStore();
const enc = new TextEncoder();
const dec = new TextDecoder();
const keyOf = (pk) => VaultKey.derive(new Wallet(pk), scope);
window.vault = {
  async save(pk, id, text) {
    const key = await keyOf(pk);
    await store.put(id, enc.encode(key.seal(7n, enc.encode(text))));
  },
  async load(pk, id) {
    const bytes = await store.get(id);
    if (bytes === null) return null;
    try {
      return dec.decode((await keyOf(pk)).open(7n, dec.decode(bytes)));
    } catch (e) {
      return 'refused: ' + e.reason;
    }
  },
  async remove(id) {
    await store.delete(id);
  },
};
`;

describe('IndexedDbStateStore + VaultKey in headless Chromium', { skip }, () => {
  let browser: Browser;
  let page: Page;
  let server: Server;
  let url: string;

  before(async () => {
    const bundle = await esbuild.build({
      stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'js' },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const js = bundle.outputFiles[0]!.text;
    server = createServer((req, res) => {
      if (req.url === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
      else
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<script type="module" src="/app.js"></script>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await launchChromium();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  const ready = async () => {
    await page.goto(url);
    await page.waitForFunction(() => 'vault' in window);
  };
  const PK = `0x${'42'.repeat(32)}`;
  const OTHER = `0x${'43'.repeat(32)}`;

  it('a state sealed before a reload opens after it; another wallet cannot open it; delete removes it', async () => {
    await ready();
    const call = (fn: string, ...args: unknown[]) =>
      page.evaluate(
        ([f, a]) =>
          (window as unknown as Record<string, Record<string, (...x: unknown[]) => unknown>>).vault![
            f as string
          ]!(...(a as unknown[])),
        [fn, args] as const,
      );
    assert.equal(await call('load', PK, 'seat'), null);
    await call('save', PK, 'seat', '{"share":"0x2a"}');
    await page.reload();
    await page.waitForFunction(() => 'vault' in window);
    assert.equal(await call('load', PK, 'seat'), '{"share":"0x2a"}');
    assert.equal(await call('load', OTHER, 'seat'), 'refused: binding');
    await call('remove', 'seat');
    assert.equal(await call('load', PK, 'seat'), null);
  });
});
