import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, it } from 'node:test';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import { CONTRACT, tempDir } from './fixture.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function open(key = randomBytes(32)) {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const path = join(t.dir, 'd.sqlite');
  return { path, key, store: new SqliteStore(path, secretBox(key)) };
}

const secrets = {
  shares: [111111111111111111111n, 222222222222222222222n],
  seed: 333333333333333333333333333n,
  masterSecret: 4444444444444444444444444444444444444444n,
};

describe('SQLite store', () => {
  it('runs in WAL mode and records its migrations once', async () => {
    const s = open();
    await s.store.close();
    const again = new SqliteStore(s.path, secretBox(s.key)); // re-opening must not re-run migrations
    await again.close();
    const db = new DatabaseSync(s.path);
    assert.equal((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
    assert.deepEqual(
      db
        .prepare('SELECT version FROM schema_migrations')
        .all()
        .map((r) => r.version),
      [1, 2],
    );
    db.close();
  });

  it('keeps map proofs per zone, first write wins', async () => {
    const s = open();
    const proof = (tag: string) => ({
      proof: { pi_a: [tag], pi_b: [[tag]], pi_c: [tag], protocol: 'groth16', curve: 'bn128' },
      publicSignals: [tag],
    });
    await s.store.putMapProof(1n, 0, proof('a'));
    await s.store.putMapProof(1n, 0, proof('b'));
    await s.store.putMapProof(1n, -1, proof('root'));
    const all = await s.store.mapProofs(1n);
    assert.deepEqual([...all.keys()].sort(), [-1, 0]);
    assert.equal(all.get(0)!.publicSignals[0], 'a');
    assert.equal((await s.store.mapProofs(2n)).size, 0);
    await s.store.close();
  });

  it('encrypts secrets at rest: neither the master secret, the seed nor a share is in the file', async () => {
    const s = open();
    await s.store.addGame({ gameId: 1n, contract: CONTRACT, ruleset: 'duel', players: ['0xa', '0xb'] });
    await s.store.putSecretsOnce(1n, secrets);
    assert.deepEqual(await s.store.getSecrets(1n), secrets);
    await s.store.close();
    const raw = Buffer.concat(
      ['', '-wal'].map((suffix) => {
        try {
          return readFileSync(s.path + suffix);
        } catch {
          return Buffer.alloc(0);
        }
      }),
    ).toString('latin1');
    for (const v of [secrets.masterSecret, secrets.seed, ...secrets.shares]) {
      assert.ok(!raw.includes(v.toString()), `${v} found in the DB file`);
      assert.ok(!raw.includes(v.toString(16)), `${v} (hex) found in the DB file`);
    }
  });

  it('refuses to open secrets under another key, or moved to another game row', async () => {
    const s = open();
    await s.store.putSecretsOnce(1n, secrets);
    await s.store.close();
    const wrong = new SqliteStore(s.path, secretBox(randomBytes(32)));
    await assert.rejects(wrong.getSecrets(1n));
    await wrong.close();
    const db = new DatabaseSync(s.path);
    db.exec("UPDATE game_secrets SET game_id = '2'");
    db.close();
    const right = new SqliteStore(s.path, secretBox(s.key));
    await assert.rejects(right.getSecrets(2n));
    await right.close();
  });

  it('keeps the first master secret drawn', async () => {
    const { store } = open();
    await store.putSecretsOnce(1n, secrets);
    const second = await store.putSecretsOnce(1n, { ...secrets, masterSecret: 5n });
    assert.equal(second.masterSecret, secrets.masterSecret);
    assert.equal((await store.getSecrets(1n))!.masterSecret, secrets.masterSecret);
    await store.close();
  });

  it('burns a nonce once per signer and prunes expired ones', async () => {
    const { store } = open();
    assert.equal(await store.burnNonce('0xa', 7n, 100), true);
    assert.equal(await store.burnNonce('0xa', 7n, 100), false);
    assert.equal(await store.burnNonce('0xb', 7n, 100), true);
    assert.equal(await store.pruneNonces(101), 2);
    await store.close();
  });

  it('group-commits concurrent burns: one winner per nonce, all durable, seen by a second process', async () => {
    const s = open();
    const results = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => s.store.burnNonce('0xa', BigInt(i), 100)),
      s.store.burnNonce('0xa', 3n, 100),
      s.store.burnNonce('0xa', 3n, 100),
    ]);
    assert.equal(results.filter(Boolean).length, 50);
    // Another connection (another dealer process) burned nonce 99 first: this one must lose.
    const other = new SqliteStore(s.path, secretBox(s.key));
    assert.equal(await other.burnNonce('0xa', 99n, 100), true);
    assert.equal(
      await other.burnNonce('0xa', 7n, 100),
      false,
      'committed burns are visible to another process',
    );
    await other.close();
    assert.equal(await s.store.burnNonce('0xa', 99n, 100), false);
    await s.store.close();
    const db = new DatabaseSync(s.path);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM nonces').get() as { n: number }).n, 51);
    db.close();
  });

  it('game records, cursor and served reveals survive a reopen', async () => {
    const s = open();
    await s.store.addGame({ gameId: 9n, contract: CONTRACT, ruleset: 'duel', players: ['0xa', '0xb'] });
    await s.store.addGame({ gameId: 9n, contract: CONTRACT, ruleset: 'tiny', players: [] }); // no overwrite
    await s.store.updateGame(9n, { status: 'dealt', root: 42n, masterCommitment: 43n, rootTx: '0xt' });
    await s.store.setCursor(77);
    await s.store.recordReveal({ gameId: 9n, player: '0xa', turn: 3, leaves: [1, 2], blinding: 5n });
    await s.store.recordReveal({ gameId: 9n, player: '0xa', turn: 3, leaves: [9], blinding: 6n }); // keeps the first
    await s.store.close();
    const again = new SqliteStore(s.path, secretBox(s.key));
    const g = (await again.getGame(9n))!;
    assert.equal(g.ruleset, 'duel');
    assert.equal(g.status, 'dealt');
    assert.equal(g.root, 42n);
    assert.equal(await again.getCursor(), 77);
    assert.deepEqual((await again.getReveal(9n, '0xa', 3))!.leaves, [1, 2]);
    await assert.rejects(again.updateGame(10n, { status: 'dealt' }));
    await again.close();
  });
});
