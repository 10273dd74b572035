import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitMap, FIELD_MODULUS, generateMap, shippedRuleset } from '../../core/index.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { mapTop } from '../../core/witness/maptop.ts';
import { dealGame } from '../../dealer/dealing.ts';
import { ALICE, BOB, type Dealer, runCeremony, startDealer } from './fixture.ts';

let d: Dealer;
let gameId: bigint;

before(async () => {
  d = await startDealer();
  const g = await d.dealtGame({ ruleset: 'tiny-pass' });
  assert.equal(g.outcome, 'dealt');
  gameId = g.gameId;
});
after(() => d.close());

const get = (url: string, method: 'GET' | 'POST' = 'GET') => d.app.inject({ method, url });

async function refused(url: string, status: number, error: string, field?: string) {
  const res = await get(url);
  assert.equal(res.statusCode, status, res.body);
  const j = res.json();
  assert.equal(j.error, error, res.body);
  if (field !== undefined) assert.equal(j.field, field, res.body);
  assert.equal(j.zoneRoots, undefined);
  return j;
}

describe('GET /v1/games/:gameId/zone-roots', () => {
  it('serves the zone roots of the dealt map: Gen(seed) under the stored master secret, hashing to the posted root', async () => {
    const res = await get(`/v1/games/${gameId}/zone-roots`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const j = res.json() as { gameId: string; root: string; zoneRoots: string[] };
    const posted = await d.chain.mapRoot(gameId);
    assert.equal(j.gameId, gameId.toString());
    assert.equal(j.root, posted!.root.toString());
    const r = shippedRuleset('tiny-pass');
    assert.equal(j.zoneRoots.length, r.board.zoneCount);
    const roots = j.zoneRoots.map((z) => BigInt(z));
    assert.equal(mapTop(d.h, r.board, roots, 0).root, posted!.root);
    const secrets = (await d.store.getSecrets(gameId))!;
    const map = commitMap(d.h, r.board, generateMap(d.h, r.board, secrets.seed), secrets.masterSecret);
    assert.deepEqual(roots, zoneRoots(map, r.board));
  });

  it('the same answer again (cached), and for a 0x-hex id', async () => {
    const a = await get(`/v1/games/${gameId}/zone-roots`);
    const b = await get(`/v1/games/0x${gameId.toString(16)}/zone-roots`);
    assert.equal(b.statusCode, 200, b.body);
    assert.equal(a.body, b.body);
  });

  it('needs no signature: zone roots are public', async () => {
    const res = await d.app.inject({ url: `/v1/games/${gameId}/zone-roots`, headers: {} });
    assert.equal(res.statusCode, 200);
  });

  it('malformed game ids are a 400 naming the parameter', async () => {
    for (const id of ['abc', '-1', '0x', '1.5', `${'9'.repeat(79)}`, '0xzz']) {
      await refused(
        `/v1/games/${encodeURIComponent(id)}/zone-roots`,
        400,
        'invalid-request',
        'params.gameId',
      );
    }
    // Well-formed, but not a field element.
    await refused(`/v1/games/${FIELD_MODULUS}/zone-roots`, 400, 'invalid-request', 'gameId');
  });

  it('an unknown game is a 404', async () => {
    await refused('/v1/games/999/zone-roots', 404, 'unknown-game', 'gameId');
  });

  it('before the root is posted: 409 root-not-posted', async () => {
    // A finished ceremony the dealer tracks but has not dealt yet (status `watching`).
    const g2 = runCeremony(d.h, d.chain, d.seal.publicKey, { ruleset: 'tiny-pass' });
    await d.store.addGame({
      gameId: g2.gameId,
      contract: (await d.chain.game(g2.gameId))!.contract,
      ruleset: 'tiny-pass',
      players: [ALICE.address.toLowerCase(), BOB.address.toLowerCase()],
    });
    await refused(`/v1/games/${g2.gameId}/zone-roots`, 409, 'root-not-posted', 'gameId');
    // Once dealt, the same game answers.
    assert.equal(await dealGame(d.dealing, g2.gameId), 'dealt');
    assert.equal((await get(`/v1/games/${g2.gameId}/zone-roots`)).statusCode, 200);
  });

  it('other methods are unknown routes', async () => {
    const res = await get(`/v1/games/${gameId}/zone-roots`, 'POST');
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error, 'not-found');
  });

  it('is documented in the OpenAPI spec with its response schema', async () => {
    const spec = (await get('/docs/json')).json();
    const op = spec.paths['/v1/games/{gameId}/zone-roots'].get;
    assert.ok(op);
    assert.ok(op.responses['200'].content['application/json'].schema.properties.zoneRoots);
    assert.ok(
      op.parameters.some((p: { name: string; in: string }) => p.name === 'gameId' && p.in === 'path'),
    );
  });
});
