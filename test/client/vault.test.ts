/**
 * The player-state vault: the key comes from a deterministic wallet signature (a non-deterministic wallet is
 * refused), a blob opens only for its chain, contract, game and seat (each mismatch a clear error), tampering
 * fails authentication, the snapshot decoder names every bad field, and the file store keeps mode 0600, replaces
 * atomically and refuses a file others can read.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Wallet } from 'ethers';
import { FileStateStore, StateFileError } from '../../client/node/file-store.ts';
import { decodeSnapshot, encodeSnapshot, type PlayerSnapshot } from '../../client/sdk/snapshot.ts';
import { MemoryStateStore } from '../../client/sdk/store.ts';
import { verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import { PlayerVault, VaultError, VaultKey, vaultKeyMessage } from '../../client/sdk/vault.ts';
import { InputError } from '../../core/errors.ts';
import { rulesetHash } from '../../core/ruleset/hash.ts';
import { dealtMap, leafOf, serve } from './fixture.ts';
import { simulate, spawnUnits } from './sim.ts';

const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const wallet = new Wallet(`0x${'42'.repeat(32)}`);
const m = await dealtMap('tiny', 4242n, 99n);
const r = m.ruleset;

/** A realistic snapshot: a simulated player's model and tiles, a share, a state and a pending turn. */
function sampleSnapshot(): PlayerSnapshot {
  const { player } = simulate(m, 4, 3n);
  const served = [...player.revealedTiles().values()];
  const extra = verifyRevealedTiles(
    m.h,
    m.board,
    m.root,
    [leafOf(m, { col: 0, row: 0 })],
    [serve(m, leafOf(m, { col: 0, row: 0 }))],
  );
  return {
    version: 2,
    chainId: 31337n,
    contract: CONTRACT,
    gameId: 123456789n,
    player: wallet.address.toLowerCase(),
    seat: 0,
    rulesetHash: rulesetHash(r).toLowerCase(),
    joinedBlock: 10,
    syncedBlock: 42,
    share: 987654321n,
    state: { slots: player.units, blinding: 5n, revealCommit: 6n },
    pending: [
      {
        kind: 'turn',
        turn: 7,
        from: 11n,
        newCommit: 12n,
        slots: spawnUnits(m),
        blinding: 13n,
        reveal: { turn: 7, leaves: [1, 2, 3], blinding: 14n, revealCommit: 15n, stateCommit: 17n },
      },
    ],
    unserved: { turn: 5, leaves: [4, 5], blinding: 16n, revealCommit: 18n, stateCommit: 19n },
    served: [...served, ...extra, served[0]!],
    model: player.snapshot(),
    attacked: { turn: 7, slots: [1] },
    droppedReveals: 2,
  };
}

describe('vault key', () => {
  it('is derived from a deterministic signature over a fixed text naming chain, contract and account', async () => {
    const msg = vaultKeyMessage({ chainId: 31337n, contract: CONTRACT }, wallet.address);
    assert.match(msg, /^Shroud player state key v1\n/);
    assert.match(
      msg,
      /chain: 31337\ncontract: 0x5fbdb2315678afecb367f032d93f642f64180aa3\naccount: 0x[0-9a-f]{40}$/,
    );
    const a = await VaultKey.derive(wallet, { chainId: 31337n, contract: CONTRACT });
    const b = await VaultKey.derive(wallet, {
      chainId: 31337n,
      contract: CONTRACT.toUpperCase().replace('0X', '0x'),
    });
    // A reload derives the same key: what one sealed, the other opens.
    const blob = a.seal(7n, new TextEncoder().encode('hidden'));
    assert.equal(new TextDecoder().decode(b.open(7n, blob)), 'hidden');
  });

  it('refuses a wallet whose signatures are not deterministic, and one signing for another account', async () => {
    let n = 0;
    const flaky = {
      getAddress: async () => wallet.address,
      signMessage: async (s: string) => (n++ ? wallet.signMessage(`${s}!`) : wallet.signMessage(s)),
    };
    await assert.rejects(
      VaultKey.derive(flaky, { chainId: 1n, contract: CONTRACT }),
      (e) => e instanceof VaultError && e.reason === 'signer' && /deterministic/.test(e.message),
    );
    const other = new Wallet(`0x${'43'.repeat(32)}`);
    const liar = { getAddress: async () => wallet.address, signMessage: (s: string) => other.signMessage(s) };
    await assert.rejects(
      VaultKey.derive(liar, { chainId: 1n, contract: CONTRACT }),
      (e) => e instanceof VaultError && e.reason === 'signer' && /not 0x/.test(e.message),
    );
  });
});

