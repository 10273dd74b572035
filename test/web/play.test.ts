/**
 * A person plays a whole `tiny` game in headless Chromium against the exploring bot (a Node `BotPlayer`),
 * clicking as a person would: connect, join the lobby, spawn, select units and click reachable tiles, attack a
 * sighted zone's tile when one is offered, answer combat, end turns until the turn limit. The wallet is a stub
 * EIP-1193 provider whose key is in Node; the dealer and the chain are behind proxies the test can make lie, cut
 * or corrupt.
 *
 * On the way, every bad input is a message in the page, and nothing is half applied: the wallet refuses the
 * first signature and the first transfer (Retry); the first proving key downloaded is corrupted (it fails the
 * on-chain SHA-256 check; Retry); the dealer lies about one tile of the page's first turn (a visible error, the
 * fog drawn stays the one before that turn until the honest batch arrives); the page is exported, its browser
 * closed, and the game restored from the file on a fresh profile (another device) while it is the bot's move; the
 * chain's connection drops there (retried with backoff by itself); the page is reloaded on its own move.
 *
 * Asserts: every one of the page player's proofs came from the page's worker and the Node side made none for
 * that seat; the fog and terrain the page draws equal what the SDK's PlayerModel computes in Node from the same
 * served tiles (verified here against the on-chain root); no tile outside the served set is drawn with its
 * terrain (DOM and screenshot pixels); the wallet approved one transfer for the game and at most one signature per
 * page load (two on a device's first); the session key's funds go back to the wallet, all but a closing reserve
 * when play ends, and the rest with the stake's credit once the page has closed the game (P7).
 *
 * Then a person joins a lobby nobody else joins and leaves it: the seat is freed at the dealer (a signed Leave)
 * and the session key's funds come back; a reload offers the lobbies again. And a person whose join fills a lobby
 * clicks Leave while the dealer's answer is slow: the Leave is not offered then ("joining…"), and the page plays
 * the game its join filled instead of leaving it to be cancelled.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getBytes, JsonRpcProvider, Wallet } from 'ethers';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BotPlayer } from '../../client/bot-player.ts';
import { TERRAIN_COLOURS } from '../../client/render/palette.ts';
import { GameChain, type Prover } from '../../client/sdk/chain.ts';
import { DealerClient } from '../../client/sdk/dealer-client.ts';
import { GamePlayer } from '../../client/sdk/game-player.ts';
import { LobbyClient } from '../../client/sdk/lobby-client.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import { SnarkjsProver } from '../../client/sdk/prover.ts';
import { type VerifiedTile, verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { CLOSING_GAS } from '../../client/web/session.ts';
import { loadHasher, shippedRuleset } from '../../core/index.ts';
import { addressToField } from '../../core/sealed.ts';
import type { Slots } from '../../core/state.ts';
import { readManifest, readSealArtifacts } from '../../scripts/contracts/rulesets.ts';
import { stopAll } from '../../scripts/demo/procs.ts';
import { DEV_KEYS, ROOT } from '../../scripts/demo/setup.ts';
import { chromiumSkip, launchChromium } from '../../scripts/lib/chromium.ts';
import { type LiveWeb, LOBBY, liveWeb } from './live.ts';

const skip = chromiumSkip;
const RULESET = shippedRuleset('tiny');
/** The chain's turn limit, counting every seat's spawn and turns: the page plays its spawn and 3 turns. */
const MAX_TURNS = 8;
/** The passphrase the export and restore steps use. */
const EXPORT_PASS = 'a long export passphrase';
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

interface WalletCall {
  method: string;
  ok: boolean;
}

/** The page's wallet: an injected EIP-1193 provider whose key is here; it refuses each method in `refuse` once. */
interface TestWallet {
  address: string;
  refuse: Set<string>;
  install(context: BrowserContext): Promise<void>;
  /** Every signing call of `method` so far. */
  calls(method: string): WalletCall[];
  /** What was approved and refused since the last `mark` (one page load). */
  approvals(): { signatures: number; transfers: number; refused: number };
  mark(): void;
}

