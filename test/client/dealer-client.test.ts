import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { Wallet } from 'ethers';
import { DealerClient, type RevealOpening } from '../../client/sdk/dealer-client.ts';
import {
  DealerRefusedError,
  DealerUnavailableError,
  MapProofError,
  TileRejectedError,
} from '../../client/sdk/errors.ts';
import { ANSWER_MAX_BYTES, BodyTooLargeError } from '../../client/sdk/http-body.ts';
import { type RevealRequestMessage, recoverRevealSigner, revealDomain } from '../../core/reveal-request.ts';
import { dealtMap, leafOf, serve } from './fixture.ts';

const m = await dealtMap();
const wallet = Wallet.createRandom();
const CHAIN_ID = 31337n;
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const opening: RevealOpening = {
  gameId: 7n,
  turn: 3,
  leaves: [leafOf(m, { col: 3, row: 4 }), leafOf(m, { col: 4, row: 5 })],
  blinding: 99n,
  stateCommit: 88n,
};

type Handler = (req: IncomingMessage, body: Record<string, unknown>, res: ServerResponse) => void;
const servers: Server[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

async function listen(handler: Handler): Promise<{ url: string; hits: Record<string, unknown>[] }> {
  const hits: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data);
      hits.push({ url: req.url, ...body });
      handler(req, body, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function honestBody(body: Record<string, unknown>) {
  const leaves = body.leaves as number[];
  return {
    gameId: body.gameId,
    player: body.player,
    turn: body.turn,
    root: '1',
    tiles: leaves.map((l) => serve(m, l)),
  };
}

function client(
  url: string,
  delays: number[],
  extra: Partial<ConstructorParameters<typeof DealerClient>[0]> = {},
) {
  return new DealerClient({
    baseUrl: url,
    chainId: CHAIN_ID,
    gameContract: CONTRACT,
    signer: wallet,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    useSessions: false,
    ...extra,
  });
}

describe('DealerClient', () => {
  it('retries twice after 5xx, then verifies the tiles; every attempt is freshly signed', async () => {
    let n = 0;
    const { url, hits } = await listen((_req, body, res) => {
      if (++n <= 2) return reply(res, 503, { statusCode: 503, error: 'internal', message: 'busy' });
      reply(res, 200, honestBody(body));
    });
    const delays: number[] = [];
    const tiles = await client(url, delays).fetchVerifiedTiles(m.h, m.board, m.root, opening);
    assert.deepEqual(
      tiles.map((t) => [t.col, t.row]),
      [
        [3, 4],
        [4, 5],
      ],
    );
    assert.equal(hits.length, 3);
    assert.deepEqual(delays, [125, 250], 'exponential backoff with jitter (random = 0.5)');
    const nonces = new Set(hits.map((h) => h.nonce));
    assert.equal(nonces.size, 3, 'a new nonce per attempt');
    for (const h of hits) {
      assert.equal(h.url, '/v1/games/7/reveals');
      const msg: RevealRequestMessage = {
        gameId: BigInt(h.gameId as string),
        player: h.player as string,
        turn: h.turn as number,
        leaves: h.leaves as number[],
        blinding: BigInt(h.blinding as string),
        stateCommit: BigInt(h.stateCommit as string),
        nonce: BigInt(h.nonce as string),
        expiry: h.expiry as number,
      };
      assert.equal(msg.blinding, 99n);
      assert.equal(msg.stateCommit, 88n, 'the opening of the play commitment goes with the reveal list');
      assert.deepEqual(msg.leaves, opening.leaves);
      assert.ok(msg.expiry > Date.now() / 1000 && msg.expiry <= Date.now() / 1000 + 121);
      const signer = recoverRevealSigner(revealDomain(CHAIN_ID, CONTRACT), msg, h.signature as string);
      assert.equal(signer, wallet.address.toLowerCase());
    }
  });

  it('honours Retry-After on 429, capped by maxDelayMs', async () => {
    let n = 0;
    const { url } = await listen((_req, body, res) => {
      if (++n === 1)
        return reply(
          res,
          429,
          { statusCode: 429, error: 'rate-limited', message: 'slow' },
          { 'retry-after': '3' },
        );
      reply(res, 200, honestBody(body));
    });
    const delays: number[] = [];
    await client(url, delays, { maxDelayMs: 2000 }).requestReveal(opening);
    assert.deepEqual(delays, [2000]);
  });

  it('gives up with DealerUnavailableError when the dealer is down', async () => {
    const { url } = await listen(() => {});
    servers.pop()!.close();
    await new Promise((r) => setTimeout(r, 20));
    const delays: number[] = [];
    await assert.rejects(client(url, delays, { maxAttempts: 4 }).requestReveal(opening), (e: unknown) => {
      assert.ok(e instanceof DealerUnavailableError);
      assert.equal(e.attempts, 4);
      assert.equal(e.lastStatus, null);
      return true;
    });
    assert.equal(delays.length, 3);
    assert.ok(delays.every((d, i) => d <= 250 * 2 ** i));
  });

  it('refuses an answer past the size cap, declared or streamed, without reading it whole', async () => {
    // A hostile dealer: one answer declares 64 MiB; the next streams 1 MiB chunks with no length, without end.
    let streamed = 0;
    let n = 0;
    const { url } = await listen((_req, _body, res) => {
      if (n++ === 0) {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(64 * 1024 * 1024),
        });
        res.write('{');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 32);
      const more = () => {
        if (res.destroyed || streamed > 4 * ANSWER_MAX_BYTES) return res.end();
        streamed += chunk.length;
        if (res.write(chunk)) setImmediate(more);
        else res.once('drain', more);
      };
      more();
    });
    await assert.rejects(client(url, [], { maxAttempts: 2 }).requestReveal(opening), (e: unknown) => {
      assert.ok(e instanceof DealerUnavailableError, String(e));
      assert.equal(e.attempts, 2);
      assert.ok(e.cause instanceof BodyTooLargeError, String(e.cause));
      return true;
    });
    assert.ok(streamed < 2 * ANSWER_MAX_BYTES, `the client stopped reading: ${streamed} bytes streamed`);
  });

  it('gives up after bounded attempts on persistent 5xx, naming the status', async () => {
    const { url, hits } = await listen((_req, _body, res) => reply(res, 500, 'oops'));
    await assert.rejects(client(url, [], { maxAttempts: 3 }).requestReveal(opening), (e: unknown) => {
      return e instanceof DealerUnavailableError && e.lastStatus === 500;
    });
    assert.equal(hits.length, 3);
  });

  it('does not retry a 4xx and surfaces the dealer error body', async () => {
    const { url, hits } = await listen((_req, _body, res) =>
      reply(res, 403, {
        statusCode: 403,
        error: 'opening-mismatch',
        message: 'leaves: leaves and blinding do not open revealCommit',
        field: 'leaves',
      }),
    );
    await assert.rejects(client(url, []).requestReveal(opening), (e: unknown) => {
      assert.ok(e instanceof DealerRefusedError);
      assert.equal(e.status, 403);
      assert.equal(e.code, 'opening-mismatch');
      assert.equal(e.field, 'leaves');
      assert.match(e.message, /do not open revealCommit/);
      return true;
    });
    assert.equal(hits.length, 1);
  });

  it('rejects a lying dealer after a successful HTTP answer, and an answer for another turn', async () => {
    const { url } = await listen((_req, body, res) => {
      const b = honestBody(body);
      b.tiles[1]!.terrain = (b.tiles[1]!.terrain + 1) % 7;
      reply(res, 200, b);
    });
    await assert.rejects(
      client(url, []).fetchVerifiedTiles(m.h, m.board, m.root, opening),
      (e: unknown) =>
        e instanceof TileRejectedError && e.reason === 'bad-path' && e.leaf === opening.leaves[1],
    );
    const other = await listen((_req, body, res) => reply(res, 200, { ...honestBody(body), turn: 2 }));
    await assert.rejects(
      client(other.url, []).requestReveal(opening),
      (e: unknown) => e instanceof TileRejectedError && e.reason === 'malformed',
    );
  });

  it('fetches the map proof: null while proving (202) or when there is none (404), a 500 retried', async () => {
    const proof = { chunks: [], root: { proof: {}, publicSignals: ['1'] } };
    const answers: [number, unknown][] = [
      [202, { status: 'proving', done: 3, total: 21 }],
      [404, { statusCode: 404, error: 'Not Found', message: 'unknown game' }],
      [500, { statusCode: 500, error: 'internal', message: 'busy' }],
      [200, { status: 'done', proof }],
      [200, { status: 'done' }],
    ];
    const urls: string[] = [];
    const server = createServer((req, res) => {
      urls.push(`${req.method} ${req.url}`);
      const [status, body] = answers.shift()!;
      reply(res, status, body);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const c = client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, []);
    assert.equal(await c.fetchMapProof(9n), null);
    assert.equal(await c.fetchMapProof(9n), null);
    assert.deepEqual(await c.fetchMapProof(9n), proof);
    await assert.rejects(c.fetchMapProof(9n), MapProofError);
    assert.deepEqual(urls, Array(5).fill('GET /v1/games/9/map-proof'));
  });
});
