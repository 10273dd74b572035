import { createServer, type Server } from 'node:http';
import { buildPlayPage, DEFAULT_PLAY_DIR } from '../../client/web/build.ts';
import type { ServedTile } from '../../core/reveal-request.ts';
import { freePort } from '../../scripts/demo/procs.ts';
import { liveChain } from '../helpers/live-chain.ts';

/** One reveal response the dealer sent (through the proxy) and whether the proxy tampered with it. */
export interface CapturedReveal {
  player: string;
  turn: number;
  tiles: ServedTile[];
  tampered: boolean;
}

export interface DealerProxy {
  url: string;
  captured: CapturedReveal[];
  /** While set, every reveal response for (player, turn) has its first tile's terrain changed. */
  tamper: { player: string; turn: number } | null;
  /**
   * While true, every request's connection is dropped unanswered (a network cut); while a RegExp, only those whose
   * path matches (the dealer's API down, the page's own files still served); `dropped` counts them.
   */
  down: boolean | RegExp;
  dropped: number;
  /** When set, the next response whose path matches has one byte flipped (a corrupted download); then cleared. */
  corrupt: RegExp | null;
  /** Paths of the responses corrupted so far. */
  corrupted: string[];
  /**
   * While set, the answers to POSTs whose path matches are held (the dealer did the work; its answer is slow)
   * until `release()`; `held` counts them.
   */
  hold: RegExp | null;
  held: number;
  release(): void;
  close(): Promise<void>;
}

/**
 * Forwards everything to `dealerUrl` (or a chain's JSON-RPC URL); records the reveal responses, tampering, cutting
 * the connection or corrupting a download when told to.
 */
export async function dealerProxy(dealerUrl: string): Promise<DealerProxy> {
  const port = await freePort();
  const proxy: DealerProxy = {
    url: `http://127.0.0.1:${port}`,
    captured: [],
    tamper: null,
    down: false,
    dropped: 0,
    corrupt: null,
    corrupted: [],
    hold: null,
    held: 0,
    release: () => {},
    close: async () => {},
  };
  let releaseHeld = () => {};
  let heldUntil = new Promise<void>((r) => (releaseHeld = r));
  proxy.release = () => {
    proxy.hold = null;
    releaseHeld();
    heldUntil = new Promise<void>((r) => (releaseHeld = r));
  };
  const server: Server = createServer(async (req, res) => {
    if (proxy.down === true || (proxy.down instanceof RegExp && proxy.down.test(req.url ?? ''))) {
      proxy.dropped++;
      req.socket.destroy();
      return;
    }
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const r = await fetch(`${dealerUrl}${req.url}`, {
        method: req.method,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        redirect: 'manual',
      });
      let body = Buffer.from(await r.arrayBuffer());
      if (req.method === 'POST' && /\/(session-)?reveals$/.test(req.url ?? '') && r.status === 200) {
        const j = JSON.parse(body.toString('utf8'));
        const t = proxy.tamper;
        const lie = t !== null && j.player.toLowerCase() === t.player.toLowerCase() && j.turn === t.turn;
        proxy.captured.push({
          player: j.player,
          turn: j.turn,
          tiles: structuredClone(j.tiles),
          tampered: lie,
        });
        if (lie) {
          j.tiles[0].terrain = (j.tiles[0].terrain + 1) % 7;
          body = Buffer.from(JSON.stringify(j));
        }
      }
      if (proxy.corrupt?.test(req.url ?? '') && r.status === 200 && body.length > 0) {
        proxy.corrupt = null;
        proxy.corrupted.push(req.url ?? '');
        body = Buffer.from(body);
        body[body.length >> 1]! ^= 0xff;
      }
      if (req.method === 'POST' && proxy.hold?.test(req.url ?? '')) {
        proxy.held++;
        await heldUntil;
      }
      const out: Record<string, string> = {};
      r.headers.forEach((v, k) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k))
          out[k] = v;
      });
      res.writeHead(r.status, out).end(body);
    } catch (e) {
      if (process.env.SHROUD_DEBUG) console.error('proxy:', req.method, req.url, e);
      res.writeHead(502, { 'content-type': 'text/plain' }).end(String(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

export interface LiveWeb {
  rpcUrl: string;
  /** The same chain through a proxy the test can cut (`down`): the page's RPC URL. */
  rpcProxy: DealerProxy;
  gameContract: string;
  dealerUrl: string;
  proxy: DealerProxy;
  /** The page's bundle sizes, bytes. */
  bundle: { page: number; worker: number };
}

export const LOBBY = 'web-duel';

/** Chain, deployment, dealer with a lobby of `ruleset` (`maxTurns` turns), the built page, the proxy. */
export async function liveWeb(o: { tmp: string; ruleset: string; maxTurns: number }): Promise<LiveWeb> {
  const page = await buildPlayPage(DEFAULT_PLAY_DIR);
  // The dealer process reads its lobbies from the environment (dealer/config-env.ts).
  const lobbies = [
    {
      name: LOBBY,
      ruleset: o.ruleset,
      seats: 2,
      stake: '1000',
      disputeDeposit: '100',
      maxTurns: o.maxTurns,
      bond: '1000000000000000000',
    },
  ];
  const live = await liveChain({
    tmp: o.tmp,
    ruleset: o.ruleset,
    env: { SHROUD_LOBBIES: JSON.stringify(lobbies) },
  });
  return {
    rpcUrl: live.url,
    gameContract: live.deployment.shroudGame,
    dealerUrl: live.dealerUrl,
    proxy: await dealerProxy(live.dealerUrl),
    rpcProxy: await dealerProxy(live.url),
    bundle: { page: page.bytes['play.js'], worker: page.bytes['worker.js'] },
  };
}
