/**
 * A person plays a whole `tiny` game in headless Chromium against the exploring bot (a Node `BotPlayer`),
 * clicking as a person would: connect, join the lobby, spawn, select units and click reachable tiles, attack a
 * sighted zone's tile when one is offered, answer combat, end turns until the turn limit. The dealer is behind
 * a recording proxy that lies once (one tampered tile in one of the page's turns).
 *
 * Asserts: every one of the page player's proofs came from the page's worker and the Node side made none for
 * that seat; the fog and terrain the page draws equal what the SDK's PlayerModel computes in Node from the same
 * served tiles (verified here against the on-chain root); no tile outside the served set is drawn with its
 * terrain (DOM and screenshot pixels); the lying dealer's batch shows a visible error and none of its tiles is
 * drawn, until the honest answer to the page's retry; the session key's funds go back to the wallet.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JsonRpcProvider, Wallet } from 'ethers';
import { type Browser, chromium, type Page } from 'playwright-core';
import { BotPlayer } from '../../client/bot-player.ts';
import { TERRAIN_COLOURS } from '../../client/render/palette.ts';
import { GameChain, type Prover } from '../../client/sdk/chain.ts';
import { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { LobbyClient } from '../../client/sdk/lobby-client.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import { SnarkjsProver } from '../../client/sdk/prover.ts';
import { type VerifiedTile, verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { loadHasher, shippedRuleset } from '../../core/index.ts';
import { addressToField } from '../../core/sealed.ts';
import type { Slots } from '../../core/state.ts';
import { readManifest, readSealArtifacts } from '../../scripts/contracts/rulesets.ts';
import { stopAll } from '../../scripts/demo/procs.ts';
import { DEV_KEYS, ROOT } from '../../scripts/demo/setup.ts';
import { CHROMIUM, CHROMIUM_ARGS, type LiveWeb, LOBBY, liveWeb } from './live.ts';

const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} not found: apt-get install -y chromium fonts-dejavu-core`;
const RULESET = shippedRuleset('tiny');
/** The chain's turn limit, counting every seat's spawn and turns: the page plays its spawn and 3 turns. */
const MAX_TURNS = 8;
const LIVE = new Set(['Commit', 'Reveal', 'Deal', 'Play', 'Combat', 'Dispute', 'ForceOpen', 'OpenRoot']);
const SHOTS = path.join(ROOT, 'build', 'test-output', 'web');

interface Snapshot {
  phase: string;
  gameId: string;
  address: string;
  seat: number;
  owner: string;
  fog: number[];
  terrain: number[];
  history: { kind: string; turn: number; units: Slots; unserved: boolean }[];
  served: number[];
  proofs: { circuit: string; ms: number }[];
  rejected: { turn: number; message: string }[];
  swept: string | null;
}

/** The bot's seat, proving in Node; every proof is recorded with the player field it was made for. */
async function botSeat(env: LiveWeb, provider: JsonRpcProvider) {
  const w = new Wallet(DEV_KEYS[3], provider);
  const lobbies = new LobbyClient(env.dealerUrl, { chainId: 31337n });
  const lobby = (await lobbies.lobbies()).find((l) => l.kind === LOBBY)!;
  const ticket = await lobbies.join(w, lobby.id, { maxStake: lobby.stake });
  const { gameId } = await lobbies.waitForGame(lobby.id, ticket, { pollMs: 200 });
  const v = readManifest().tiny!.verifiers;
  const art = (c: 'spawn' | 'turn' | 'attack' | 'combat') => ({ wasm: v[c]!.wasm, zkey: v[c]!.zkey });
  const seal = readSealArtifacts();
  const inner = new SnarkjsProver({
    seal: { wasm: seal.wasm, zkey: seal.zkey },
    spawn: art('spawn'),
    turn: art('turn'),
    attack: art('attack'),
    combat: art('combat'),
  });
  const proofs: { circuit: string; player: bigint | null }[] = [];
  const prover: Prover = {
    prove(circuit, plan) {
      const p = (plan.input as { player?: unknown }).player;
      proofs.push({ circuit, player: p === undefined ? null : BigInt(p as bigint) });
      return inner.prove(circuit, plan);
    },
  };
  const player = await GamePlayer.join({
    chain: new GameChain(env.gameContract, w),
    dealer: new DealerClient({
      baseUrl: env.dealerUrl,
      chainId: 31337n,
      gameContract: env.gameContract,
      signer: w,
    }),
    prover,
    h: await loadHasher(),
    ruleset: RULESET,
    gameId,
  });
  const seat = new BotPlayer(player, 'web-bot');
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const g = await player.chain.game(gameId);
      if (!LIVE.has(g.phase)) return;
      if (!(await seat.act())) await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return { gameId, player, proofs, done, stop: () => (stopped = true) };
}