async function testWallet(provider: JsonRpcProvider): Promise<TestWallet> {
  const w = Wallet.createRandom().connect(provider);
  await provider.send('hardhat_setBalance', [w.address, `0x${(10n ** 21n).toString(16)}`]);
  const log: WalletCall[] = [];
  let since = 0;
  const signing = new Set(['personal_sign', 'eth_sendTransaction']);
  const handle = async (method: string, params: unknown[]): Promise<unknown> => {
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [w.address];
    if (method === 'eth_chainId') return '0x7a69';
    if (method === 'personal_sign') return w.signMessage(getBytes(params[0] as string));
    if (method === 'eth_sendTransaction') {
      const t = params[0] as { to: string; value?: string; data?: string; gas?: string };
      const tx = await w.sendTransaction({
        to: t.to,
        value: BigInt(t.value ?? 0),
        ...(t.data ? { data: t.data } : {}),
        ...(t.gas ? { gasLimit: BigInt(t.gas) } : {}),
      });
      return tx.hash;
    }
    return provider.send(method, params);
  };
  const me: TestWallet = {
    address: w.address,
    refuse: new Set(),
    async install(context) {
      await context.exposeFunction('shroudTestWallet', async (method: string, params: unknown[]) => {
        if (signing.has(method) && me.refuse.delete(method)) {
          log.push({ method, ok: false });
          return { error: { code: 4001, message: 'User rejected the request.' } };
        }
        try {
          const result = await handle(method, params);
          if (signing.has(method)) log.push({ method, ok: true });
          return { result };
        } catch (e) {
          return { error: { code: -32603, message: String((e as Error).message ?? e) } };
        }
      });
      await context.addInitScript(() => {
        const call = (globalThis as unknown as Record<string, (m: string, p: unknown[]) => Promise<never>>)
          .shroudTestWallet!;
        (globalThis as unknown as { ethereum: unknown }).ethereum = {
          async request(a: { method: string; params?: unknown[] }) {
            const r = (await call(a.method, a.params ?? [])) as {
              result?: unknown;
              error?: { code: number; message: string };
            };
            if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
            return r.result;
          },
        };
      });
    },
    calls: (method) => log.filter((c) => c.method === method),
    approvals: () => {
      const now = log.slice(since);
      return {
        signatures: now.filter((c) => c.ok && c.method === 'personal_sign').length,
        transfers: now.filter((c) => c.ok && c.method === 'eth_sendTransaction').length,
        refused: now.filter((c) => !c.ok).length,
      };
    },
    mark() {
      since = log.length;
    },
  };
  return me;
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
  /** While held, the bot does nothing (the test keeps it at its move). */
  let held = false;
  const done = (async () => {
    while (!stopped) {
      const g = await player.chain.game(gameId);
      if (!LIVE.has(g.phase)) return;
      if (held || !(await seat.act())) await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    gameId,
    player,
    proofs,
    done,
    stop: () => (stopped = true),
    hold: (on: boolean) => (held = on),
  };
}

describe('a person plays tiny in the browser against the bot', { skip }, () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-web-'));
  let env: LiveWeb;
  let browser: Browser;
  let page: Page;
  let wallet: TestWallet;
  const pageErrors: string[] = [];

  /** A fresh browser profile (its own IndexedDB: another device) with the test wallet injected. */
  const newDevice = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({
      viewport: { width: 1400, height: 900 },
      acceptDownloads: true,
    });
    await wallet.install(context);
    // A test-only fault, inert until the test sets `shroudTestFault` to a circuit: the next proof request of that
    // circuit reaches the worker with its circuit wasm cut short, so snarkjs throws there (a proof that fails to
    // build). It wraps the page's Worker from outside; the page itself has no fault hook.
    await context.addInitScript(() => {
      const g = globalThis as unknown as {
        Worker: typeof Worker;
        shroudTestFault?: string | null;
        shroudTestFaults?: number;
      };
      const Base = g.Worker;
      g.Worker = class extends Base {
        override postMessage(m: unknown, o?: StructuredSerializeOptions | Transferable[]) {
          const req = m as { circuit?: string; wasm?: Uint8Array } | null;
          if (g.shroudTestFault && req?.circuit === g.shroudTestFault && req.wasm) {
            g.shroudTestFault = null;
            g.shroudTestFaults = (g.shroudTestFaults ?? 0) + 1;
            m = { ...req, wasm: req.wasm.slice(0, 64) };
          }
          super.postMessage(m, o as StructuredSerializeOptions);
        }
      };
    });
    const p = await context.newPage();
    p.on('pageerror', (e) => pageErrors.push(e.message));
    if (process.env.SHROUD_DEBUG) p.on('console', (m) => console.error(`[page ${m.type()}] ${m.text()}`));
    return { context, page: p };
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    env = await liveWeb({ tmp, ruleset: 'tiny', maxTurns: MAX_TURNS });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await env?.proxy.close();
    await env?.rpcProxy.close();
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
  const drawnFog = () => tid('map').locator('svg').getAttribute('data-fog');
  /** The page's error banner with `text`, screenshotted as `shot`; whether it offers Retry must be `retry`. */
  const errorShown = async (text: RegExp, shot: string, retry: boolean) => {
    await page.locator('[data-testid="error"]:visible', { hasText: text }).waitFor({ timeout: 120_000 });
    await page.screenshot({ path: path.join(SHOTS, shot) });
    assert.equal(await visible('retry'), retry, `${text}: ${retry ? 'a' : 'no'} Retry button`);
  };

  it('joins, spawns, moves, attacks, answers combat and plays to the turn limit; proofs in the page only; survives a move to another browser and a reload; every bad input is a message', {
    timeout: 900_000,
  }, async (t) => {
    const b = RULESET.board;
    const provider = new JsonRpcProvider(env.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
    wallet = await testWallet(provider);
    const url = `${env.proxy.url}/play?rpc=${encodeURIComponent(env.rpcProxy.url)}&pollMs=200`;
    let device = await newDevice();
    page = device.page;
    /** Proofs the page made in each page load before the current one (a reload starts a new list). */
    const earlierProofs: Snapshot['proofs'] = [];

    // Visit 1. The wallet refuses the first signature and the first transfer; the first artifact is corrupted.
    wallet.refuse = new Set(['personal_sign', 'eth_sendTransaction']);
    env.proxy.corrupt = /\/v1\/artifacts\//;
    await page.goto(url);
    await tid('help').getByText('one signature per visit').waitFor();
    await tid('connect').click();
    await tid(`join-${LOBBY}`).click();
    await errorShown(/refused to sign/, 'play-wallet-refused-sign.png', true);
    assert.deepEqual(wallet.calls('eth_sendTransaction'), [], 'nothing sent before the key is sealed');
    await tid('retry').click();
    await errorShown(/refused the funding transfer/, 'play-wallet-refused-transfer.png', true);
    await tid('retry').click();
    // The page's session key takes the first seat; then the bot joins and the dealer creates the game.
    const dealerLobbies = new LobbyClient(env.dealerUrl, { chainId: 31337n });
    for (;;) {
      const l = (await dealerLobbies.lobbies()).find((x) => x.kind === LOBBY);
      if (l && l.filled === 1) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const bot = await botSeat(env, provider);
    try {
      // The corrupted proving key fails the on-chain SHA-256 check: a message, nothing proved; Retry downloads it.
      await errorShown(/not the one the chain registered/, 'play-artifact-mismatch.png', true);
      assert.equal(env.proxy.corrupted.length, 1);
      await tid('retry').click();
      await page
        .locator('[data-testid="game"][data-address]')
        .waitFor({ state: 'visible', timeout: 120_000 });
      const visit1 = wallet.approvals();
      assert.deepEqual(visit1, { signatures: 2, transfers: 1, refused: 2 }, 'first visit on a device');
      const seat = Number(await tid('game').getAttribute('data-seat'));
      const address = (await tid('game').getAttribute('data-address'))!;
      const enemy = RULESET.startAreas[1 - seat]!;
      const goal = { x: (enemy.col0 + enemy.col1) / 2, y: (enemy.row0 + enemy.row1) / 2 };
      /** What the person must do next (on the page of the moment: the test moves to another browser). */
      const decision = () =>
        page.locator(
          '[data-testid="spawn"]:visible, [data-testid="end-turn"]:visible, [data-testid="answer-combat"]:visible, [data-testid="game"][data-over="true"]',
        );
      let attacks = 0;
      let combats = 0;
      let turns = 0;
      let lied: number | null = null;
      let reloaded = false;
      /** The page's turn whose reveal met the dealer down, and the one whose proof failed to build. */
      let dealerCut: number | null = null;
      let proofFailed: number | null = null;

      /**
       * The page got the tampered batch of `turn`: the error is shown, the fog drawn is the one before the turn
       * (although the SDK's model already counts the turn's vision), none of the batch's tiles is drawn, the
       * rejection is in the page's state. Then the proxy turns honest, and the page's next ask is served.
       */
      const caughtLying = async (turn: number, fogBefore: string) => {
        while (!env.proxy.captured.some((c) => c.tampered)) await new Promise((r) => setTimeout(r, 50));
        // Once the turn is in the page's log, the page has drawn what it draws after it (same task).
        await page
          .locator('[data-testid="log"] li[data-kind="turn"]', { hasText: `turn ${turn} turn:` })
          .waitFor({ timeout: 60_000 });
        await errorShown(/fails verification/, 'play-rejected.png', false);
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
              `(${t.col},${t.row}) of the rejected batch is drawn`,
            );
        const s = await snapshot();
        assert.ok(s.rejected.some((r) => r.turn === turn));
        assert.equal(await drawnFog(), fogBefore, 'the fog drawn is the one before the rejected turn');
        assert.notEqual(
          s.fog.join(''),
          fogBefore,
          "the model already counts the turn's vision: the page held it",
        );
        env.proxy.tamper = null;
        await page.locator('[data-testid="log"] li[data-kind="late"]').first().waitFor({ timeout: 60_000 });
        await page.locator('[data-testid="error"]').waitFor({ state: 'hidden' });
        // Verified tiles: the turn's fog is drawn (the model's).
        await page.waitForFunction(
          () =>
            document.querySelector('#map svg')?.getAttribute('data-fog') ===
            (globalThis as unknown as { shroudPlay: { snapshot(): { fog: number[] } } }).shroudPlay
              .snapshot()
              .fog.join(''),
          undefined,
          { timeout: 10_000 },
        );
        assert.notEqual(await drawnFog(), fogBefore);
        lied = turn;
      };

      /**
       * The dealer dropped every connection while the page fetched `turn`'s tiles (the turn itself is on-chain: the
       * chain was up): a message that it is retrying, the fog drawn stays the one before the turn, nothing of the
       * turn's tiles is in hand. The dealer comes back; the page's next ask (with backoff) is served.
       */
      const dealerComesBack = async (turn: number, fogBefore: string) => {
        await errorShown(/dealer does not answer.*Retrying/, 'play-dealer-down.png', false);
        assert.ok(env.proxy.dropped > 0, 'the page asked the dealer');
        await page
          .locator('[data-testid="log"] li[data-kind="turn"]', { hasText: `turn ${turn} turn:` })
          .waitFor({ timeout: 60_000 });
        const s = await snapshot();
        assert.ok(
          s.history.some((h) => h.turn === turn && h.unserved),
          'the turn is recorded as unserved',
        );
        assert.equal(await drawnFog(), fogBefore, 'the fog drawn is the one before the unserved turn');
        const servedBefore = new Set(s.served);
        assert.ok(
          !env.proxy.captured.some(
            (c) => c.player.toLowerCase() === address.toLowerCase() && c.turn === turn,
          ),
          'no reveal of that turn got through',
        );
        const late = await page.locator('[data-testid="log"] li[data-kind="late"]').count();
        env.proxy.down = false;
        await page.locator('[data-testid="log"] li[data-kind="late"]').nth(late).waitFor({ timeout: 60_000 });
        await page.locator('[data-testid="error"]').waitFor({ state: 'hidden' });
        const batch = env.proxy.captured.find(
          (c) => c.player.toLowerCase() === address.toLowerCase() && c.turn === turn,
        );
        assert.ok(batch && !batch.tampered, "the turn's tiles were served once the dealer was back");
        const now = new Set((await snapshot()).served);
        for (const t of batch.tiles) assert.ok(now.has(t.leaf), `tile ${t.leaf} of turn ${turn} is in hand`);
        assert.ok(now.size >= servedBefore.size);
        await page.waitForFunction(
          () =>
            document.querySelector('#map svg')?.getAttribute('data-fog') ===
            (globalThis as unknown as { shroudPlay: { snapshot(): { fog: number[] } } }).shroudPlay
              .snapshot()
              .fog.join(''),
          undefined,
          { timeout: 10_000 },
        );
      };

      /**
       * The worker's proof of `turn` failed to build: a message with Retry, nothing sent to the chain; Retry proves
       * and sends that same turn (the person does not click End turn again), exactly once on-chain.
       */
      const proofFailsThenRetried = async (turn: number, fromBlock: number) => {
        await errorShown(/proof could not be built/, 'play-proof-failed.png', true);
        assert.equal(
          await page.evaluate(
            () => (globalThis as unknown as { shroudTestFaults?: number }).shroudTestFaults,
          ),
          1,
          'the fault was injected once',
        );
        const chain = new GameChain(env.gameContract, provider);
        const gameId = BigInt((await snapshot()).gameId);
        const submitted = async () =>
          (await chain.events(gameId, fromBlock + 1, await provider.getBlockNumber())).filter(
            (e) =>
              e.kind === 'TurnSubmitted' &&
              e.player.toLowerCase() === address.toLowerCase() &&
              e.turn === turn,
          ).length;
        assert.equal(await submitted(), 0, 'nothing was sent for a proof that failed');
        const g = await chain.game(gameId);
        assert.equal(g.turn, turn, 'the turn is still to be played');
        assert.equal(g.toMove, seat);
        await tid('retry').click();
        await page
          .locator('[data-testid="log"] li[data-kind="turn"]', { hasText: `turn ${turn} turn:` })
          .waitFor({ timeout: 120_000 });
        await page.locator('[data-testid="error"]').waitFor({ state: 'hidden' });
        assert.equal(await submitted(), 1, 'Retry proved and sent the turn exactly once');
      };

      /**
       * While the bot is held (its move): Export state, close this browser; on a new device (empty IndexedDB),
       * Restore state from the file: the game resumes there. Then the chain's connection drops and comes back.
       */
      const moveToAnotherDevice = async () => {
        // Export asks for a passphrase twice; two that differ export nothing.
        await tid('export-pass').fill(EXPORT_PASS);
        await tid('export-pass2').fill(`${EXPORT_PASS}?`);
        await tid('export').click();
        await errorShown(/the two passphrases differ/, 'play-export-mismatch.png', false);
        await tid('dismiss').click();
        await tid('export-pass2').fill(EXPORT_PASS);
        const [dl] = await Promise.all([page.waitForEvent('download'), tid('export').click()]);
        const file = path.join(tmp, 'export.json');
        await dl.saveAs(file);
        const text = readFileSync(file, 'utf8');
        // Sealed: no secret in clear (the only 32-byte hex is the game id, named in the blob's binding).
        const gameHex = `0x${BigInt((await snapshot()).gameId).toString(16)}`;
        const hex = text.match(/[0-9a-f]{64}/gi) ?? [];
        assert.ok(
          hex.every((h) => gameHex.endsWith(h.toLowerCase())),
          `no key in clear in the export: ${hex}`,
        );
        assert.ok(!text.includes('"key"') && !text.includes('share'), 'no record field in clear');
        assert.ok(!text.includes(EXPORT_PASS) && JSON.parse(text).v === 2, 'sealed under the passphrase');
        earlierProofs.push(...(await snapshot()).proofs);
        await device.context.close();
        wallet.mark();
        device = await newDevice();
        page = device.page;
        await page.goto(url);
        await tid('connect').click();
        // No saved game in this browser: the lobbies, and Restore state.
        await tid('restore').waitFor({ state: 'visible' });
        // A wrong passphrase restores nothing and says so; the right one restores.
        await tid('restore-pass').fill(`${EXPORT_PASS}!`);
        await tid('restore').setInputFiles(file);
        await errorShown(/wrong passphrase/, 'play-restore-wrong-pass.png', false);
        await tid('restore-pass').fill(EXPORT_PASS);
        await tid('restore').setInputFiles(file);
        await page.locator('[data-testid="game"][data-resumed="true"]').waitFor({ timeout: 120_000 });
        assert.equal(await tid('game').getAttribute('data-address'), address, 'the same seat');
        assert.ok((await tid('log').textContent())?.includes('restored game'));
        await page.screenshot({ path: path.join(SHOTS, 'play-restored.png') });
        assert.deepEqual(
          wallet.approvals(),
          { signatures: 2, transfers: 0, refused: 0 },
          'a new device: 2 signatures',
        );
        env.rpcProxy.down = true;
        await errorShown(/(dropped|does not answer).*Retrying/, 'play-chain-down.png', false);
        assert.ok(env.rpcProxy.dropped > 0);
        env.rpcProxy.down = false;
        await page.locator('[data-testid="error"]').waitFor({ state: 'hidden', timeout: 60_000 });
      };

      for (let step = 0; step < 100; step++) {
        await decision().first().waitFor({ timeout: 300_000 });
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
        if (lied !== null && !reloaded) {
          // A reload while it is the page's move: the same turn is asked again.
          reloaded = true;
          earlierProofs.push(...(await snapshot()).proofs);
          wallet.mark();
          await page.reload();
          await tid('connect').click();
          await decision().first().waitFor({ timeout: 120_000 });
          assert.equal(await tid('game').getAttribute('data-resumed'), 'true');
          assert.equal(
            Number(await tid('end-turn').getAttribute('data-turn')),
            turn,
            'the same turn after a reload',
          );
          assert.deepEqual(
            wallet.approvals(),
            { signatures: 1, transfers: 0, refused: 0 },
            'a reload: 1 signature',
          );
          continue;
        }
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
        const first = lied === null;
        const fogBefore = (await drawnFog())!;
        if (first) {
          // The first regular turn's tiles come back with one tile tampered with (a lying dealer); the bot waits
          // for its move until the page has been moved to another device.
          env.proxy.tamper = { player: address, turn };
          bot.hold(true);
        }
        // After the reload: the dealer drops the connections of the next turn's reveal (the bot waits meanwhile: its
        // move would make the page dispute the unserved turn); the turn after, the worker's proof fails to build.
        const cutDealer = !first && reloaded && dealerCut === null;
        const failProof = !first && dealerCut !== null && proofFailed === null;
        if (cutDealer) {
          bot.hold(true);
          // The dealer's API (the page's own files, worker.js among them, come from the same origin here).
          env.proxy.down = /^\/v1\//;
        }
        if (failProof)
          await page.evaluate(() => {
            (globalThis as unknown as { shroudTestFault: string }).shroudTestFault = 'turn';
          });
        const fromBlock = await provider.getBlockNumber();
        await tid('end-turn').click();
        turns++;
        if (first) {
          await caughtLying(turn, fogBefore);
          await moveToAnotherDevice();
          bot.hold(false);
        }
        if (cutDealer) {
          await dealerComesBack(turn, fogBefore);
          bot.hold(false);
          dealerCut = turn;
        }
        if (failProof) {
          await proofFailsThenRetried(turn, fromBlock);
          proofFailed = turn;
        }
      }
      await tid('game').waitFor({ state: 'visible' });
      await page.locator('[data-testid="game"][data-over="true"]').waitFor({ timeout: 120_000 });
      await bot.done;
      await tid('map').screenshot({ path: path.join(SHOTS, 'play-final.png') });
      const last = await snapshot();
      const s = { ...last, proofs: [...earlierProofs, ...last.proofs] };
      t.diagnostic(
        `page turns ${turns}, attacks ${attacks}, combats answered ${combats}, lying dealer met on turn ${lied}, dealer down on turn ${dealerCut}, proof failed on turn ${proofFailed}; proofs ${s.proofs.map((p) => `${p.circuit} ${Math.round(p.ms)} ms`).join(', ')}`,
      );
      assert.deepEqual(pageErrors, []);
      assert.ok(['Secrets', 'Audit', 'Settled'].includes(s.phase), `the game ended (${s.phase})`);
      assert.equal(turns, (MAX_TURNS - 2) / 2, 'the page played every one of its turns');
      assert.equal((await new GameChain(env.gameContract, provider).game(BigInt(s.gameId))).turn, MAX_TURNS);
      assert.notEqual(lied, null, 'the lying dealer was met');
      assert.ok(reloaded, 'the page was reloaded on its move');
      assert.notEqual(dealerCut, null, 'the dealer was down on one of the page turns');
      assert.notEqual(proofFailed, null, "one of the page's proofs failed to build");
      assert.equal(
        wallet.calls('eth_sendTransaction').filter((c) => c.ok).length,
        1,
        'one transfer per game',
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
      // Relative to the #map container, which persists: the page redraws the svg inside it at each look of its
      // closing loop, so a screenshot of the svg element itself can find it detached.
      const centres = await page.evaluate((idx) => {
        const svg = document.querySelector('#map svg')!;
        const box = document.querySelector('#map')!.getBoundingClientRect();
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
      const png = await tid('map').screenshot();
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

      // P7 after play: the game is not closed yet (the dealer's secrets, then the audit window), so the key kept
      // the gas to close it. A day later (fast-forwarded) the page, still open, closes the game (or finds it closed
      // by the dealer), withdraws the stake's credit and sends everything home.
      const chain = new GameChain(env.gameContract, provider);
      const gameId = BigInt(s.gameId);
      const { stake } = await chain.config(gameId);
      assert.ok(stake > 0n, 'the lobby stakes');
      assert.ok(
        (await provider.getBalance(address)) >= CLOSING_GAS * 10n ** 9n,
        'the session key kept a closing reserve',
      );
      for (
        let g = await chain.game(gameId), k = 0;
        g.phase !== 'Settled';
        g = await chain.game(gameId), k++
      ) {
        assert.ok(k < 20 && g.phase !== 'Cancelled', `the game closes by settling (${g.phase})`);
        const now = (await provider.getBlock('latest'))!.timestamp;
        if (now <= g.deadline) await provider.send('evm_increaseTime', [g.deadline - now + 1]);
        await provider.send('evm_mine', []);
        await new Promise((r) => setTimeout(r, 500));
      }
      await page.locator('[data-testid="game"][data-closed="true"]').waitFor({ timeout: 60_000 });
      const closed = await snapshot();
      // The key named the wallet payee before staking: the stake was the wallet's credit, sent home from it.
      assert.equal((await chain.payeeOf(address))?.toLowerCase(), s.owner.toLowerCase());
      assert.equal(await chain.credit(s.owner), 0n, "the stake's credit was withdrawn");
      assert.equal(await chain.credit(address), 0n);
      assert.ok(
        BigInt(closed.swept ?? '0') - BigInt(s.swept ?? '0') >= stake,
        'the stake came home when the game closed',
      );
      assert.equal(await provider.getBalance(address), 0n, 'the key, forgotten now, holds nothing');
    } catch (e) {
      // What the page and the proxy saw, for reading a failure.
      console.error(
        'page status:',
        await tid('status')
          .textContent()
          .catch(() => null),
        '| error:',
        await tid('error-text')
          .textContent()
          .catch(() => null),
      );
      console.error(
        'page log:\n',
        (
          await page
            .locator('[data-testid="log"] li')
            .allTextContents()
            .catch(() => [])
        ).join('\n'),
      );
      await page.screenshot({ path: path.join(SHOTS, 'play-failure.png') }).catch(() => {});
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

  it('a person leaves a lobby nobody else joins: the seat is freed, the funds come back, the lobbies show again', {
    timeout: 300_000,
  }, async () => {
    const provider = new JsonRpcProvider(env.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
    try {
      wallet = await testWallet(provider);
      const start = await provider.getBalance(wallet.address);
      const device = await newDevice();
      page = device.page;
      await page.goto(`${env.proxy.url}/play?rpc=${encodeURIComponent(env.rpcProxy.url)}&pollMs=200`);
      await tid('connect').click();
      await tid(`join-${LOBBY}`).click();
      // Offered once the dealer answered the join (until then it says "joining…", disabled).
      await page
        .locator('[data-testid="leave-lobby"]:enabled')
        .waitFor({ state: 'visible', timeout: 60_000 });
      const dealerLobbies = new LobbyClient(env.dealerUrl, { chainId: 31337n });
      const seated = async () => (await dealerLobbies.lobbies()).find((x) => x.kind === LOBBY)!.filled;
      assert.equal(await seated(), 1, "the page's key holds the seat");
      const funded = (await tid('log').locator('li').allTextContents()).find((l) =>
        /session key 0x/.test(l),
      )!;
      const key = /session key (0x[0-9a-fA-F]{40})/.exec(funded)![1]!;
      assert.ok((await provider.getBalance(key)) > 0n, 'the key was funded');
      await page.screenshot({ path: path.join(SHOTS, 'play-lobby-waiting.png') });
      await tid('leave-lobby').click();
      await page
        .locator('[data-testid="status"]', {
          hasText: /^left the lobby: \d+ wei returned to your wallet\. pick a game/,
        })
        .waitFor({ timeout: 60_000 });
      await tid(`join-${LOBBY}`).waitFor({ state: 'visible', timeout: 60_000 });
      await page.screenshot({ path: path.join(SHOTS, 'play-lobby-left.png') });
      assert.equal(await visible('leave-lobby'), false);
      assert.equal(await seated(), 0, 'the seat is free at the dealer');
      assert.equal(await provider.getBalance(key), 0n, 'the key holds nothing');
      const spent = start - (await provider.getBalance(wallet.address));
      // The wallet paid only gas: the key's payee naming and its transfer home (and the funding transfer's own).
      assert.ok(spent > 0n && spent < 10n ** 15n, `the wallet lost only gas: ${spent} wei`);
      assert.deepEqual(wallet.approvals(), { signatures: 2, transfers: 1, refused: 0 });
      // The session is forgotten: a reload offers the lobbies, not a game to resume.
      await page.reload();
      await tid('connect').click();
      await tid(`join-${LOBBY}`).waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await visible('leave-lobby'), false);
    } finally {
      provider.destroy();
    }
  });

  it("a Leave clicked while the page's join that fills the lobby is on its way is not taken: the page plays that game", {
    timeout: 300_000,
  }, async () => {
    const provider = new JsonRpcProvider(env.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
    try {
      wallet = await testWallet(provider);
      // Another player sits in the lobby already: the page's join fills it.
      const dealerLobbies = new LobbyClient(env.dealerUrl, { chainId: 31337n });
      const open = (await dealerLobbies.lobbies()).find((x) => x.kind === LOBBY)!;
      assert.equal(open.filled, 0);
      await dealerLobbies.join(Wallet.createRandom(), open.id, { maxStake: open.stake });
      const device = await newDevice();
      page = device.page;
      await page.goto(`${env.proxy.url}/play?rpc=${encodeURIComponent(env.rpcProxy.url)}&pollMs=200`);
      await tid('connect').click();
      // The dealer seats the page's key, and its answer is slow: the person clicks Leave meanwhile.
      env.proxy.hold = /\/v1\/lobbies\/[^/]+\/joins$/;
      env.proxy.held = 0;
      await tid(`join-${LOBBY}`).click();
      const deadline = Date.now() + 60_000;
      while (env.proxy.held === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.equal(env.proxy.held, 1, "the page's join reached the dealer and its answer is held");
      assert.equal(
        (await dealerLobbies.lobbies()).find((x) => x.id === open.id),
        undefined,
        'the lobby filled',
      );
      // Read now, asserted last: first what the click did.
      const disabledMeanwhile = await tid('leave-lobby').isDisabled();
      const saidMeanwhile = (await tid('leave-lobby').textContent()) ?? '';
      await page.screenshot({ path: path.join(SHOTS, 'play-lobby-joining.png') });
      // The person clicks anyway (forced: a disabled button takes no click).
      await tid('leave-lobby').click({ force: true, timeout: 5_000 });
      env.proxy.release();
      // The page goes on into the game its join filled: no leave, no sweep, the game is played.
      await page.waitForFunction(
        () => {
          const s = (globalThis as unknown as { shroudPlay: { snapshot(): { gameId: string | null } } })
            .shroudPlay;
          const status = document.querySelector('[data-testid="status"]')?.textContent ?? '';
          return s.snapshot().gameId !== null || /left the lobby/.test(status);
        },
        null,
        { timeout: 120_000, polling: 200 },
      );
      const status = (await tid('status').textContent()) ?? '';
      assert.doesNotMatch(status, /left the lobby/, 'the seat was not given up');
      const s = await snapshot();
      assert.ok(s.gameId, 'the page holds the game');
      await tid('game').waitFor({ state: 'visible', timeout: 120_000 });
      assert.equal(await visible('leave-lobby'), false);
      const key = (await tid('game').getAttribute('data-address'))!;
      assert.ok((await provider.getBalance(key)) > 0n, "the session key keeps the game's funds");
      const chain = new GameChain(open.gameContract, provider);
      const players: string[] = [];
      const g = await chain.game(BigInt(s.gameId));
      for (let i = 0; i < g.nPlayers; i++) players.push((await chain.seat(BigInt(s.gameId), i)).player);
      assert.ok(
        players.some((p) => p.toLowerCase() === key.toLowerCase()),
        'the key is seated in the game',
      );
      assert.ok(LIVE.has(g.phase), `the game is live: ${g.phase}`);
      await page.screenshot({ path: path.join(SHOTS, 'play-lobby-joined-game.png') });
      assert.equal(disabledMeanwhile, true, 'no Leave while the join was on its way');
      assert.match(saidMeanwhile, /joining/i);
      await device.context.close();
    } finally {
      env.proxy.release();
      provider.destroy();
    }
  });
});
