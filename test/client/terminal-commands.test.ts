/**
 * The terminal player's commands: parsing (good lines, and bad ones answered in one line), the legality
 * checks against the seat's observation, and the planner driven by a scripted terminal, chain-free.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SpawnContext, TurnContext } from '../../client/planner.ts';
import { PlayerModel } from '../../client/sdk/player.ts';
import { parseCommand } from '../../client/terminal/commands.ts';
import type { TerminalIO } from '../../client/terminal/io.ts';
import { checkMove, checkSpawn, pickAttack } from '../../client/terminal/options.ts';
import { QuitRequested, TerminalPlanner } from '../../client/terminal/planner.ts';
import { leafCoord } from '../../core/geometry.ts';
import { shippedRuleset } from '../../core/index.ts';

const tiny = shippedRuleset('tiny');

describe('command parsing', () => {
  const good: [string, unknown][] = [
    ['move 1 5 6', { kind: 'move', slot: 1, to: { col: 5, row: 6 } }],
    ['  MOVE 2 5,6 ', { kind: 'move', slot: 2, to: { col: 5, row: 6 } }],
    ['move 2 (12, 3)', { kind: 'move', slot: 2, to: { col: 12, row: 3 } }],
    ['attack 3', { kind: 'attack', zone: 3 }],
    ['attack 0 9 5', { kind: 'attack', zone: 0, target: { col: 9, row: 5 } }],
    ['spawn 0 3,4', { kind: 'spawn', slot: 0, at: { col: 3, row: 4 } }],
    ['end', { kind: 'end' }],
    ['Pass', { kind: 'pass' }],
    ['map', { kind: 'map' }],
    ['help', { kind: 'help' }],
    ['quit', { kind: 'quit' }],
  ];
  for (const [line, command] of good)
    it(`parses "${line}"`, () => assert.deepEqual(parseCommand(line), { ok: true, command }));

  it('ignores blank lines', () => {
    assert.equal(parseCommand(''), null);
    assert.equal(parseCommand('   \t'), null);
  });

  const bad: [string, RegExp][] = [
    ['fly 1 2 3', /^unknown command "fly" \(commands: move, attack, spawn, end, pass, map, help, quit; help/],
    ['move', /^usage: move <unit> <col> <row> \(unit is a slot number\)$/],
    ['move x 1 2', /unit is a slot number/],
    ['move 1 2', /^usage: move <unit> <col> <row> \(col and row are whole numbers\)$/],
    ['move 1 -2 3', /col and row are whole numbers/],
    ['move 1 2 3 4', /col and row are whole numbers/],
    ['move 1 2.5 3', /col and row are whole numbers/],
    ['attack', /^usage: attack <zone> \[<col> <row>\] \(zone is a number\)$/],
    ['attack z', /zone is a number/],
    ['attack 1 2', /col and row are whole numbers/],
    ['spawn 0', /^usage: spawn <unit> <col> <row>/],
    ['end now', /^end takes no argument$/],
  ];
  for (const [line, error] of bad)
    it(`refuses "${line}" in one line`, () => {
      const p = parseCommand(line);
      assert.ok(p && !p.ok, `${line} parsed`);
      assert.match(p.error, error);
      assert.doesNotMatch(p.error, /\n/);
    });
});

/** Seat 0 of tiny after a spawn turn: hq, infantry, scout; optionally an enemy sighted in zone 0. */
function observed(sighted = false) {
  const m = new PlayerModel({
    ruleset: tiny,
    seat: 0,
    units: [
      { type: 2, hp: 40, col: 3, row: 4 },
      { type: 0, hp: 10, col: 4, row: 5 },
      { type: 1, hp: 6, col: 4, row: 6 },
      null,
    ],
  });
  m.applyTurn({ turn: 0, visibleTiles: m.visionOf(), tiles: [] });
  if (sighted) m.recordSighting({ player: 1, zone: 0, unitType: 'infantry', turn: 0, source: 'zoneReveal' });
  return m.observe();
}