describe('a person plays tiny in the browser against the bot', { skip }, () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-web-'));
  let env: LiveWeb;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    env = await liveWeb({ tmp, ruleset: 'tiny', maxTurns: MAX_TURNS });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    if (process.env.SHROUD_DEBUG) page.on('console', (m) => console.error(`[page ${m.type()}] ${m.text()}`));
  });

  after(async () => {
    await browser?.close();
    await env?.proxy.close();
    await stopAll();
    if (process.env.SHROUD_KEEP_LOGS) console.error(`logs kept in ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  });

  const tid = (id: string) => page.locator(`[data-testid="${id}"]`);
  const visible = async (id: string) => (await tid(id).count()) > 0 && tid(id).isVisible();
  const snapshot = () =>
    page.evaluate(() =>
      (globalThis as unknown as { shroudPlay: { snapshot(): unknown } }).shroudPlay.snapshot(),
    ) as Promise<Snapshot>;
  /** Row-major terrain as drawn (−1 where the map shows fog), read from the SVG's tile polygons. */
  const drawnTerrain = () =>
    page.evaluate((n) => {
      const out = new Array<number>(n).fill(-1);
      const w = Number(document.querySelector('#map svg')!.getAttribute('data-width'));
      for (const el of document.querySelectorAll('#map svg polygon.tile')) {
        const i = Number(el.getAttribute('data-row')) * w + Number(el.getAttribute('data-col'));
        out[i] = Number(el.getAttribute('data-terrain'));
      }
      return out;
    }, RULESET.board.width * RULESET.board.height);

  it('joins, spawns, moves, attacks, answers combat and plays to the turn limit; proofs in the page only', {
    timeout: 900_000,
  }, async (t) => {
    const b = RULESET.board;
    await page.goto(`${env.proxy.url}/play?rpc=${encodeURIComponent(env.rpcUrl)}&pollMs=200`);
    await tid('connect').click();
    await tid(`join-${LOBBY}`).click();
    // The page's session key takes the first seat; then the bot joins and the dealer creates the game.
    const dealerLobbies = new LobbyClient(env.dealerUrl, { chainId: 31337n });
    for (;;) {
      const l = (await dealerLobbies.lobbies()).find((x) => x.kind === LOBBY);
      if (l && l.filled === 1) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const provider = new JsonRpcProvider(env.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
    const bot = await botSeat(env, provider);
    try {
      await page
        .locator('[data-testid="game"][data-address]')
        .waitFor({ state: 'visible', timeout: 120_000 });
      const seat = Number(await tid('game').getAttribute('data-seat'));
      const address = (await tid('game').getAttribute('data-address'))!;
      const enemy = RULESET.startAreas[1 - seat]!;
      const goal = { x: (enemy.col0 + enemy.col1) / 2, y: (enemy.row0 + enemy.row1) / 2 };
      const decision = page.locator(
        '[data-testid="spawn"]:visible, [data-testid="end-turn"]:visible, [data-testid="answer-combat"]:visible, [data-testid="game"][data-over="true"]',
      );
      let attacks = 0;
      let combats = 0;
      let turns = 0;
      let lied: number | null = null;
      let liar: Promise<void> = Promise.resolve();
      /**
       * Once the page got the tampered batch of `turn`: the error is shown, none of the batch's tiles is drawn
       * (unless an earlier honest batch had served it), and the page's state records the rejection. Then the
       * proxy turns honest, and the page's next ask is served.
       */
      const caughtLying = async (turn: number): Promise<number> => {
        while (!env.proxy.captured.some((c) => c.tampered)) await new Promise((r) => setTimeout(r, 50));
        await page.locator('[data-testid="error"]:visible', { hasText: 'fails verification' }).waitFor();
        const batch = env.proxy.captured.find((c) => c.tampered)!;
        const honest = new Set(
          env.proxy.captured
            .filter((c) => !c.tampered && c.player.toLowerCase() === address.toLowerCase())
            .flatMap((c) => c.tiles.map((t) => t.leaf)),
        );
        const now = await drawnTerrain();
        for (const t of batch.tiles)
          if (!honest.has(t.leaf))
            assert.equal(
              now[t.row * b.width + t.col],
              -1,
              `(${t.col},${t.row}) of the rejected batch is not drawn`,
            );
        assert.ok((await snapshot()).rejected.some((r) => r.turn === turn));
        await tid('map').screenshot({ path: path.join(SHOTS, 'play-rejected.png') });
        env.proxy.tamper = null;
        return turn;
      };
      for (let step = 0; step < 100; step++) {
        await decision.first().waitFor({ timeout: 300_000 });
        if ((await tid('game').getAttribute('data-over')) === 'true') break;
        if (await visible('answer-combat')) {
          combats++;
          await tid('answer-combat').click();
          continue;
        }
        if (await visible('spawn')) {
          await tid('map').screenshot({ path: path.join(SHOTS, 'play-spawn.png') });
          await tid('spawn').click();
          continue;
        }
        const turn = Number(await tid('end-turn').getAttribute('data-turn'));
        if (attacks === 0 && (await visible('attack-mode'))) {
          await tid('attack-mode').click();
          await page.locator('[data-testid^="target-"]').first().click();
          attacks++;
          continue;
        }
        // Each unit that can move: select it, then the reachable tile nearest the enemy's start area.
        for (let slot = 0; slot < RULESET.unitSlots; slot++) {
          if ((await tid(`unit-${slot}`).count()) === 0) continue;
          await tid(`unit-${slot}`).click();
          const reach = await page
            .locator('[data-testid^="reach-"]')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
          const occupied = await page
            .locator('[data-testid^="unit-"][data-slot]')
            .evaluateAll((els) =>
              els.map((e) => `reach-${e.getAttribute('data-col')}-${e.getAttribute('data-row')}`),
            );
          // Not onto another unit, nor where another unit is already going (a person spreads them out).
          const queued = (await page.locator('[data-testid^="unit-row-"]').allTextContents()).flatMap((t) => {
            const m = /→ \((\d+),(\d+)\)/.exec(t);
            return m ? [`reach-${m[1]}-${m[2]}`] : [];
          });
          const free = reach.filter((r) => !occupied.includes(r) && !queued.includes(r));
          if (free.length === 0) {
            await tid(`unit-${slot}`).click(); // deselect
            continue;
          }
          const dist = (id: string) => {
            const [, c, r] = id.split('-').map(Number) as [number, number, number];
            return (c - goal.x) ** 2 + (r - goal.y) ** 2;
          };
          free.sort((a, c) => dist(a) - dist(c));
          await tid(free[0]!).click();
          assert.equal(await tid(`queued-${slot}`).count(), 1, `slot ${slot}'s move is queued`);
        }
        // From the first regular turn on, that turn's tiles come back with one tile tampered with (a lying
        // dealer), until `liar` has seen the page refuse them.
        if (!env.proxy.tamper && lied === null) {
          env.proxy.tamper = { player: address, turn };
          liar = caughtLying(turn).then((t) => {
            lied = t;
          });
        }
        await tid('end-turn').click();
        turns++;
      }
      await liar;
      await tid('game').waitFor({ state: 'visible' });
      await page.locator('[data-testid="game"][data-over="true"]').waitFor({ timeout: 120_000 });
      await bot.done;
      await tid('map').screenshot({ path: path.join(SHOTS, 'play-final.png') });
      const s = await snapshot();
      t.diagnostic(
        `page turns ${turns}, attacks ${attacks}, combats answered ${combats}, lying dealer met on turn ${lied}; proofs ${s.proofs.map((p) => `${p.circuit} ${Math.round(p.ms)} ms`).join(', ')}`,
      );
      assert.deepEqual(pageErrors, []);
      assert.ok(['Secrets', 'Audit', 'Settled'].includes(s.phase), `the game ended (${s.phase})`);
      assert.equal(turns, (MAX_TURNS - 2) / 2, 'the page played every one of its turns');
      assert.equal((await new GameChain(env.gameContract, provider).game(BigInt(s.gameId))).turn, MAX_TURNS);
      assert.notEqual(lied, null, 'the lying dealer was met');
      assert.ok(
        (await page.locator('[data-testid="log"] li[data-kind="late"]').count()) > 0,
        'the rejected turn was served again and verified',
      );

      // Proofs: the page's worker made every one of the page player's; Node made none for that seat.
      const made = (c: string) => s.proofs.filter((p) => p.circuit === c).length;
      assert.equal(made('seal'), 1);
      assert.equal(made('spawn'), 1);
      assert.equal(made('turn'), s.history.filter((h) => h.kind === 'turn').length);
      assert.equal(made('turn'), turns);
      assert.equal(made('attack'), attacks);
      assert.equal(made('combat'), combats);
      const mine = addressToField(address);
      assert.equal(bot.proofs.filter((p) => p.player === mine).length, 0, 'no Node proof for the page seat');
      assert.ok(bot.proofs.length >= MAX_TURNS / 2 + 1, 'the bot proved its own seat in Node');

      // The fog and terrain drawn equal the SDK's model, computed here from the served tiles verified here.
      const root = await new GameChain(env.gameContract, provider).root(BigInt(s.gameId));
      const h = await loadHasher();
      const served = new Map<number, VerifiedTile>();
      for (const c of env.proxy.captured) {
        if (c.player.toLowerCase() !== address.toLowerCase()) continue;
        try {
          for (const t of verifyRevealedTiles(
            h,
            b,
            root,
            c.tiles.map((t) => t.leaf),
            c.tiles,
          ))
            served.set(t.index, t);
        } catch {
          assert.ok(c.tampered, 'only the tampered batch fails verification');
        }
      }
      const model = new PlayerModel({ ruleset: RULESET, seat, units: s.history[0]!.units });
      for (const e of s.history) {
        model.setUnits(e.units);
        model.applyTurn({ turn: e.turn, visibleTiles: model.visionOf(e.units), tiles: [] });
      }
      model.addLateTiles(s.history.at(-1)!.turn, [...served.values()]);
      const obs = model.observe();
      const fog = await tid('map').locator('svg').getAttribute('data-fog');
      assert.equal(fog, obs.fog.join(''), 'the drawn fog is the SDK model’s');
      assert.deepEqual(s.fog, obs.fog);
      assert.deepEqual(await drawnTerrain(), obs.terrain, 'the drawn terrain is the SDK model’s');
      assert.deepEqual(new Set(s.served), new Set([...served.values()].map((t) => t.leaf)));

      // No tile outside the served set is drawn with its terrain: DOM, then the screenshot's pixels.
      const drawn = await drawnTerrain();
      const unserved = drawn.flatMap((_, i) => (served.has(i) ? [] : [i]));
      for (const i of unserved) assert.equal(drawn[i], -1, `tile ${i} was never served: fog`);
      const centres = await page.evaluate((idx) => {
        const svg = document.querySelector('#map svg')!;
        const box = svg.getBoundingClientRect();
        const w = Number(svg.getAttribute('data-width'));
        const units = new Set(
          [...document.querySelectorAll('[data-slot]')].map(
            (u) => Number(u.getAttribute('data-row')) * w + Number(u.getAttribute('data-col')),
          ),
        );
        return idx.flatMap((i) => {
          if (units.has(i)) return [];
          const el = svg.querySelector(`polygon[data-col="${i % w}"][data-row="${Math.floor(i / w)}"]`)!;
          const r = el.getBoundingClientRect();
          return [{ i, x: Math.round(r.x + r.width / 2 - box.x), y: Math.round(r.y + r.height / 2 - box.y) }];
        });
      }, unserved);
      assert.ok(centres.length > 0);
      const png = await tid('map').locator('svg').screenshot();
      const scratch = await browser.newPage();
      const pixels = await scratch.evaluate(
        async ({ b64, at }) => {
          const img = new Image();
          img.src = `data:image/png;base64,${b64}`;
          await img.decode();
          const c = document.createElement('canvas');
          [c.width, c.height] = [img.width, img.height];
          const ctx = c.getContext('2d')!;
          ctx.drawImage(img, 0, 0);
          return at.map(({ i, x, y }) => ({ i, rgb: [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)] }));
        },
        { b64: png.toString('base64'), at: centres },
      );
      await scratch.close();
      const palette = Object.values(TERRAIN_COLOURS).flatMap((hex) => {
        const rgb = [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16));
        return [rgb, rgb.map((v) => Math.round(v * 0.45))];
      });
      for (const p of pixels) {
        const near = palette.find((t) => t.every((v, k) => Math.abs(v - p.rgb[k]!) <= 12));
        assert.equal(near, undefined, `tile ${p.i} (never served) is drawn in a terrain colour ${p.rgb}`);
      }

      // The session key sent its funds back to the wallet.
      assert.ok(BigInt(s.swept ?? '0') > 0n, 'the unspent budget went back to the wallet');
    } catch (e) {
      // What the page and the proxy saw, for reading a failure.
      console.error(
        'page log:\n',
        (
          await tid('log')
            .allTextContents()
            .catch(() => [])
        ).join('\n'),
      );
      console.error(
        'reveals:',
        env.proxy.captured.map(
          (c) =>
            `${c.player.slice(0, 8)} turn ${c.turn} ${c.tiles.length} tiles${c.tampered ? ' TAMPERED' : ''}`,
        ),
      );
      throw e;
    } finally {
      bot.stop();
      provider.destroy();
      await SnarkjsProver.terminate();
    }
  });
});
