/**
 * DealerClient over reveal sessions: one EIP-712 RevealSession signature, then HMAC requests; a new
 * session after 401 unknown-session (dealer restart); the per-request route when the dealer has no
 * session routes. The fake dealer checks signatures and MACs with the core's own functions.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { getBytes, recoverAddress, Wallet } from 'ethers';
import { DealerClient, type RevealOpening } from '../../client/sdk/dealer-client.ts';
import { revealDomain } from '../../core/reveal-request.ts';
import {
  revealSessionDigest,
  sessionKeyHash,
  sessionMacKey,
  sessionRevealMac,
} from '../../core/reveal-session.ts';
import { dealtMap, leafOf, serve } from './fixture.ts';

const m = await dealtMap();
const wallet = Wallet.createRandom();
const CHAIN_ID = 31337n;
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const domain = revealDomain(CHAIN_ID, CONTRACT);
const opening: RevealOpening = {
  gameId: 7n,
  turn: 3,
  leaves: [leafOf(m, { col: 3, row: 4 }), leafOf(m, { col: 4, row: 5 })],
  blinding: 99n,
  stateCommit: 88n,
};

const servers: Server[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

interface FakeDealer {
  url: string;
  routes: string[];
  /** Forget every session (a restart). */
  restart(): void;
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function fakeDealer(o: { sessions: boolean }): Promise<FakeDealer> {
  const routes: string[] = [];
  let sessions = new Map<string, Uint8Array>();
  const tiles = (leaves: number[]) => ({
    gameId: '7',
    player: wallet.address.toLowerCase(),
    turn: 3,
    root: '1',
    tiles: leaves.map((l) => serve(m, l)),
  });
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data);
      const route = req.url!.split('/').pop()!;
      routes.push(route);
      if (route === 'reveals') return reply(res, 200, tiles(body.leaves));
      if (!o.sessions) return reply(res, 404, { statusCode: 404, error: 'Not Found', message: 'no route' });
      if (route === 'sessions') {
        const key = getBytes(body.sessionKey);
        const msg = {
          gameId: BigInt(body.gameId),
          player: body.player,
          sessionKeyHash: sessionKeyHash(key),
          expiry: body.expiry,
          nonce: BigInt(body.nonce),
        };
        const id = revealSessionDigest(domain, msg);
        assert.equal(recoverAddress(id, body.signature), wallet.address);
        sessions.set(id, sessionMacKey(key, id));
        return reply(res, 200, {
          sessionId: id,
          gameId: body.gameId,
          player: body.player,
          expiry: body.expiry,
        });
      }
      const macKey = sessions.get(body.sessionId);
      if (!macKey)
        return reply(res, 401, {
          statusCode: 401,
          error: 'unknown-session',
          message: 'unknown or expired session',
        });
      const mac = sessionRevealMac(macKey, {
        sessionId: body.sessionId,
        gameId: 7n,
        turn: body.turn,
        leaves: body.leaves,
        blinding: BigInt(body.blinding),
        stateCommit: BigInt(body.stateCommit),
        nonce: BigInt(body.nonce),
        expiry: body.expiry,
      });
      if (mac !== body.mac) return reply(res, 401, { statusCode: 401, error: 'bad-mac', message: 'bad mac' });
      return reply(res, 200, tiles(body.leaves));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routes,
    restart: () => {
      sessions = new Map();
    },
  };
}

const client = (url: string) =>
  new DealerClient({ baseUrl: url, chainId: CHAIN_ID, gameContract: CONTRACT, signer: wallet });

describe('DealerClient reveal sessions', () => {
  it('opens one session, then serves every request under its MAC', async () => {
    const d = await fakeDealer({ sessions: true });
    const c = client(d.url);
    for (let i = 0; i < 3; i++) {
      const tiles = await c.fetchVerifiedTiles(m.h, m.board, m.root, opening);
      assert.equal(tiles.length, 2);
    }
    assert.deepEqual(d.routes, ['sessions', 'session-reveals', 'session-reveals', 'session-reveals']);
    assert.deepEqual(c.stats, { sessionReveals: 3, signedReveals: 0, sessionsOpened: 1 });
  });

  it('opens a new session when the dealer forgot it (401 unknown-session)', async () => {
    const d = await fakeDealer({ sessions: true });
    const c = client(d.url);
    await c.requestReveal(opening);
    d.restart();
    await c.requestReveal(opening);
    assert.deepEqual(d.routes, [
      'sessions',
      'session-reveals',
      'session-reveals',
      'sessions',
      'session-reveals',
    ]);
    assert.equal(c.stats.sessionsOpened, 2);
  });

  it('falls back to signed per-request reveals when the dealer has no session routes', async () => {
    const d = await fakeDealer({ sessions: false });
    const c = client(d.url);
    await c.requestReveal(opening);
    await c.requestReveal(opening);
    assert.deepEqual(d.routes, ['sessions', 'reveals', 'reveals']);
    assert.deepEqual(c.stats, { sessionReveals: 0, signedReveals: 2, sessionsOpened: 0 });
  });
});
