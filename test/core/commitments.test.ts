/**
 * Field elements from outside are refused, never reduced: Poseidon works mod p, so hashing p + 5 gives the
 * hash of 5, and a master secret, salt, seed, share, blinding or tree node ≥ p (or negative) would silently
 * commit to another value than the one the caller holds (and the contract refuses with `NotInField`).
 * Every core function that hashes such an input throws an InputError naming it; p − 1 is the largest accepted.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import {
  attackNullifier,
  buildTree,
  commitMap,
  encodeDisputeAnswer,
  FIELD_MODULUS,
  generateMap,
  type Hasher,
  leafHash,
  loadHasher,
  masterCommitment,
  merklePath,
  playCommitment,
  revealCommitment,
  rootFromPath,
  sealContext,
  seedFromShares,
  shareCommitment,
  shippedRuleset,
  stateCommitment,
  type Tile,
  tileSalt,
  tileWord,
  verifyPath,
} from '../../core/index.ts';
import { mapChunkInput, mapRootInput, seedHash } from '../../core/mapproof/witness.ts';

const P = FIELD_MODULUS;
const board = shippedRuleset('tiny').board;
const TILE: Tile = { terrain: 2, feature: 0, resource: 0, rivers: 0 };
let h: Hasher;
let tiles: Tile[];

before(async () => {
  h = await loadHasher();
  tiles = generateMap(h, board, 42n);
});

/** Each function of one field-element argument `v`, and the name its InputError must carry. */
function cases(): [string, (v: bigint) => unknown][] {
  const map = commitMap(h, board, tiles, 7n);
  const path = merklePath(map.tree, 0);
  const leaf = map.tree.levels[0]![0]!;
  const mapRoot = (o: { gameId?: bigint; player?: bigint; share?: bigint }) =>
    mapRootInput(h, {
      maxPlayers: 2,
      gameId: o.gameId ?? 1n,
      players: [11n, o.player ?? 12n],
      shares: [21n, o.share ?? 22n],
      map,
      board,
    });
  return [
    ['masterSecret', (v) => tileSalt(h, v, 0)],
    ['masterSecret', (v) => commitMap(h, board, tiles, v)],
    ['masterSecret', (v) => masterCommitment(h, v)],
    ['salt', (v) => leafHash(h, TILE, v)],
    ['gameId', (v) => shareCommitment(h, v, 1n, 2n)],
    ['player', (v) => shareCommitment(h, 1n, v, 2n)],
    ['share', (v) => shareCommitment(h, 1n, 2n, v)],
    ['shares.1', (v) => seedFromShares(h, [1n, v])],
    ['leaves.1', (v) => buildTree(h, [1n, v], 1)],
    ['leaf', (v) => rootFromPath(h, 0, v, path)],
    ['path.0', (v) => rootFromPath(h, 0, leaf, [v, ...path.slice(1)])],
    ['blinding', (v) => stateCommitment(h, [null, null, null, null], 4, v)],
    ['blinding', (v) => revealCommitment(h, [0, 5], 8, v)],
    ['stateCommit', (v) => playCommitment(h, v, 1n, 2n)],
    ['revealCommit', (v) => playCommitment(h, 1n, v, 2n)],
    ['mapRoot', (v) => playCommitment(h, 1n, 2n, v)],
    ['seed', (v) => generateMap(h, board, v)],
    ['seed', (v) => seedHash(h, v)],
    ['seed', (v) => mapChunkInput(h, board, v, map, 0)],
    ['gameId', (v) => mapRoot({ gameId: v })],
    ['players.1', (v) => mapRoot({ player: v })],
    ['shares.1', (v) => mapRoot({ share: v })],
    ['dealerKey.x', (v) => sealContext(h, 1n, [v, 2n])],
    ['dealerKey.y', (v) => sealContext(h, 1n, [2n, v])],
    ['blinding', (v) => attackNullifier(h, v, 0, 1n)],
    ['turn', (v) => attackNullifier(h, 1n, 0, v)],
    ['tiles.0.salt', (v) => encodeDisputeAnswer([served(v.toString(), [])], 0)],
    ['tiles.0.path.1', (v) => encodeDisputeAnswer([served('1', ['2', v.toString(), '3'])], 1)],
  ];
}

const served = (salt: string, path: string[]) => ({ leaf: 0, col: 0, row: 0, ...TILE, salt, path });

