/**
 * The audit tooling (scripts/audit/*.ts, scripts/audit.ts) against the in-process chain: an honest game audits
 * clean; a dealer who served a tile differing from Gen(seed) is caught and a fraud proof slashes its bond.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { auditRoot } from '../../client/sdk/audit.ts';
import { GameChain } from '../../client/sdk/chain.ts';
import { commitMap, generateMap, leafIndex, merklePath, type Tile } from '../../core/index.ts';
import {
  AuditError,
  formatReport,
  parseServedTiles,
  runAudit,
  type ServedTileRecord,
} from '../../scripts/audit/audit.ts';
import { foundFraud, parseAuditArgs, resolveGameAddress } from '../../scripts/audit.ts';
import {
  BOND,
  commitAll,
  createGame,
  type Dealt,
  DURATIONS,
  dealMap,
  dealtZoneRoots,
  type Env,
  endByForfeit,
  increaseTime,
  Phase,
  phaseOf,
  postRoot,
  publishSecrets,
  revealAll,
  type Scenario,
  setup,
} from '../contracts/helpers.ts';

describe('audit CLI logic against the in-process chain', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    env = await setup();
    G = env.game;
  });

  /** Ceremony, root, end by forfeit, secrets published: the game is in its audit window. */
  async function auditedGame(deal?: (s: Scenario) => { d: Dealt; tiles: Tile[] }) {
    const s = await createGame(env, { kind: 0, width: 16, height: 12 });
    await commitAll(env, s);
    await revealAll(env, s);
    const { d, tiles } = deal
      ? deal(s)
      : (() => {
          const d = dealMap(env, s);
          return { d, tiles: generateMap(env.h, s.board, d.seed) };
        })();
    await postRoot(env, s, d);
    await endByForfeit(env, s);
    await publishSecrets(env, s, d);
    return { s, d, tiles };
  }

  /** What the dealer served for (col,row), as the SDK stores verified tiles (JSON round trip). */
  function served(s: Scenario, d: Dealt, tiles: Tile[], col: number, row: number): unknown {
    const leaf = leafIndex(s.board, { col, row });
    const t = tiles[row * s.board.width + col]!;
    return JSON.parse(
      JSON.stringify(
        { leaf, col, row, ...t, salt: d.salts[leaf]!, path: merklePath(d.tree, leaf) },
        (_k, v) => (typeof v === 'bigint' ? v.toString() : v),
      ),
    );
  }

  it('an honest game: the recomputed root matches and every served tile checks out', async () => {
    const { s, d, tiles } = await auditedGame();
    const file = parseServedTiles([
      served(s, d, tiles, 0, 0),
      served(s, d, tiles, 9, 4),
      served(s, d, tiles, 15, 11),
    ]);
    const r = await runAudit({ game: G, gameId: s.id, h: env.h, tiles: file });
    assert.equal(r.phase, 'Audit');
    assert.equal(r.rootMatches, true);
    assert.equal(r.seedMatches, true);
    assert.equal(r.computedRoot, d.tree.root);
    assert.equal(r.tiles!.checked, 3);
    assert.deepEqual(r.tiles!.mismatches, []);
    assert.deepEqual(r.tiles!.unverifiable, []);
    assert.equal(r.fraud, null);
    assert.equal(foundFraud(r), false);
    // A tile not under the posted root is reported as unverifiable, not as the dealer's fraud.
    const forged = { ...file[1]!, terrain: (file[1]!.terrain + 1) % 7 };
    const r2 = await runAudit({ game: G, gameId: s.id, h: env.h, tiles: [forged] });
    assert.equal(r2.tiles!.mismatches.length, 0);
    assert.equal(r2.tiles!.unverifiable.length, 1);
  });

  it('a lying dealer: the root mismatches, the altered tile is found, the fraud proof slashes the bond', async () => {
    const target = { col: 9, row: 4 };
    const { s, d, tiles } = await auditedGame((sc) => {
      const seed = env.h.hash(sc.shares);
      const tiles = generateMap(env.h, sc.board, seed);
      const k = target.row * sc.board.width + target.col;
      tiles[k] = { ...tiles[k]!, terrain: ((tiles[k]!.terrain + 1) % 7) as Tile['terrain'] };
      const m = commitMap(env.h, sc.board, tiles, 4242n);
      return { d: { masterSecret: 4242n, seed, tree: m.tree, salts: m.salts }, tiles };
    });
    const file: ServedTileRecord[] = parseServedTiles([
      served(s, d, tiles, 0, 0),
      served(s, d, tiles, target.col, target.row),
    ]);
    // Report only (no key): nothing is sent.
    const dry = await runAudit({ game: G, gameId: s.id, h: env.h, tiles: file });
    assert.equal(dry.rootMatches, false);
    assert.equal(dry.tiles!.mismatches.length, 1);
    assert.equal(dry.tiles!.mismatches[0]!.tile.leaf, leafIndex(s.board, target));
    assert.deepEqual(dry.tiles!.mismatches[0]!.problems, ['gen']);
    assert.equal(dry.fraud, null);
    assert.equal(await phaseOf(env, s.id), Phase.Audit);
    assert.equal(foundFraud(dry), true);

    const prover = s.players[1]!;
    const before = await Promise.all(
      s.players.map((p) => G.getFunction('credit')(p.address) as Promise<bigint>),
    );
    const r = await runAudit({
      game: G,
      gameId: s.id,
      h: env.h,
      tiles: file,
      fraudGame: G.connect(prover) as Contract,
    });
    assert.ok(r.fraud);
    assert.equal(r.fraud.slashed, BOND);
    assert.equal(r.fraud.phase, 'Settled');
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    const after = await Promise.all(
      s.players.map((p) => G.getFunction('credit')(p.address) as Promise<bigint>),
    );
    assert.equal(after[0]! - before[0]! + after[1]! - before[1]!, BOND, 'the bond went to the players');
  });

  it('P3: a lie at a tile nobody was served is still proven: the audit challenges its zone, the dealer cannot answer, settlement slashes', async () => {
    const target = { col: 12, row: 10 };
    const lying = (sc: Scenario) => {
      const seed = env.h.hash(sc.shares);
      const tiles = generateMap(env.h, sc.board, seed);
      const k = target.row * sc.board.width + target.col;
      tiles[k] = { ...tiles[k]!, rivers: tiles[k]!.rivers ^ 2 };
      const m = commitMap(env.h, sc.board, tiles, 4242n);
      return { d: { masterSecret: 4242n, seed, tree: m.tree, salts: m.salts }, tiles };
    };
    const { s } = await auditedGame(lying);
    const zone = Math.floor(leafIndex(s.board, target) / 64);
    const dry = await runAudit({ game: G, gameId: s.id, h: env.h });
    assert.deepEqual([dry.finding?.kind, dry.finding?.kind === 'zone' && dry.finding.zone], ['zone', zone]);
    assert.equal(dry.fraud, null, 'no key: nothing sent');
    assert.match(formatReport(dry), new RegExp(`zone ${zone}: differs from Gen\\(seed\\)`));
    const r = await runAudit({
      game: G,
      gameId: s.id,
      h: env.h,
      fraudGame: G.connect(s.players[1]!) as Contract,
    });
    assert.ok(r.fraud);
    assert.equal(r.fraud.phase, 'Audit', 'challenged: the dealer must answer');
    assert.equal((await G.getFunction('getAudit')(s.id)).open, 1n);
    // The SDK's audit (players' clients, the page's session key) finds the same zone, and challenges it once.
    const chain = new GameChain(String(G.target), s.players[0]!);
    const found = await auditRoot(chain, env.h, s.board, s.id);
    assert.deepEqual([found?.kind, found?.kind === 'zone' && found.zone], ['zone', zone]);
    assert.deepEqual(await auditRoot(chain, env.h, s.board, s.id), { kind: 'challenged' });
    await increaseTime(env, DURATIONS.auditSeconds + DURATIONS.disputeSeconds + 1);
    const before = await G.getFunction('credit')(s.players[0]!.address);
    await (await G.connect(s.players[0]!).getFunction('settle')(s.id)).wait();
    assert.ok(
      (await G.getFunction('credit')(s.players[0]!.address)) > before,
      'the bond was slashed to the seats',
    );
  });

  it('P3: zone roots that do not build the posted root are proven at once; an honest game is honest', async () => {
    const honest = await auditedGame();
    const chain = new GameChain(String(G.target), honest.s.players[0]!);
    assert.deepEqual(await auditRoot(chain, env.h, honest.s.board, honest.s.id), { kind: 'honest' });
    assert.equal((await runAudit({ game: G, gameId: honest.s.id, h: env.h })).finding?.kind, 'honest');
    const s = await createGame(env, { kind: 0, width: 16, height: 12 });
    await commitAll(env, s);
    await revealAll(env, s);
    const d = dealMap(env, s);
    await postRoot(env, s, d, dealtZoneRoots(s, d).reverse());
    await endByForfeit(env, s);
    await publishSecrets(env, s, d);
    const r = await runAudit({
      game: G,
      gameId: s.id,
      h: env.h,
      fraudGame: G.connect(s.players[1]!) as Contract,
    });
    assert.equal(r.finding?.kind, 'zone-roots');
    assert.equal(r.fraud?.slashed, BOND);
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
  });

  it('a wrong salt is reported (and provable)', async () => {
    const { s, d, tiles } = await auditedGame((sc) => {
      const seed = env.h.hash(sc.shares);
      const tiles = generateMap(env.h, sc.board, seed);
      // Salts from another master secret than the one published.
      const m = commitMap(env.h, sc.board, tiles, 999n);
      return { d: { masterSecret: 1000n, seed, tree: m.tree, salts: m.salts }, tiles };
    });
    const r = await runAudit({
      game: G,
      gameId: s.id,
      h: env.h,
      tiles: parseServedTiles([served(s, d, tiles, 3, 2)]),
    });
    assert.equal(r.rootMatches, false);
    assert.deepEqual(r.tiles!.mismatches[0]!.problems, ['salt']);
    assert.equal(r.tiles!.mismatches[0]!.provable, true);
  });

  it('refuses games without published secrets and malformed tile files', async () => {
    const s = await createGame(env, {});
    await assert.rejects(runAudit({ game: G, gameId: s.id, h: env.h }), AuditError);
    await assert.rejects(runAudit({ game: G, gameId: 424242n, h: env.h }), AuditError);
    assert.throws(() => parseServedTiles({}), AuditError);
    assert.throws(() => parseServedTiles([{ leaf: 'x', path: [] }]), AuditError);
  });

  it('CLI arguments and deployment resolution', async () => {
    const o = parseAuditArgs([
      '--game',
      '0x2a',
      '--deployment',
      'd.json',
      '--tiles',
      't.json',
      '--fraud-key',
      '0x01',
    ]);
    assert.equal(o.gameId, 42n);
    assert.equal(o.rpc, 'http://127.0.0.1:8545');
    assert.equal(o.tiles, 't.json');
    assert.throws(() => parseAuditArgs([]), /--game/);
    assert.throws(
      () => parseAuditArgs(['--game', '1', '--contract', '0x1', '--deployment', 'x']),
      /not both/,
    );
    const dir = await mkdtemp(join(tmpdir(), 'shroud-audit-'));
    try {
      const f = join(dir, '31337.json');
      await writeFile(f, JSON.stringify({ chainId: 31337, shroudGame: await G.getAddress() }));
      assert.equal(await resolveGameAddress({ ...o, deployment: f }, 31337), await G.getAddress());
      await assert.rejects(resolveGameAddress({ ...o, deployment: f }, 1), /chain 31337/);
      assert.equal(await resolveGameAddress({ ...o, contract: '0xabc' }, 1), '0xabc');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
