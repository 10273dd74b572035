import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { PlayerModel } from '../../client/sdk/player.ts';
import { type BuiltFile, buildViewer, viewerStale } from '../../client/viewer/build.ts';
import { ReplayRecorder } from '../../client/viewer/recorder.ts';
import { assertReplay, type Replay } from '../../client/viewer/replay.ts';
import { viewerHtml, writeViewer } from '../../client/viewer/write.ts';
import { makeBoard } from '../../core/geometry.ts';
import { chromiumSkip, launchChromium } from '../../scripts/lib/chromium.ts';
import { dealtMap } from './fixture.ts';
import { simulate, spawnUnits } from './sim.ts';

const skip = chromiumSkip;

const m = await dealtMap('tiny', 4242n, 99n);
const { replay } = simulate(m, 6, 7n, { fight: true });
const total = m.board.width * m.board.height;
const withAudit: Replay = { ...replay, omniscient: { tiles: m.tiles } };
/** A private build folder: the bundle under test is the one esbuild makes here. */
const buildDir = mkdtempSync(join(tmpdir(), 'shroud-viewer-build-'));
const built: BuiltFile[] = await buildViewer(buildDir);
after(() => rmSync(buildDir, { recursive: true, force: true }));
/** Served tiles of a frame: the only tiles that may be drawn with terrain. */
const servedOf = (k: number) => {
  const f = replay.turns[k]!;
  return new Set(f.tiles.flatMap((t, i) => (t && f.view[i] !== 'undiscovered' ? [i] : [])));
};

