import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Replay } from '../../client/viewer/replay.ts';
import { viewerHtml, writeViewer } from '../../client/viewer/write.ts';
import { dealtMap } from './fixture.ts';
import { simulate } from './sim.ts';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} not found: apt-get install -y chromium fonts-dejavu-core`;

const m = await dealtMap('tiny', 4242n, 99n);
const { replay } = simulate(m, 6, 7n);
const total = m.board.width * m.board.height;
const withAudit: Replay = { ...replay, omniscient: { tiles: m.tiles } };

describe('web viewer in headless Chromium', { skip }, () => {
  let browser: Browser;
  let page: Page;
  const dir = mkdtempSync(join(tmpdir(), 'shroud-viewer-'));

  before(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    await page.goto(pathToFileURL(writeViewer(join(dir, 'plain'), replay)).href);
    await page.waitForSelector('#map svg');
    assert.deepEqual(errors, []);
  });

  after(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const showTurn = (k: number) =>
    page.$eval(
      '#turn',
      (el, v) => {
        const input = el as HTMLInputElement;
        input.value = String(v);
        input.dispatchEvent(new Event('input'));
      },
      k,
    );
  const count = (sel: string) => page.locator(sel).count();

  /**
   * Screenshot of the map, inset by 2 px: the SVG's fractional viewBox edge blends with the page
   * background there, which is outside the map.
   */
  async function mapShot(): Promise<Buffer> {
    const box = (await page.locator('#map svg').boundingBox())!;
    return page.screenshot({
      clip: { x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4 },
    });
  }

  /** Non-black pixels of a PNG, decoded by the browser's own canvas in a scratch page. */
  async function nonBlackPixels(png: Buffer): Promise<{ total: number; nonBlack: number }> {
    const scratch = await browser.newPage();
    try {
      return await scratch.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        [c.width, c.height] = [img.width, img.height];
        const ctx = c.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let nonBlack = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i]! | d[i + 1]! | d[i + 2]!) nonBlack++;
        return { total: d.length / 4, nonBlack };
      }, png.toString('base64'));
    } finally {
      await scratch.close();
    }
  }

  it('opens at the last turn and the slider replays earlier views', async () => {
    assert.equal(await page.locator('#turn').getAttribute('max'), String(replay.turns.length - 1));
    const last = replay.turns.at(-1)!;
    assert.equal(
      await count('#map polygon.fog'),
      last.view.filter((v, i) => v === 'undiscovered' || !last.tiles[i]).length,
    );
    assert.ok((await count('#map polygon.tile')) > 0);
    assert.ok((await count('#map polygon.tile.explored')) > 0, 'explored tiles drawn dimmed');
    await showTurn(0);
    assert.equal(await page.locator('#map').getAttribute('data-turn'), '0');
    assert.equal(await count('#map polygon.fog'), total, 'turn 0: all fog');
    assert.equal(await count('#map polygon.tile'), 0);
    await showTurn(3);
    assert.match((await page.locator('#turn-label').textContent())!, /turn 3/);
    assert.ok((await count('#map polygon.fog')) < total);
    const svg3 = await page.locator('#map svg').evaluate((el) => el.outerHTML);
    await showTurn(replay.turns.length - 1);
    assert.notEqual(await page.locator('#map svg').evaluate((el) => el.outerHTML), svg3);
  });

  it('has no omniscient toggle without audit data', async () => {
    assert.equal(await count('#omniscient'), 0);
    assert.ok(!viewerHtml(replay).includes('"omniscient"'));
  });

  it('draws fogged tiles as bare black polygons: no terrain in the DOM, pure black pixels', async () => {
    await showTurn(0);
    const svg = await page.locator('#map svg').evaluate((el) => el.outerHTML);
    assert.ok(!/data-terrain|<text|<line/.test(svg), 'fogged map carries tile data');
    const attrs = await page.$$eval('#map polygon.fog', (ps) =>
      ps.map((p) => p.getAttributeNames().sort().join(',') + '|' + p.getAttribute('fill')),
    );
    assert.equal(attrs.length, total);
    assert.ok(
      attrs.every((a) => a === 'class,data-col,data-row,fill,points|#000'),
      attrs[0],
    );
    const fogged = await nonBlackPixels(await mapShot());
    assert.ok(fogged.total > 10_000);
    assert.equal(fogged.nonBlack, 0, 'an all-fog turn must be pure black');
    // The same check sees colour as soon as anything is revealed, so it can fail.
    await showTurn(replay.turns.length - 1);
    const seen = await nonBlackPixels(await mapShot());
    assert.ok(seen.nonBlack > 1000, `expected visible terrain, got ${seen.nonBlack} coloured pixels`);
  });

  it('offers the omniscient toggle when the replay carries the audited map', async () => {
    const p2 = await browser.newPage();
    try {
      await p2.goto(pathToFileURL(writeViewer(join(dir, 'audit'), withAudit)).href);
      await p2.waitForSelector('#map svg');
      assert.equal(await p2.locator('#omniscient').count(), 1);
      assert.ok((await p2.locator('#map polygon.fog').count()) > 0);
      await p2.locator('#omniscient').check();
      assert.equal(await p2.locator('#map polygon.fog').count(), 0);
      assert.equal(await p2.locator('#map polygon.tile').count(), total);
      await p2.locator('#omniscient').uncheck();
      assert.ok((await p2.locator('#map polygon.fog').count()) > 0);
    } finally {
      await p2.close();
    }
  });
});

describe('viewer page builder', () => {
  it('refuses a replay that carries data for an undiscovered tile', () => {
    const bad = structuredClone(replay);
    bad.turns[0]!.tiles[0] = m.tiles[0]!;
    assert.throws(() => viewerHtml(bad), /undiscovered tile must carry no data/);
  });

  it('escapes "<" in the inlined JSON', () => {
    const html = viewerHtml({ ...replay, ruleset: { ...replay.ruleset, name: '</script><b>x' } });
    assert.ok(!html.includes('</script><b>'));
  });
});
