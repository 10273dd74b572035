/**
 * `npm run dealer -- backup` and `restore`, on both stores, as an operator runs them: a dealer (a real
 * process, configured by the environment) deals a game and serves a turn; a backup is taken while it keeps
 * serving; the backup is restored into a fresh database; a fresh dealer on it serves that game's tiles,
 * verified against the chain's root, for the old turn and a new one, without dealing again. Around that:
 * no overwrite of a backup, no restore over data without --force, none into a database in use, none under
 * another masterKey.
 */
import assert from 'node:assert/strict';
import { chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Hasher } from '../../core/index.ts';
import { loadHasher } from '../../core/index.ts';
import { sealPublicKey } from '../../core/sealed.ts';
import { FakeChain } from '../../dealer/chain/fake.ts';
import { hexKey } from '../../dealer/config.ts';
import { generateDealerKeys } from '../../dealer/ops/keys.ts';
import { secretBox } from '../../dealer/store/secret-box.ts';
import { SqliteStore } from '../../dealer/store/sqlite.ts';
import {
  PROD_CHAIN_ID,
  PROD_CONTRACT,
  prodVars,
  type RunningDealer,
  revealVerified,
  runDealerCli,
  startDealerProcess,
  until,
} from './dealer-process.ts';
import { ALICE, BOB, duelLeaves, postTurn, runCeremony, tempDir } from './fixture.ts';
import { type PgServer, postgresSkip, startPostgres } from './postgres-server.ts';

const tmp = tempDir();
const running: RunningDealer[] = [];
after(async () => {
  for (const d of running) await d.stop();
  tmp.cleanup();
});

type Db = { path: string } | { url: string };

