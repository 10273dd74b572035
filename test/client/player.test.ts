import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PlayerModel } from '../../client/sdk/player.ts';
import { verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { InputError } from '../../core/errors.ts';
import { Fog } from '../../core/fog.ts';
import { gridDistance, leafIndex, tileCoord, tileIndex } from '../../core/geometry.ts';
import { shippedRuleset } from '../../core/ruleset/shipped.ts';
import { isPassable } from '../../core/tile.ts';
import { dealtMap, serve } from './fixture.ts';

const m = await dealtMap();
const units = [
  { type: 2, hp: 40, col: 3, row: 5 }, // hq
  { type: 0, hp: 10, col: 4, row: 5 }, // infantry
  { type: 1, hp: 6, col: 5, row: 4 }, // scout
  null,
];

function model() {
  return new PlayerModel({ ruleset: m.ruleset, seat: 0, units });
}

/** The honest flow: vision from own units, up to maxRevealedTiles served and verified. */
function turnUpdate(p: PlayerModel, turn: number, count = m.ruleset.maxRevealedTiles) {
  const visible = [...p.visionOf()].sort((a, b) => a - b);
  const leaves = visible.slice(0, count).map((i) => leafIndex(m.board, tileCoord(m.board, i)));
  const tiles = verifyRevealedTiles(
    m.h,
    m.board,
    m.root,
    leaves,
    leaves.map((l) => serve(m, l)),
  );
  return { turn, visibleTiles: visible, tiles };
}

describe('PlayerModel', () => {
  it('applies a turn: fog, verified tiles, a tilesRevealed event', () => {
    const p = model();
    const seen: unknown[] = [];
    p.events.on('tilesRevealed', (e) => seen.push(e));
    const u = turnUpdate(p, 0);
    const change = p.applyTurn(u);
    assert.equal(change.discovered.length, u.visibleTiles.length);
    assert.equal(seen.length, 1);
    const t = u.tiles[0]!;
    assert.deepEqual(p.tileAt(t)!.terrain, m.tiles[t.index]!.terrain);
    assert.ok(p.targetable(t));
    assert.equal(p.targetable({ col: 15, row: 11 }), false);
  });

  it('is atomic: a tile outside the turn vision rejects the whole update', () => {
    const p = model();
    const u = turnUpdate(p, 0);
    const far = verifyRevealedTiles(
      m.h,
      m.board,
      m.root,
      [leafIndex(m.board, { col: 15, row: 11 })],
      [serve(m, leafIndex(m.board, { col: 15, row: 11 }))],
    );
    assert.throws(() => p.applyTurn({ ...u, tiles: [...u.tiles, ...far] }), InputError);
    assert.equal(p.turn, null);
    assert.ok(p.fog().every((f) => f === Fog.UNDISCOVERED));
    assert.equal(p.revealedTiles().size, 0);
  });

  it('observe() never carries terrain for an undiscovered tile, and shows what was verified', () => {
    const p = model();
    p.applyTurn(turnUpdate(p, 0));
    p.setUnits([units[0]!, { ...units[1]!, col: 6, row: 6 }, null, null]); // the scout died: its view is lost
    p.applyTurn(turnUpdate(p, 1));
    const o = p.observe();
    assert.equal(o.fog.length, m.board.width * m.board.height);
    let known = 0;
    o.terrain.forEach((t, i) => {
      if (o.fog[i] === Fog.UNDISCOVERED) assert.equal(t, -1, `terrain leaked at ${i}`);
      if (t !== -1) {
        known++;
        assert.equal(t, m.tiles[i]!.terrain);
        assert.ok(p.revealedTiles().has(i));
      }
    });
    assert.equal(known, p.revealedTiles().size);
    assert.ok(known > m.ruleset.maxRevealedTiles, 'both turns added tiles');
    assert.ok(o.fog.includes(Fog.EXPLORED));
    assert.doesNotThrow(() => JSON.stringify(o));
    // Nothing else in the observation names a tile the player has not seen.
    const json = JSON.stringify({ ...o, fog: [], terrain: [], moveMask: [], attackMask: [] });
    assert.ok(!/"(feature|resource|rivers|salt)"/.test(json));
  });

  it('moveMask: within speed under the grid metric, structures stay, empty slots have none', () => {
    const p = model();
    const o = p.observe();
    assert.deepEqual(o.moveMask[0], [tileIndex(m.board, units[0]!)]);
    assert.deepEqual(o.moveMask[3], []);
    for (const slot of [1, 2]) {
      const u = units[slot]!;
      const speed = m.ruleset.unitTypes[u.type]!.speed;
      const expected = [];
      for (let i = 0; i < m.board.width * m.board.height; i++) {
        if (gridDistance('hex', u, tileCoord(m.board, i)) <= speed) expected.push(i);
      }
      assert.deepEqual(o.moveMask[slot], expected);
    }
  });

  it('moveMask: with provePassability, only verified passable destinations', () => {
    const ruleset = { ...m.ruleset, provePassability: true };
    const p = new PlayerModel({ ruleset, seat: 0, units });
    assert.deepEqual(p.observe().moveMask[1], [tileIndex(m.board, units[1]!)]);
    p.applyTurn(turnUpdate(p, 0, m.ruleset.maxRevealedTiles));
    const o = p.observe();
    for (const i of o.moveMask[1]!) {
      if (i === tileIndex(m.board, units[1]!)) continue;
      assert.ok(p.revealedTiles().has(i) && isPassable(m.tiles[i]!.terrain));
    }
  });

  it('attackMask: only visible tiles within attack range', () => {
    const p = model();
    assert.deepEqual(p.observe().attackMask, [], 'nothing is visible before the first turn');
    p.applyTurn(turnUpdate(p, 0));
    const o = p.observe();
    assert.ok(o.attackMask.length > 0);
    for (const i of o.attackMask) {
      assert.equal(o.fog[i], Fog.VISIBLE);
      const c = tileCoord(m.board, i);
      assert.ok(
        units.some((u) => u && gridDistance('hex', u, c) <= m.ruleset.unitTypes[u.type]!.attackRange),
      );
    }
  });

  it('sightings: enemySighted, then enemyLost when a watched zone is not re-revealed', () => {
    const p = model();
    p.applyTurn(turnUpdate(p, 0));
    const events: string[] = [];
    p.events.on('enemySighted', (s) => events.push(`sighted ${s.unitType}@${s.zone} t${s.turn}`));
    p.events.on('enemyLost', (e) => events.push(`lost ${e.sighting.unitType}@${e.sighting.zone} t${e.turn}`));
    const zone = [...p.watchedZones()][0]!;
    p.applyOpponentTurn({ player: 1, turn: 1, zoneReveals: [{ zone, unitType: 'scout' }] });
    assert.deepEqual(p.observe().lastSeen, [{ player: 1, zone, unitType: 1, turn: 1, lost: false }]);
    p.applyOpponentTurn({ player: 1, turn: 3, zoneReveals: [] });
    assert.deepEqual(events, [`sighted scout@${zone} t1`, `lost scout@${zone} t3`]);
    assert.equal(p.observe().lastSeen[0]!.lost, true);
    assert.equal(p.observe().lastSeen[0]!.turn, 1, 'last seen keeps its turn');
    // A combat reveal at an exact tile is remembered with its coordinates.
    p.recordSighting({
      player: 1,
      coord: { col: 4, row: 4 },
      unitType: 'infantry',
      turn: 4,
      source: 'combat',
    });
    assert.deepEqual(p.observe().lastSeen[0], {
      player: 1,
      zone: 0,
      unitType: 0,
      turn: 4,
      col: 4,
      row: 4,
      lost: false,
    });
  });

  it('refuses bad sightings and unwatched zone reveals, changing nothing', () => {
    const p = model();
    p.applyTurn(turnUpdate(p, 0));
    assert.throws(() =>
      p.recordSighting({ player: 1, zone: 0, unitType: 'dragon', turn: 1, source: 'zoneReveal' }),
    );
    assert.throws(() =>
      p.recordSighting({ player: 0, zone: 0, unitType: 'scout', turn: 1, source: 'zoneReveal' }),
    );
    const unwatched = [...Array(m.board.zoneCount).keys()].find((z) => !p.watchedZones().has(z))!;
    const watched = [...p.watchedZones()][0]!;
    assert.throws(
      () =>
        p.applyOpponentTurn({
          player: 1,
          turn: 1,
          zoneReveals: [
            { zone: watched, unitType: 'scout' },
            { zone: unwatched, unitType: 'scout' },
          ],
        }),
      InputError,
    );
    assert.deepEqual(p.lastSeen(), []);
  });

  it('checks units against the ruleset', () => {
    assert.throws(() => new PlayerModel({ ruleset: m.ruleset, seat: 0, units: [units[0]!] }), InputError);
    assert.throws(() => new PlayerModel({ ruleset: m.ruleset, seat: 9, units }), InputError);
    const sq = shippedRuleset('tiny-square');
    assert.doesNotThrow(() => new PlayerModel({ ruleset: sq, seat: 1, units }));
  });
});

describe('client/sdk stays browser-safe', () => {
  it('imports no node: modules (directly or through the core files it uses)', () => {
    const files: string[] = [];
    const visit = (f: string) => {
      if (files.includes(f)) return;
      files.push(f);
      const src = readFileSync(f, 'utf8');
      for (const [, rel] of src.matchAll(/from '(\.[^']+)'/g)) visit(join(f, '..', rel!));
    };
    const dir = 'client/sdk';
    for (const f of readdirSync(dir)) if (f.endsWith('.ts')) visit(join(dir, f));
    assert.ok(files.length >= 8);
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      assert.ok(!/from '(node:|fs|path|crypto|http|events|os)/.test(src), `${f} imports a Node-only module`);
      assert.ok(!/\b(require\(|process\.|Buffer\.)/.test(src), `${f} uses a Node-only global`);
    }
  });
});
