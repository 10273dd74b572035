import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/errors.ts';
import { Fog, type FogSnapshot, FogState, type Sighting } from '../../core/fog.ts';
import { type Coord, makeBoard, tileCoord, tileIndex } from '../../core/geometry.ts';

const board = makeBoard('hex', 4, 3); // 12 tiles, one zone
const wide = makeBoard('square', 20, 9); // 6 zones

function throwsField(fn: () => unknown, field: string, message?: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof InputError, `expected InputError, got ${String(e)}`);
    assert.equal(e.field, field);
    if (message) assert.match(e.message, message);
    return true;
  });
}

const states = (f: FogState): number[] =>
  Array.from({ length: f.board.width * f.board.height }, (_, i) => f.stateAt(tileCoord(f.board, i)));

test('the fog states are the protocol numbers', () => {
  assert.deepEqual(Fog, { UNDISCOVERED: 0, VISIBLE: 1, EXPLORED: 2 });
});

test('a new fog knows nothing', () => {
  const f = new FogState(board);
  assert.equal(f.turn, null);
  assert.deepEqual(states(f), Array(12).fill(Fog.UNDISCOVERED));
  assert.deepEqual(f.lastSeen(), []);
});

test('every transition: seen → VISIBLE, no longer seen → EXPLORED, unseen stays put', () => {
  const f = new FogState(board);
  // Tiles 0–3 seen on turn 1; then 2–5 on turn 2, so 0–1 become explored.
  assert.deepEqual(f.applyVision(new Set([3, 1, 0, 2]), 1), {
    turn: 1,
    becameVisible: [0, 1, 2, 3],
    discovered: [0, 1, 2, 3],
    becameExplored: [],
  });
  assert.deepEqual(f.applyVision([2, 3, 4, 5], 2), {
    turn: 2,
    becameVisible: [4, 5],
    discovered: [4, 5],
    becameExplored: [0, 1],
  });
  assert.deepEqual(states(f), [2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
  // Now one tile of each state is in the set and one of each is not:
  //   UNDISCOVERED 6 in → VISIBLE, 7 out → stays; VISIBLE 2 in → stays, 4 out → EXPLORED;
  //   EXPLORED 0 in → VISIBLE (not "discovered"), 1 out → stays EXPLORED.
  assert.deepEqual(f.applyVision([6, 2, 0, 3, 5], 3), {
    turn: 3,
    becameVisible: [0, 6],
    discovered: [6],
    becameExplored: [4],
  });
  assert.deepEqual(states(f), [1, 2, 1, 1, 2, 1, 1, 0, 0, 0, 0, 0]);
  assert.equal(f.turn, 3);
  // Seeing nothing turns everything visible into explored; nothing goes back to undiscovered.
  assert.deepEqual(f.applyVision([], 4), {
    turn: 4,
    becameVisible: [],
    discovered: [],
    becameExplored: [0, 2, 3, 5, 6],
  });
  assert.deepEqual(states(f), [2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0]);
  assert.deepEqual(f.applyVision([], 4), { turn: 4, becameVisible: [], discovered: [], becameExplored: [] });
});

test('random sequences follow a reference model, and explored tiles never become undiscovered', () => {
  let seed = 42;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const f = new FogState(wide);
  const n = wide.width * wide.height;
  const model: number[] = Array(n).fill(0);
  for (let turn = 0; turn < 60; turn++) {
    const p = rand();
    const seen = new Set<number>();
    for (let i = 0; i < n; i++) if (rand() < p * 0.3) seen.add(i);
    const before = states(f);
    for (let i = 0; i < n; i++) model[i] = seen.has(i) ? 1 : model[i] === 0 ? 0 : 2;
    const change = f.applyVision(seen, turn);
    assert.deepEqual(states(f), model, `turn ${turn}`);
    const idx = [...model.keys()];
    assert.deepEqual(
      change.becameVisible,
      idx.filter((i) => model[i] === 1 && before[i] !== 1),
    );
    assert.deepEqual(
      change.discovered,
      idx.filter((i) => model[i] === 1 && before[i] === 0),
    );
    assert.deepEqual(
      change.becameExplored,
      idx.filter((i) => model[i] === 2 && before[i] === 1),
    );
    const after = states(f);
    for (let i = 0; i < n; i++) if (before[i] !== 0) assert.notEqual(after[i], Fog.UNDISCOVERED, `tile ${i}`);
  }
});

test('applyVision refuses bad input without changing anything', () => {
  const f = new FogState(board);
  f.applyVision([1], 5);
  const before = f.snapshot();
  for (const bad of [-1, 12, 1.5, Number.NaN]) throwsField(() => f.applyVision([0, bad], 6), 'visible');
  throwsField(() => f.applyVision([0], -1), 'turn');
  throwsField(() => f.applyVision([0], 6.5), 'turn');
  throwsField(() => f.applyVision([0], 4), 'turn', /before the last applied turn 5/);
  assert.deepEqual(f.snapshot(), before);
  assert.doesNotThrow(() => f.applyVision([0], 5)); // the same turn may be applied again
});

test('only visible tiles can be targeted', () => {
  const f = new FogState(board);
  f.applyVision([0, 1], 1);
  f.applyVision([1], 2); // 0 explored, 1 visible, 2 undiscovered
  const c = (i: number): Coord => tileCoord(board, i);
  assert.equal(f.canTarget(c(1)), true);
  assert.equal(f.canTarget(c(0)), false);
  assert.equal(f.canTarget(c(2)), false);
  assert.doesNotThrow(() => f.assertTargetable(c(1)));
  throwsField(() => f.assertTargetable(c(0)), 'target', /explored but not visible/);
  throwsField(() => f.assertTargetable(c(2)), 'target', /never seen/);
  throwsField(() => f.assertTargetable(c(2), 'attack.target'), 'attack.target');
  throwsField(() => f.canTarget({ col: 4, row: 0 }), 'target');
  throwsField(() => f.assertTargetable({ col: 0, row: -1 }, 'attack.target'), 'attack.target');
  throwsField(() => f.stateAt({ col: 0.5, row: 0 }), 'coord');
});

const sighting = (over: Partial<Sighting> = {}): Sighting => ({
  player: 1,
  coord: { col: 3, row: 2 },
  unitType: 'scout',
  turn: 4,
  source: 'combat',
  ...over,
});

test('sightings keep the latest turn per enemy, unit type and place', () => {
  const f = new FogState(wide);
  assert.equal(f.recordSighting(sighting()), true);
  assert.equal(f.recordSighting(sighting({ turn: 2, source: 'zoneReveal' })), false, 'older news is ignored');
  assert.deepEqual(f.lastSeen(), [sighting()]);
  assert.equal(f.recordSighting(sighting({ turn: 7 })), true);
  assert.equal(f.recordSighting(sighting({ turn: 7, source: 'zoneReveal' })), true, 'same turn replaces');
  assert.deepEqual(f.lastSeen(), [sighting({ turn: 7, source: 'zoneReveal' })]);
  // Different player, unit type, tile, or a zone-only sighting: separate memories.
  f.recordSighting(sighting({ player: 2, turn: 5 }));
  f.recordSighting(sighting({ unitType: 'tank', turn: 1 }));
  f.recordSighting(sighting({ coord: { col: 4, row: 2 }, turn: 6 }));
  f.recordSighting({ player: 1, zone: 2, unitType: 'scout', turn: 6, source: 'zoneReveal' });
  const seen = f.lastSeen();
  assert.equal(seen.length, 5);
  assert.deepEqual(
    seen.map((s) => s.turn),
    [7, 6, 6, 5, 1],
    'newest first',
  );
  assert.deepEqual(seen[1], {
    player: 1,
    coord: { col: 4, row: 2 },
    unitType: 'scout',
    turn: 6,
    source: 'combat',
  });
  assert.deepEqual(seen[2], { player: 1, zone: 2, unitType: 'scout', turn: 6, source: 'zoneReveal' });
  // Callers get copies: editing them or the input changes nothing inside.
  seen[0]!.coord!.col = 0;
  const input = sighting({ player: 3 });
  f.recordSighting(input);
  input.coord!.row = 0;
  assert.deepEqual(f.lastSeen()[0]!.coord, { col: 3, row: 2 });
  assert.equal(f.lastSeen().find((s) => s.player === 3)!.coord!.row, 2);
});

test('recordSighting refuses malformed sightings, naming the field', () => {
  const f = new FogState(wide);
  throwsField(() => f.recordSighting(sighting({ player: -1 })), 'sighting.player');
  throwsField(() => f.recordSighting(sighting({ turn: 1.5 })), 'sighting.turn');
  throwsField(() => f.recordSighting(sighting({ unitType: '' })), 'sighting.unitType');
  throwsField(() => f.recordSighting(sighting({ source: 'rumour' as 'combat' })), 'sighting.source');
  throwsField(() => f.recordSighting(sighting({ coord: undefined })), 'sighting', /zone or a coord/);
  throwsField(() => f.recordSighting(sighting({ coord: { col: 20, row: 0 } })), 'sighting.coord');
  throwsField(() => f.recordSighting(sighting({ coord: undefined, zone: 6 })), 'sighting.zone');
  throwsField(() => f.recordSighting(sighting({ coord: undefined, zone: -1 })), 'sighting.zone');
  // (3,2) lies in zone 0, not zone 1.
  throwsField(() => f.recordSighting(sighting({ zone: 1 })), 'sighting.zone', /does not contain/);
  assert.equal(f.recordSighting(sighting({ zone: 0 })), true);
  assert.equal(f.lastSeen().length, 1);
});

test('snapshot is plain data and round-trips through JSON', () => {
  const f = new FogState(wide);
  f.applyVision([0, 1, 2, 30], 1);
  f.applyVision([2, 3, 40], 3);
  f.recordSighting(sighting());
  f.recordSighting({ player: 2, zone: 5, unitType: 'tank', turn: 3, source: 'zoneReveal' });
  const snap = f.snapshot();
  assert.equal(snap.turn, 3);
  assert.equal(snap.tiles.length, 180);
  assert.equal(snap.tiles[0], Fog.EXPLORED);
  assert.equal(snap.tiles[40], Fog.VISIBLE);
  const back = FogState.fromSnapshot(wide, JSON.parse(JSON.stringify(snap)) as FogSnapshot);
  assert.deepEqual(back.snapshot(), snap);
  // The restored state behaves like the original.
  assert.deepEqual(back.applyVision([3], 4), f.applyVision([3], 4));
  // Snapshots are copies.
  snap.tiles[5] = Fog.VISIBLE;
  snap.sightings[0]!.turn = 99;
  assert.equal(f.stateAt(tileCoord(wide, 5)), Fog.UNDISCOVERED);
  assert.notEqual(f.lastSeen()[0]!.turn, 99);
});

test('clone is independent of the original', () => {
  const f = new FogState(board);
  f.applyVision([0], 1);
  const g = f.clone();
  g.applyVision([1], 2);
  g.recordSighting({ player: 0, zone: 0, unitType: 'x', turn: 2, source: 'zoneReveal' });
  assert.deepEqual(states(f), [1, ...Array(11).fill(0)]);
  assert.equal(f.turn, 1);
  assert.deepEqual(f.lastSeen(), []);
  assert.deepEqual(states(g), [2, 1, ...Array(10).fill(0)]);
});

test('fromSnapshot refuses snapshots that do not fit, naming the field', () => {
  const good = (): FogSnapshot => {
    const f = new FogState(board);
    f.applyVision([0, 1], 1);
    f.recordSighting({ player: 1, zone: 0, unitType: 'scout', turn: 1, source: 'zoneReveal' });
    return f.snapshot();
  };
  assert.doesNotThrow(() => FogState.fromSnapshot(board, good()));
  throwsField(() => FogState.fromSnapshot(board, null as unknown as FogSnapshot), 'snapshot');
  throwsField(() => FogState.fromSnapshot(board, { ...good(), width: 5 }), 'snapshot.width');
  throwsField(() => FogState.fromSnapshot(board, { ...good(), height: 2 }), 'snapshot.height');
  throwsField(() => FogState.fromSnapshot(board, { ...good(), turn: -2 }), 'snapshot.turn');
  throwsField(() => FogState.fromSnapshot(board, { ...good(), turn: null }), 'snapshot.turn');
  throwsField(() => FogState.fromSnapshot(board, { ...good(), tiles: [0, 1] }), 'snapshot.tiles');
  const badTile = good();
  badTile.tiles[5] = 3;
  throwsField(() => FogState.fromSnapshot(board, badTile), 'snapshot.tiles.5');
  const badSighting = good();
  badSighting.sightings[0]!.player = -1;
  throwsField(() => FogState.fromSnapshot(board, badSighting), 'snapshot.sightings.0.player');
  const dup = good();
  dup.sightings.push({ ...dup.sightings[0]! });
  throwsField(() => FogState.fromSnapshot(board, dup), 'snapshot.sightings.1');
  throwsField(
    () => FogState.fromSnapshot(board, { ...good(), sightings: undefined as unknown as Sighting[] }),
    'snapshot.sightings',
  );
});

test('fog works with indices from the geometry helpers', () => {
  const f = new FogState(wide);
  const c = { col: 13, row: 6 };
  f.applyVision([tileIndex(wide, c)], 0);
  assert.equal(f.stateAt(c), Fog.VISIBLE);
  assert.equal(f.canTarget(c), true);
  assert.equal(f.canTarget({ col: 6, row: 8 }), false); // same index digits, other tile
});
