import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TileRejectedError, type TileRejectReason } from '../../client/sdk/errors.ts';
import { type ServedTile, verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { InputError } from '../../core/errors.ts';
import { FIELD_MODULUS } from '../../core/field.ts';
import { pathLength } from '../../core/merkle.ts';
import { dealtMap, leafOf, serve } from './fixture.ts';

const m = await dealtMap();
const requested = [
  leafOf(m, { col: 3, row: 4 }),
  leafOf(m, { col: 4, row: 4 }),
  leafOf(m, { col: 9, row: 9 }), // another zone
];
const honest = () => requested.map((l) => serve(m, l));

function rejects(served: unknown, reason: TileRejectReason, leaf: number | null, req = requested): void {
  assert.throws(
    () => verifyRevealedTiles(m.h, m.board, m.root, req, served),
    (e: unknown) => {
      assert.ok(e instanceof TileRejectedError, `expected TileRejectedError, got ${e}`);
      assert.equal(e.reason, reason);
      assert.equal(e.leaf, leaf);
      return true;
    },
  );
}

describe('verifyRevealedTiles', () => {
  it('accepts an honest dealer, in request order, whatever the serving order', () => {
    const out = verifyRevealedTiles(m.h, m.board, m.root, requested, honest().reverse());
    assert.deepEqual(
      out.map((t) => t.leaf),
      requested,
    );
    const t = out[2]!;
    assert.deepEqual([t.col, t.row, t.index], [9, 9, 9 * m.board.width + 9]);
    assert.deepEqual(
      { terrain: t.terrain, feature: t.feature, resource: t.resource, rivers: t.rivers },
      m.tiles[t.index],
    );
    assert.equal(t.path.length, pathLength(m.board.depth));
  });

  it('accepts an empty opening', () => {
    assert.deepEqual(verifyRevealedTiles(m.h, m.board, m.root, [], []), []);
  });

  it('rejects wrong tile data (terrain changed, still in range)', () => {
    const s = honest();
    s[1]!.terrain = (s[1]!.terrain + 1) % 7;
    rejects(s, 'bad-path', requested[1]!);
  });

  it('rejects changed rivers, feature or resource', () => {
    for (const field of ['rivers', 'feature', 'resource'] as const) {
      const s = honest();
      s[0]![field] = s[0]![field] === 0 ? 1 : 0;
      rejects(s, 'bad-path', requested[0]!);
    }
  });

  it('rejects a wrong salt', () => {
    const s = honest();
    s[0]!.salt = (BigInt(s[0]!.salt) + 1n).toString();
    rejects(s, 'bad-path', requested[0]!);
  });

  it('rejects a true tile served with the path of another index', () => {
    const s = honest();
    s[2]!.path = serve(m, requested[1]!).path;
    rejects(s, 'bad-path', requested[2]!);
  });

  it('rejects another leaf relabelled as the requested one (its coordinates give it away)', () => {
    const s = honest();
    const other = serve(m, requested[0]! + 2);
    s[0] = { ...other, leaf: requested[0]! };
    rejects(s, 'wrong-coord', requested[0]!);
    // …and with the coordinates fixed up, the path no longer opens to that index.
    s[0] = { ...other, leaf: requested[0]!, col: 3, row: 4 };
    rejects(s, 'bad-path', requested[0]!);
  });

  it('rejects a tile that was not requested, even an honest one', () => {
    const extra = serve(m, leafOf(m, { col: 0, row: 0 }));
    rejects([...honest(), extra], 'not-requested', extra.leaf);
  });

  it('rejects a missing tile', () => {
    rejects(honest().slice(0, 2), 'missing', requested[2]!);
  });

  it('rejects a duplicate tile', () => {
    const s = honest();
    rejects([...s, s[0]], 'duplicate', requested[0]!);
  });

  it('rejects out-of-range values and non-field salts as malformed', () => {
    const cases: [keyof ServedTile, unknown][] = [
      ['terrain', 7],
      ['terrain', -1],
      ['feature', 3],
      ['resource', 6],
      ['rivers', 64],
      ['rivers', 1.5],
      ['salt', FIELD_MODULUS.toString()],
      ['salt', '-1'],
      ['salt', 5],
      ['path', []],
    ];
    for (const [field, value] of cases) {
      const s = honest() as unknown as Record<string, unknown>[];
      s[1]![field] = value;
      rejects(s, 'malformed', requested[1]!);
    }
    const s = honest();
    s[1]!.path[3] = FIELD_MODULUS.toString();
    rejects(s, 'malformed', requested[1]!);
    rejects('nope', 'malformed', null);
    rejects([null], 'malformed', null);
    rejects([{ ...honest()[0], leaf: '1' }], 'malformed', null);
  });

  it('rejects aliased bytes: fields packing to the true tile word (same leaf) but naming another tile', () => {
    // terrain + 256 with feature − 1 (or feature + 256 with resource − 1, …) hashes to the same leaf.
    const s = honest();
    const t = s[0]!;
    const k = (['feature', 'resource', 'rivers'] as const).findIndex((f) => t[f] > 0);
    assert.ok(k >= 0, 'the tile has a non-zero field after terrain');
    const fields = ['terrain', 'feature', 'resource', 'rivers'] as const;
    const word = (x: ServedTile) => fields.reduce((w, f, i) => w + BigInt(x[f]) * 256n ** BigInt(i), 0n);
    const alias = { ...t, [fields[k]!]: t[fields[k]!] + 256, [fields[k + 1]!]: t[fields[k + 1]!] - 1 };
    assert.equal(word(alias), word(t));
    s[0] = alias;
    rejects(s, 'malformed', requested[0]!);
  });

  it('verifies against the root passed in, not one the dealer chose', () => {
    assert.throws(
      () => verifyRevealedTiles(m.h, m.board, m.root + 1n, requested, honest()),
      (e: unknown) => e instanceof TileRejectedError && e.reason === 'bad-path',
    );
  });

  it('refuses a malformed request list before looking at the response', () => {
    assert.throws(
      () => verifyRevealedTiles(m.h, m.board, m.root, [requested[0]!, requested[0]!], []),
      InputError,
    );
    // The first slot past the last zone is no tile of the board.
    assert.throws(() => verifyRevealedTiles(m.h, m.board, m.root, [m.board.zoneCount * 64], []), InputError);
  });
});
