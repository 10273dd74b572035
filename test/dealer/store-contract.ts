/**
 * The DealerStore contract: the same assertions for every backend (SQLite, Postgres), so they keep
 * the same semantics. A backend supplies fresh empty databases and a few raw-DB hooks.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, it } from 'node:test';
import type { DealerStore, NewGame, RevealReceiptRecord, ServedReveal } from '../../dealer/store/types.ts';
import { CONTRACT } from './fixture.ts';

/** One fresh database and the first store opened on it. */
export interface StoreUnderTest {
  store: DealerStore;
  key: Uint8Array;
  /** Another store on the same database (a second dealer process, or a restart); `key` by default. */
  open(key?: Uint8Array): Promise<DealerStore>;
  /** Runs one SQL statement on the database behind the store's back (someone with DB access). */
  exec(sql: string): Promise<void>;
  count(table: string): Promise<number>;
  /** A table's rows as the database returns them (every column), read behind the store's back. */
  rows(table: string): Promise<Record<string, unknown>[]>;
  /** Everything the database holds, as text (SQLite: its files), to look for secrets in the clear. */
  dump(): Promise<string>;
}

export interface StoreBackend {
  fresh(): Promise<StoreUnderTest>;
  /**
   * A database at the schema from before served openings were encrypted, holding `reveals` in plaintext
   * as that schema stored them, and `games` (tracked before creation blocks were stored); then the store
   * opened on it (which migrates).
   */
  legacy(reveals: readonly ServedReveal[], games?: readonly NewGame[]): Promise<StoreUnderTest>;
  /** Closes every store opened since the last cleanup (and deletes what it can: SQLite files). */
  cleanup(): Promise<void>;
}

const secrets = {
  shares: [111111111111111111111n, 222222222222222222222n],
  seed: 333333333333333333333333333n,
  masterSecret: 4444444444444444444444444444444444444444n,
};

const proof = (tag: string) => ({
  proof: { pi_a: [tag], pi_b: [[tag]], pi_c: [tag], protocol: 'groth16', curve: 'bn128' },
  publicSignals: [tag],
});