describe('sealed blobs', () => {
  const scope = { chainId: 31337n, contract: CONTRACT };
  const plain = new TextEncoder().encode('{"share":"0x1"}');

  it('open only for their chain, contract, game and seat; each mismatch names whose the blob is', async () => {
    const key = await VaultKey.derive(wallet, scope);
    const blob = key.seal(7n, plain);
    assert.deepEqual(key.open(7n, blob), plain);
    assert.notEqual(key.seal(7n, plain), blob, 'a fresh nonce each time');
    const refusals: [VaultKey, bigint, RegExp][] = [
      [key, 8n, /belongs to game 0x7, not 0x8/],
      [await VaultKey.derive(wallet, { ...scope, chainId: 1n }), 7n, /belongs to chain 31337, not 1/],
      [
        await VaultKey.derive(wallet, { ...scope, contract: `0x${'11'.repeat(20)}` }),
        7n,
        /belongs to game contract 0x5fbd/,
      ],
      [await VaultKey.derive(new Wallet(`0x${'43'.repeat(32)}`), scope), 7n, /belongs to seat address 0x/],
    ];
    for (const [k, game, re] of refusals)
      assert.throws(
        () => k.open(game, blob),
        (e) => e instanceof VaultError && e.reason === 'binding' && re.test(e.message),
      );
  });

  it('a blob whose header was edited to match, or whose ciphertext was touched, fails authentication', async () => {
    const key = await VaultKey.derive(wallet, scope);
    const doc = JSON.parse(key.seal(7n, plain));
    // Copied from game 7, relabelled as game 8: the associated data still says 7.
    const relabelled = JSON.stringify({ ...doc, gameId: '0x8' });
    assert.throws(
      () => key.open(8n, relabelled),
      (e) => e instanceof VaultError && e.reason === 'auth',
    );
    const bytes = Buffer.from(doc.sealed, 'base64');
    bytes[3]! ^= 1;
    const flipped = JSON.stringify({ ...doc, sealed: bytes.toString('base64') });
    assert.throws(
      () => key.open(7n, flipped),
      (e) => e instanceof VaultError && e.reason === 'auth',
    );
    // Another wallet's key under the same labels.
    const thief = await VaultKey.derive(new Wallet(`0x${'44'.repeat(32)}`), scope);
    const forged = JSON.stringify({ ...JSON.parse(thief.seal(7n, plain)), player: doc.player });
    assert.throws(
      () => key.open(7n, forged),
      (e) => e instanceof VaultError && e.reason === 'auth',
    );
    for (const junk of [
      '',
      'null',
      '{"shroud":"x"}',
      JSON.stringify({ ...doc, v: 2 }),
      JSON.stringify({ ...doc, nonce: '!!' }),
    ])
      assert.throws(
        () => key.open(7n, junk),
        (e) => e instanceof VaultError && e.reason === 'format',
        junk,
      );
  });
});

describe('PlayerSnapshot v2', () => {
  it('round-trips through JSON; tiles are stored once', () => {
    const s = sampleSnapshot();
    const text = encodeSnapshot(s);
    const back = decodeSnapshot(text, r);
    assert.equal(encodeSnapshot(back), text);
    assert.deepEqual(back.served, s.served);
    assert.equal(JSON.parse(text).tiles.length, s.served.length - 1, 'the repeated tile is stored once');
  });

  it('names every bad field', () => {
    const doc = () => JSON.parse(encodeSnapshot(sampleSnapshot()));
    const cases: [string, (d: Record<string, any>) => void][] = [
      ['snapshot.version', (d) => (d.version = 1)],
      ['snapshot.rulesetHash', (d) => (d.rulesetHash = `0x${'00'.repeat(32)}`)],
      [
        'snapshot.share',
        (d) => (d.share = '0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001'),
      ],
      ['snapshot.state.blinding', (d) => (d.state.blinding = 5)],
      ['snapshot.state.revealCommit', (d) => delete d.state.revealCommit],
      ['snapshot.pending.0.reveal.revealCommit', (d) => (d.pending[0].reveal.revealCommit = 'x')],
      ['snapshot.pending.0.reveal.stateCommit', (d) => delete d.pending[0].reveal.stateCommit],
      ['snapshot.state.slots.0.hp', (d) => (d.state.slots[0][1] = 99)],
      ['snapshot.pending.0.kind', (d) => (d.pending[0].kind = 'move')],
      ['snapshot.pending.0.reveal.leaves.0', (d) => (d.pending[0].reveal.leaves[0] = 1e6)],
      ['snapshot.unserved.turn', (d) => (d.unserved.turn = -1)],
      ['snapshot.unserved.stateCommit', (d) => delete d.unserved.stateCommit],
      ['snapshot.tiles.0.path.0', (d) => (d.tiles[0].path[0] = 'zz')],
      ['snapshot.served.0', (d) => (d.served[0] = 10_000)],
      ['snapshot.model.fog.tiles', (d) => (d.model.fog.tiles = '3')],
      ['snapshot.model.lost.0', (d) => (d.model.lost = ['nobody'])],
      ['snapshot.attacked.slots.0', (d) => (d.attacked.slots = [99])],
      ['snapshot.player', (d) => (d.player = 'me')],
    ];
    for (const [field, edit] of cases) {
      const d = doc();
      edit(d);
      assert.throws(
        () => decodeSnapshot(JSON.stringify(d), r),
        (e) => e instanceof InputError && e.field.startsWith(field),
        field,
      );
    }
    assert.throws(() => decodeSnapshot('{', r), /snapshot: not JSON/);
  });
});