/** The whole story on one kind of store; `fresh()` makes an empty database of that kind. */
async function backupRestoreScenario(
  t: { diagnostic(s: string): void },
  kind: string,
  fresh: () => Promise<Db>,
) {
  const h: Hasher = await loadHasher();
  const { keys } = generateDealerKeys();
  const chainFile = join(tmp.dir, `${kind}-chain.json`);
  const chain = new FakeChain({ chainId: PROD_CHAIN_ID, file: chainFile, create: true });
  // Generous limits: the load below is one client hammering its own turn.
  const vars = (db: Db) => ({
    ...prodVars({ chainFile, keys, db }),
    SHROUD_PLAYER_RATE_PER_SECOND: '100000',
    SHROUD_PLAYER_RATE_BURST: '100000',
    SHROUD_RATE_LIMIT_MAX: '100000',
  });
  const start = async (db: Db) => {
    const d = await startDealerProcess(vars(db), tmp.dir);
    running.push(d);
    return d;
  };

  // 1. A dealer deals a game and serves Alice's turn 1.
  const dbA = await fresh();
  const { gameId } = runCeremony(h, chain, sealPublicKey(BigInt(keys.dealerKey)), {
    contract: PROD_CONTRACT,
  });
  const a = await start(dbA);
  const posted = await until(() => chain.mapRoot(gameId));
  const leaves = duelLeaves();
  const blinding1 = postTurn(h, chain, gameId, ALICE, 1, leaves);
  const turn1 = { gameId, turn: 1, leaves, blinding: blinding1 };
  const served = await revealVerified(h, chain, a.url, ALICE, turn1);
  assert.equal(served.status, 200, JSON.stringify(served.body));

  // 2. Backup while it runs and keeps serving (each reveal burns a nonce: a write during the copy).
  const out = join(tmp.dir, `${kind}.backup`);
  let serving = true;
  const load = (async () => {
    let n = 0;
    while (serving) {
      assert.equal((await revealVerified(h, chain, a.url, ALICE, turn1)).status, 200);
      n++;
    }
    return n;
  })();
  const backup = await runDealerCli(['backup', '--out', out], vars(dbA));
  serving = false;
  const servedDuring = await load;
  assert.equal(backup.code, 0, backup.stderr);
  assert.match(backup.stdout, /1 game\(s\), 1 with secrets opened under the configured masterKey/);
  assert.match(backup.stdout, /keep SHROUD_MASTER_KEY .* apart from the backup/);
  assert.equal(statSync(out).mode & 0o777, 0o600, 'the backup is private');
  for (const v of Object.values(keys)) assert.ok(!backup.stdout.includes(v.slice(2)), 'no secret printed');
  t.diagnostic(`${kind}: ${backup.stdout.split('\n')[0]} (${servedDuring} reveals served meanwhile)`);
  const again = await runDealerCli(['backup', '--out', out], vars(dbA));
  assert.equal(again.code, 2);
  assert.match(again.stderr, /^dealer backup: --out .*: already exists \(refusing to overwrite it\)\n$/);
  assert.equal(await a.stop(), 0);

  // 3. Restore into a fresh database; refused over it again unless --force; refused under another key.
  const dbB = await fresh();
  const restore = await runDealerCli(['restore', '--from', out], vars(dbB));
  assert.equal(restore.code, 0, restore.stderr);
  assert.match(restore.stdout, /1 game\(s\), 1 with secrets opened/);
  t.diagnostic(`${kind}: ${restore.stdout.trim()}`);
  const over = await runDealerCli(['restore', '--from', out], vars(dbB));
  assert.equal(over.code, 2, over.stderr);
  assert.match(over.stderr, /^dealer restore: .*holds data; pass --force to replace it with the backup\n$/);
  const forced = await runDealerCli(['restore', '--from', out, '--force'], vars(dbB));
  assert.equal(forced.code, 0, forced.stderr);
  const otherKey = { ...vars(await fresh()), SHROUD_MASTER_KEY: generateDealerKeys().keys.masterKey };
  const wrongKey = await runDealerCli(['restore', '--from', out], otherKey);
  assert.equal(wrongKey.code, 1);
  assert.match(wrongKey.stderr, new RegExp(`does not open game ${gameId}'s secrets`));
  // A dealer of another deployment sharing the key file (e.g. the testnet one): its cursor, games and
  // lobbies are not this contract's, and --force would have replaced this dealer's own database.
  const otherContract = `0x${'2'.repeat(40)}`;
  const foreign = await runDealerCli(['restore', '--from', out, '--force'], {
    ...vars(dbB),
    SHROUD_GAME_CONTRACT: otherContract,
  });
  assert.equal(foreign.code, 1, foreign.stderr);
  assert.match(
    foreign.stderr,
    new RegExp(`games of game contract ${PROD_CONTRACT}, not this dealer's ${otherContract}`, 'i'),
  );

  // 4. A fresh dealer on the restored database serves the game: the old turn, and a new one.
  const b = await start(dbB);
  const again1 = await revealVerified(h, chain, b.url, ALICE, turn1);
  assert.equal(again1.status, 200, JSON.stringify(again1.body));
  assert.deepEqual(again1.body, served.body, 'the same tiles as before the backup');
  const blinding2 = postTurn(h, chain, gameId, BOB, 1, leaves);
  const bob = await revealVerified(h, chain, b.url, BOB, { gameId, turn: 1, leaves, blinding: blinding2 });
  assert.equal(bob.status, 200, JSON.stringify(bob.body));
  assert.equal(bob.tiles!.length, leaves.length);
  assert.equal((await chain.mapRoot(gameId))!.root, posted.root, 'no second root');
  assert.equal(b.lines.filter((l) => l.step === 'root-posted').length, 0, 'not dealt again');

  // 5. No restore into a database a dealer is using, even with --force.
  const inUse = await runDealerCli(['restore', '--from', out, '--force'], vars(dbB));
  assert.equal(inUse.code, 1, inUse.stderr);
  assert.match(inUse.stderr, /in use|other session/);
  assert.equal(await b.stop(), 0);
}