describe('web viewer in headless Chromium', { skip }, () => {
  let browser: Browser;
  let page: Page;
  const dir = mkdtempSync(join(tmpdir(), 'shroud-viewer-'));

  before(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    await page.goto(pathToFileURL(await writeViewer(join(dir, 'plain'), replay, buildDir)).href);
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
    const html = await viewerHtml(replay, buildDir);
    const data = /<script type="application\/json" id="replay">(.*?)<\/script>/s.exec(html)![1]!;
    assert.ok(!('omniscient' in JSON.parse(data)), 'the page carries no audited map');
  });

  /** Tiles (`col,row`) the map draws with terrain, and the fog polygons' attributes. */
  const drawnTiles = () =>
    page.$$eval('#map polygon', (ps) =>
      ps.map((p) => ({
        at: `${p.getAttribute('data-col')},${p.getAttribute('data-row')}`,
        fog: p.classList.contains('fog'),
        terrain: p.hasAttribute('data-terrain'),
        attrs: `${p.closest('g')?.getAttribute('class')}|${p.getAttributeNames().sort().join(',')}|${p.getAttribute('fill')}`,
      })),
    );

  it('fog stays exact on every turn: only served tiles have terrain, units are drawn over bare fog', async () => {
    let unitsOnFog = 0;
    for (let k = 0; k < replay.turns.length; k++) {
      await showTurn(k);
      const f = replay.turns[k]!;
      const served = servedOf(k);
      const cells = (await drawnTiles()).filter((c) => c.attrs.startsWith('cells|'));
      assert.equal(cells.length, total, `turn ${k}: one cell per tile`);
      const key = (i: number) => `${i % m.board.width},${Math.floor(i / m.board.width)}`;
      const withTerrain = new Set(cells.filter((c) => c.terrain).map((c) => c.at));
      assert.deepEqual(
        withTerrain,
        new Set([...served].map(key)),
        `turn ${k}: terrain exactly on the served tiles`,
      );
      for (const c of cells.filter((c) => c.fog))
        assert.equal(c.attrs, 'cells|class,data-col,data-row,fill,points|#000');
      const fogAt = new Set(cells.filter((c) => c.fog).map((c) => c.at));
      for (const u of f.units) if (fogAt.has(`${u.col},${u.row}`)) unitsOnFog++;
      const overlay = await page.locator('#map g.overlay').evaluate((g) => g.innerHTML);
      assert.ok(
        !/data-terrain|class="(tile|fog)/.test(overlay),
        `turn ${k}: the overlay carries no tile data`,
      );
    }
    assert.ok(unitsOnFog > 0, 'some unit stands on a tile never served, so the check covers units over fog');
  });

  it('draws fogged tiles as bare black polygons: no terrain in the DOM, pure black pixels', async () => {
    await showTurn(0);
    const layers = await page.$$eval('#map g.cells, #map g.rivers', (gs) =>
      gs.map((g) => g.outerHTML).join(''),
    );
    assert.ok(!/data-terrain|<text|<line/.test(layers), 'fogged map carries tile data');
    assert.equal(await count('#map polygon.fog'), total);
    assert.equal(await count('#map .unit'), replay.turns[0]!.units.length, 'units drawn over the fog');
    // Pixels of the map alone: the marks over it (units) are hidden for the shot.
    const hide = await page.addStyleTag({ content: '#map g.overlay, #map g.zones { display: none }' });
    const fogged = await nonBlackPixels(await mapShot());
    await hide.evaluate((el) => (el as HTMLElement).remove());
    assert.ok(fogged.total > 10_000);
    assert.equal(fogged.nonBlack, 0, 'an all-fog turn must be pure black');
    // The same check sees colour as soon as anything is drawn, so it can fail.
    const marked = await nonBlackPixels(await mapShot());
    assert.ok(marked.nonBlack > 50, `expected the units' colour, got ${marked.nonBlack} coloured pixels`);
    await showTurn(replay.turns.length - 1);
    const seen = await nonBlackPixels(await mapShot());
    assert.ok(seen.nonBlack > 1000, `expected visible terrain, got ${seen.nonBlack} coloured pixels`);
  });

  it('draws the own units, moves, sightings and attacks of the shown turn', async () => {
    const attacks = replay.turns.flatMap((t) => t.attacks);
    for (const kind of ['made hit', 'made fizzle', 'made pending', 'received hit'])
      assert.ok(
        attacks.some((a) => `${a.side} ${a.outcome}` === kind),
        `the sim's fight has an attack ${kind}`,
      );
    assert.ok(attacks.some((a) => a.killed) && replay.turns.some((t) => t.moves.length > 0));
    const sorted = (xs: string[]) => [...xs].sort();
    let exact = 0;
    for (let k = 0; k < replay.turns.length; k++) {
      await showTurn(k);
      const f = replay.turns[k]!;
      const attr = (sel: string, ...names: string[]) =>
        page.$$eval(sel, (es, ns) => es.map((e) => ns.map((n) => e.getAttribute(n)).join('|')), names);
      assert.deepEqual(
        sorted(await attr('#map .unit', 'data-slot', 'data-col', 'data-row')),
        sorted(f.units.map((u) => `${u.slot}|${u.col}|${u.row}`)),
        `turn ${k}: units`,
      );
      assert.deepEqual(
        sorted(await attr('#map .move', 'data-slot')),
        sorted(f.moves.map((mv) => String(mv.slot))),
        `turn ${k}: moves`,
      );
      assert.deepEqual(
        sorted(await attr('#map .attack', 'class', 'data-col', 'data-row')),
        sorted(
          f.attacks.map(
            (a) =>
              `attack ${a.side} ${a.outcome}${a.killed ? ' killed' : ''}|${a.target.col}|${a.target.row}`,
          ),
        ),
        `turn ${k}: attacks`,
      );
      const zones = [...new Set(f.sightings.map((s) => String(s.zone)))];
      assert.deepEqual(
        sorted(await attr('#map .enemy-zone', 'data-zone')),
        sorted(zones),
        `turn ${k}: zones`,
      );
      assert.deepEqual(sorted(await attr('#map text.sighting', 'data-zone')), sorted(zones));
      exact += await count('#map .enemy');
      assert.equal(await count('#map .enemy'), f.sightings.filter((s) => s.col !== undefined).length);
    }
    assert.ok(exact > 0, 'an enemy at an exact tile was drawn');
  });

  it('has a legend entry for every colour and mark the map can show', async () => {
    const entries = await page.$$eval('#legend [data-legend]', (ls) =>
      ls.map((l) => l.getAttribute('data-legend')),
    );
    const want = [
      ...[0, 1, 2, 3, 4, 5, 6].map((t) => `terrain-${t}`),
      ...replay.ruleset.unitTypes.map((_, i) => `unit-${i}`),
      'explored',
      'fog',
      'river',
      'move',
      'zone',
      'enemy',
      'attack-made-pending',
      'attack-made-hit',
      'attack-made-fizzle',
      'attack-received-hit',
      'attack-received-fizzle',
      'attack-killed',
    ];
    for (const w of want) assert.ok(entries.includes(w), `legend: ${w}`);
    // Drawn by the map's own functions: the same classes.
    for (const sel of [
      '.unit',
      '.move',
      '.enemy-zone',
      '.enemy',
      '.attack.made.pending',
      '.attack.received.hit',
    ])
      assert.equal((await count(`#legend ${sel}`)) > 0, true, `legend draws ${sel}`);
  });

  it('shows the turn log up to the shown turn; a click or the arrow keys change the turn', async () => {
    const k = 4;
    await showTurn(k);
    assert.equal(await count('#log > li'), k + 1);
    const current = page.locator('#log > li.current');
    assert.equal(await current.getAttribute('data-turn'), String(replay.turns[k]!.turn));
    assert.deepEqual(await current.locator('li').allTextContents(), replay.turns[k]!.log);
    assert.ok(replay.turns[k]!.log.some((l) => /attacked .* hit our infantry/.test(l)));
    await page.locator('#log > li[data-turn="2"]').click();
    assert.equal(await page.locator('#map').getAttribute('data-turn'), '2');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#map').getAttribute('data-turn'), '3');
    await page.keyboard.press('End');
    assert.equal(await page.locator('#map').getAttribute('data-turn'), String(replay.turns.at(-1)!.turn));
    await page.keyboard.press('Home');
    assert.equal(await page.locator('#map').getAttribute('data-turn'), '0');
  });

  it('offers the omniscient toggle when the replay carries the audited map', async () => {
    const p2 = await browser.newPage();
    try {
      await p2.goto(pathToFileURL(await writeViewer(join(dir, 'audit'), withAudit, buildDir)).href);
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

describe('viewer build', () => {
  it('bundles the viewer with esbuild into one small minified module and its page', (t) => {
    const js = built.find((f) => f.path.endsWith('app.js'))!;
    t.diagnostic(`app.js: ${js.bytes} bytes`);
    assert.ok(js.bytes > 5_000 && js.bytes < 64_000, `${js.bytes} bytes`);
    assert.ok(built.some((f) => f.path.endsWith('index.html')));
    assert.equal(viewerStale(buildDir), false);
  });

  it('rebuilds a stale bundle when writing a page, rather than failing', async () => {
    const app = join(buildDir, 'app.js');
    utimesSync(app, 0, 0);
    assert.equal(viewerStale(buildDir), true, 'sources newer than the bundle');
    await writeViewer(join(buildDir, 'page'), replay, buildDir);
    assert.ok(statSync(app).mtimeMs > 0);
    assert.equal(viewerStale(buildDir), false);
  });

  it('escapes "<" in the inlined JSON', async () => {
    const html = await viewerHtml(
      { ...replay, ruleset: { ...replay.ruleset, name: '</script><b>x' } },
      buildDir,
    );
    assert.ok(!html.includes('</script><b>'));
  });
});

describe('assertReplay refuses malformed fields', () => {
  /** A copy of the replay, changed by `change` at the first frame `has` selects. */
  function broken(has: (f: Replay['turns'][number]) => boolean, change: (f: any) => void): unknown {
    const r = structuredClone(replay) as any;
    const k = replay.turns.findIndex(has);
    assert.ok(k >= 0, 'the sim has such a frame');
    change(r.turns[k]);
    return r;
  }
  const cases: [string, () => unknown, RegExp][] = [
    [
      'an undiscovered tile with data',
      () =>
        broken(
          () => true,
          (f) => (f.tiles[0] = m.tiles[0]),
        ),
      /undiscovered tile must carry no data/,
    ],
    [
      'another format version',
      () => ({ ...replay, version: 1 }),
      /replay\.version: this viewer reads format 2, got 1/,
    ],
    [
      'an unknown field',
      () =>
        broken(
          () => true,
          (f) => (f.extra = 1),
        ),
      /turns\.0\.extra: is not a field of this format/,
    ],
    [
      'a unit with more HP than its type',
      () =>
        broken(
          (f) => f.units.length > 0,
          (f) => (f.units[0].hp = 999),
        ),
      /units\.0\.hp: must be an integer in 1\.\./,
    ],
    [
      'two units in one slot',
      () =>
        broken(
          (f) => f.units.length > 1,
          (f) => (f.units[1].slot = f.units[0].slot),
        ),
      /units\.1\.slot: slot \d+ appears twice/,
    ],
    [
      'a move to where no unit stands',
      () =>
        broken(
          (f) => f.moves.length > 0,
          (f) => (f.moves[0].to = { ...f.moves[0].from }),
        ),
      /moves\.0: a move must change the tile/,
    ],
    [
      'a move of a unit that is elsewhere',
      () =>
        broken(
          (f) => f.moves.length > 0,
          (f) => (f.units = []),
        ),
      /moves\.0\.to: no own unit of slot/,
    ],
    [
      'a sighting of the own seat',
      () =>
        broken(
          (f) => f.sightings.length > 0,
          (f) => (f.sightings[0].player = 0),
        ),
      /sightings\.0\.player: 0 is this player's own seat/,
    ],
    [
      'a sighting tile outside its zone',
      () =>
        broken(
          (f) => f.sightings.some((s) => s.col !== undefined),
          (f) => {
            const s = f.sightings.find((x: any) => x.col !== undefined);
            s.zone = 1;
          },
        ),
      /is not in zone 1/,
    ],
    [
      'a sighting from the future',
      () =>
        broken(
          (f) => f.sightings.length > 0,
          (f) => (f.sightings[0].turn = f.turn + 1),
        ),
      /sightings\.0\.turn: must be an integer/,
    ],
    [
      'an unknown attack outcome',
      () =>
        broken(
          (f) => f.attacks.length > 0,
          (f) => (f.attacks[0].outcome = 'maybe'),
        ),
      /attacks\.0\.outcome: must be one of hit, fizzle, pending/,
    ],
    [
      'a hit without the unit struck',
      () =>
        broken(
          (f) => f.attacks.some((a) => a.outcome === 'hit'),
          (f) => {
            delete f.attacks.find((a: any) => a.outcome === 'hit').unitType;
          },
        ),
      /attacks\.0\.unitType: must be an integer/,
    ],
    [
      'a fizzle that killed',
      () =>
        broken(
          (f) => f.attacks.some((a) => a.outcome === 'fizzle'),
          (f) => (f.attacks[0].killed = true),
        ),
      /attacks\.0\.killed: only a hit has one/,
    ],
    [
      'an attack received still pending',
      () =>
        broken(
          (f) => f.attacks.some((a) => a.side === 'received'),
          (f) => {
            const a = f.attacks[0];
            a.outcome = 'pending';
            delete a.unitType;
            delete a.hpBefore;
            delete a.killed;
          },
        ),
      /an attack received is answered before/,
    ],
    [
      'an attack on the own seat',
      () =>
        broken(
          (f) => f.attacks.length > 0,
          (f) => (f.attacks[0].opponent = 0),
        ),
      /attacks\.0\.opponent: 0 is this player's own seat/,
    ],
    [
      'an off-board attack target',
      () =>
        broken(
          (f) => f.attacks.length > 0,
          (f) => (f.attacks[0].target.col = m.board.width),
        ),
      /attacks\.0\.target\.col: must be an integer/,
    ],
    [
      'a log line that is not text',
      () =>
        broken(
          () => true,
          (f) => (f.log = [42]),
        ),
      /log\.0: must be a string/,
    ],
    [
      'a log line too long',
      () =>
        broken(
          () => true,
          (f) => (f.log = ['x'.repeat(301)]),
        ),
      /log\.0: longer than 300/,
    ],
  ];
  for (const [name, make, error] of cases) {
    it(name, async () => {
      const bad = make();
      assert.throws(() => assertReplay(bad), error);
      await assert.rejects(viewerHtml(bad as Replay, buildDir), error, 'no page is written from it');
    });
  }

  it('accepts the simulated replay after a JSON round trip', () => {
    assertReplay(JSON.parse(JSON.stringify(replay)));
  });
});

describe('ReplayRecorder', () => {
  const me = { address: '0xa0', players: ['0xa0', '0xb1'] };
  const target = { col: 5, row: 5 };
  const fizzled = (attacker: string) =>
    ({ kind: 'CombatFizzled', attacker, defender: '0xb1', ...target, tx: '0x', block: 0 }) as const;

  it('shows an attack pending in its frame and again, resolved, in the frame after the outcome', () => {
    const p = new PlayerModel({ ruleset: m.ruleset, seat: 0, units: spawnUnits(m) });
    const rec = new ReplayRecorder();
    rec.attackMade({ turn: 3, defender: 1, target });
    assert.deepEqual(
      rec.frame(p).attacks.map((a) => a.outcome),
      ['pending'],
    );
    rec.chainEvents([fizzled('0xb1')], me);
    assert.deepEqual(rec.frame(p).attacks, [], "another player's combat is not ours");
    rec.chainEvents([fizzled(me.address)], me);
    const later = rec.frame(p);
    assert.deepEqual(later.attacks, [{ side: 'made', turn: 3, opponent: 1, target, outcome: 'fizzle' }]);
    assert.match(later.log.join('\n'), /attack on \(5,5\) → seat 1 \(turn 3\): fizzled/);
    assert.equal(rec.turns[0]!.attacks[0]!.outcome, 'pending', 'an earlier frame keeps what was known then');
    rec.chainEvents([fizzled(me.address)], me);
    assert.deepEqual(rec.frame(p).attacks, [], 'an outcome is taken once');
  });

  it('records moves from the previous frame and only verified tiles', () => {
    const p = new PlayerModel({ ruleset: m.ruleset, seat: 0, units: spawnUnits(m) });
    const rec = new ReplayRecorder();
    const first = rec.frame(p);
    assert.deepEqual(first.moves, []);
    assert.ok(first.tiles.every((t) => t === null));
    const units = p.units;
    const u = units[1]!;
    p.setUnits(units.map((v, i) => (i === 1 ? { ...u, col: u.col + 1 } : v)));
    const next = rec.frame(p);
    assert.deepEqual(next.moves, [
      { slot: 1, from: { col: u.col, row: u.row }, to: { col: u.col + 1, row: u.row } },
    ]);
    assert.ok(
      next.tiles.every((t) => t === null),
      'moving serves nothing',
    );
    assertReplay({
      version: 2,
      ruleset: m.ruleset,
      board: makeBoard(m.board.kind, m.board.width, m.board.height),
      seat: 0,
      turns: rec.turns,
    });
  });
});
