/**
 * The dealer's `/play/` route: the built page's files only, built on the first request when missing (never
 * at start-up), the query kept across the `/play` redirect, anything else a 404 in the dealer's error shape.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Fastify from 'fastify';
import { errorsPlugin } from '../../dealer/plugins/errors.ts';
import { playRoutes } from '../../dealer/routes/play.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-play-route-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('GET /play/ builds the page on first request and serves only its files', async () => {
  const dir = path.join(tmp, 'play');
  const app = Fastify();
  errorsPlugin(app);
  await app.register(playRoutes(dir));
  await app.ready();
  assert.equal(existsSync(dir), false, 'nothing is built at start-up');

  const r = await app.inject({ url: '/play?rpc=http%3A%2F%2F127.0.0.1%3A8545&pollMs=200' });
  assert.equal(r.statusCode, 302);
  assert.equal(r.headers.location, '/play/?rpc=http%3A%2F%2F127.0.0.1%3A8545&pollMs=200');

  const html = await app.inject({ url: '/play/' });
  assert.equal(html.statusCode, 200);
  assert.match(String(html.headers['content-type']), /^text\/html/);
  assert.match(html.body, /<script type="module" src="play.js">/);
  assert.ok(existsSync(path.join(dir, 'index.html')), 'built on the first request');

  for (const [file, type] of [
    ['play.js', /^text\/javascript/],
    ['worker.js', /^text\/javascript/],
    ['play.css', /^text\/css/],
  ] as const) {
    const f = await app.inject({ url: `/play/${file}` });
    assert.equal(f.statusCode, 200, file);
    assert.match(String(f.headers['content-type']), type);
    assert.equal(f.headers['x-content-type-options'], 'nosniff');
    assert.match(String(f.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.match(
      String(f.headers['content-security-policy']),
      /script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'(;|$)/,
    );
    assert.equal(f.headers['x-frame-options'], 'DENY');
  }
  for (const url of ['/play/dealer.sqlite', '/play/..%2Fpackage.json', '/play/build.ts']) {
    const f = await app.inject({ url });
    assert.equal(f.statusCode, 404, url);
    assert.equal(f.json().error, 'not-found');
  }
  await app.close();
});