describe('backup and restore: SQLite', () => {
  it('backs up a running dealer, restores into a fresh database, and a fresh dealer serves verified tiles', async (t) => {
    let n = 0;
    await backupRestoreScenario(t, 'sqlite', async () => ({ path: join(tmp.dir, `db-${++n}.sqlite`) }));
  });

  it("of a stopped dealer's database: no -wal/-shm left beside it; restored as root, the file goes to the folder's owner", async (t) => {
    const { keys } = generateDealerKeys();
    const dir = join(tmp.dir, 'stopped');
    mkdirSync(dir);
    const db = join(dir, 'dealer.sqlite');
    const store = new SqliteStore(db, secretBox(hexKey(keys.masterKey)));
    await store.addGame({ gameId: 7n, contract: PROD_CONTRACT, ruleset: 'duel', players: [ALICE.address] });
    await store.putSecretsOnce(7n, { shares: [1n, 2n], seed: 3n, masterSecret: 4n });
    await store.close();
    const vars = prodVars({ chainFile: join(tmp.dir, 'none.json'), keys, db: { path: db } });
    const out = join(tmp.dir, 'stopped.backup');
    const r = await runDealerCli(['backup', '--out', out], vars);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(dir), ['dealer.sqlite'], 'the backup left nothing beside the database');
    if (process.getuid?.() !== 0) return t.skip('not root: the ownership hand-over is for root only');
    const target = join(tmp.dir, 'owned-by-service');
    mkdirSync(target);
    chownSync(target, 4321, 4321);
    const restored = join(target, 'dealer.sqlite');
    const back = await runDealerCli(['restore', '--from', out], { ...vars, SHROUD_DB: restored });
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /1 game\(s\), 1 with secrets opened/);
    assert.equal(statSync(restored).uid, 4321);
    assert.deepEqual(readdirSync(target), ['dealer.sqlite']);
  });

  it('refuses a backup of a missing database, and a restore from a file that is no backup', async () => {
    const { keys } = generateDealerKeys();
    const vars = prodVars({
      chainFile: join(tmp.dir, 'none.json'),
      keys,
      db: { path: join(tmp.dir, 'no.sqlite') },
    });
    const r = await runDealerCli(['backup', '--out', join(tmp.dir, 'x.backup')], vars);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^dealer backup: db\.path .*no\.sqlite: no such database\n$/);
    const bad = await runDealerCli(['restore', '--from', new URL(import.meta.url).pathname], vars);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /neither a SQLite database nor a pg_dump custom archive/);
    const missing = await runDealerCli(['restore'], vars);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^dealer restore: --from is required/);
  });
});

describe('backup and restore: PostgreSQL', { skip: postgresSkip() }, () => {
  let server: PgServer | undefined;
  before(async () => {
    server = await startPostgres();
  });
  after(() => server?.destroy());

  it('backs up a running dealer (pg_dump), restores into a fresh database (pg_restore), and a fresh dealer serves verified tiles', async (t) => {
    await backupRestoreScenario(t, 'postgres', async () => ({ url: await server!.createDatabase() }));
  });

  it('says how to get pg_dump when it is not on PATH, and never prints the password', async () => {
    const { keys } = generateDealerKeys();
    const url = await server!.createDatabase();
    const vars = prodVars({ chainFile: join(tmp.dir, 'none.json'), keys, db: { url } });
    const r = await runDealerCli(['backup', '--out', join(tmp.dir, 'pg.backup')], vars, {
      env: { PATH: dirname(process.execPath), ...vars },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^dealer backup: pg_dump not found on PATH: install the PostgreSQL client tools/);
    assert.ok(!r.stderr.includes(server!.password));
    const wrong = await runDealerCli(['backup', '--out', join(tmp.dir, 'pg2.backup')], {
      ...vars,
      SHROUD_DB_URL: server!.url('shroud_missing_db'),
    });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /cannot connect to PostgreSQL at 127\.0\.0\.1:\d+\/shroud_missing_db/);
    assert.ok(!wrong.stderr.includes(server!.password), 'the password is never printed');
  });

  it("never puts the password on pg_dump's command line (other users read it in ps), even given as ?password=", async () => {
    const { keys } = generateDealerKeys();
    const db = await server!.createDatabase();
    const u = new URL(db);
    u.searchParams.set('password', decodeURIComponent(u.password));
    u.password = '';
    const bin = join(tmp.dir, 'fake-pg-bin');
    mkdirSync(bin, { recursive: true });
    const argsFile = join(tmp.dir, 'pg_dump.args');
    writeFileSync(join(bin, 'pg_dump'), `#!/bin/sh\necho "$@" > '${argsFile}'\nexit 1\n`, { mode: 0o755 });
    const vars = prodVars({ chainFile: join(tmp.dir, 'none.json'), keys, db: { url: u.toString() } });
    const r = await runDealerCli(['backup', '--out', join(tmp.dir, 'pg3.backup')], vars, {
      env: { PATH: `${bin}:${dirname(process.execPath)}`, ...vars },
    });
    assert.equal(r.code, 1, r.stderr);
    const argv = readFileSync(argsFile, 'utf8');
    assert.match(argv, /--dbname=/);
    assert.ok(!argv.includes(server!.password), `pg_dump's arguments hold no password: ${argv}`);
    assert.ok(!r.stderr.includes(server!.password), 'nor does the error');
  });
});