describe('legality checks', () => {
  const obs = observed(true);
  it('moves: within the move mask only, structures never, empty slots never', () => {
    assert.equal(checkMove(obs, tiny, 1, { col: 5, row: 5 }), null);
    assert.equal(checkMove(obs, tiny, 1, { col: 4, row: 5 }), null, 'staying is fine');
    assert.match(
      checkMove(obs, tiny, 1, { col: 9, row: 5 })!,
      /^9,5 is 5 steps from unit 1, its speed is 2$/,
    );
    assert.match(checkMove(obs, tiny, 0, { col: 3, row: 3 })!, /structure/);
    assert.match(checkMove(obs, tiny, 3, { col: 3, row: 3 })!, /^no unit in slot 3$/);
    assert.match(checkMove(obs, tiny, 7, { col: 3, row: 3 })!, /^no unit in slot 7$/);
    assert.match(checkMove(obs, tiny, 1, { col: 40, row: 3 })!, /off the 16×12 board/);
  });

  it('attacks: a sighted zone, a visible tile in range, by a unit that has not attacked', () => {
    assert.deepEqual(pickAttack(obs, tiny, new Set(), 0, { col: 5, row: 5 }), {
      slot: 1,
      target: { col: 5, row: 5 },
    });
    const any = pickAttack(obs, tiny, new Set(), 0);
    assert.ok('slot' in any);
    assert.match(
      (pickAttack(obs, tiny, new Set(), 1) as { error: string }).error,
      /no enemy sighted in zone 1/,
    );
    assert.match(
      (pickAttack(obs, tiny, new Set(), 0, { col: 9, row: 5 }) as { error: string }).error,
      /9,5 is not a visible tile of zone 0 in range/,
    );
    assert.match(
      (pickAttack(obs, tiny, new Set([0, 1, 2]), 0) as { error: string }).error,
      /no tile of zone 0 is visible and in range/,
    );
    assert.match((pickAttack(observed(), tiny, new Set(), 0) as { error: string }).error, /no enemy sighted/);
  });

  it('spawn: inside the start area, distinct tiles', () => {
    const area = tiny.startAreas[0]!;
    const at = [
      { col: 2, row: 3 },
      { col: 3, row: 3 },
      { col: 4, row: 3 },
    ];
    assert.equal(checkSpawn(area, at, 0, { col: 5, row: 8 }), null);
    assert.match(
      checkSpawn(area, at, 0, { col: 9, row: 8 })!,
      /outside your start area \(cols 2-5, rows 3-8\)/,
    );
    assert.match(checkSpawn(area, at, 0, { col: 3, row: 3 })!, /unit 1 is placed on 3,3 already/);
    assert.match(checkSpawn(area, at, 3, { col: 3, row: 5 })!, /no unit 3 to place \(units 0\.\.2\)/);
  });
});

/** A terminal fed from a list of lines; everything it printed, prompts included. */
function scripted(lines: string[]): TerminalIO & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    async ask(prompt) {
      out.push(prompt);
      return lines.shift() ?? null;
    },
    print(text) {
      out.push(text);
    },
  };
}