describe('PlayerVault', () => {
  it('saves, loads, exports and restores; a restore over a different state is refused unless replacing', async () => {
    const store = new MemoryStateStore();
    const open = (gameId: bigint) =>
      PlayerVault.open({ signer: wallet, chainId: 31337n, contract: CONTRACT, gameId, store });
    const vault = await open(123456789n);
    assert.equal(await vault.load(r), null);
    const s = sampleSnapshot();
    await vault.save(s);
    assert.equal(encodeSnapshot((await vault.load(r))!), encodeSnapshot(s));
    const blob = (await vault.exportBlob())!;
    // Restored on another device (an empty store): the same snapshot.
    const elsewhere = new PlayerVault(vault.key, 123456789n, new MemoryStateStore());
    assert.equal(encodeSnapshot(await elsewhere.restoreBlob(blob, r)), encodeSnapshot(s));
    // Over a different state: refused, the old one kept.
    await vault.save({ ...s, syncedBlock: 43 });
    await assert.rejects(vault.restoreBlob(blob, r), (e) => e instanceof VaultError && e.reason === 'exists');
    assert.equal((await vault.load(r))!.syncedBlock, 43);
    await vault.restoreBlob(blob, r, { replace: true });
    assert.equal((await vault.load(r))!.syncedBlock, 42);
    // Another game's vault refuses the blob, and never saves a snapshot of another game.
    const other = await open(5n);
    await assert.rejects(
      other.restoreBlob(blob, r),
      (e) => e instanceof VaultError && e.reason === 'binding',
    );
    await assert.rejects(other.save(s), (e) => e instanceof VaultError && e.reason === 'binding');
    assert.equal(await other.load(r), null);
  });
});

describe('FileStateStore', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shroud-state-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes mode 0600 in a 0700 folder, atomically, and reads it back', async () => {
    const file = path.join(dir, 'deep', 'seat.json');
    const store = FileStateStore.file(file);
    assert.equal(await store.get('x'), null);
    await store.put('x', new TextEncoder().encode('one'));
    await store.put('x', new TextEncoder().encode('two'));
    assert.equal(new TextDecoder().decode((await store.get('x'))!), 'two');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(path.dirname(file)), ['seat.json'], 'no temporary file left');
    await store.delete('x');
    assert.equal(await store.get('x'), null);
  });

  it('refuses a file group or others can read, and a symbolic link, naming the file', async () => {
    const file = path.join(dir, 'loose.json');
    writeFileSync(file, 'x', { mode: 0o644 });
    chmodSync(file, 0o644);
    await assert.rejects(
      FileStateStore.file(file).get('x'),
      (e) => e instanceof StateFileError && e.message.includes(file) && /mode 0644/.test(e.message),
    );
    chmodSync(file, 0o600);
    assert.equal(new TextDecoder().decode((await FileStateStore.file(file).get('x'))!), 'x');
    const link = path.join(dir, 'link.json');
    symlinkSync(file, link);
    await assert.rejects(
      FileStateStore.file(link).get('x'),
      (e) => e instanceof StateFileError && /symbolic link/.test(e.message),
    );
  });
});