/** Registers the contract's tests in the current describe(); `backend` is read when a test runs. */
export function storeContract(backend: () => StoreBackend): void {
  afterEach(() => backend().cleanup());
  const fresh = () => backend().fresh();

  it('keeps map proofs per zone, first write wins', async () => {
    const { store } = await fresh();
    await store.putMapProof(1n, 0, proof('a'));
    await store.putMapProof(1n, 0, proof('b'));
    await store.putMapProof(1n, -1, proof('root'));
    const all = await store.mapProofs(1n);
    assert.deepEqual([...all.keys()].sort(), [-1, 0]);
    assert.deepEqual(all.get(0), proof('a'));
    assert.deepEqual(all.get(-1), proof('root'));
    assert.equal((await store.mapProofs(2n)).size, 0);
  });

  it('encrypts secrets at rest: neither the master secret, the seed nor a share is in the DB', async () => {
    const s = await fresh();
    await s.store.addGame({ gameId: 1n, contract: CONTRACT, ruleset: 'duel', players: ['0xa', '0xb'] });
    await s.store.putSecretsOnce(1n, secrets);
    assert.deepEqual(await s.store.getSecrets(1n), secrets);
    await s.store.close();
    const raw = await s.dump();
    assert.ok(raw.includes('0xb'), 'the dump holds the stored rows'); // the check below is not vacuous
    for (const v of [secrets.masterSecret, secrets.seed, ...secrets.shares]) {
      assert.ok(!raw.includes(v.toString()), `${v} found in the DB`);
      assert.ok(!raw.includes(v.toString(16)), `${v} (hex) found in the DB`);
    }
  });

  it('refuses to open secrets under another key, or moved to another game row', async () => {
    const s = await fresh();
    await s.store.putSecretsOnce(1n, secrets);
    await s.store.close();
    const wrong = await s.open(randomBytes(32));
    await assert.rejects(wrong.getSecrets(1n));
    await assert.rejects(wrong.putSecretsOnce(1n, secrets), 'nor returns them from putSecretsOnce');
    await s.exec("UPDATE game_secrets SET game_id = '2'");
    const right = await s.open();
    await assert.rejects(right.getSecrets(2n));
    assert.equal(await right.getSecrets(1n), null);
  });

  it('keeps the first master secret drawn', async () => {
    const s = await fresh();
    assert.deepEqual(await s.store.putSecretsOnce(1n, secrets), secrets);
    const second = await s.store.putSecretsOnce(1n, { ...secrets, masterSecret: 5n });
    assert.deepEqual(second, secrets);
    assert.equal((await s.store.getSecrets(1n))!.masterSecret, secrets.masterSecret);
    const other = await s.open(); // another process drawing later gets the first draw too
    assert.deepEqual(await other.putSecretsOnce(1n, { ...secrets, seed: 6n }), secrets);
    assert.equal(await s.store.getSecrets(2n), null);
  });

  it('burns a nonce once per signer and prunes expired ones', async () => {
    const { store } = await fresh();
    assert.equal(await store.burnNonce('0xa', 7n, 100), true);
    assert.equal(await store.burnNonce('0xa', 7n, 100), false);
    assert.equal(await store.burnNonce('0xb', 7n, 100), true);
    assert.equal(await store.burnNonce('0xb', 8n, 200), true);
    assert.equal(await store.pruneNonces(101), 2);
    assert.equal(await store.pruneNonces(101), 0);
    assert.equal(await store.burnNonce('0xb', 8n, 200), false, 'unexpired burns are kept');
  });

  it('concurrent burns: one winner per nonce, all durable, seen by a second store', async () => {
    const s = await fresh();
    const results = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => s.store.burnNonce('0xa', BigInt(i), 100)),
      s.store.burnNonce('0xa', 3n, 100),
      s.store.burnNonce('0xa', 3n, 100),
    ]);
    assert.equal(results.filter(Boolean).length, 50);
    // Another connection (another dealer process) burned nonce 99 first: this one must lose.
    const other = await s.open();
    assert.equal(await other.burnNonce('0xa', 99n, 100), true);
    assert.equal(
      await other.burnNonce('0xa', 7n, 100),
      false,
      'committed burns are visible to another process',
    );
    await other.close();
    assert.equal(await s.store.burnNonce('0xa', 99n, 100), false);
    await s.store.close();
    assert.equal(await s.count('nonces'), 51);
  });

  it('game records, cursor and served reveals survive a reopen', async () => {
    const s = await fresh();
    await s.store.addGame({
      gameId: 9n,
      contract: CONTRACT,
      ruleset: 'duel',
      players: ['0xa', '0xb'],
      createdBlock: 1234,
    });
    await s.store.addGame({ gameId: 9n, contract: CONTRACT, ruleset: 'tiny', players: [], createdBlock: 1 }); // no overwrite
    await s.store.updateGame(9n, { status: 'dealt', root: 42n, masterCommitment: 43n, rootTx: '0xt' });
    await s.store.updateGame(9n, { closeCall: 'settle' });
    assert.equal(await s.store.getCursor(), null);
    await s.store.setCursor(76);
    await s.store.setCursor(77);
    await s.store.recordReveal({ gameId: 9n, player: '0xa', turn: 3, leaves: [1, 2], blinding: 5n });
    await s.store.recordReveal({ gameId: 9n, player: '0xa', turn: 3, leaves: [9], blinding: 6n }); // keeps the first
    await s.store.close();
    const again = await s.open();
    assert.deepEqual(await again.getGame(9n), {
      gameId: 9n,
      contract: CONTRACT,
      ruleset: 'duel',
      players: ['0xa', '0xb'],
      status: 'dealt',
      root: 42n,
      masterCommitment: 43n,
      rootTx: '0xt',
      fault: null,
      createdBlock: 1234,
      closeCall: 'settle',
    });
    // The recorded closing call is cleared once, by the one caller that counts it.
    assert.equal(await again.claimCloseCall(9n, 'cancelMissed'), false, 'not the recorded call');
    const claims = await Promise.all([
      again.claimCloseCall(9n, 'settle'),
      again.claimCloseCall(9n, 'settle'),
    ]);
    assert.deepEqual(claims.sort(), [false, true]);
    assert.equal((await again.getGame(9n))?.closeCall, null);
    assert.equal(await again.getCursor(), 77);
    assert.deepEqual(await again.getReveal(9n, '0xa', 3), {
      gameId: 9n,
      player: '0xa',
      turn: 3,
      leaves: [1, 2],
      blinding: 5n,
    });
    assert.equal(await again.getReveal(9n, '0xa', 4), null);
    assert.equal(await again.getReveal(9n, '0xb', 3), null);
    await assert.rejects(again.updateGame(10n, { status: 'dealt' }));
    assert.equal(await again.getGame(10n), null);
  });

  it('round-trips bigints of any size exactly', async () => {
    const { store } = await fresh();
    const huge = 2n ** 256n - 1n;
    const gameId = 2n ** 255n + 12345n;
    const p = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
    await store.addGame({ gameId, contract: CONTRACT, ruleset: 'duel', players: ['0xa'] });
    await store.updateGame(gameId, { root: huge, masterCommitment: p - 1n });
    const g = (await store.getGame(gameId))!;
    assert.equal(g.gameId, gameId);
    assert.equal(g.root, huge);
    assert.equal(g.masterCommitment, p - 1n);
    const big = { shares: [p - 1n, 0n, huge], seed: huge - 1n, masterSecret: p - 2n };
    await store.putSecretsOnce(gameId, big);
    assert.deepEqual(await store.getSecrets(gameId), big);
    await store.putSealedShares(gameId, [
      {
        seat: 0,
        player: '0xa',
        commitment: huge,
        sealed: { ephemeralY: p - 1n, ciphertext: p - 1n },
        outcome: 'ok',
      },
    ]);
    assert.equal((await store.sealedShares(gameId))[0]!.commitment, huge);
    await store.recordReveal({ gameId, player: '0xa', turn: 1, leaves: [0], blinding: p - 3n });
    assert.equal((await store.getReveal(gameId, '0xa', 1))!.blinding, p - 3n);
    // Neighbours must stay distinct (a lossy float would merge them).
    assert.equal(await store.burnNonce('0xa', huge, 100), true);
    assert.equal(await store.burnNonce('0xa', huge - 1n, 100), true);
    assert.equal(await store.burnNonce('0xa', huge, 100), false);
    assert.equal(await store.getGame(gameId - 1n), null);
  });

  it('keeps sealed shares (E, c) in seat order, words intact; a re-post updates only the outcome', async () => {
    const { store } = await fresh();
    const top = 2n ** 256n - 1n;
    const sealed = (n: bigint) => ({ ephemeralY: top - n, ciphertext: n * 7n });
    await store.putSealedShares(5n, [
      { seat: 1, player: '0xb', commitment: 22n, sealed: sealed(3n), outcome: 'ok' },
      { seat: 0, player: '0xa', commitment: 11n, sealed: sealed(0n), outcome: 'ok' },
    ]);
    await store.putSealedShares(5n, [
      { seat: 1, player: '0xc', commitment: 33n, sealed: sealed(5n), outcome: 'not-opened' },
    ]);
    assert.deepEqual(await store.sealedShares(5n), [
      { seat: 0, player: '0xa', commitment: 11n, sealed: sealed(0n), outcome: 'ok' },
      { seat: 1, player: '0xb', commitment: 22n, sealed: sealed(3n), outcome: 'not-opened' },
    ]);
    assert.deepEqual(await store.sealedShares(6n), []);
  });

  // Served openings say where a player's units saw (P6): sealed like the game secrets.
  const opening = (turn: number, gameId = 9n): ServedReveal => ({
    gameId,
    player: '0x00000000000000000000000000000000000000aa',
    turn,
    leaves: [104729, 99991, 7919 + turn],
    blinding: 0x1234567890abcdef1234567890abcdef1234567890abcdefn + BigInt(turn),
  });
  /** Fails if a row holds any leaf index or the blinding in clear (decimal, hex, or the leaves as JSON). */
  const assertSealed = (rows: Record<string, unknown>[], reveals: readonly ServedReveal[]) => {
    assert.ok(rows.length >= reveals.length, 'the rows are there');
    // The key columns are plain by design; the game id and timestamp are left out of the search only
    // because their many digits could hold a leaf index by chance.
    const raw = JSON.stringify(rows.map((r) => ({ ...r, game_id: null, served_at: null })));
    for (const r of reveals) {
      for (const leaf of r.leaves) assert.ok(!raw.includes(String(leaf)), `leaf ${leaf} in clear`);
      assert.ok(!raw.includes(JSON.stringify(r.leaves)), 'leaves in clear');
      assert.ok(!raw.includes(r.blinding.toString()), 'blinding (decimal) in clear');
      assert.ok(!raw.toLowerCase().includes(r.blinding.toString(16)), 'blinding (hex) in clear');
    }
    for (const row of rows) {
      assert.deepEqual(
        Object.keys(row).sort(),
        ['game_id', 'opening', 'player', 'served_at', 'turn'],
        'no plaintext opening column',
      );
    }
  };

  it('encrypts served openings at rest: the raw row holds no leaf index or blinding in clear; getReveal round-trips', async () => {
    const s = await fresh();
    const reveals = [opening(1), opening(2)];
    for (const r of reveals) await s.store.recordReveal(r);
    assert.deepEqual(await s.store.getReveal(9n, reveals[0]!.player, 1), reveals[0]);
    assertSealed(await s.rows('served_reveals'), reveals);
    await s.store.close();
    const raw = await s.dump();
    assert.ok(raw.includes(reveals[0]!.player), 'the dump holds the rows');
    assert.ok(!raw.includes(reveals[0]!.blinding.toString()), 'blinding nowhere in the DB');
    const again = await s.open();
    assert.deepEqual(await again.getReveal(9n, reveals[1]!.player, 2), reveals[1]);
    // Bound to (game, player, turn): a row moved to another turn does not open; another key neither.
    await s.exec('UPDATE served_reveals SET turn = 7 WHERE turn = 2');
    await assert.rejects(again.getReveal(9n, reveals[1]!.player, 7));
    const wrong = await s.open(randomBytes(32));
    await assert.rejects(wrong.getReveal(9n, reveals[0]!.player, 1));
  });

  it('migrates plaintext openings of an older database: sealed in place, same answers, migrated once', async () => {
    const reveals = [opening(0), opening(1), opening(3, 2n ** 255n + 1n)];
    const s = await backend().legacy(reveals);
    for (const r of reveals) assert.deepEqual(await s.store.getReveal(r.gameId, r.player, r.turn), r);
    assertSealed(await s.rows('served_reveals'), reveals);
    await s.store.recordReveal({ ...opening(1), leaves: [1] }); // the first opening served stays
    assert.deepEqual(await s.store.getReveal(9n, opening(1).player, 1), opening(1));
    await s.store.close();
    const raw = await s.dump();
    for (const r of reveals) assert.ok(!raw.includes(r.blinding.toString()), 'no plaintext left behind');
    const again = await s.open(); // re-opening does not migrate (or seal) again
    for (const r of reveals) assert.deepEqual(await again.getReveal(r.gameId, r.player, r.turn), r);
  });

  it('lists games in id order, filtered by status; patches clear fields with null', async () => {
    const { store } = await fresh();
    for (const id of [10n, 2n, 1n]) {
      await store.addGame({ gameId: id, contract: CONTRACT, ruleset: 'duel', players: [] });
    }
    await store.updateGame(2n, { status: 'dealt', root: 5n, fault: null });
    await store.updateGame(10n, { status: 'forced-open', fault: 'forced-open on-chain' });
    assert.deepEqual(
      (await store.listGames()).map((g) => g.gameId),
      [1n, 2n, 10n],
    );
    assert.deepEqual(
      (await store.listGames(['dealt', 'forced-open'])).map((g) => [g.gameId, g.status, g.fault]),
      [
        [2n, 'dealt', null],
        [10n, 'forced-open', 'forced-open on-chain'],
      ],
    );
    assert.deepEqual(await store.listGames([]), []);
    await store.updateGame(2n, { root: null });
    const g = (await store.getGame(2n))!;
    assert.equal(g.root, null);
    assert.equal(g.status, 'dealt', 'fields not in the patch are kept');
  });

  const receipt = (turn: number, o: Partial<RevealReceiptRecord> = {}): RevealReceiptRecord => ({
    gameId: 2n ** 255n + 7n,
    player: '0x00000000000000000000000000000000000000aa',
    turn,
    revealCommit: 2n ** 253n + BigInt(turn),
    signature: `0x${'ab'.repeat(64)}1b`,
    ...o,
  });

  it('keeps reveal receipts plainly, keyed by (game, player, turn); the first one stored stays', async () => {
    const s = await fresh();
    const r = receipt(3);
    assert.equal(await s.store.getReceipt(r.gameId, r.player, 3), null);
    assert.equal(await s.store.putReceipt(r), true);
    assert.equal(
      await s.store.putReceipt({ ...r, signature: `0x${'cd'.repeat(64)}1c` }),
      false,
      'first wins',
    );
    assert.equal(await s.store.putReceipt(receipt(4)), true);
    assert.equal(
      await s.store.putReceipt(receipt(3, { player: '0x00000000000000000000000000000000000000bb' })),
      true,
    );
    assert.deepEqual(await s.store.getReceipt(r.gameId, r.player, 3), r);
    assert.equal(await s.store.getReceipt(r.gameId, r.player, 5), null);
    assert.equal(await s.store.getReceipt(r.gameId + 1n, r.player, 3), null);
    // Plain columns (nothing secret in a receipt), one row per (game, player, turn).
    const rows = await s.rows('reveal_receipts');
    assert.equal(rows.length, 3);
    assert.ok(
      rows.some(
        (row) => row.signature === r.signature && String(row.reveal_commit) === r.revealCommit.toString(),
      ),
    );
    await s.store.close();
    const again = await s.open();
    assert.deepEqual(await again.getReceipt(r.gameId, r.player, 3), r, 'survives a reopen');
    assert.deepEqual(await again.getReceipt(r.gameId, r.player, 4), receipt(4));
  });

  it('indexes turns: found by (game, player, turn); a later indexed turn settles an earlier missing one; the cursor moves with the logs', async () => {
    const s = await fresh();
    const gameId = 2n ** 255n + 1n;
    const a = '0x00000000000000000000000000000000000000aa';
    const b = '0x00000000000000000000000000000000000000bb';
    const t = (player: string, turn: number, block: number, commitment = 1000n + BigInt(turn)) => ({
      gameId,
      player,
      turn,
      commitment,
      block,
    });
    assert.equal(await s.store.getTurnCursor(), null);
    assert.deepEqual(await s.store.indexedTurn(gameId, a, 0), {
      commitment: null,
      laterTurnIndexed: false,
    });
    await s.store.putTurnCommits([t(a, 0, 10), t(b, 0, 11), t(a, 2, 12)], 20);
    assert.equal(await s.store.getTurnCursor(), 20);
    assert.deepEqual(await s.store.indexedTurn(gameId, a, 0), {
      commitment: 1000n,
      laterTurnIndexed: false,
    });
    assert.deepEqual(await s.store.indexedTurn(gameId, a, 2), {
      commitment: 1002n,
      laterTurnIndexed: false,
    });
    assert.deepEqual(await s.store.indexedTurn(gameId, a, 1), { commitment: null, laterTurnIndexed: true });
    assert.deepEqual(await s.store.indexedTurn(gameId, a, 3), {
      commitment: null,
      laterTurnIndexed: false,
    });
    assert.deepEqual(await s.store.indexedTurn(gameId, b, 1), {
      commitment: null,
      laterTurnIndexed: false,
    });
    assert.deepEqual(
      await s.store.indexedTurn(gameId + 1n, a, 0),
      { commitment: null, laterTurnIndexed: false },
      'other games apart',
    );
    // Turn numbers order as numbers (10 > 9), up to uint32.
    await s.store.putTurnCommits([t(b, 10, 21), t(b, 4294967295, 22, 2n ** 253n)], 30);
    assert.deepEqual(await s.store.indexedTurn(gameId, b, 9), { commitment: null, laterTurnIndexed: true });
    assert.deepEqual(await s.store.indexedTurn(gameId, b, 4294967295), {
      commitment: 2n ** 253n,
      laterTurnIndexed: false,
    });
    // A re-scanned block (or a re-org) gives the last log seen; an empty scan still moves the cursor.
    await s.store.putTurnCommits([t(a, 2, 31, 77n)], 31);
    await s.store.putTurnCommits([], 40);
    await s.store.close();
    const again = await s.open();
    assert.equal(await again.getTurnCursor(), 40, 'survives a reopen');
    assert.deepEqual(await again.indexedTurn(gameId, a, 2), { commitment: 77n, laterTurnIndexed: false });
    assert.equal(await s.count('turn_commits'), 5);
    // The column holds the logged play commitment (named for it since the play-commitment migration).
    const turnRows = await s.rows('turn_commits');
    assert.ok(turnRows.some((row) => String(row.commitment) === '77' && !('reveal_commit' in row)));
  });

  it('an index from before the play commitment (column reveal_commit) is migrated: its rows kept under commitment', async () => {
    const s = await fresh();
    const gameId = 9n;
    const a = '0x00000000000000000000000000000000000000aa';
    await s.store.putTurnCommits([{ gameId, player: a, turn: 1, commitment: 1234n, block: 5 }], 6);
    await s.store.close();
    // The database as the dealer before the change left it: the old column name, neither that migration nor the
    // three after it (the lobby leaves, their bound, the closing call) run.
    await s.exec('ALTER TABLE turn_commits RENAME COLUMN commitment TO reveal_commit');
    await s.exec('DROP TABLE lobby_leaves');
    await s.exec('DROP TABLE lobby_nonce_floor');
    await s.exec('ALTER TABLE games DROP COLUMN close_call');
    await s.exec(
      'DELETE FROM schema_migrations WHERE version >= (SELECT MAX(version) - 3 FROM schema_migrations)',
    );
    const upgraded = await s.open();
    assert.deepEqual(await upgraded.indexedTurn(gameId, a, 1), {
      commitment: 1234n,
      laterTurnIndexed: false,
    });
    await upgraded.putTurnCommits([{ gameId, player: a, turn: 2, commitment: 99n, block: 7 }], 8);
    assert.deepEqual(await upgraded.indexedTurn(gameId, a, 2), { commitment: 99n, laterTurnIndexed: false });
    assert.equal(await upgraded.getTurnCursor(), 8);
  });

  it('the spent joins of seats given up before their bound: kept with a deadline none of their joins passed; those of closed lobbies dropped', async () => {
    const s = await fresh();
    const lobby = (id: string) => ({
      id,
      kind: 'k',
      ruleset: 'tiny',
      rulesetHash: `0x${'11'.repeat(32)}`,
      seats: 3,
      stake: 1n,
      disputeDeposit: 1n,
      maxTurns: 40,
      bond: 1n,
      openedAt: 1,
    });
    const [open, closed] = [`0x${'0a'.repeat(32)}`, `0x${'0b'.repeat(32)}`];
    await s.store.openLobby(lobby(open));
    await s.store.openLobby(lobby(closed));
    const spend = async (lobbyId: string, player: string, nonce: string) => {
      const j = { lobbyId, player, nonce, deadline: 1_700_000_600, signature: '0x', joinedAt: 1_700_000_000 };
      assert.equal((await s.store.joinLobby(j, null)).ok, true);
      assert.equal(
        (await s.store.leaveLobby({ lobbyId, player, joinNonce: nonce, leftAt: 1_700_000_100 })).ok,
        true,
      );
      return j;
    };
    const a = await spend(open, '0x00000000000000000000000000000000000000aa', `0x${'01'.repeat(32)}`);
    assert.deepEqual(await s.store.joinLobby(a, null), { ok: false, reason: 'nonce-replayed' });
    const b = await spend(closed, '0x00000000000000000000000000000000000000bb', `0x${'02'.repeat(32)}`);
    await s.store.close();
    // The database as the dealer before the bound left it: no deadline kept, no floor, the closed lobby's row there.
    await s.exec('DROP TABLE lobby_nonce_floor');
    await s.exec('DROP INDEX lobby_leaves_deadline');
    await s.exec('DROP INDEX lobby_leaves_lobby');
    await s.exec('ALTER TABLE lobby_leaves DROP COLUMN deadline');
    await s.exec(`UPDATE lobbies SET status = 'closed' WHERE lobby_id = '${closed}'`);
    // ... nor the closing call after it.
    await s.exec('ALTER TABLE games DROP COLUMN close_call');
    await s.exec(
      'DELETE FROM schema_migrations WHERE version >= (SELECT MAX(version) - 1 FROM schema_migrations)',
    );
    assert.equal(await s.count('lobby_leaves'), 2);
    const upgraded = await s.open();
    const rows = await s.rows('lobby_leaves');
    assert.deepEqual(
      rows.map((r) => [r.lobby_id, r.nonce, Number(r.deadline)]),
      [[open, a.nonce, 1_700_000_100 + 86_400]],
      "the open lobby's row, with its leave's time plus the longest join deadline the config accepts",
    );
    // Its join and the closed lobby's stay refused.
    assert.deepEqual(await upgraded.joinLobby(a, null), { ok: false, reason: 'nonce-replayed' });
    assert.deepEqual(await upgraded.joinLobby(b, null), { ok: false, reason: 'not-open' });
  });

  it('stores creation blocks: given with the game, patched later, kept through a reopen', async () => {
    const s = await fresh();
    await s.store.addGame({ gameId: 1n, contract: CONTRACT, ruleset: 'duel', players: [], createdBlock: 5 });
    await s.store.addGame({ gameId: 2n, contract: CONTRACT, ruleset: 'duel', players: [] });
    assert.equal((await s.store.getGame(2n))?.createdBlock, null);
    await s.store.updateGame(2n, { createdBlock: 2 ** 40 });
    await s.store.updateGame(1n, { status: 'dealt' });
    await s.store.close();
    const again = await s.open();
    assert.deepEqual(
      (await again.listGames()).map((g) => [g.gameId, g.createdBlock]),
      [
        [1n, 5],
        [2n, 2 ** 40],
      ],
    );
  });

  it('migrates an older database: tracked games get no creation block (the watcher backfills it), the turn index and receipts start empty', async () => {
    const s = await backend().legacy(
      [],
      [{ gameId: 2n ** 255n + 3n, contract: CONTRACT, ruleset: 'duel', players: ['0xa'] }],
    );
    const g = await s.store.getGame(2n ** 255n + 3n);
    assert.equal(g?.status, 'dealt');
    assert.equal(g?.createdBlock, null);
    assert.equal(await s.store.getTurnCursor(), null);
    assert.equal(await s.count('turn_commits'), 0);
    assert.equal(await s.count('reveal_receipts'), 0);
    await s.store.updateGame(2n ** 255n + 3n, { createdBlock: 99 });
    assert.equal((await s.store.getGame(2n ** 255n + 3n))?.createdBlock, 99);
  });

  it('pings while open, refuses once closed; closing twice is harmless', async () => {
    const { store } = await fresh();
    await store.ping();
    await store.ping();
    await store.close();
    await assert.rejects(store.ping());
    await store.close();
  });
}