describe('terminal planner', () => {
  it('spawn: shows the start area, takes spawn commands, refuses bad ones in one line', async () => {
    const io = scripted(['move 1 2 3', 'spawn 0 9 9', 'spawn 0 5 8', 'end']);
    const area = tiny.startAreas[0]!;
    const ctx: SpawnContext = {
      seat: 0,
      ruleset: tiny,
      area,
      positions: () => [
        { col: 2, row: 3 },
        { col: 3, row: 3 },
        { col: 4, row: 3 },
      ],
    };
    const at = await new TerminalPlanner(io, 's').spawn(ctx);
    assert.deepEqual(at, [
      { col: 5, row: 8 },
      { col: 3, row: 3 },
      { col: 4, row: 3 },
    ]);
    const text = io.out.join('\n');
    assert.match(text, /^ 4 \? \? \?\+\?\+\?\+\?\+\? /m, 'the start area is marked (row 4, cols 2-5)');
    assert.match(text, /^ 3 {2}\? \? 0\+1\+2\+\?\+\? /m, 'the default placement (row 3, odd: offset)');
    assert.match(text, /^error: move is for your turns/m);
    assert.match(text, /^error: 9,9 is outside your start area/m);
    assert.equal(io.out.filter((l) => l === 'seat 0 spawn> ').length, 4);
  });

  it('turn: map and options, a bad command re-prompts, moves then end; reveals within the new vision', async () => {
    const obs = observed(true);
    const ctx: TurnContext = { seat: 0, ruleset: tiny, turn: 2, obs, attacked: new Set() };
    const io = scripted(['bogus', 'move 1 9 5', '', 'move 1 5,5', 'help', 'end']);
    const d = await new TerminalPlanner(io, 's').turn(ctx);
    assert.equal(d.kind, 'turn');
    if (d.kind !== 'turn') return;
    assert.deepEqual(d.moves, [null, { col: 5, row: 5 }, null, null]);
    assert.ok(d.reveal.length > 0 && d.reveal.length <= tiny.maxRevealedTiles);
    const m = new PlayerModel({
      ruleset: tiny,
      seat: 0,
      units: [null, { type: 0, hp: 10, col: 5, row: 5 }, null, null],
    });
    const scoutAndHq = new PlayerModel({
      ruleset: tiny,
      seat: 0,
      units: [{ type: 2, hp: 40, col: 3, row: 4 }, null, { type: 1, hp: 6, col: 4, row: 6 }, null],
    });
    const vision = new Set([...m.visionOf(), ...scoutAndHq.visionOf()]);
    for (const leaf of d.reveal) {
      const c = leafCoord(tiny.board, leaf)!;
      assert.ok(vision.has(c.row * 16 + c.col), `revealed ${c.col},${c.row} outside the new vision`);
    }
    const text = io.out.join('\n');
    assert.match(text, /— turn 2: your move \(seat 0\) —/);
    assert.match(text, /^ {3}0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5$/m, 'the map header');
    assert.match(text, /^ 5 {2}\S.\S.\S.\S.1/m, 'unit 1 on row 5 (hex: odd row offset)');
    assert.match(text, /^error: unknown command "bogus"/m);
    assert.match(text, /^error: 9,5 is 5 steps from unit 1/m);
    assert.match(text, /^unit 1 infantry → 5,5/m);
    assert.match(text, /^ {2}attack <zone>/m, 'help');
    assert.match(text, /^playing turn 2: 1 move/m);
  });

  it('turn: attack returns at once; the draft survives the combat; pass drops it; quit and EOF end the game', async () => {
    const obs = observed(true);
    const ctx: TurnContext = { seat: 0, ruleset: tiny, turn: 2, obs, attacked: new Set() };
    const planner = new TerminalPlanner(scripted([]), 's');
    const io = scripted(['move 1 5 5', 'attack 0 5 5', 'map', 'pass']);
    const p = new TerminalPlanner(io, 's');
    assert.deepEqual(await p.turn(ctx), { kind: 'attack', slot: 1, target: { col: 5, row: 5 } });
    const again = await p.turn({ ...ctx, attacked: new Set([1]) });
    assert.ok(again.kind === 'turn' && again.moves.every((m) => m === null));
    assert.match(
      io.out.join('\n'),
      /unit 1 infantry hp 10\/10 at 4,5 → 5,5 \(planned\)/,
      'the draft is shown again',
    );
    await assert.rejects(planner.turn(ctx), QuitRequested, 'end of input');
    await assert.rejects(new TerminalPlanner(scripted(['quit']), 's').turn(ctx), QuitRequested);
  });
});
