import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import {
  buildTree,
  commitMap,
  FIELD_MODULUS,
  generateMap,
  leafCoord,
  leafHash,
  leafIndex,
  merklePath,
  type Tile,
  tileSalt,
  treeLeaves,
} from '../../core/index.ts';
import {
  aliasFields,
  as,
  BOND,
  commitAll,
  createGame,
  type Dealt,
  DURATIONS,
  dealMap,
  type Env,
  endByForfeit,
  expectRevert,
  increaseTime,
  Phase,
  phaseOf,
  postRoot,
  revealAll,
  type Scenario,
  setup,
} from './helpers.ts';

describe('ShroudGame end, audit, fraud proofs and liveness', () => {
  let env: Env;
  let G: Contract;
  before(async () => {
    env = await setup();
    G = env.game;
  });

  /** A game through the ceremony with the given dealt map posted, then ended. */
  async function playedGame(opts: Parameters<typeof createGame>[1], deal?: (s: Scenario) => Dealt) {
    const s = await createGame(env, opts);
    await commitAll(env, s);
    await revealAll(env, s);
    const d = deal ? deal(s) : dealMap(env, s);
    await postRoot(env, s, d);
    await endByForfeit(env, s);
    return { s, d };
  }

  /** The dealer's publishSecrets call. */
  const publishAs =
    (who = env.dealer) =>
    (s: Scenario, _d: Dealt, masterSecret: bigint, shares: readonly unknown[]) =>
      as(env, who).getFunction('publishSecrets')(s.id, masterSecret, shares);
  const publish = (s: Scenario, d: Dealt) => publishAs()(s, d, d.masterSecret, s.shares);

  /** The served tile at `c` of the dealt map, as the dealer would send it. */
  function served(s: Scenario, d: Dealt, tiles: Tile[], col: number, row: number) {
    const i = leafIndex(s.board, { col, row });
    const t = tiles[row * s.board.width + col]!;
    return {
      i,
      fields: [t.terrain, t.feature, t.resource, t.rivers, d.salts[i]!],
      path: merklePath(d.tree, i),
    };
  }

  it('forfeits end the game; secrets are checked; the seed is computed on-chain', async () => {
    const { s, d } = await playedGame({});
    assert.equal(await phaseOf(env, s.id), Phase.Secrets);
    const pub = publishAs();
    await expectRevert(pub(s, d, d.masterSecret + 1n, s.shares), G, 'MasterSecretMismatch');
    await expectRevert(pub(s, d, FIELD_MODULUS, s.shares), G, 'NotInField');
    await expectRevert(pub(s, d, d.masterSecret, [s.shares[0], s.shares[1]! + 1n]), G, 'ShareMismatch');
    await expectRevert(pub(s, d, d.masterSecret, [s.shares[0], FIELD_MODULUS]), G, 'NotInField');
    await expectRevert(pub(s, d, d.masterSecret, [s.shares[0]]), G, 'WrongShareCount');
    await expectRevert(publishAs(env.other)(s, d, d.masterSecret, s.shares), G, 'NotDealer');
    await (await publish(s, d)).wait();
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Audit);
    assert.equal(g[8], d.seed, 'on-chain seed = Poseidon(r_1..r_n)');
    await expectRevert(publish(s, d), G, 'WrongPhase');
  });

  it('fraud proof on an honest tile fails; bad paths, lengths, indices and field values are rejected', async () => {
    const { s, d } = await playedGame({ kind: 1, width: 16, height: 12 });
    const tiles = generateMap(env.h, s.board, d.seed);
    const t = served(s, d, tiles, 5, 9);
    const prove = (i: number | bigint, f: (number | bigint)[], p: bigint[]) =>
      as(env, s.players[0]!).getFunction('proveFraud')(s.id, i, f, p);
    await expectRevert(prove(t.i, t.fields, t.path), G, 'WrongPhase'); // before the secrets
    await (await publish(s, d)).wait();
    await expectRevert(prove(t.i, t.fields, t.path), G, 'NoFraud');
    const badPath = t.path.slice();
    badPath[3] = badPath[3]! + 1n;
    await expectRevert(prove(t.i, t.fields, badPath), G, 'InvalidPath');
    await expectRevert(prove(t.i ^ 1, t.fields, t.path), G, 'InvalidPath');
    const lie = t.fields.slice();
    lie[0] = 6;
    await expectRevert(prove(t.i, lie, t.path), G, 'InvalidPath');
    await expectRevert(prove(t.i, t.fields, t.path.slice(1)), G, 'BadPathLength');
    await expectRevert(prove(treeLeaves(s.board.depth), t.fields, t.path), G, 'BadLeafIndex');
    await expectRevert(prove(t.i, [...t.fields.slice(0, 4), FIELD_MODULUS], t.path), G, 'NotInField');
    // The same tile word (and leaf) from non-byte fields: not a tile, refused before any fraud is judged.
    await expectRevert(
      prove(t.i, [...aliasFields(t.fields.slice(0, 4)), t.fields[4]!], t.path),
      G,
      'NotATile',
    );
    const pathBig = t.path.slice();
    pathBig[0] = FIELD_MODULUS;
    await expectRevert(prove(t.i, t.fields, pathBig), G, 'NotInField');
    // Audit window over: settle returns the bond; no more fraud proofs.
    await expectRevert(as(env, env.other).getFunction('settle')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.auditSeconds + 1);
    await expectRevert(prove(t.i, t.fields, t.path), G, 'DeadlinePassed');
    const before = (await G.getFunction('credit')(env.dealer.address)) as bigint;
    await (await as(env, env.other).getFunction('settle')(s.id)).wait();
    assert.equal((await G.getFunction('credit')(env.dealer.address)) - before, BOND);
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    await expectRevert(as(env, env.other).getFunction('settle')(s.id), G, 'WrongPhase');
  });

  /** Credits of the scenario's players. */
  const credits = (s: Scenario) =>
    Promise.all(s.players.map((p) => G.getFunction('credit')(p.address) as Promise<bigint>));

  async function expectSlashed(s: Scenario, before: bigint[]) {
    const after = await credits(s);
    const gained = after.reduce((a, c, i) => a + c - before[i]!, 0n);
    assert.equal(gained, BOND, 'the whole bond goes to the players');
    assert.equal((await G.getFunction('getGame')(s.id))[9], 0n);
  }

  for (const kind of [0, 1]) {
    it(`a tampered tile (${kind === 0 ? 'hex' : 'square'}) is proven fraudulent and slashes the bond`, async () => {
      let tiles: Tile[] = [];
      const target = { col: 9, row: 4 };
      const { s, d } = await playedGame({ kind, width: 16, height: 12 }, (sc) => {
        const seed = env.h.hash(sc.shares);
        tiles = generateMap(env.h, sc.board, seed);
        const k = target.row * sc.board.width + target.col;
        tiles[k] = { ...tiles[k]!, terrain: ((tiles[k]!.terrain + 1) % 7) as Tile['terrain'] };
        const m = commitMap(env.h, sc.board, tiles, 42n);
        return { masterSecret: 42n, seed, tree: m.tree, salts: m.salts };
      });
      await (await publish(s, d)).wait();
      const t = served(s, d, tiles, target.col, target.row);
      const honest = served(s, d, tiles, 0, 0);
      await expectRevert(
        as(env, s.players[1]!).getFunction('proveFraud')(s.id, honest.i, honest.fields, honest.path),
        G,
        'NoFraud',
      );
      const before = await credits(s);
      const rc = await (
        await as(env, s.players[1]!).getFunction('proveFraud')(s.id, t.i, t.fields, t.path)
      ).wait();
      assert.ok(rc.logs.some((l: never) => G.interface.parseLog(l)?.name === 'FraudProven'));
      await expectSlashed(s, before);
      assert.equal(await phaseOf(env, s.id), Phase.Settled);
    });
  }

  it('a wrong salt is fraud, and so is a non-zero leaf in an off-board slot', async () => {
    const w = 12;
    const h = 10; // edge zones have off-board slots
    let tiles: Tile[] = [];
    const { s, d } = await playedGame({ kind: 0, width: w, height: h }, (sc) => {
      const seed = env.h.hash(sc.shares);
      tiles = generateMap(env.h, sc.board, seed);
      const m = commitMap(env.h, sc.board, tiles, 77n);
      const leaves = m.tree.levels[0]!.slice();
      const salts = m.salts.slice();
      const i = leafIndex(sc.board, { col: 3, row: 2 });
      salts[i] = tileSalt(env.h, 78n, i); // salt from another master secret
      leaves[i] = leafHash(env.h, tiles[2 * w + 3]!, salts[i]!);
      const slot = leafIndex(sc.board, { col: 8, row: 9 }) + 8; // (8, 10): off the 12×10 board
      assert.equal(leafCoord(sc.board, slot), null);
      leaves[slot] = leafHash(env.h, tiles[0]!, 5n);
      salts[slot] = 5n;
      return { masterSecret: 77n, seed, tree: buildTree(env.h, leaves, sc.board.depth), salts };
    });
    await (await publish(s, d)).wait();
    const i = leafIndex(s.board, { col: 3, row: 2 });
    const t = tiles[2 * w + 3]!;
    const fields = [t.terrain, t.feature, t.resource, t.rivers, d.salts[i]!];
    // One proof settles the game: the off-board slot is checked with a static call first.
    const slot = leafIndex(s.board, { col: 8, row: 9 }) + 8;
    const t0 = tiles[0]!;
    await G.connect(s.players[0]!)
      .getFunction('proveFraud')
      .staticCall(s.id, slot, [t0.terrain, t0.feature, t0.resource, t0.rivers, 5n], merklePath(d.tree, slot));
    const before = await credits(s);
    await (
      await as(env, s.players[0]!).getFunction('proveFraud')(s.id, i, fields, merklePath(d.tree, i))
    ).wait();
    await expectSlashed(s, before);
  });

  it('the dealer missing the secrets deadline is slashed; the game settles', async () => {
    const { s } = await playedGame({ stake: 100n });
    await expectRevert(as(env, env.other).getFunction('claimSecretsTimeout')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.secretsSeconds + 1);
    await expectRevert(
      as(env, env.dealer).getFunction('publishSecrets')(s.id, 1n, s.shares),
      G,
      'DeadlinePassed',
    );
    const before = await credits(s);
    await (await as(env, env.other).getFunction('claimSecretsTimeout')(s.id)).wait();
    const after = await credits(s);
    assert.equal(after[0]! - before[0]! + after[1]! - before[1]!, BOND + 200n, 'bond plus both stakes back');
    assert.equal(await phaseOf(env, s.id), Phase.Settled);
    await expectRevert(as(env, env.other).getFunction('claimSecretsTimeout')(s.id), G, 'WrongPhase');
  });

  it('turn timeouts forfeit the seat to move (at fault); the turn limit ends the game', async () => {
    const s = await createGame(env, { nPlayers: 3, maxTurns: 2, stake: 300n });
    await commitAll(env, s);
    await revealAll(env, s);
    await postRoot(env, s, dealMap(env, s));
    await expectRevert(as(env, env.other).getFunction('forfeit')(s.id), G, 'NotPlayer');
    await expectRevert(as(env, env.other).getFunction('claimTurnTimeout')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.turnSeconds + 1);
    await expectRevert(as(env, s.players[1]!).getFunction('forfeit')(s.id), G, 'DeadlinePassed');
    await (await as(env, env.other).getFunction('claimTurnTimeout')(s.id)).wait();
    let g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    assert.equal(g[4], 1n);
    assert.equal(g[5], 1n, 'seat 1 to move');
    assert.equal((await G.getFunction('getSeat')(s.id, 0)).atFault, true);
    await expectRevert(as(env, s.players[0]!).getFunction('forfeit')(s.id), G, 'AlreadyForfeited');
    await increaseTime(env, DURATIONS.turnSeconds + 1);
    await (await as(env, env.other).getFunction('claimTurnTimeout')(s.id)).wait();
    g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Secrets, 'one player left: the game ended');

    const limited = await createGame(env, { nPlayers: 3, maxTurns: 1 });
    await commitAll(env, limited);
    await revealAll(env, limited);
    await postRoot(env, limited, dealMap(env, limited));
    await increaseTime(env, DURATIONS.turnSeconds + 1);
    await (await as(env, env.other).getFunction('claimTurnTimeout')(limited.id)).wait();
    assert.equal(
      await phaseOf(env, limited.id),
      Phase.Secrets,
      'two players left, but the turn limit is reached',
    );
  });

  it('no root by the deadline: force-open slashes the dealer, players reveal shares, the map opens', async () => {
    const s = await createGame(env, { nPlayers: 3 });
    await commitAll(env, s);
    await revealAll(env, s);
    await expectRevert(as(env, env.other).getFunction('startForceOpen')(s.id), G, 'DeadlineNotPassed');
    await expectRevert(as(env, s.players[0]!).getFunction('revealShare')(s.id, s.shares[0]), G, 'WrongPhase');
    await increaseTime(env, DURATIONS.rootSeconds + 1);
    const before = await credits(s);
    await (await as(env, env.other).getFunction('startForceOpen')(s.id)).wait();
    await expectSlashed(s, before);
    assert.equal(await phaseOf(env, s.id), Phase.ForceOpen);
    await expectRevert(as(env, env.other).getFunction('startForceOpen')(s.id), G, 'WrongPhase');
    await expectRevert(
      as(env, s.players[0]!).getFunction('revealShare')(s.id, s.shares[1]),
      G,
      'ShareMismatch',
    );
    await expectRevert(
      as(env, s.players[0]!).getFunction('revealShare')(s.id, FIELD_MODULUS),
      G,
      'NotInField',
    );
    await expectRevert(as(env, env.other).getFunction('revealShare')(s.id, 1n), G, 'NotPlayer');
    for (const [i, p] of s.players.entries()) {
      await (await as(env, p).getFunction('revealShare')(s.id, s.shares[i])).wait();
      if (i === 0)
        await expectRevert(as(env, p).getFunction('revealShare')(s.id, s.shares[0]), G, 'AlreadyRevealed');
    }
    const g = await G.getFunction('getGame')(s.id);
    assert.equal(g[1], Phase.Play);
    assert.equal(g[8], env.h.hash(s.shares), 'public seed: anyone regenerates the map');
    assert.equal(g[10], true);
    await endByForfeit(env, s);
    assert.equal(await phaseOf(env, s.id), Phase.Settled, 'an open game has no secrets to wait for');
  });

  it('force-open with a silent player: cancelled after the deadline, that player at fault', async () => {
    const s = await createGame(env, { stake: 500n });
    await commitAll(env, s);
    await revealAll(env, s);
    await increaseTime(env, DURATIONS.rootSeconds + 1);
    await (await as(env, env.other).getFunction('startForceOpen')(s.id)).wait();
    await (await as(env, s.players[0]!).getFunction('revealShare')(s.id, s.shares[0])).wait();
    await expectRevert(as(env, env.other).getFunction('cancelMissed')(s.id), G, 'DeadlineNotPassed');
    await increaseTime(env, DURATIONS.revealSeconds + 1);
    await expectRevert(
      as(env, s.players[1]!).getFunction('revealShare')(s.id, s.shares[1]),
      G,
      'DeadlinePassed',
    );
    const before = await credits(s);
    await (await as(env, env.other).getFunction('cancelMissed')(s.id)).wait();
    const after = await credits(s);
    assert.equal(after[0]! - before[0]!, 1000n, 'own stake and the silent player’s');
    assert.equal(after[1]! - before[1]!, 0n);
    assert.equal((await G.getFunction('getSeat')(s.id, 1)).atFault, true);
    assert.equal(await phaseOf(env, s.id), Phase.Cancelled);
  });
});
