/**
 * A 4-player game on tiny-four with real proofs: a real Hardhat node, the real dealer process, Groth16 spawn
 * and turn proofs for every seat. The seats are placed by a scripted planner so that seat 0's units stand in
 * the one zone two opponents (seats 1 and 2) watch and the third (seat 3) does not: seat 0's turn proof must
 * force-reveal them to both at once, and only they record the sightings. Then the demo's audit (root and every
 * served tile against Gen(seed)) and its fog check (every seat's model against the tiles it was served) pass.
 * Also: `npm run demo -- --players N` outside the ruleset's seats fails in one line, exit 2.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { revealFor } from '../../client/bot.ts';
import type { BotAction } from '../../client/bot-player.ts';
import type { TurnPlanner } from '../../client/planner.ts';
import { loadHasher, shippedRuleset } from '../../core/index.ts';
import { checkFog, playDemoGame } from '../../scripts/demo/game.ts';
import { stopAll } from '../../scripts/demo/procs.ts';
import { buildCircuitsAndVerifiers, compileContracts, ROOT } from '../../scripts/demo/setup.ts';
import { liveChain } from '../helpers/live-chain.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-multiplayer-'));
after(async () => {
  await stopAll();
  if (process.env.SHROUD_KEEP_LOGS) console.error(`logs kept in ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
});

const ruleset = shippedRuleset('tiny-four');
/** Zone 0 is the board's top-left 8×8 quarter; zone 3 the bottom-right one. */
const ZONE0 = 0;

/**
 * Spawn positions ([hq, infantry, scout]), each in its seat's start area. Seat 0 stays deep in zone 0. The
 * scouts of seats 1 and 2 stand on their areas' corners nearest zone 0, so each sees into it; seat 3 keeps
 * every unit far enough into zone 3 that it watches zone 3 only.
 */
const SPAWNS = [
  [
    { col: 2, row: 2 },
    { col: 3, row: 3 },
    { col: 4, row: 2 },
  ],
  [
    { col: 13, row: 2 },
    { col: 12, row: 3 },
    { col: 9, row: 6 },
  ],
  [
    { col: 2, row: 13 },
    { col: 3, row: 12 },
    { col: 6, row: 9 },
  ],
  [
    { col: 14, row: 14 },
    { col: 13, row: 13 },
    { col: 12, row: 12 },
  ],
];

/** Places the seat's units as SPAWNS says; on its turns nobody moves, and it reveals what the bot would. */
function scripted(seat: number): TurnPlanner {
  return {
    spawn: async () => SPAWNS[seat]!,
    turn: async (ctx) => {
      const moves = ctx.obs.ownUnits.map(() => null);
      return { kind: 'turn', moves, reveal: revealFor(ctx.obs, ctx.ruleset, moves, `four-${seat}`) };
    },
  };
}

describe('a 4-player game with real proofs (tiny-four)', () => {
  it('forces a reveal to two opponents at once; every seat’s fog matches what it was served; the audit passes', {
    timeout: 300_000,
  }, async () => {
    assert.deepEqual([ruleset.players.min, ruleset.players.max, ruleset.board.zoneCount], [2, 4, 4]);
    // `npm test`'s pretest builds tiny-four's circuits and verifiers: cached then (the game needs their paths).
    const artifacts = await buildCircuitsAndVerifiers('tiny-four', undefined);
    const logDir = path.join(tmp, 'logs');
    mkdirSync(logDir, { recursive: true });
    await compileContracts(logDir);
    const live = await liveChain({ tmp, ruleset: 'tiny-four', dealerKey: `0x02${'37'.repeat(31)}` });
    const { deployment, dealerKey } = live;
    const printed: string[] = [];
    const result = await playDemoGame({
      h: await loadHasher(),
      ruleset,
      artifacts,
      rpcUrl: live.url,
      gameContract: deployment.shroudGame,
      dealerUrl: live.dealerUrl,
      dealerKey,
      turns: 1,
      players: 4,
      planner: scripted,
      outDir: tmp,
      log: () => {},
      print: (l) => printed.push(l),
      viewers: false,
    });
    const out = printed.join('\n');

    // Four spawns, then one turn each: 8 proofs the chain accepted, in seat order.
    assert.equal(result.turns, 8, out);
    const proven = result.actions.flatMap((a: BotAction) =>
      a.kind === 'spawn' || a.kind === 'turn' ? [[a.kind, a.report.seat]] : [],
    );
    assert.deepEqual(proven, [
      ['spawn', 0],
      ['spawn', 1],
      ['spawn', 2],
      ['spawn', 3],
      ['turn', 0],
      ['turn', 1],
      ['turn', 2],
      ['turn', 3],
    ]);

    // The zones each seat watches (its last published mask): zone 0 by seats 0, 1 and 2; not by seat 3.
    const watched = result.bots.map((b) => b.player.model!.watchedZones());
    assert.ok(watched[1]!.has(ZONE0) && watched[2]!.has(ZONE0), 'seats 1 and 2 watch zone 0');
    assert.deepEqual([...watched[0]!], [ZONE0]);
    assert.deepEqual([...watched[3]!], [3]);

    // Seat 0's turn: all three of its units stand in zone 0, watched by two opponents: three forced lanes.
    const turn0 = result.actions.find((a) => a.kind === 'turn' && a.report.seat === 0);
    assert.ok(turn0?.kind === 'turn');
    assert.equal(turn0.report.zoneReveals, 3);
    const seen = (seat: number) =>
      result.bots[seat]!.player.model!.lastSeen()
        .filter((s) => s.player === 0)
        .map((s) => `${ruleset.unitTypes[s.unitType]!.name}@${s.zone}:${s.turn}`)
        .sort();
    const want = ['hq', 'infantry', 'scout'].map((u) => `${u}@${ZONE0}:${turn0.report.turn}`);
    assert.deepEqual(seen(1), want, 'seat 1 saw seat 0’s forced reveals');
    assert.deepEqual(seen(2), want, 'seat 2 saw the same reveals from the same proof');
    assert.deepEqual(seen(3), [], 'seat 3 watches zone 3 only: it keeps nothing of seat 0');

    // Every seat was served tiles, and its model holds exactly those (the demo checked; check again here).
    for (const b of result.bots) assert.ok(b.player.served.length > 0, `seat ${b.seat} was served tiles`);
    const served = result.bots.reduce((n, b) => n + b.player.served.length, 0);
    assert.equal(checkFog(result.bots), served);
    assert.match(out, new RegExp(`^audit: root matches, ${served} served tiles match$`, 'm'));
    assert.match(
      out,
      new RegExp(`^fog: 4 seats' models hold exactly the ${served} tiles served to them`, 'm'),
    );
  });

  it('npm run demo -- --players outside the ruleset’s seats: one line, exit 2', () => {
    for (const [args, msg] of [
      [
        ['--ruleset', 'tiny-four', '--players', '5'],
        /^demo: --players 5: tiny-four seats 2 to 4 players, not 5$/,
      ],
      [['--ruleset', 'tiny', '--players', '3'], /^demo: --players 3: tiny seats exactly 2 players, not 3$/],
      [['--players', '7'], /^demo: --players must be an integer in 2\.\.6, got "7"$/],
    ] as const) {
      const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'demo.ts'), ...args], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr.trim(), msg);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });
});
