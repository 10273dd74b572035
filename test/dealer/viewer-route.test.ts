import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Fastify from 'fastify';
import { buildViewer } from '../../client/viewer/build.ts';
import { viewerRoutes } from '../../dealer/routes/viewer.ts';
import { startDealer, tempDir } from './fixture.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

/** A bare app with only the viewer routes, over `dir`, counting the builds. */
async function viewerApp(dir: string, build: (dir: string) => Promise<unknown> = buildViewer) {
  const calls = { builds: 0 };
  const app = Fastify();
  await app.register(
    viewerRoutes({
      dir,
      build: (d) => {
        calls.builds++;
        return build(d);
      },
    }),
  );
  return { app, calls };
}

describe('GET /viewer', () => {
  it('builds a missing viewer once at start-up and serves the page and its module from memory', async () => {
    const dir = join(tmp.dir, 'fresh');
    const { app, calls } = await viewerApp(dir);
    try {
      assert.equal(calls.builds, 1, 'built at start-up');
      const built = statSync(join(dir, 'app.js')).mtimeMs;

      const page = await app.inject({ url: '/viewer' });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.match(page.body, /<script type="application\/json" id="replay">null<\/script>/, 'no game data');
      const src = /<script type="module" src="(viewer\/app\.js\?v=[0-9a-f]{16})"><\/script>/.exec(
        page.body,
      )?.[1];
      assert.ok(src, 'the page loads the built module by a versioned URL');

      const js = await app.inject({ url: `/${src}` });
      assert.equal(js.statusCode, 200);
      assert.match(String(js.headers['content-type']), /^text\/javascript/);
      assert.match(String(js.headers['cache-control']), /max-age=31536000, immutable/);
      assert.match(js.body, /replay-file/, 'the module asks the player for their replay file');
      assert.ok(!/^\s*import\s/m.test(js.body), 'one self-contained bundle');

      for (const url of ['/viewer', `/${src}`]) {
        const first = await app.inject({ url });
        const again = await app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
        assert.equal(again.statusCode, 304, `${url}: revalidated by ETag`);
        assert.equal(again.body, '');
      }
      assert.equal(calls.builds, 1, 'requests never rebuild');
      assert.equal(statSync(join(dir, 'app.js')).mtimeMs, built, 'nothing rewritten');
    } finally {
      await app.close();
    }
  });

  it('serves an existing build without building', async () => {
    const dir = join(tmp.dir, 'prebuilt');
    await buildViewer(dir);
    const { app, calls } = await viewerApp(dir);
    try {
      assert.equal((await app.inject({ url: '/viewer' })).statusCode, 200);
      assert.equal(calls.builds, 0);
    } finally {
      await app.close();
    }
  });

  it('answers 503 naming the fix when the viewer is missing and cannot be built', async () => {
    const { app, calls } = await viewerApp(join(tmp.dir, 'absent'), async () => {
      throw new Error("Cannot find package 'esbuild'");
    });
    try {
      assert.equal(calls.builds, 1);
      for (const url of ['/viewer', '/viewer/app.js']) {
        const res = await app.inject({ url });
        assert.equal(res.statusCode, 503, url);
        assert.match(res.json().message, /esbuild.*npm run build:web/);
      }
    } finally {
      await app.close();
    }
  });

  it('is part of the dealer', async () => {
    const d = await startDealer();
    try {
      const page = await d.app.inject({ url: '/viewer' });
      assert.equal(page.statusCode, 200);
      const src = /src="(viewer\/app\.js\?v=[0-9a-f]+)"/.exec(page.body)?.[1];
      assert.equal((await d.app.inject({ url: `/${src}` })).statusCode, 200);
    } finally {
      await d.close();
    }
  });
});