describe('field elements from outside', () => {
  test('p + 5 and −1 are refused with an InputError naming the argument; p − 1 is taken', () => {
    for (const [field, fn] of cases()) {
      for (const v of [P + 5n, P, -1n]) {
        assert.throws(
          () => fn(v),
          (e) =>
            e instanceof InputError &&
            e.field === field &&
            /field modulus|negative|not a decimal/.test(e.message),
          `${field} = ${v === -1n ? '-1' : `p + ${v - P}`}: ${fn}`,
        );
      }
      assert.doesNotThrow(() => fn(P - 1n), `${field} = p − 1: ${fn}`);
    }
  });

  test('a master secret p + 5 no longer commits the map of 5', () => {
    assert.throws(() => commitMap(h, board, tiles, P + 5n), {
      name: 'InputError',
      message: /^masterSecret:/,
    });
    assert.throws(() => tileSalt(h, P + 5n, 3), { name: 'InputError', message: /^masterSecret:/ });
    // The largest secret works and differs from its neighbours.
    const top = commitMap(h, board, tiles, P - 1n).tree.root;
    assert.notEqual(top, commitMap(h, board, tiles, P - 2n).tree.root);
    assert.notEqual(top, commitMap(h, board, tiles, 0n).tree.root);
  });

  test('a leaf refuses tile fields that are not bytes, naming them; a nullifier refuses a bad slot', () => {
    for (const [k, v] of [
      ['terrain', -1],
      ['feature', 256],
      ['resource', 1.5],
      ['rivers', Number.NaN],
    ] as const) {
      assert.throws(() => leafHash(h, { ...TILE, [k]: v }, 1n), {
        name: 'InputError',
        message: new RegExp(`^tile\\.${k}:`),
      });
    }
    assert.throws(() => attackNullifier(h, 1n, -1, 1n), { name: 'InputError', message: /^slot:/ });
  });

  test('a leaf hashes the tile word terrain | feature << 8 | resource << 16 | rivers << 24 with the salt', () => {
    const t: Tile = { terrain: 5, feature: 2, resource: 4, rivers: 0b101001 };
    assert.equal(tileWord(t), 5n + (2n << 8n) + (4n << 16n) + (41n << 24n));
    assert.equal(leafHash(h, t, 9n), h.hash([tileWord(t), 9n]));
    // One word per tile: every generated tile of a map packs to a word that decodes back to it.
    const seen = new Map<bigint, Tile>();
    for (const g of tiles) {
      const w = tileWord(g);
      const back = { terrain: Number(w & 255n), feature: Number((w >> 8n) & 255n) };
      assert.deepEqual(back, { terrain: g.terrain, feature: g.feature });
      assert.equal(Number(w >> 16n), g.resource + (g.rivers << 8));
      const other = seen.get(w);
      if (other) assert.deepEqual(other, g);
      seen.set(w, g);
    }
  });

  test('an aliasing tile (terrain 258, feature 0 packs like terrain 2, feature 1) is refused, not hashed', () => {
    const real: Tile = { terrain: 2, feature: 1, resource: 0, rivers: 0 };
    assert.equal(258n, tileWord(real), 'the alias would have the same word and leaf');
    assert.throws(() => leafHash(h, { ...real, terrain: 258 as never, feature: 0 }, 1n), {
      name: 'InputError',
      message: /^tile\.terrain: not a byte: 258/,
    });
    assert.throws(() => tileWord({ ...real, rivers: 256 }), {
      name: 'InputError',
      message: /^tile\.rivers:/,
    });
  });

  test('tileSalt refuses a leaf index that is not a non-negative integer', () => {
    for (const leaf of [-1, 1.5, Number.NaN]) {
      assert.throws(() => tileSalt(h, 5n, leaf), { name: 'InputError', message: /^leaf:/ });
    }
  });

  test('verifyPath: an opening with a word ≥ p does not verify, though it hashes like the canonical one', () => {
    const map = commitMap(h, board, tiles, 7n);
    const i = 9;
    const leaf = map.tree.levels[0]![i]!;
    const path = merklePath(map.tree, i);
    assert.equal(verifyPath(h, map.tree.root, i, leaf, path), true);
    assert.equal(verifyPath(h, map.tree.root, i, leaf + P, path), false);
    assert.equal(verifyPath(h, map.tree.root, i, leaf, [path[0]! + P, ...path.slice(1)]), false);
    assert.equal(verifyPath(h, map.tree.root, i, -leaf, path), false);
    assert.equal(verifyPath(h, map.tree.root + P, i, leaf, path), false);
  });
});
